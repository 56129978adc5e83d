# A channel folder is imported by its name or by its numeric id (GET /api/v1/channel_folders lists them).
terraform import zulip_channel_folder.engineering Engineering
