# A bot is imported by its e-mail address or its user id.
terraform import zulip_bot.alerts alerts-bot@zulip.example.com
