# A user group is imported by its name or by its numeric id (GET /api/v1/user_groups lists them).
terraform import zulip_user_group.backend backend
