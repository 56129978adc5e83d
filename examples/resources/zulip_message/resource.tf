# The channel to post in, by name.
data "zulip_channel" "general" {
  name = "general"
}

# A standing notice whose text Terraform keeps: editing the content here
# edits the message in Zulip, and an edit made in Zulip is put back.
resource "zulip_message" "office_hours" {
  channel_id = data.zulip_channel.general.id
  topic      = "office hours"
  content = chomp(<<-EOT
    **Office hours** are on Thursdays, 15:00–16:00 UTC.
    Bring your questions to #**general>office hours**.
  EOT
  )
}

# A direct message, to users by e-mail address (or all by user id).
resource "zulip_message" "welcome_note" {
  to_users = ["mei@zulip.example.com"]
  content  = "Welcome aboard! Ping me if anything is unclear."
}

output "office_hours_link" {
  value = zulip_message.office_hours.url
}
