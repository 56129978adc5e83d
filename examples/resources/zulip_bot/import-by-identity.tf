# Terraform 1.12+: a bot is imported by identity with its e-mail address.
import {
  to = zulip_bot.alerts
  identity = {
    email = "alerts-bot@zulip.example.com"
  }
}
