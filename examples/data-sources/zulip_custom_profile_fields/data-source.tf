# Every custom profile field of the organization, in profile order.
data "zulip_custom_profile_fields" "all" {}

# A name => id map, for profile_data maps that Zulip keys by field id.
locals {
  profile_field_ids = { for f in data.zulip_custom_profile_fields.all.fields : f.name => f.id }
}

# One field by name, with its dropdown options.
data "zulip_custom_profile_fields" "team" {
  name = "Team"
}

locals {
  team = one(data.zulip_custom_profile_fields.team.fields)
  # Option text => key: a user's value of a dropdown field is the option's key.
  team_option_keys = { for o in local.team.options : o.text => o.key }
}

output "phone_field_id" {
  value = local.profile_field_ids["Phone number"]
}

output "design_team_key" {
  value = local.team_option_keys["Design"]
}

output "field_types" {
  value = { for f in data.zulip_custom_profile_fields.all.fields : f.name => f.type }
}
