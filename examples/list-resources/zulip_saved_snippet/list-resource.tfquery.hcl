# The saved snippets of the provider's own account, with their content, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_saved_snippet" "mine" {
  provider         = zulip
  include_resource = true
}
