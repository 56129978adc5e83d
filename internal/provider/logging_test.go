package provider

import (
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

func TestQuietUnrequestedLogs(t *testing.T) {
	cases := []struct {
		name    string
		environ []string
		want    string // the variables set, sorted as quietLevels
	}{
		{"no logs asked", []string{"HOME=/root", "TF_IN_AUTOMATION=1"}, "TF_LOG_SDK=OFF TF_LOG_SDK_PROTO=OFF TF_LOG_SDK_FRAMEWORK=OFF TF_LOG_PROVIDER_ZULIP=OFF"},
		{"an empty TF_LOG is no request", []string{"TF_LOG="}, "TF_LOG_SDK=OFF TF_LOG_SDK_PROTO=OFF TF_LOG_SDK_FRAMEWORK=OFF TF_LOG_PROVIDER_ZULIP=OFF"},
		{"TF_LOG", []string{"TF_LOG=debug"}, ""},
		{"TF_LOG_PROVIDER", []string{"TF_LOG_PROVIDER=trace"}, ""},
		{"the provider's own", []string{"TF_LOG_PROVIDER_ZULIP=info"}, ""},
		{"the framework's", []string{"TF_LOG_SDK_FRAMEWORK=trace"}, ""},
		{"a log file", []string{"TF_LOG_PATH=/tmp/tf.log"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var set []string
			err := kit.QuietUnrequestedLogs(tc.environ, func(k, v string) error {
				set = append(set, k+"="+v)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(set, " "); got != tc.want {
				t.Errorf("set %q, want %q", got, tc.want)
			}
		})
	}
}
