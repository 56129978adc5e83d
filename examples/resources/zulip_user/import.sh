# A user is imported by numeric user id...
terraform import zulip_user.jane 13

# ...or by e-mail address.
terraform import zulip_user.jane jane.doe@zulip.example.com
