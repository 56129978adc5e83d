# An allowed domain is imported by the domain name, in lower case.
terraform import zulip_allowed_domain.example_org example.org
