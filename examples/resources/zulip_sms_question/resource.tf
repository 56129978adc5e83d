# Let partner.example.com addresses join the organization, and ask the
# on-call administrator by SMS to confirm it. Their reply ("YES"/"NO") is
# posted to the operations webhook together with the token, which tells the
# webhook what the reply is about. A new question is sent whenever the
# domain's settings change; a plain re-apply sends nothing.
resource "zulip_allowed_domain" "partner" {
  domain = "partner.example.com"
}

resource "zulip_sms_question" "confirm_partner_domain" {
  to        = "+46700000000"
  message   = "Zulip: ${zulip_allowed_domain.partner.domain} may now join the organization. Reply YES to confirm or NO to roll back."
  reply_url = "https://ops.example.com/hooks/zulip-change-confirmation"
  token     = "allowed-domain/${zulip_allowed_domain.partner.domain}"
  lifetime  = 4

  # Queue the question rather than fail if the on-call phone already has
  # three open questions.
  delay_allowed = true

  triggers = {
    allow_subdomains = tostring(zulip_allowed_domain.partner.allow_subdomains)
  }
}
