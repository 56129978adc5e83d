# A flag on a set of messages is imported by "<flag>:<message id>,<message id>,...".
import {
  to = zulip_message_flags.starred
  id = "starred:1"
}
