# Star the release announcement in #general (message 4) for the account the
# provider is configured with, and mark two messages there as read.
resource "zulip_message_flags" "starred" {
  message_ids = [4]
  flag        = "starred"
}

resource "zulip_message_flags" "read" {
  message_ids = [3, 13]
  flag        = "read"
}

# Zulip's answer does not say which messages a change affected, so the
# resource does not either. What it does report, in
# ignored_because_not_subscribed_channels: when messages are marked unread
# (taken out of a "read" resource), the channels whose messages Zulip left
# read because the account is not subscribed to them.

# Collapse a long message in the web app. Zulip cannot report the collapsed
# flag back, so a change made outside Terraform is not detected.
resource "zulip_message_flags" "collapsed" {
  message_ids = [1]
  flag        = "collapsed"
}
