package kit

import "strings"

// quietLevels are the log levels of the SDK's own loggers and of this
// provider's, by environment variable: terraform-plugin-go's root and protocol
// loggers (TF_LOG_SDK, TF_LOG_SDK_PROTO), terraform-plugin-framework's
// (TF_LOG_SDK_FRAMEWORK), and the provider's own (TF_LOG_PROVIDER_ZULIP, named
// after the registry address). Each defaults to TRACE when unset.
var quietLevels = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_ZULIP"}

// QuietUnrequestedLogs switches the SDK's and the provider's log lines off when
// the user asked for no logs at all, that is when no TF_LOG* variable is set.
// Those loggers default to TRACE: without this, every operation formats about a
// hundred JSON lines that Terraform, with TF_LOG unset, parses and drops
// (issue 13 measured 41.5% of the provider's CPU in a plan). With any TF_LOG*
// variable set, nothing changes, so TF_LOG=debug shows the framework's lines and
// the provider's as before. environ is os.Environ(); setenv is os.Setenv.
func QuietUnrequestedLogs(environ []string, setenv func(key, value string) error) error {
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_LOG") && value != "" {
			return nil
		}
	}
	for _, name := range quietLevels {
		if err := setenv(name, "OFF"); err != nil {
			return err
		}
	}
	return nil
}
