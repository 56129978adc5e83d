# The order of the organization's linkifiers (one result), for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_linkifier_order" "this" {
  provider         = zulip
  include_resource = true
}
