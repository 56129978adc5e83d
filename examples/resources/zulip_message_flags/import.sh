# A flag on a set of messages is imported by "<flag>:<message id>,<message id>,...".
terraform import zulip_message_flags.starred starred:4
