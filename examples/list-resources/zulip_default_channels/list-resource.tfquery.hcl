# The organization's default channels (one result), with their ids, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_default_channels" "this" {
  provider         = zulip
  include_resource = true
}
