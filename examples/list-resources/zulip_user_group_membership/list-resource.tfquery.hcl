# The groups user 11 (Mei) is a direct member of, as one zulip_user_group_membership
# each, for `terraform query -generate-config-out=generated.tf`.
list "zulip_user_group_membership" "mei" {
  provider         = zulip
  include_resource = true
  config {
    user_id = 11
  }
}
