# Every default channel group, with its attributes, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_default_channel_group" "all" {
  provider         = zulip
  include_resource = true
}
