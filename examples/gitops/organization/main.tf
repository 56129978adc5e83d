# The organization both environments share: what differs between staging and
# production is passed in as variables (environments/*/main.tf).

terraform {
  required_providers {
    zulip = {
      source = "zulip-terraform/zulip"
    }
  }
}

# "ZT-1234" in a message links to the issue tracker.
resource "zulip_linkifier" "issues" {
  pattern      = "ZT-(?P<id>[0-9]+)"
  url_template = "${var.issue_tracker}/issues/{id}"
}

# Python code blocks open in the team's playground.
resource "zulip_code_playground" "python" {
  name              = "Python playground"
  pygments_language = "Python"
  url_template      = "${var.playground}/?code={code}"
}

resource "zulip_channel" "team" {
  for_each = var.channels

  name        = each.key
  description = each.value
}
