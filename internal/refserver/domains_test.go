package refserver

import (
	"net/url"
	"strings"
	"testing"
)

func TestDomainsList(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	for _, role := range cfgRoles {
		status, body := cfgDo(t, srv, ts, role.id, "GET", "/realm/domains", nil)
		cfgWantOK(t, status, body)
		if got := cfgJSON(body["domains"]); got != `[{"allow_subdomains":false,"domain":"zulip.example.com"}]` {
			t.Fatalf("%s: domains = %s", role.name, got)
		}
	}
}

func TestDomainsPermissions(t *testing.T) {
	callers := append(cfgRoles, struct {
		name string
		id   int
	}{"second owner", SeedOwner2ID})
	for _, role := range callers {
		t.Run(role.name, func(t *testing.T) {
			srv, ts := cfgServer(t, 0)
			requests := []struct {
				method, path string
				form         url.Values
			}{
				{"POST", "/realm/domains", cfgForm("domain", "example.org", "allow_subdomains", "true")},
				{"PATCH", "/realm/domains/example.org", cfgForm("allow_subdomains", "false")},
				{"DELETE", "/realm/domains/example.org", nil},
			}
			for _, req := range requests {
				status, body := cfgDo(t, srv, ts, role.id, req.method, req.path, req.form)
				if role.id == SeedOwnerID || role.id == SeedOwner2ID {
					cfgWantOK(t, status, body)
				} else {
					cfgWantError(t, status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
				}
			}
		})
	}
}

func TestDomainAdd(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/domains", cfgForm("domain", "  Example.ORG ", "allow_subdomains", "true"))
	cfgWantOK(t, status, body)
	if got := cfgJSON(body["new_domain"]); got != `[2,"example.org"]` {
		t.Fatalf("new_domain = %s", got)
	}
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/domains", cfgForm("domain", "EXAMPLE.org", "allow_subdomains", "false"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "The domain example.org is already a part of your organization.")
	_, body = cfgDo(t, srv, ts, SeedGuestID, "GET", "/realm/domains", nil)
	if got := cfgJSON(body["domains"]); got != `[{"allow_subdomains":false,"domain":"zulip.example.com"},{"allow_subdomains":true,"domain":"example.org"}]` {
		t.Fatalf("domains = %s", got)
	}
}

func TestDomainAddErrors(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	cases := []struct {
		name      string
		form      url.Values
		code, msg string
	}{
		{"missing domain", cfgForm("allow_subdomains", "true"), "REQUEST_VARIABLE_MISSING", "Missing 'domain' argument"},
		{"missing allow_subdomains", cfgForm("domain", "a.org"), "REQUEST_VARIABLE_MISSING", "Missing 'allow_subdomains' argument"},
		{"allow_subdomains not JSON", cfgForm("domain", "a.org", "allow_subdomains", "yes"), "BAD_REQUEST", "allow_subdomains is not valid JSON"},
		{"allow_subdomains not a boolean", cfgForm("domain", "a.org", "allow_subdomains", "1"), "BAD_REQUEST", "allow_subdomains is not a boolean"},
		{"empty", cfgForm("domain", "  ", "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Domain can't be empty."},
		{"no dot", cfgForm("domain", "localhost", "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Domain must have at least one dot (.)"},
		{"too long", cfgForm("domain", strings.Repeat("a.", 128), "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Domain is too long"},
		{"leading dot", cfgForm("domain", ".example.org", "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Domain cannot start or end with a dot (.)"},
		{"trailing dot", cfgForm("domain", "example.org.", "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Domain cannot start or end with a dot (.)"},
		{"consecutive dots", cfgForm("domain", "example..org", "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Consecutive '.' are not allowed."},
		{"dash", cfgForm("domain", "-example.org", "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Subdomains cannot start or end with a '-'."},
		{"dash at end", cfgForm("domain", "example-.org", "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Subdomains cannot start or end with a '-'."},
		{"bad character", cfgForm("domain", "exa_mple.org", "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."},
		{"unicode", cfgForm("domain", "bücher.de", "allow_subdomains", "true"), "BAD_REQUEST", "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."},
		{"duplicate of seed", cfgForm("domain", "Zulip.Example.com", "allow_subdomains", "true"), "BAD_REQUEST", "The domain zulip.example.com is already a part of your organization."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, body := cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/domains", tc.form)
			cfgWantError(t, status, body, 400, tc.code, tc.msg)
		})
	}
	// 255 characters is the limit.
	long := strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 63)
	status, body := cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/domains", cfgForm("domain", long, "allow_subdomains", "false"))
	cfgWantOK(t, status, body)
}

func TestDomainUpdateAndDelete(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedOwnerID, "PATCH", "/realm/domains/zulip.example.com", nil)
	cfgWantError(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'allow_subdomains' argument")
	// The path value is looked up as given: no lowercasing.
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "PATCH", "/realm/domains/Zulip.Example.com", cfgForm("allow_subdomains", "true"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "No entry found for domain Zulip.Example.com.")
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "PATCH", "/realm/domains/zulip.example.com", cfgForm("allow_subdomains", "true", "extra", "1"))
	cfgWantOK(t, status, body)
	if got := cfgJSON(body["ignored_parameters_unsupported"]); got != `["extra"]` {
		t.Fatalf("ignored_parameters_unsupported = %s", got)
	}
	_, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/domains", nil)
	if got := cfgJSON(body["domains"]); got != `[{"allow_subdomains":true,"domain":"zulip.example.com"}]` {
		t.Fatalf("domains = %s", got)
	}
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "DELETE", "/realm/domains/example.net", nil)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "No entry found for domain example.net.")
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "DELETE", "/realm/domains/ZULIP.example.com", nil)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "No entry found for domain ZULIP.example.com.")
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "DELETE", "/realm/domains/zulip.example.com", nil)
	cfgWantOK(t, status, body)
	_, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/domains", nil)
	if got := cfgJSON(body["domains"]); got != `[]` {
		t.Fatalf("domains = %s", got)
	}
}

// Removing the last allowed domain of a realm restricted to its domains turns
// the restriction off, as do_remove_realm_domain does
// (zerver/actions/realm_domains.py); removing another one does not.
func TestDomainDeleteLastLiftsRestriction(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	restricted := func() bool {
		var on bool
		srv.Do(func(r *Realm) { on = r.Settings.EmailsRestrictedToDomains })
		return on
	}
	srv.Do(func(r *Realm) { r.Settings.EmailsRestrictedToDomains = true })
	status, body := cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/domains", cfgForm("domain", "example.org", "allow_subdomains", "false"))
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "DELETE", "/realm/domains/example.org", nil)
	cfgWantOK(t, status, body)
	if !restricted() {
		t.Fatal("removing one of two domains lifted the restriction")
	}
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "DELETE", "/realm/domains/zulip.example.com", nil)
	cfgWantOK(t, status, body)
	if restricted() {
		t.Fatal("removing the last domain kept emails_restricted_to_domains")
	}
	// Without the restriction, removing the last domain changes nothing else.
	srv, ts = cfgServer(t, 0)
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "DELETE", "/realm/domains/zulip.example.com", nil)
	cfgWantOK(t, status, body)
	srv.Do(func(r *Realm) {
		if r.Settings.EmailsRestrictedToDomains || len(r.Domains) != 0 {
			t.Fatalf("settings %+v, domains %d", r.Settings, len(r.Domains))
		}
	})
}
