# Every linkifier of the organization, with its attributes, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_linkifier" "all" {
  provider         = zulip
  include_resource = true
}
