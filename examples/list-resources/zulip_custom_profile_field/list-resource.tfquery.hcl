# Every custom profile field of the organization, with its attributes, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_custom_profile_field" "all" {
  provider         = zulip
  include_resource = true
}
