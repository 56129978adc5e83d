# Export the organization's public data before each migration is recorded,
# and wait for the export: `terraform apply -invoke=action.zulip_realm_export.backup`
# runs it by hand. The last progress message gives the download URL.
action "zulip_realm_export" "backup" {
  config {
    export_type = "public"
    timeout     = "20m"
  }
}

resource "terraform_data" "migration" {
  input = "2026-01-migration"

  lifecycle {
    action_trigger {
      events  = [before_create, before_update]
      actions = [action.zulip_realm_export.backup]
    }
  }
}
