# What new users get. Existing users keep their own settings; only the
# defaults set here are managed.
resource "zulip_realm_user_defaults" "this" {
  web_home_view         = "inbox"
  color_scheme          = "automatic"
  twenty_four_hour_time = true
  enter_sends           = false

  enable_stream_push_notifications = true
  enable_digest_emails             = false

  email_address_visibility = "administrators"
}
