# Terraform 1.12+: imported by identity with the id channel_folders (there is one order per organization).
import {
  to = zulip_channel_folder_order.all
  identity = {
    id = "channel_folders"
  }
}
