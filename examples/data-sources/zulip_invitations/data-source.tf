# Who has been invited and not joined yet, and which invitations never expire.
data "zulip_invitations" "pending" {}

output "invited_addresses" {
  value = [for i in data.zulip_invitations.pending.invitations : i.email if i.kind == "email"]
}

output "links_that_never_expire" {
  value = [for i in data.zulip_invitations.pending.invitations : i.id if i.kind == "link" && i.expiry_date == null]
}
