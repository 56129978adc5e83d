# Look a user up by id: the most reliable way.
data "zulip_user" "mark" {
  user_id                       = 5
  include_custom_profile_fields = true
}

# Or by e-mail: the real address works when the user's e-mail visibility lets
# the provider's account see it; the API address (user{id}@host) always works.
data "zulip_user" "aaron" {
  email = "aaron@zulip.example.com"
}

# Custom profile fields are keyed by field id; address them by name through
# the zulip_custom_profile_fields data source.
data "zulip_custom_profile_fields" "all" {}

locals {
  profile_field_ids = { for f in data.zulip_custom_profile_fields.all.fields : f.name => tostring(f.id) }
  mark_profile      = data.zulip_user.mark.profile_data
}

output "mark_role" {
  value = data.zulip_user.mark.role_name # "member"
}

output "mark_github" {
  value = local.mark_profile[local.profile_field_ids["GitHub username"]].value
}

# A Users field holds a JSON list of user ids.
output "mark_mentors" {
  value = jsondecode(local.mark_profile[local.profile_field_ids["Mentor"]].value)
}

output "aaron_is_admin" {
  value = data.zulip_user.aaron.is_admin
}
