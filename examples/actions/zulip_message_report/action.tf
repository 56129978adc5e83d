# Report a message in #random to the organization's moderators, each time the
# action is invoked: `terraform apply -invoke=action.zulip_message_report.spam`,
# or, as here, when the incident record below is created.
action "zulip_message_report" "spam" {
  config {
    message_id  = 10
    report_type = "spam"
    description = "Advertising in #random, third time this week."
  }
}

resource "terraform_data" "incident" {
  input = "INC-1042"

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.zulip_message_report.spam]
    }
  }
}
