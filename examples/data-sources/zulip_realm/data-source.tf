data "zulip_realm" "this" {}

# Where new channels are announced (-1: nowhere).
output "announcements_channel" {
  value = data.zulip_realm.this.new_stream_announcements_stream_id
}

# Who may create public channels: { groups = [names], users = [ids] }.
output "channel_creators" {
  value = data.zulip_realm.this.can_create_public_channel_group
}
