# A message is imported by its numeric id (a message has no name; the id is the
# number after /near/ in its link). Import with a provider configured as its sender.
terraform import zulip_message.thanks 2
