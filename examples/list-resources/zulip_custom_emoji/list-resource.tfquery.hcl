# Every active custom emoji (without its image file), for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_custom_emoji" "all" {
  provider         = zulip
  include_resource = true
}
