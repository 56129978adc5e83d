# Report a message in #random to the organization's moderators. The report is
# posted once; changing an argument (or a trigger) posts another one.
resource "zulip_message_report" "spam" {
  message_id  = 10
  report_type = "spam"
  description = "Advertising in #random, third time this week."
}
