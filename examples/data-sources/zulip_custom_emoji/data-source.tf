# The custom emoji by name: their ids (a status's or reaction's emoji_code)
# and images, without looking them up in the web app.
data "zulip_custom_emoji" "all" {}

locals {
  emoji = { for e in data.zulip_custom_emoji.all.emoji : e.name => e }
}

output "green_tick_id" {
  value = data.zulip_custom_emoji.all.by_name["green_tick"]
}

output "green_tick_image" {
  value = local.emoji["green_tick"].source_url
}
