# Needs a member's or administrator's credentials: Zulip refuses guests and bots.
data "zulip_user_groups" "all" {}

data "zulip_user_groups" "backend" {
  name = "backend"
}

output "custom_groups" {
  value = [for g in data.zulip_user_groups.all.user_groups : g.name if !g.is_system_group]
}

output "backend_members" {
  value = one(data.zulip_user_groups.backend.user_groups).members
}
