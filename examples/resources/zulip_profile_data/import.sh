# Import the values of the fields given as a comma-separated list of ids or
# names, in the order of the resource's field blocks...
terraform import zulip_profile_data.me "Pronouns,Team,Birthday,Website,Mentor,1"

# ...or of every field the account has a value for, in the organization's
# field order.
terraform import zulip_profile_data.me "*"
