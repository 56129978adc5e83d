# Terraform 1.12+: a linkifier is imported by identity with its pattern.
import {
  to = zulip_linkifier.issues
  identity = {
    pattern = "#(?P<id>[0-9]+)"
  }
}
