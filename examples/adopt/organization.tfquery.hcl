# The whole organization, one list per type: in a directory whose main.tf
# configures the provider,
#
#   terraform query -generate-config-out=organization.tf
#   terraform plan   # only imports
#   terraform apply
#
# A list returns at most 100 results unless `limit` says more. Saved snippets
# and topic preferences are the provider's own account's.

list "zulip_realm" "this" {
  provider         = zulip
  include_resource = true
}

list "zulip_realm_user_defaults" "this" {
  provider         = zulip
  include_resource = true
}

list "zulip_allowed_domain" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_linkifier" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_code_playground" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_custom_profile_field" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_custom_emoji" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_user_group" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_channel_folder" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_channel" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_default_channels" "this" {
  provider         = zulip
  include_resource = true
}

list "zulip_default_channel_group" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_linkifier_order" "this" {
  provider         = zulip
  include_resource = true
}

list "zulip_custom_profile_field_order" "this" {
  provider         = zulip
  include_resource = true
}

list "zulip_channel_folder_order" "this" {
  provider         = zulip
  include_resource = true
}

list "zulip_user_group_members" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_channel_subscribers" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_user" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_bot" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_saved_snippet" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}

list "zulip_user_topic" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}
