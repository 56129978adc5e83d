# Every custom profile field of the organization, first to last: here in
# alphabetical order of their names.
data "zulip_custom_profile_fields" "all" {}

locals {
  field_ids = { for f in data.zulip_custom_profile_fields.all.fields : f.name => f.id }
}

resource "zulip_custom_profile_field_order" "all" {
  fields = [for name in sort(keys(local.field_ids)) : local.field_ids[name]]
}
