# The channel folder order is one per organization; its import id is channel_folders.
terraform import zulip_channel_folder_order.all channel_folders
