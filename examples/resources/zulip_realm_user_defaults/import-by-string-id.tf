import {
  to = zulip_realm_user_defaults.this
  id = "https://example.zulipchat.com"
}
