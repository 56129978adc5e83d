# The staging organization. Its URL and Terraform's credentials come from the
# environment (ZULIP_SITE, ZULIP_EMAIL, ZULIP_API_KEY): in the workflow, from
# the "staging" environment's variables and secrets, so that one configuration
# serves both organizations and no key is ever in the repository.

terraform {
  required_version = ">= 1.5.7"
  required_providers {
    zulip = {
      source  = "zulip-terraform/zulip"
      version = "~> 0.1"
    }
  }

  # The state lives outside the runner; the workflow passes bucket, key and
  # region with -backend-config (see .github/workflows/zulip.yml).
  backend "s3" {}
}

provider "zulip" {}

module "organization" {
  source = "../../organization"

  issue_tracker = "https://tracker.staging.example.com"
  playground    = "https://play.example.com"
  channels = {
    releases    = "Release announcements"
    engineering = "Engineering discussions"
    sandbox     = "Try integrations here before production"
  }
}
