# An incoming webhook bot for Grafana whose key the state keeps: whoever can
# read the state can post as this bot.
resource "zulip_bot" "grafana" {
  full_name             = "Grafana"
  short_name            = "grafana"
  bot_type              = "incoming_webhook"
  keep_api_key_in_state = true
}

data "zulip_server" "this" {}

# The URL to give Grafana's webhook contact point (for example the grafana
# provider's grafana_contact_point): alerts go to the topic "Grafana" of the
# channel "ops alerts".
output "grafana_webhook_url" {
  value = provider::zulip::webhook_url(data.zulip_server.this.realm_url, zulip_bot.grafana.api_key, "grafana", {
    channel = "ops alerts"
    topic   = "Grafana"
  })
  sensitive = true
}
