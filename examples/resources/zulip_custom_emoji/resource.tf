# The :shipit: emoji, from an image kept beside the configuration. A new image
# replaces the emoji (Zulip cannot change one); moving the file changes nothing.
resource "zulip_custom_emoji" "shipit" {
  name   = "shipit"
  source = "${path.module}/shipit.png"
}

# An animated GIF: Zulip also serves its first frame, as still_url.
resource "zulip_custom_emoji" "party" {
  name   = "party"
  source = "${path.module}/party.gif"
}
