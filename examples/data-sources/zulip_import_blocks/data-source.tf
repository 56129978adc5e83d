# The import blocks of the whole organization, for Terraform before 1.14:
#   terraform apply && terraform output -raw import_blocks > imports.tf
# then, in the configuration that will manage the organization:
#   terraform plan -generate-config-out=generated.tf
data "zulip_import_blocks" "all" {}

output "import_blocks" {
  value = data.zulip_import_blocks.all.text
}

# Only some types.
data "zulip_import_blocks" "channels_and_groups" {
  types = ["zulip_channel", "zulip_user_group"]
}
