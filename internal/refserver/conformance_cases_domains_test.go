package refserver_test

func init() { confAreas["domains"] = confCasesDomains }

// confCasesDomains are the conformance requests of the allowed domains.
func confCasesDomains(add func(confGroup)) {
	// Realm domains are not in the FL420 description (digest §3): envelope only.
	add(confGroup{op: "add-realm-domain", name: "realm-domains", steps: []confStep{
		confOK("list", "get-realm-domains", confMember, confGET, "/realm/domains", nil),
		confOK("add", "add-realm-domain", confOwner, confPOST, "/realm/domains", confP("domain", " Example.ORG ", "allow_subdomains", "true")),
		confOK("change", "patch-realm-domain", confOwner, confPATCH, "/realm/domains/example.org", confP("allow_subdomains", "false")),
		confBad("add as admin", "add-realm-domain", confAdmin, confPOST, "/realm/domains", confP("domain", "example.net", "allow_subdomains", "false"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("add a duplicate", "add-realm-domain", confOwner, confPOST, "/realm/domains", confP("domain", "example.org", "allow_subdomains", "false"), 400, "BAD_REQUEST"),
		confBad("add an invalid domain", "add-realm-domain", confOwner, confPOST, "/realm/domains", confP("domain", "nodot", "allow_subdomains", "false"), 400, "BAD_REQUEST"),
		confBad("change an unknown domain", "patch-realm-domain", confOwner, confPATCH, "/realm/domains/unknown.org", confP("allow_subdomains", "true"), 400, "BAD_REQUEST"),
		confOK("delete", "delete-realm-domain", confOwner, confDELETE, "/realm/domains/example.org", nil),
		confBad("delete again", "delete-realm-domain", confOwner, confDELETE, "/realm/domains/example.org", nil, 400, "BAD_REQUEST"),
	}})
}
