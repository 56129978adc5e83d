resource "zulip_bot" "reporter" {
  full_name  = "Reporter"
  short_name = "reporter"
}

# The bot's key, read at apply time and never stored.
ephemeral "zulip_bot_api_key" "reporter" {
  bot_id = zulip_bot.reporter.id
}

# A provider that acts as the bot.
provider "zulip" {
  alias   = "reporter"
  url     = var.zulip_url
  email   = ephemeral.zulip_bot_api_key.reporter.email
  api_key = ephemeral.zulip_bot_api_key.reporter.api_key
}

variable "zulip_url" {
  type = string
}

# What the bot sees of its own account.
data "zulip_user" "reporter" {
  provider = zulip.reporter
  user_id  = zulip_bot.reporter.id
}
