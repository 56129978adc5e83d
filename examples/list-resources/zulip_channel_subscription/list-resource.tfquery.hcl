# The channels user 11 (Mei) is subscribed to, as one zulip_channel_subscription
# each, for `terraform query -generate-config-out=generated.tf`.
list "zulip_channel_subscription" "mei" {
  provider         = zulip
  include_resource = true
  config {
    user_id = 11
  }
}
