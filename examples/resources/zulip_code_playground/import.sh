# A code playground is imported by its id or by language/name.
terraform import zulip_code_playground.rust "Rust/Rust playground"
