data "zulip_channels" "general" {
  name = "general"
}

data "zulip_topics" "general" {
  channel_id = one(data.zulip_channels.general.channels).id
}

# Topics come newest first.
output "latest_topic" {
  value = data.zulip_topics.general.topics[0].name
}

output "topic_names" {
  value = data.zulip_topics.general.topics[*].name
}
