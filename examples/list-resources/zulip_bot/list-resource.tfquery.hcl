# Every active bot that has an owner, with its attributes, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_bot" "all" {
  provider         = zulip
  include_resource = true
}
