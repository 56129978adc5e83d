# A linkifier is imported by its numeric id (GET /api/v1/realm/linkifiers lists them).
terraform import zulip_linkifier.issues 1
