# Terraform 1.12+: a saved snippet is imported by identity with its id (titles
# need not be unique). Import with a provider configured as the snippet's owner.
import {
  to = zulip_saved_snippet.welcome
  identity = {
    id = 1
  }
}
