# The defaults are one per organization; any import id works (its URL reads best).
terraform import zulip_realm_user_defaults.this https://example.zulipchat.com
