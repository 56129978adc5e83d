# Every user group (system groups are not listed), with its settings, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_user_group" "all" {
  provider         = zulip
  include_resource = true
}
