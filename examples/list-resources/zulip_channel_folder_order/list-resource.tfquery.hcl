# The order of the organization's channel folders (one result), for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_channel_folder_order" "this" {
  provider         = zulip
  include_resource = true
}
