# The organization's administrators, shown as "Full Name <address>".
list "zulip_user" "admins" {
  provider = zulip
  config {
    role = "administrator"
  }
}

# Every human user, deactivated ones included, with their attributes, for
# `terraform query -generate-config-out=generated.tf`. A list returns at most
# 100 results unless `limit` says more.
list "zulip_user" "all" {
  provider         = zulip
  include_resource = true
  limit            = 10000
  config {
    include_deactivated = true
  }
}
