# The organization's defaults for new users (one result), with their values, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_realm_user_defaults" "this" {
  provider         = zulip
  include_resource = true
}
