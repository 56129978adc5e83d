resource "zulip_channel" "incidents" {
  name    = "incidents"
  privacy = "private"
}

# Exactly these subscribers: anyone else is unsubscribed. Quiet by default
# (notify = false: no direct message from Notification Bot).
resource "zulip_channel_subscribers" "incidents" {
  channel_id  = zulip_channel.incidents.id
  subscribers = [var.sre_lead_id, var.sre_oncall_id]
}

variable "sre_lead_id" {
  type = number
}

variable "sre_oncall_id" {
  type = number
}
