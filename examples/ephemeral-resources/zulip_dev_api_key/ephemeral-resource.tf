# Against a Zulip development server: act as the administrator Aaron without
# copying his API key anywhere. The default provider needs only `url`; the key
# is fetched at every run and never written to the plan or the state.
variable "zulip_url" {
  type        = string
  description = "URL of the Zulip development server, e.g. http://localhost:9991."
}

ephemeral "zulip_dev_api_key" "aaron" {
  username = "aaron@zulip.example.com"
}

provider "zulip" {
  alias   = "aaron"
  url     = var.zulip_url
  email   = ephemeral.zulip_dev_api_key.aaron.email
  api_key = ephemeral.zulip_dev_api_key.aaron.api_key
}

resource "zulip_linkifier" "tickets" {
  provider     = zulip.aaron
  pattern      = "ZT-(?P<id>[0-9]+)"
  url_template = "https://tracker.example.com/browse/ZT-{id}"
}
