terraform {
  required_version = ">= 1.5.7"
  required_providers {
    zulip = {
      source = "zulip-terraform/zulip"
    }
  }
}

# Credentials can also come from ZULIP_SITE, ZULIP_EMAIL and ZULIP_API_KEY,
# or from a zuliprc file (~/.zuliprc, or the file named by ZULIP_CONFIG).
provider "zulip" {
  url     = "https://chat.example.com"
  email   = "terraform-bot@chat.example.com"
  api_key = var.zulip_api_key

  # Optional: how long to keep retrying through rate limits and outages.
  max_retries    = 5
  max_retry_wait = "2m"
}

variable "zulip_api_key" {
  type      = string
  sensitive = true
}
