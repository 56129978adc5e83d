variable "iphone_apns_token" {
  # Hexadecimal, as the app received it (usually 64 digits). Zulip stores the
  # token exactly as given, so keep the spelling the app registers with.
  description = "The APNs device token the Zulip iOS app received on the phone."
  type        = string
  sensitive   = true
}

# Register an iPhone for push notifications of the provider's account.
# Destroying the resource unregisters the token.
resource "zulip_apns_device_token" "iphone" {
  token  = var.iphone_apns_token
  app_id = "org.zulip.Zulip"
}
