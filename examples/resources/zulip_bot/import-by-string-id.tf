import {
  to = zulip_bot.alerts
  id = "alerts-bot@zulip.example.com"
}
