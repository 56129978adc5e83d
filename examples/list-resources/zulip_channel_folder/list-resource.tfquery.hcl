# Every channel folder not archived, with its attributes, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_channel_folder" "all" {
  provider         = zulip
  include_resource = true
}
