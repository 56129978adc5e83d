# Rust code blocks get a link that opens them in the Rust playground.
resource "zulip_code_playground" "rust" {
  name              = "Rust playground"
  pygments_language = "Rust"
  url_template      = "https://play.rust-lang.org/?edition=2021&code={code}"
}
