# Apply settings to two existing users, once (for Terraform before 1.14 and
# OpenTofu; newer Terraform has the action zulip_apply_user_settings).
# Changing an argument or a trigger applies them again; destroying the
# resource leaves the users' settings as they are.
resource "zulip_user_settings_push" "support" {
  users                  = [5, 6]
  skip_if_already_edited = false
  settings = {
    emojiset                       = "text"
    web_mark_read_on_scroll_policy = "conversation_views"
  }
  triggers = {
    policy = "support-desk-v1"
  }
}
