# Deactivate the account of the "leaving" provider alias when the offboarding
# record is created. Irreversible through this provider.
action "zulip_own_account_deactivation" "leaving" {
  provider = zulip.leaving

  config {
    confirm_email = "mark@zulip.example.com"
  }
}

resource "terraform_data" "offboarding" {
  input = "mark leaves"

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.zulip_own_account_deactivation.leaving]
    }
  }
}
