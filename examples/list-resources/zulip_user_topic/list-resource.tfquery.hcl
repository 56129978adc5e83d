# The muted, unmuted and followed topics of the provider's own account, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_user_topic" "mine" {
  provider         = zulip
  include_resource = true
}
