# Terraform 1.12+: the defaults for new users are imported by identity with the
# organization's URL.
import {
  to = zulip_realm_user_defaults.this
  identity = {
    id = "https://example.zulipchat.com"
  }
}
