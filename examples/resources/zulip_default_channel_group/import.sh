# A default channel group is imported by its exact name or by its numeric id.
terraform import zulip_default_channel_group.engineering Engineering
