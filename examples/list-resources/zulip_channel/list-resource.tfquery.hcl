# The private channels whose names start with "team-".
list "zulip_channel" "teams" {
  provider = zulip
  config {
    privacy    = "private"
    name_regex = "^team-"
  }
}

# Every channel the provider's account can see (archived ones are not listed),
# with its settings, for `terraform query -generate-config-out=generated.tf`.
list "zulip_channel" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
}
