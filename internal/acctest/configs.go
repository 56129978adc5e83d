package acctest

import "fmt"

// ChannelConfig is a zulip_channel "test" with extra attributes.
func ChannelConfig(name, description, extra string) string {
	return fmt.Sprintf("resource \"zulip_channel\" \"test\" {\n  name        = %q\n  description = %q\n%s}\n", name, description, extra)
}

// UserGroupConfig is a zulip_user_group "test" with extra attributes.
func UserGroupConfig(name, description, extra string) string {
	return fmt.Sprintf("resource \"zulip_user_group\" \"test\" {\n  name        = %q\n  description = %q\n%s}\n", name, description, extra)
}
