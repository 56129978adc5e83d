# The organization's icon and its logos for the light and dark themes, from
# images kept beside the configuration. A changed file is uploaded again;
# moving one changes nothing. Destroying the resource returns each image to
# Zulip's default.
resource "zulip_realm_branding" "this" {
  icon       = "${path.module}/icon.png"
  logo       = "${path.module}/logo.png"
  night_logo = "${path.module}/night-logo.gif"
}
