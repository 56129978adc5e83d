# The initial password is write-only (Terraform 1.11 or newer): it is sent
# once, when the account is created, and is never stored in the plan or state.
variable "jane_initial_password" {
  description = "Initial password of Jane's account."
  type        = string
  sensitive   = true
  ephemeral   = true
}

resource "zulip_user" "jane" {
  email     = "jane.doe@zulip.example.com"
  full_name = "Jane Doe"
  password  = var.jane_initial_password
  role      = "moderator"

  # Custom profile field values, keyed by field id
  # (see GET /api/v1/realm/profile_fields).
  profile_data = {
    "1" = { value = "+1-555-0142" } # Phone number
    "3" = { value = "0" }           # Team: a Dropdown takes the option's key ("0" is Engineering)
    "4" = { value = "1991-03-08" }  # Birthday
    "6" = { user_ids = [2, 11] }    # Mentor: a Users field takes user ids
    "8" = { value = "she/her" }     # Pronouns
  }
}

# Other configuration can refer to the account, e.g. its id.
output "jane_user_id" {
  value = zulip_user.jane.id
}
