# An allowed domain is imported by the domain name.
import {
  to = zulip_allowed_domain.company
  id = "zulip.example.com"
}
