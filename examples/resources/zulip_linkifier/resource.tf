# "ZT-1234" in a message links to ticket ZT-1234 of the tracker.
resource "zulip_linkifier" "issues" {
  pattern      = "ZT-(?P<id>[0-9]+)"
  url_template = "https://tracker.example.com/browse/ZT-{id}"

  # Zulip 11.0+ (feature level 471): an example shown in the settings, and the
  # template that turns a pasted tracker URL back into "ZT-1234".
  example_input    = "ZT-1234"
  reverse_template = "ZT-{id}"
}

# Several named groups; the URL template must use exactly the same names.
resource "zulip_linkifier" "pull_requests" {
  pattern      = "(?P<org>[a-z0-9-]+)/(?P<repo>[a-z0-9_.-]+)!(?P<id>[0-9]+)"
  url_template = "https://github.com/{org}/{repo}/pull/{id}"

  # Zulip 11.0+ (feature level 478): other URLs that mean the same thing.
  alternative_url_templates = ["https://github.com/{org}/{repo}/pull/{id}/files"]
}
