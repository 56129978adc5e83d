package bots

// The provider function webhook_url: the URL an external tool (Grafana,
// Sentry, a repository's webhook) posts to for one of Zulip's incoming
// webhook integrations.
//
// Zulip's rules, as its code and documentation give them (read with the
// search tools; none of it copied):
//   - The URL is <site>/api/v1/external/<integration> (Zulip's integration
//     documentation, templates/zerver/help/include/webhook-url.md: the
//     organization's API URL, then v1/external/ and the integration's name,
//     the name of its module under zerver/webhooks: lowercase letters,
//     digits and underscores).
//   - The bot authenticates with the api_key query parameter (the webhook
//     views' api_key_only_webhook_view / webhook_view decorator).
//   - zerver/lib/webhooks/common.py check_send_webhook_message reads the
//     query parameters stream and topic: without stream, the message is a
//     direct message to the bot's owner and the topic is not used; with it,
//     topic replaces the integration's own topic. The documentation says
//     both are URL-encoded; it writes a space as %20.
//   - The parameter is still called stream in the URL, though Zulip now says
//     channel everywhere else.

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ function.Function = (*webhookURLFunction)(nil)

// NewWebhookURLFunction returns the provider function webhook_url.
func NewWebhookURLFunction() function.Function { return &webhookURLFunction{} }

// webhookURLFunction builds an incoming webhook integration's URL.
type webhookURLFunction struct{}

// The positions of webhook_url's arguments (function.NewArgumentFuncError);
// the options are the variadic position.
const (
	webhookArgSite = iota
	webhookArgAPIKey
	webhookArgIntegration
	webhookArgOptions
)

// webhookOptions are the keys the options map may have.
var webhookOptions = map[string]string{"channel": "stream", "topic": "topic"}

// integrationPattern is an integration's name: a module of zerver/webhooks.
var integrationPattern = regexp.MustCompile(`^[a-z0-9_]+$`)

// Metadata names the function.
func (f *webhookURLFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "webhook_url"
}

// Definition describes the function.
func (f *webhookURLFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "The URL of an incoming webhook integration",
		MarkdownDescription: "Builds the URL that a tool such as Grafana, Sentry or a repository's webhook settings posts to " +
			"for one of Zulip's incoming webhook integrations: `<site>/api/v1/external/<integration>?api_key=<key>&stream=<channel>&topic=<topic>`, " +
			"each value URL-encoded. Without a channel, Zulip sends the integration's messages as direct messages to the " +
			"bot's owner; a topic replaces the integration's own. The key is a secret, and so is the URL: Terraform marks " +
			"the result sensitive when the key is (as `zulip_bot`'s `api_key` is). The function asks the server nothing: " +
			"it does not check that the channel exists or that the bot may post there. Needs Terraform 1.8 or newer.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "site", MarkdownDescription: "The organization's URL, such as " +
				"`https://chat.example.com` (`data.zulip_server.<name>.realm_url`)."},
			function.StringParameter{Name: "api_key", AllowNullValue: true, MarkdownDescription: "The bot's API key: " +
				"`zulip_bot.<name>.api_key` with `keep_api_key_in_state = true`, usually of an `incoming_webhook` bot."},
			function.StringParameter{Name: "integration", MarkdownDescription: "The integration's name as Zulip's URL " +
				"spells it: `grafana`, `sentry`, `github`, `gitlab`, `alertmanager`..."},
		},
		VariadicParameter: function.MapParameter{Name: "options", ElementType: types.StringType,
			MarkdownDescription: "At most one map: `channel`, the channel's name the messages go to, and `topic`, the " +
				"topic they go to in it (which needs a channel). A null value is left out."},
		Return: function.StringReturn{},
	}
}

// Run builds the URL.
func (f *webhookURLFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var site, integration string
	var key *string
	var options []map[string]*string
	resp.Error = req.Arguments.Get(ctx, &site, &key, &integration, &options)
	if resp.Error != nil {
		return
	}
	built, err := webhookURL(site, key, integration, options)
	if err != nil {
		resp.Error = err
		return
	}
	resp.Error = resp.Result.Set(ctx, built)
}

// webhookURL is the URL webhook_url returns, or the error naming the
// argument at fault (its text ends without a period: Terraform adds one).
func webhookURL(site string, key *string, integration string, options []map[string]*string) (string, *function.FuncError) {
	base, err := webhookSite(site)
	if err != nil {
		return "", function.NewArgumentFuncError(webhookArgSite, err.Error())
	}
	if key == nil {
		return "", function.NewArgumentFuncError(webhookArgAPIKey, "The bot's API key is null: set keep_api_key_in_state = true "+
			"on its zulip_bot and pass zulip_bot.<name>.api_key")
	}
	if *key == "" || strings.IndexFunc(*key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return "", function.NewArgumentFuncError(webhookArgAPIKey, "A Zulip API key is letters and digits, without spaces")
	}
	if !integrationPattern.MatchString(integration) {
		return "", function.NewArgumentFuncError(webhookArgIntegration, fmt.Sprintf("%q is not an integration's name: Zulip's "+
			"are lowercase letters, digits and underscores, as in its URLs (grafana, sentry, github)", integration))
	}
	query, ferr := webhookQuery(options)
	if ferr != nil {
		return "", ferr
	}
	return base + "/api/v1/external/" + integration + "?api_key=" + queryEscape(*key) + query, nil
}

// webhookSite checks the organization's URL and returns it without a
// trailing slash.
func webhookSite(site string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(site))
	switch {
	case err != nil:
		return "", fmt.Errorf("%q is not a URL: %w", site, err)
	case u.Scheme != "https" && u.Scheme != "http" || u.Host == "":
		return "", fmt.Errorf("%q is not the organization's URL: give it whole, such as https://chat.example.com", site)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "", fmt.Errorf("%q has more than the organization's URL: leave out the user, the query and the fragment", site)
	}
	return strings.TrimRight(u.Scheme+"://"+u.Host+u.EscapedPath(), "/"), nil
}

// webhookQuery is the options' part of the query (channel and topic), in
// Zulip's order; the error names the options argument.
func webhookQuery(options []map[string]*string) (string, *function.FuncError) {
	fail := func(text string) (string, *function.FuncError) {
		return "", function.NewArgumentFuncError(webhookArgOptions, text)
	}
	if len(options) > 1 {
		return fail(fmt.Sprintf("Give the options as one map (channel and topic), not %d", len(options)))
	}
	set := map[string]string{}
	for _, opts := range options {
		keys := make([]string, 0, len(opts))
		for k := range opts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := opts[k]
			if _, ok := webhookOptions[k]; !ok {
				return fail(fmt.Sprintf("Unknown option %q: the options are channel and topic", k))
			}
			switch {
			case v == nil:
			case strings.TrimSpace(*v) == "":
				return fail(fmt.Sprintf("The %s is empty: leave it out (or null) instead", k))
			default:
				set[k] = *v
			}
		}
	}
	if _, ok := set["topic"]; ok && set["channel"] == "" {
		return fail("A topic needs a channel: without one, Zulip sends the messages as direct messages to the bot's owner, " +
			"which have no topic")
	}
	query := ""
	for _, k := range []string{"channel", "topic"} {
		if v, ok := set[k]; ok {
			query += "&" + webhookOptions[k] + "=" + queryEscape(v)
		}
	}
	return query, nil
}

// queryEscape escapes a query value as Zulip's documentation does: a space
// is %20 (url.QueryEscape writes +, which Django also reads as a space, but
// not every tool that is given the URL does).
func queryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}
