# Terraform 1.12+: an allowed domain is imported by identity with its domain name.
import {
  to = zulip_allowed_domain.company
  identity = {
    domain = "zulip.example.com"
  }
}
