# Send a test notification to every legacy (APNs/FCM) device of the account
# the provider is configured with. Changing the trigger sends another one.
resource "zulip_push_test_notification" "all_devices" {
  triggers = {
    reason = "after the server upgrade to 11.0"
  }
}

# Send one to a single end-to-end encrypted push device, by its id.
resource "zulip_push_test_notification" "phone" {
  device_id = 2
}
