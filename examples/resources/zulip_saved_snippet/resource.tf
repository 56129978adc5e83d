# A snippet of the account the provider is configured with. Zulip strips
# leading and trailing whitespace, so a heredoc is wrapped in chomp() to drop
# its final newline.
resource "zulip_saved_snippet" "release_checklist" {
  title = "Release checklist"
  content = chomp(<<-EOT
    Before tagging a release:
    - [ ] Changelog updated
    - [ ] Migrations reviewed
    - [ ] Announced in #**announce**
  EOT
  )
}
