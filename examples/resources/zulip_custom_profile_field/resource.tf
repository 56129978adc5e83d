resource "zulip_custom_profile_field" "team" {
  name = "Team"
  type = "select"
  hint = "The team you work in."
  # A user's answer holds the key: keep it when renaming a choice.
  options = [
    { key = "eng", text = "Engineering" },
    { key = "design", text = "Design" },
    { key = "support", text = "Support" },
  ]
  display_in_profile_summary = true
}

resource "zulip_custom_profile_field" "github" {
  type                     = "external_account"
  external_account_subtype = "github" # Zulip labels it "GitHub username"
}

resource "zulip_custom_profile_field" "handbook" {
  name                     = "Handbook page"
  type                     = "external_account"
  external_account_subtype = "custom"
  url_pattern              = "https://handbook.example.com/people/%(username)s"
}
