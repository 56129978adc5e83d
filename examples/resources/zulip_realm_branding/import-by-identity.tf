# Terraform 1.12+: the organization's icon and logos are imported by identity
# with the organization's URL.
import {
  to = zulip_realm_branding.this
  identity = {
    id = "https://example.zulipchat.com"
  }
}
