# The provider account's own profile: only the fields named here are managed,
# and destroying the resource clears them. Fields are named by `name` or `id`.
resource "zulip_profile_data" "me" {
  field {
    name  = "Pronouns"
    value = "she/her"
  }

  field {
    name  = "Team"
    value = "1" # a Dropdown takes the option's key; "1" is "Design"
  }

  field {
    name  = "Birthday"
    value = "1992-06-15"
  }

  field {
    name  = "Website"
    value = "https://maria.example.org"
  }

  field {
    name  = "Mentor"
    users = [5, 11] # user ids, for a Users field
  }

  field {
    id    = 1 # "Phone number"
    value = "+1-555-0142"
  }
}
