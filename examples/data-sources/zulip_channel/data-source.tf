# One channel by name (any case) or id, archived channels included.
data "zulip_channel" "general" {
  name = "general"
}

output "general_channel_id" {
  value = data.zulip_channel.general.id
}

# Who may post: { groups = [names], users = [ids] }.
output "general_posters" {
  value = data.zulip_channel.general.can_send_message_group
}
