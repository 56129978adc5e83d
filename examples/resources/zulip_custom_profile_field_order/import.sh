# The custom profile field order is one per organization; its import id is custom_profile_fields.
terraform import zulip_custom_profile_field_order.all custom_profile_fields
