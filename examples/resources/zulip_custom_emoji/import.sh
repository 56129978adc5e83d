# A custom emoji is imported by its name or its id. It is adopted as it is:
# Zulip cannot give its image back, so source may be left out.
terraform import zulip_custom_emoji.shipit shipit
