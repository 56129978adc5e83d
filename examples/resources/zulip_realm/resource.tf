# The organization's settings. Only those set here are managed; the others
# keep their current values. Owner-only settings need an owner's API key.
resource "zulip_realm" "this" {
  name                         = "Example Co"
  description                  = "Where **Example Co** talks."
  org_type                     = "business"
  invite_required              = true
  emails_restricted_to_domains = true

  message_content_edit_limit_seconds = "unlimited"
  topics_policy                      = "disable_empty_topic"
  digest_emails_enabled              = true
  digest_weekday                     = "monday"

  # Announce new channels nowhere.
  new_stream_announcements_stream_id = -1

  can_create_groups               = { groups = ["role:moderators"] }
  can_create_public_channel_group = { groups = ["role:fullmembers"] }
  can_invite_users_group          = { groups = ["role:administrators"] }
}
