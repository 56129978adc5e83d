# Every code playground of the organization, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_code_playground" "all" {
  provider         = zulip
  include_resource = true
}
