resource "zulip_linkifier" "tickets" {
  pattern      = "#(?P<id>[0-9]+)"
  url_template = "https://tickets.example.com/{id}"
}

# Incident numbers start with 9 and also match the tickets' pattern:
# listed first, this linkifier wins for them.
resource "zulip_linkifier" "incidents" {
  pattern      = "#(?P<id>9[0-9]+)"
  url_template = "https://incidents.example.com/{id}"
}

# Every linkifier of the organization, tried first to last.
resource "zulip_linkifier_order" "all" {
  linkifiers = [zulip_linkifier.incidents.id, zulip_linkifier.tickets.id]
}
