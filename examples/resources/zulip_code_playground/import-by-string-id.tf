import {
  to = zulip_code_playground.rust
  id = "Rust/Rust playground"
}
