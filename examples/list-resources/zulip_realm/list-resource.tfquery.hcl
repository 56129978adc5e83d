# The organization's settings (one result), with their values, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_realm" "this" {
  provider         = zulip
  include_resource = true
}
