# The demo realm: what `make demo` applies against the bundled reference server.
#
# The default provider acts as the organization owner (credentials from the
# ZULIP_* environment variables). Creating users needs an administrator who
# holds Zulip's can_create_users permission, so a second, aliased provider acts
# as Aaron, with an API key fetched from the development server for this run
# only: it never reaches the plan or the state.
#
# Every resource type appears here except zulip_own_account_deactivation, which
# would lock the demo out of the very account it runs as.

terraform {
  required_version = ">= 1.11.0" # ephemeral resources and write-only arguments
  required_providers {
    zulip = {
      source = "zulip-terraform/zulip"
    }
  }
}

provider "zulip" {}

ephemeral "zulip_dev_api_key" "aaron" {
  username = "aaron@zulip.example.com"
}

provider "zulip" {
  alias   = "hr"
  email   = ephemeral.zulip_dev_api_key.aaron.email
  api_key = ephemeral.zulip_dev_api_key.aaron.api_key
}

variable "new_hire_password" {
  description = "Initial password of the new hire's account (write-only: never stored)."
  type        = string
  sensitive   = true
  ephemeral   = true
  default     = "correct-horse-battery-staple"
}

# --- What already exists ----------------------------------------------------

data "zulip_channels" "general" {
  name = "general"
}

data "zulip_custom_profile_fields" "all" {}

data "zulip_user_groups" "all" {}

data "zulip_user" "mentor" {
  email = "mei@zulip.example.com"
}

locals {
  general_id = one(data.zulip_channels.general.channels).id
  field_ids  = { for f in data.zulip_custom_profile_fields.all.fields : f.name => f.id }
}

data "zulip_topics" "general" {
  channel_id = local.general_id
}

data "zulip_user_status" "mentor" {
  user_id = data.zulip_user.mentor.user_id
}

# --- Organization settings ----------------------------------------------------

resource "zulip_linkifier" "issues" {
  pattern          = "ZT-(?P<id>[0-9]+)"
  url_template     = "https://tracker.example.com/browse/ZT-{id}"
  example_input    = "ZT-1234"
  reverse_template = "ZT-{id}"
}

resource "zulip_linkifier" "commits" {
  pattern      = "(?P<repo>[a-z-]+)@(?P<sha>[0-9a-f]{7,40})"
  url_template = "https://git.example.com/{repo}/commit/{sha}"
}

resource "zulip_allowed_domain" "company" {
  domain           = "example.com"
  allow_subdomains = true
}

# --- People ---------------------------------------------------------------------

resource "zulip_user" "new_hire" {
  provider  = zulip.hr
  email     = "jane.doe@example.com"
  full_name = "Jane Doe"
  password  = var.new_hire_password
  role      = "member"

  profile_data = {
    (tostring(local.field_ids["Pronouns"])) = { value = "she/her" }
    (tostring(local.field_ids["Mentor"]))   = { user_ids = [data.zulip_user.mentor.user_id] }
  }

  # The domain must be allowed before the account can be created.
  depends_on = [zulip_allowed_domain.company]
}

# --- Teams and channels ------------------------------------------------------------

resource "zulip_user_group" "platform" {
  name        = "platform"
  description = "The platform team"

  can_mention_group = { groups = ["role:members"] }
  can_manage_group  = { groups = ["role:administrators"], users = [data.zulip_user.mentor.user_id] }
}

resource "zulip_user_group_members" "platform" {
  group_id = zulip_user_group.platform.id
  members  = [data.zulip_user.mentor.user_id, zulip_user.new_hire.id]
}

resource "zulip_channel" "platform" {
  name        = "platform"
  description = "Platform engineering"

  # Everyone reads; the team posts.
  can_send_message_group = { groups = [zulip_user_group.platform.name, "role:administrators"] }
}

resource "zulip_channel_subscribers" "platform" {
  channel_id  = zulip_channel.platform.id
  subscribers = zulip_user_group_members.platform.members
}

# --- The owner's own account ------------------------------------------------------

resource "zulip_profile_data" "me" {
  field {
    name  = "Pronouns"
    value = "she/her"
  }
  field {
    name  = "Website"
    value = "https://olivia.example.com"
  }
}

resource "zulip_saved_snippet" "welcome" {
  title   = "Welcome a new hire"
  content = "Welcome aboard! Your mentor is @**${data.zulip_user.mentor.full_name}**; see ZT-1 for your first week."
}

resource "zulip_user_topic" "follow_releases" {
  channel_id        = local.general_id
  topic             = "releases"
  visibility_policy = "followed"
}

resource "zulip_message_flags" "star_welcome" {
  message_ids = [1]
  flag        = "starred"
}

resource "zulip_apns_device_token" "phone" {
  token  = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00"
  app_id = "org.zulip.Zulip"
}

# --- One-off operations (invocation resources) -------------------------------------

resource "zulip_push_test_notification" "phone" {
  token = zulip_apns_device_token.phone.token
}

resource "zulip_message_report" "spam" {
  message_id  = 10
  report_type = "spam"
  description = "Reported by the demo."
}

resource "zulip_sms_question" "confirm" {
  to        = "+46700000000"
  message   = "Zulip: ${zulip_allowed_domain.company.domain} may now join. Reply YES to confirm."
  reply_url = "https://ops.example.com/hooks/zulip-confirmation"
  token     = "allowed-domain/${zulip_allowed_domain.company.domain}"
  lifetime  = 4
}

# --- Outputs ---------------------------------------------------------------------

output "issue_linkifier_id" {
  value = zulip_linkifier.issues.id
}

# What the server reports of an account besides what the configuration sets
# comes from the data source.
data "zulip_user" "new_hire" {
  user_id = zulip_user.new_hire.id
}

output "new_hire" {
  value = {
    id          = zulip_user.new_hire.id
    email       = zulip_user.new_hire.email
    role        = zulip_user.new_hire.role
    date_joined = data.zulip_user.new_hire.date_joined
  }
}

output "general_topics" {
  value = data.zulip_topics.general.topics[*].name
}

output "platform_channel" {
  value = { id = zulip_channel.platform.id, can_send = zulip_channel.platform.can_send_message_group.groups }
}

# The groups that existed before (the data source is read before the apply
# creates the platform group, so the output leaves it out to stay stable).
output "groups" {
  value = sort([for g in data.zulip_user_groups.all.user_groups : g.name if g.name != zulip_user_group.platform.name])
}

output "mentor_status" {
  value = data.zulip_user_status.mentor
}

output "sms_question" {
  value = {
    id      = zulip_sms_question.confirm.id
    status  = zulip_sms_question.confirm.status
    from    = zulip_sms_question.confirm.from
    expires = zulip_sms_question.confirm.expires
  }
}
