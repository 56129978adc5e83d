# The organization's icon and logos are one per provider; the import id is the
# organization's URL. The images are adopted unmanaged: a path set afterwards
# uploads its file once (Zulip cannot give the uploaded file back to compare).
terraform import zulip_realm_branding.this https://example.zulipchat.com
