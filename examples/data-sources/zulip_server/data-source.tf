# What the server offers: declare the channel folder only on a server new
# enough to have folders (feature level 389), and warn while password login
# is still allowed.
data "zulip_server" "this" {}

resource "zulip_channel_folder" "engineering" {
  count = data.zulip_server.this.zulip_feature_level >= 389 ? 1 : 0
  name  = "Engineering"
}

output "password_login_allowed" {
  value = data.zulip_server.this.authentication_methods["password"]
}

output "sso_methods" {
  value = [for m in data.zulip_server.this.external_authentication_methods : m.display_name]
}
