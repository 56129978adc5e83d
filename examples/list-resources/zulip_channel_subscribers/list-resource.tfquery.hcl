# The subscribers of every channel (one result per channel not archived), for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_channel_subscribers" "all" {
  provider         = zulip
  include_resource = true
}
