# The linkifier order is one per organization; its import id is linkifiers.
terraform import zulip_linkifier_order.all linkifiers
