# A membership is imported by <group name or id>:<user id>.
terraform import zulip_user_group_membership.mia_in_backend backend:11
