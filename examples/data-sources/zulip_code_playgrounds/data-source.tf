# The code playgrounds by language, wherever they were made (here or in the
# web app), without their ids.
data "zulip_code_playgrounds" "all" {}

locals {
  playgrounds_by_language = {
    for p in data.zulip_code_playgrounds.all.playgrounds : p.pygments_language => p.name...
  }
}

output "python_playgrounds" {
  value = lookup(local.playgrounds_by_language, "Python", [])
}
