# A user topic is imported by "<channel_id>:<topic>". The topic may itself
# contain ":"; only the first one separates.
terraform import zulip_user_topic.releases "1:releases"
