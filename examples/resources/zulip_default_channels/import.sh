# The default channels are one set per organization; the import id is default_channels.
terraform import zulip_default_channels.all default_channels
