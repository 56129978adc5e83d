# A channel is imported by its name or by its numeric id (GET /api/v1/streams lists them).
terraform import zulip_channel.general general
