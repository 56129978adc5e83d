# Needs a member's or administrator's credentials: Zulip refuses guests and bots.
data "zulip_user_group" "leads" {
  name = "leads"
}

# System groups are named role:members, role:administrators, ...
data "zulip_user_group" "admins" {
  name = "role:administrators"
}

output "leads_members" {
  value = data.zulip_user_group.leads.members
}

# Who may manage the group: { groups = [names], users = [ids] }.
output "leads_managers" {
  value = data.zulip_user_group.leads.can_manage_group
}
