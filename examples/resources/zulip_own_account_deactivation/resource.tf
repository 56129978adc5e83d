# Deactivate the account the provider is configured with (here Mei Member's).
# IRREVERSIBLE through this provider: the account's API key stops working at
# once, so use a provider configuration dedicated to this resource.
resource "zulip_own_account_deactivation" "mei" {
  confirm_email = "mei@zulip.example.com"
}
