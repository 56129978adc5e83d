# Push settings to the existing members of the backend team (zulip_realm_user_defaults
# only reaches new users), each time the action is invoked:
# `terraform apply -invoke=action.zulip_apply_user_settings.backend`, or, as here,
# when the rollout record below is created. Members who chose a setting
# themselves keep their choice.
data "zulip_user_group" "backend" {
  name = "backend"
}

action "zulip_apply_user_settings" "backend" {
  config {
    group                  = data.zulip_user_group.backend.id
    skip_if_already_edited = true
    settings = {
      color_scheme  = "dark"
      web_home_view = "recent"
      enter_sends   = true
    }
  }
}

resource "terraform_data" "rollout" {
  input = "backend-settings-2026"

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.zulip_apply_user_settings.backend]
    }
  }
}
