import {
  to = zulip_realm.this
  id = "https://example.zulipchat.com"
}
