package messages

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Narrow operators whose operand may be an id rather than text: a numeric
// operand is sent as a number (a channel id, a user id, a message id), which is
// how Zulip tells an id from a name.
var (
	narrowIDOperators     = map[string]bool{"channel": true, "stream": true, "sender": true, "id": true, "dm-including": true, "group-pm-with": true, "with": true}
	narrowIDListOperators = map[string]bool{"dm": true, "pm-with": true}
	narrowDigits          = regexp.MustCompile(`^[0-9]+$`)
	narrowDigitList       = regexp.MustCompile(`^[0-9]+(\s*,\s*[0-9]+)*$`)
	narrowOperatorForm    = regexp.MustCompile(`^[a-z][a-z_-]*$`)
)

// messagesMatchingNarrowDataSourceModel is the data source's configuration and result.
type messagesMatchingNarrowDataSourceModel struct {
	MessageIDs types.List `tfsdk:"message_ids"`
	Narrow     types.List `tfsdk:"narrow"`
	Matches    types.Map  `tfsdk:"matches"`
}

// narrowTermModel is one element of narrow.
type narrowTermModel struct {
	Operator types.String `tfsdk:"operator"`
	Operand  types.String `tfsdk:"operand"`
	Negated  types.Bool   `tfsdk:"negated"`
}

// narrowMatchModel is one element of matches.
type narrowMatchModel struct {
	MatchContent types.String `tfsdk:"match_content"`
	MatchSubject types.String `tfsdk:"match_subject"`
}

// narrowMatchType is the element type of matches.
var narrowMatchType = kit.ObjectTypeOf(narrowMatchAttributes())

// narrowMatchAttributes are the attributes of one element of matches.
func narrowMatchAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"match_content": kit.ComputedString("The message's rendered HTML, with `<span class=\"highlight\">` " +
			"around the words a `search` term matched."),
		"match_subject": kit.ComputedString("The message's topic, HTML-escaped and highlighted in the same way."),
	}
}

// messagesMatchingNarrowData checks which messages match a narrow.
var messagesMatchingNarrowData = &kit.DataSource[messagesMatchingNarrowDataSourceModel]{Name: "messages_matching_narrow", Read: readMessagesMatchingNarrow,
	Schema: schema.Schema{
		MarkdownDescription: "Checks which of the given messages match a narrow (a Zulip search filter such as " +
			"`channel:general topic:releases`), as the provider's account sees them, and returns the matching ones " +
			"with search terms highlighted. Only messages the account received count: others never match.\n\n" +
			"Operands are written as text. For the operators `channel`, `stream`, `sender`, `id`, `with`, `dm-including` " +
			"and `group-pm-with`, an operand made only of digits is sent as a number, i.e. an id (`\"1\"` is channel 1); " +
			"any other operand is a name or an e-mail address. For `dm` and `pm-with`, a comma-separated list of " +
			"numbers (`\"5,11\"`) is sent as a list of user ids. So a channel whose name is all digits must be " +
			"given by its id.",
		Attributes: map[string]schema.Attribute{
			"message_ids": schema.ListAttribute{
				ElementType:         types.Int64Type,
				Required:            true,
				MarkdownDescription: "The ids of the messages to check.",
				Validators:          []validator.List{listvalidator.ValueInt64sAre(int64validator.AtLeast(1))},
			},
			"narrow": schema.ListNestedAttribute{
				Required: true,
				MarkdownDescription: "The narrow's terms, all of which a message must satisfy. An empty list matches " +
					"every message the account received.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"operator": schema.StringAttribute{
							Required: true,
							MarkdownDescription: "The operator: `channel`, `channels`, `topic`, `sender`, `is`, `has`, " +
								"`in`, `id`, `search`, `dm`, `dm-including`, `with` (a message id: the narrow becomes that " +
								"message's conversation, replacing `channel`, `topic` and `dm` terms), or another that the " +
								"server knows.",
							Validators: []validator.String{stringvalidator.RegexMatches(narrowOperatorForm,
								"must be a narrow operator: lower-case letters, '-' and '_', such as channel, topic or search")},
						},
						"operand": schema.StringAttribute{
							Required: true,
							MarkdownDescription: "The operand, as text: a channel name or id, a topic, a user's e-mail " +
								"or id, `starred`/`unread`/`mentioned`/`followed` for `is`, `link`/`image`/`attachment` for `has`, " +
								"search keywords (`\"quoted phrase\"` for an exact phrase), …; see the rule for numbers " +
								"above.",
						},
						"negated": schema.BoolAttribute{
							Optional:            true,
							MarkdownDescription: "Whether the term is negated: matches the messages the term would not. Default `false`.",
						},
					},
				},
			},
			"matches": schema.MapNestedAttribute{
				Computed: true,
				MarkdownDescription: "The matching messages, keyed by message id as a string (`\"42\"`); messages " +
					"that do not match are absent, so `keys(...matches)` lists the matching ids.",
				NestedObject: schema.NestedAttributeObject{Attributes: narrowMatchAttributes()},
			},
		},
	},
}

// readMessagesMatchingNarrow fills the model from the server.
func readMessagesMatchingNarrow(ctx context.Context, d *kit.ProviderData, m *messagesMatchingNarrowDataSourceModel, diags *diag.Diagnostics) {
	var ids []int64
	diags.Append(m.MessageIDs.ElementsAs(ctx, &ids, false)...)
	var terms []narrowTermModel
	diags.Append(m.Narrow.ElementsAs(ctx, &terms, false)...)
	if diags.HasError() {
		return
	}
	narrow := narrowToAPI(terms)
	tflog.Debug(ctx, "checking messages against a narrow", map[string]any{"messages": len(ids), "terms": len(narrow)})
	matches, err := d.Client.MatchesNarrow(ctx, ids, narrow)
	if err != nil {
		addNarrowError(diags, terms, err)
		return
	}
	m.Matches = narrowMatchesFromAPI(ctx, matches, diags)
	if diags.HasError() {
		return
	}
}

// narrowToAPI converts the configured terms, turning numeric operands of id
// operators into numbers (see the schema's description).
func narrowToAPI(terms []narrowTermModel) []zulip.NarrowTerm {
	out := make([]zulip.NarrowTerm, 0, len(terms))
	for _, t := range terms {
		op, operand := t.Operator.ValueString(), t.Operand.ValueString()
		term := zulip.NarrowTerm{Operator: op, Operand: operand, Negated: t.Negated.ValueBool()}
		trimmed := strings.TrimSpace(operand)
		switch {
		case narrowIDOperators[op] && narrowDigits.MatchString(trimmed):
			if n, err := strconv.ParseInt(trimmed, 10, 64); err == nil {
				term.Operand = n
			}
		case narrowIDListOperators[op] && narrowDigitList.MatchString(trimmed):
			var list []int64
			for _, part := range strings.Split(trimmed, ",") {
				n, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
				if err != nil {
					list = nil
					break
				}
				list = append(list, n)
			}
			if list != nil {
				term.Operand = list
			}
		}
		out = append(out, term)
	}
	return out
}

// addNarrowError reports a refused narrow on the term it concerns when the
// server's message names its operator, else on the whole narrow.
func addNarrowError(diags *diag.Diagnostics, terms []narrowTermModel, err error) {
	if !kit.IsClientError(err) || zulip.IsUnauthorized(err) || zulip.IsRateLimited(err) {
		kit.AddAPIError(diags, "Unable to Match Messages", "check the messages against the narrow", kit.RoleAny, err)
		return
	}
	at, which := path.Root("narrow"), "the narrow"
	msg := zulip.ErrorMsg(err)
	for i, t := range terms {
		switch {
		case strings.HasSuffix(msg, "unknown operator "+t.Operator.ValueString()):
			at = path.Root("narrow").AtListIndex(i).AtName("operator")
		case strings.Contains(msg, fmt.Sprintf("narrow[%d]", i)):
			at = path.Root("narrow").AtListIndex(i)
		default:
			continue
		}
		// Terraform cannot point at an element of a list attribute, so the
		// detail names it.
		which = fmt.Sprintf("%s (operator %q)", at, t.Operator.ValueString())
		break
	}
	diags.AddAttributeError(at, "Invalid Narrow",
		fmt.Sprintf("The server refused %s: %s. See the operators and operands Zulip accepts at "+
			"https://zulip.com/help/search-for-messages.", which, err))
}

// narrowMatchesFromAPI converts the server's matches to the matches map.
func narrowMatchesFromAPI(ctx context.Context, matches map[int64]zulip.NarrowMatch, diags *diag.Diagnostics) types.Map {
	elems := make(map[string]narrowMatchModel, len(matches))
	for id, mt := range matches {
		elems[strconv.FormatInt(id, 10)] = narrowMatchModel{
			MatchContent: types.StringValue(mt.MatchContent),
			MatchSubject: types.StringValue(mt.MatchSubject),
		}
	}
	v, d := types.MapValueFrom(ctx, narrowMatchType, elems)
	diags.Append(d...)
	return v
}
