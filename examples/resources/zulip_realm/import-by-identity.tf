# Terraform 1.12+: the organization's settings are imported by identity with the
# organization's URL.
import {
  to = zulip_realm.this
  identity = {
    id = "https://example.zulipchat.com"
  }
}
