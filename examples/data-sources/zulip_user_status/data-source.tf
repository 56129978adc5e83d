# The status of user 5 (Mark Member in the reference server's seeded realm).
data "zulip_user_status" "mark" {
  user_id = 5
}

output "mark_status" {
  # status_text is null when the user has set no status.
  value = coalesce(data.zulip_user_status.mark.status_text, "(no status)")
}

output "mark_is_away" {
  value = data.zulip_user_status.mark.away
}
