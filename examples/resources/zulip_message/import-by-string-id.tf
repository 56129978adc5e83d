# A message has no name: it is imported by its numeric id (the number after
# /near/ in its link). Import with a provider configured as its sender.
import {
  to = zulip_message.thanks
  id = "2"
}
