# One channel, looked up by name (case-insensitively, as Zulip compares names).
data "zulip_channels" "general" {
  name = "general"
}

# Every channel the account may see, archived ones included. With an
# administrator's credentials include_all returns private channels too.
data "zulip_channels" "all" {
  include_all      = true
  exclude_archived = false
}

output "general_channel_id" {
  value = one(data.zulip_channels.general.channels).id
}

output "private_channels" {
  value = sort([for c in data.zulip_channels.all.channels : c.name if c.invite_only])
}

# Permissions read as { groups = [names], users = [ids] }.
output "general_posting_groups" {
  value = one(data.zulip_channels.general.channels).can_send_message_group.groups
}
