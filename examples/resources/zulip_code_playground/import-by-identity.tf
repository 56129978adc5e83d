# Terraform 1.12+: a code playground is imported by identity with its language
# and name.
import {
  to = zulip_code_playground.rust
  identity = {
    pygments_language = "Rust"
    name              = "Rust playground"
  }
}
