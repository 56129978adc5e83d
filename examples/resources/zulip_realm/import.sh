# The organization is one per provider; its import id is its URL.
terraform import zulip_realm.this https://example.zulipchat.com
