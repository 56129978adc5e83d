# A group's members are imported by the group's name or numeric id.
terraform import zulip_user_group_members.backend backend
