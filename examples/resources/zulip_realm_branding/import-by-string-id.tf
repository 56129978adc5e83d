import {
  to = zulip_realm_branding.this
  id = "https://example.zulipchat.com"
}
