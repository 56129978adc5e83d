# A custom profile field is imported by its label or its numeric id.
terraform import zulip_custom_profile_field.team Team
