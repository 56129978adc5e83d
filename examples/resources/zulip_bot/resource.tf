# A bot for the CI pipeline: it posts build results to #general. Its API key
# never enters the state; the ephemeral zulip_bot_api_key reads it.
resource "zulip_bot" "ci" {
  full_name               = "CI"
  short_name              = "ci" # ci-bot@<organization's domain>
  default_sending_channel = "general"

  # Change to rotate the key (the old one stops working).
  key_rotation = "2026-11"
}

# An incoming webhook for monitoring alerts: it can only send messages. The
# state keeps its key (sensitive, but in clear text in the state: whoever can
# read the state can post as this bot), for the monitoring tool's webhook URL
# (provider::zulip::webhook_url).
resource "zulip_bot" "alerts" {
  full_name             = "Monitoring"
  short_name            = "monitoring"
  bot_type              = "incoming_webhook"
  keep_api_key_in_state = true
}

# An outgoing webhook: Zulip calls the URL when the bot is mentioned.
resource "zulip_bot" "helpdesk" {
  full_name            = "Helpdesk"
  short_name           = "helpdesk"
  bot_type             = "outgoing_webhook"
  outgoing_webhook_url = "https://helpdesk.example.com/zulip"
}
