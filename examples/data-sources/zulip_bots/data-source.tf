# Every active bot, with its owner: e.g. to find bots whose owner left.
data "zulip_bots" "all" {}

output "bot_owners" {
  value = { for b in data.zulip_bots.all.bots : b.email => b.owner_id }
}
