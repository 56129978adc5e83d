# The members of every user group (one result per group; system groups are not listed), for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_user_group_members" "all" {
  provider         = zulip
  include_resource = true
}
