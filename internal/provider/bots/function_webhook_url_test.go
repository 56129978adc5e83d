package bots_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/bots"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// webhookOptions is the variadic argument: one map per element; a nil
// value is a null element.
func webhookOptions(maps ...map[string]*string) attr.Value {
	mapType := types.MapType{ElemType: types.StringType}
	elems, elemTypes := []attr.Value{}, []attr.Type{}
	for _, m := range maps {
		values := map[string]attr.Value{}
		for k, v := range m {
			values[k] = types.StringPointerValue(v)
		}
		elems, elemTypes = append(elems, types.MapValueMust(types.StringType, values)), append(elemTypes, mapType)
	}
	return types.TupleValueMust(elemTypes, elems)
}

func str(s string) *string { return &s }

// runWebhookURL calls the function's Run as Terraform would.
func runWebhookURL(site string, key types.String, integration string, options attr.Value) (string, *function.FuncError) {
	resp := &function.RunResponse{Result: function.NewResultData(types.StringUnknown())}
	bots.NewWebhookURLFunction().Run(context.Background(), function.RunRequest{
		Arguments: function.NewArgumentsData([]attr.Value{types.StringValue(site), key, types.StringValue(integration), options}),
	}, resp)
	got, _ := resp.Result.Value().(types.String)
	return got.ValueString(), resp.Error
}

// TestWebhookURL_built: the URL of each combination of options, escaped
// as Zulip's documentation writes it.
func TestWebhookURL_built(t *testing.T) {
	key := types.StringValue("abcDEF123")
	for _, c := range []struct {
		name, site string
		options    attr.Value
		want       string
	}{
		{"no options", "https://chat.example.com", webhookOptions(), "https://chat.example.com/api/v1/external/grafana?api_key=abcDEF123"},
		{"trailing slash", "https://chat.example.com/", webhookOptions(), "https://chat.example.com/api/v1/external/grafana?api_key=abcDEF123"},
		{"channel", "http://localhost:9991", webhookOptions(map[string]*string{"channel": str("alerts")}),
			"http://localhost:9991/api/v1/external/grafana?api_key=abcDEF123&stream=alerts"},
		{"channel and topic escaped", "https://chat.example.com", webhookOptions(map[string]*string{"channel": str("ops & on-call"), "topic": str("Grafana + Prometheus/alerts?")}),
			"https://chat.example.com/api/v1/external/grafana?api_key=abcDEF123&stream=ops%20%26%20on-call&topic=Grafana%20%2B%20Prometheus%2Falerts%3F"},
		{"non-ASCII topic", "https://chat.example.com", webhookOptions(map[string]*string{"channel": str("équipe"), "topic": str("déploiement")}),
			"https://chat.example.com/api/v1/external/grafana?api_key=abcDEF123&stream=%C3%A9quipe&topic=d%C3%A9ploiement"},
		{"null values left out", "https://chat.example.com", webhookOptions(map[string]*string{"channel": str("alerts"), "topic": nil}),
			"https://chat.example.com/api/v1/external/grafana?api_key=abcDEF123&stream=alerts"},
		{"empty map", "https://chat.example.com", webhookOptions(map[string]*string{}), "https://chat.example.com/api/v1/external/grafana?api_key=abcDEF123"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := runWebhookURL(c.site, key, "grafana", c.options)
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

// TestWebhookURL_refused: each bad argument fails with an error that
// names it (its position) and says why.
func TestWebhookURL_refused(t *testing.T) {
	key := types.StringValue("abcDEF123")
	channel := map[string]*string{"channel": str("alerts")}
	for _, c := range []struct {
		name, site  string
		key         types.String
		integration string
		options     attr.Value
		argument    int64
		text        string
	}{
		{"relative site", "chat.example.com", key, "grafana", webhookOptions(), 0, "not the organization's URL"},
		{"site with a query", "https://chat.example.com/?x=1", key, "grafana", webhookOptions(), 0, "leave out the user, the query"},
		{"site with a user", "https://me@chat.example.com", key, "grafana", webhookOptions(), 0, "leave out the user"},
		{"other scheme", "ftp://chat.example.com", key, "grafana", webhookOptions(), 0, "not the organization's URL"},
		{"null key", "https://chat.example.com", types.StringNull(), "grafana", webhookOptions(), 1, "keep_api_key_in_state = true"},
		{"empty key", "https://chat.example.com", types.StringValue(""), "grafana", webhookOptions(), 1, "letters and digits"},
		{"key with a space", "https://chat.example.com", types.StringValue("abc def"), "grafana", webhookOptions(), 1, "without spaces"},
		{"integration with a path", "https://chat.example.com", key, "grafana/x", webhookOptions(), 2, "not an integration's name"},
		{"integration in capitals", "https://chat.example.com", key, "Grafana", webhookOptions(), 2, "lowercase letters"},
		{"two option maps", "https://chat.example.com", key, "grafana", webhookOptions(channel, channel), 3, "one map"},
		{"unknown option", "https://chat.example.com", key, "grafana", webhookOptions(map[string]*string{"stream": str("alerts")}), 3, `Unknown option "stream"`},
		{"empty channel", "https://chat.example.com", key, "grafana", webhookOptions(map[string]*string{"channel": str(" ")}), 3, "channel is empty"},
		{"topic without a channel", "https://chat.example.com", key, "grafana", webhookOptions(map[string]*string{"topic": str("alerts")}), 3, "A topic needs a channel"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := runWebhookURL(c.site, c.key, c.integration, c.options)
			if err == nil {
				t.Fatalf("got %q, want an error", got)
			}
			if err.FunctionArgument == nil || *err.FunctionArgument != c.argument || !strings.Contains(err.Text, c.text) {
				t.Fatalf("got error %+v (argument %v); want argument %d and %q", err, err.FunctionArgument, c.argument, c.text)
			}
		})
	}
}

// TestAccWebhookURL_function applies the function's example, which calls
// provider::zulip::webhook_url with a bot's kept key: the output is the URL
// with the key the server gave the bot. A bad argument fails the plan,
// naming it.
func TestAccWebhookURL_function(t *testing.T) {
	srv := acctest.NewServer(t)
	provider := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, resource.TestCase{TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)}, Steps: []resource.TestStep{
		acctest.PlanFailsRE(provider+`
output "url" {
  value = provider::zulip::webhook_url("https://chat.example.com", "abc", "grafana", { topic = "Grafana" })
}
`, `Invalid value for "options" parameter: A topic needs a channel`),
		acctest.Apply(provider + acctest.ReadExample(t, "examples/functions/webhook_url/function.tf")).
			State(statecheck.ExpectKnownOutputValue("grafana_webhook_url", testAccServerValue(func() string {
				u, _ := testAccBot(srv, "grafana-bot")
				return fmt.Sprintf("%s/api/v1/external/grafana?api_key=%s&stream=ops%%20alerts&topic=Grafana", srv.URL, u.APIKey)
			}))).Clean().Step(),
	}})
}
