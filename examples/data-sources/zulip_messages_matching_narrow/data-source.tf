# Which of these messages are in the "releases" topic of #general?
data "zulip_messages_matching_narrow" "releases" {
  message_ids = [1, 2, 3, 4, 13]

  narrow = [
    { operator = "channel", operand = "general" },
    { operator = "topic", operand = "releases" },
  ]
}

# A full-text search: the matches carry the message with the hits highlighted.
# Digits-only operands of channel/sender/id are ids: "11" is user 11.
data "zulip_messages_matching_narrow" "release_notes" {
  message_ids = [1, 2, 3, 4, 13]

  narrow = [
    { operator = "search", operand = "release" },
    { operator = "sender", operand = "11" },
  ]
}

# Negation: everything outside #general.
data "zulip_messages_matching_narrow" "elsewhere" {
  message_ids = [1, 5, 10]

  narrow = [
    { operator = "channel", operand = "general", negated = true },
  ]
}

output "release_message_ids" {
  value = sort(keys(data.zulip_messages_matching_narrow.releases.matches))
}

output "release_notes_html" {
  value = data.zulip_messages_matching_narrow.release_notes.matches["13"].match_content
}
