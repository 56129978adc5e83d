# Terraform 1.12+: imported by identity with the id custom_profile_fields (there is one order per organization).
import {
  to = zulip_custom_profile_field_order.all
  identity = {
    id = "custom_profile_fields"
  }
}
