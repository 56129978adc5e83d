# The order of the organization's custom profile fields (one result), for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_custom_profile_field_order" "this" {
  provider         = zulip
  include_resource = true
}
