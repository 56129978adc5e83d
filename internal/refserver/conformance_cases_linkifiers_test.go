package refserver_test

import "strings"

func init() { confAreas["linkifiers"] = confCasesLinkifiers }

// confCasesLinkifiers are the conformance requests of linkifiers.
func confCasesLinkifiers(add func(confGroup)) {
	add(confGroup{op: "get-linkifiers", steps: []confStep{
		confOK("member", "get-linkifiers", confMember, confGET, "/realm/linkifiers", nil),
		confOK("add one with reverse fields", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP(
			"pattern", "PR(?P<id>[0-9]+)", "url_template", "https://example.org/pr/{id}",
			"example_input", "PR123", "reverse_template", "PR{id}",
			"alternative_url_templates", `["https://example.org/pull/{id}"]`)),
		confOK("guest sees both", "get-linkifiers", confGuest, confGET, "/realm/linkifiers", nil),
		confBad("no credentials", "get-linkifiers", confNoAuth, confGET, "/realm/linkifiers", nil, 401, "UNAUTHORIZED"),
	}})
	add(confGroup{op: "add-linkifier", steps: []confStep{
		confOK("admin", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "JIRA-(?P<key>[0-9]+)", "url_template", "https://jira.example.org/browse/JIRA-{key}")),
		confBad("member", "add-linkifier", confMember, confPOST, "/realm/filters", confP("pattern", "X(?P<id>[0-9]+)", "url_template", "https://x/{id}"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("look-ahead", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "(?=x)(?P<id>[0-9]+)", "url_template", "https://x/{id}"), 400, "BAD_REQUEST"),
		confBad("group not in template", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "Y(?P<id>[0-9]+)", "url_template", "https://x/"), 400, "BAD_REQUEST"),
		confBad("duplicate pattern", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "JIRA-(?P<key>[0-9]+)", "url_template", "https://jira.example.org/{key}"), 400, "BAD_REQUEST"),
		// RE2's program budget (re2.cc RE2::Init): "pattern too large - compile failed".
		confBad("pattern too large for RE2", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", strings.Repeat("a{1000}", 700), "url_template", "https://x/"), 400, "BAD_REQUEST"),
		confBad("missing url_template", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "Z(?P<id>[0-9]+)"), 400, "REQUEST_VARIABLE_MISSING"),
		confFL(confBad("reverse template not reproducing the example", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP(
			"pattern", "R(?P<id>[0-9]+)", "url_template", "https://r/{id}", "example_input", "R12", "reverse_template", "X{id}"), 400, "BAD_REQUEST"), 471, 0),
	}})
	add(confGroup{op: "update-linkifier", steps: []confStep{
		confOK("admin", "update-linkifier", confAdmin, confPATCH, "/realm/filters/1", confP("pattern", "#(?P<id>[0-9]+)", "url_template", "https://github.com/zulip/zulip/pull/{id}")),
		confOK("admin, reverse linkification", "update-linkifier", confAdmin, confPATCH, "/realm/filters/1", confP("pattern", "#(?P<id>[0-9]+)",
			"url_template", "https://github.com/zulip/zulip/pull/{id}", "example_input", "#123", "reverse_template", "#{id}",
			"alternative_url_templates", `["https://github.com/zulip/zulip/issues/{id}"]`)),
		confBad("member", "update-linkifier", confMember, confPATCH, "/realm/filters/1", confP("pattern", "#(?P<id>[0-9]+)", "url_template", "https://x/{id}"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("unknown id", "update-linkifier", confAdmin, confPATCH, "/realm/filters/999", confP("pattern", "#(?P<id>[0-9]+)", "url_template", "https://x/{id}"), 400, "BAD_REQUEST"),
		confBad("missing pattern", "update-linkifier", confAdmin, confPATCH, "/realm/filters/1", confP("url_template", "https://x/{id}"), 400, "REQUEST_VARIABLE_MISSING"),
		confBad("invalid template", "update-linkifier", confAdmin, confPATCH, "/realm/filters/1", confP("pattern", "#(?P<id>[0-9]+)", "url_template", "https://x/{id"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "remove-linkifier", steps: []confStep{
		confOK("admin", "remove-linkifier", confAdmin, confDELETE, "/realm/filters/1", nil),
		confBad("removed already", "remove-linkifier", confAdmin, confDELETE, "/realm/filters/1", nil, 400, "BAD_REQUEST"),
		confBad("member", "remove-linkifier", confMember, confDELETE, "/realm/filters/1", nil, 400, "UNAUTHORIZED_PRINCIPAL"),
	}})
	add(confGroup{op: "reorder-linkifiers", steps: []confStep{
		confCapture(confOK("add a second", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "T(?P<n>[0-9]+)", "url_template", "https://t/{n}")), "id", "id"),
		confOK("reverse the order", "reorder-linkifiers", confAdmin, confPATCH, "/realm/linkifiers", confP("ordered_linkifier_ids", "[${id},1]")),
		confBad("not all listed", "reorder-linkifiers", confAdmin, confPATCH, "/realm/linkifiers", confP("ordered_linkifier_ids", "[1]"), 400, "BAD_REQUEST"),
		confBad("duplicates", "reorder-linkifiers", confAdmin, confPATCH, "/realm/linkifiers", confP("ordered_linkifier_ids", "[1,1,${id}]"), 400, "BAD_REQUEST"),
		confBad("member", "reorder-linkifiers", confMember, confPATCH, "/realm/linkifiers", confP("ordered_linkifier_ids", "[1,${id}]"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("missing list", "reorder-linkifiers", confAdmin, confPATCH, "/realm/linkifiers", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})
}
