# Every allowed e-mail domain of the organization, for
# `terraform query -generate-config-out=generated.tf`.
list "zulip_allowed_domain" "all" {
  provider         = zulip
  include_resource = true
}
