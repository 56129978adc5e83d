# Addresses at example.org, and at its subdomains such as eu.example.org, may
# join when the organization restricts sign-ups to its allowed domains.
resource "zulip_allowed_domain" "example_org" {
  domain           = "example.org"
  allow_subdomains = true
}

# Only addresses at exactly partners.example.net.
resource "zulip_allowed_domain" "partners" {
  domain = "partners.example.net"
}
