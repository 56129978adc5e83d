# Terraform 1.12+: imported by identity with the id linkifiers (there is one order per organization).
import {
  to = zulip_linkifier_order.all
  identity = {
    id = "linkifiers"
  }
}
