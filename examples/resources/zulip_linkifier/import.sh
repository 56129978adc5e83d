# A linkifier is imported by its pattern or by its numeric id (GET /api/v1/realm/linkifiers lists them).
terraform import zulip_linkifier.issues '#(?P<id>[0-9]+)'
