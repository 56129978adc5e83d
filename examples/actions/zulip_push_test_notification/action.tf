# Check that notifications reach the account's end-to-end encrypted phone each
# time this runs: `terraform apply -invoke=action.zulip_push_test_notification.phone`,
# or, as here, after the server upgrade is recorded.
action "zulip_push_test_notification" "phone" {
  config {
    device_id = 2
  }
}

resource "terraform_data" "server_upgrade" {
  input = "11.0"

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.zulip_push_test_notification.phone]
    }
  }
}
