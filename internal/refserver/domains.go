package refserver

import (
	"strings"
)

func init() {
	registerArea("domains", area{seed: seedDomains, seedStep: 60, routes: (*Server).routesDomains, sections: map[string]registerSection{"realm_domains": (*Server).registerRealmDomains}})
}

// routesDomains registers the realm domain endpoints.
func (s *Server) routesDomains() {
	s.handle("GET /realm/domains", authUser, s.listDomains)
	s.handle("POST /realm/domains", authUser, withEvents(s.createDomain, s.emitDomainAdded))
	s.handle("PATCH /realm/domains/{domain}", authUser, withEvents(s.updateDomain, s.emitDomainChanged))
	s.handle("DELETE /realm/domains/{domain}", authUser, s.withDomainRemovalEvents(s.deleteDomain))
}

// domainsWire renders the realm domains (RealmDomain objects, in creation order).
func (s *Server) domainsWire() []obj {
	out := make([]obj, 0, len(s.realm.Domains))
	for _, d := range s.realm.Domains {
		out = append(out, obj{"domain": d.Domain, "allow_subdomains": d.AllowSubdomains})
	}
	return out
}

// listDomains serves GET /realm/domains (any user).
func (s *Server) listDomains(c *call) (obj, error) {
	return obj{"domains": s.domainsWire()}, nil
}

// createDomain serves POST /realm/domains (owners only).
func (s *Server) createDomain(c *call) (obj, error) {
	if err := c.requireOwner(); err != nil {
		return nil, err
	}
	raw, err := c.reqString("domain")
	if err != nil {
		return nil, err
	}
	var allow bool
	if err := c.reqJSON("allow_subdomains", &allow); err != nil {
		return nil, err
	}
	domain := trimmedLower(raw)
	if reason := domainInvalidReason(domain); reason != "" {
		return nil, errBadRequest("Invalid domain: %s", reason)
	}
	r := c.realm()
	if domainFind(r, domain) != nil {
		return nil, errBadRequest("The domain %s is already a part of your organization.", domain)
	}
	d := &RealmDomain{ID: r.newID("realm_domain"), Domain: domain, AllowSubdomains: allow}
	r.Domains = append(r.Domains, d)
	return obj{"new_domain": []any{d.ID, d.Domain}}, nil
}

// updateDomain serves PATCH /realm/domains/{domain}. The path value is looked up
// as given (not lowercased), as Zulip does.
func (s *Server) updateDomain(c *call) (obj, error) {
	if err := c.requireOwner(); err != nil {
		return nil, err
	}
	var allow bool
	if err := c.reqJSON("allow_subdomains", &allow); err != nil {
		return nil, err
	}
	name := c.r.PathValue("domain")
	d := domainFind(c.realm(), name)
	if d == nil {
		return nil, errBadRequest("No entry found for domain %s.", name)
	}
	d.AllowSubdomains = allow
	return nil, nil
}

// deleteDomain serves DELETE /realm/domains/{domain}. Removing the last
// domain of a realm whose e-mails are restricted to its domains lifts the
// restriction, as do_remove_realm_domain (zerver/actions/realm_domains.py)
// does: "the feature doesn't do anything if there are no domains".
func (s *Server) deleteDomain(c *call) (obj, error) {
	if err := c.requireOwner(); err != nil {
		return nil, err
	}
	name := c.r.PathValue("domain")
	r := c.realm()
	for i, d := range r.Domains {
		if d.Domain == name {
			r.Domains = append(r.Domains[:i:i], r.Domains[i+1:]...)
			if len(r.Domains) == 0 && r.Settings.EmailsRestrictedToDomains {
				r.Settings.EmailsRestrictedToDomains = false
			}
			return nil, nil
		}
	}
	return nil, errBadRequest("No entry found for domain %s.", name)
}

// domainFind returns the realm domain with exactly this name, or nil.
func domainFind(r *Realm, name string) *RealmDomain {
	for _, d := range r.Domains {
		if d.Domain == name {
			return d
		}
	}
	return nil
}

// domainInvalidReason is Zulip's validate_domain (zerver/lib/domains.py): the
// reason a (stripped, lowercased) domain is invalid, or "" when it is valid.
func domainInvalidReason(domain string) string {
	switch {
	case domain == "":
		return "Domain can't be empty."
	case !strings.Contains(domain, "."):
		return "Domain must have at least one dot (.)"
	case len([]rune(domain)) > 255:
		return "Domain is too long"
	case domain[0] == '.' || domain[len(domain)-1] == '.':
		return "Domain cannot start or end with a dot (.)"
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" {
			return "Consecutive '.' are not allowed."
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return "Subdomains cannot start or end with a '-'."
		}
		if strings.Trim(label, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return "Domain can only have letters, numbers, '.' and '-'s."
		}
	}
	return ""
}

// registerRealmDomains is register's realm_domains section.
func (s *Server) registerRealmDomains(rr *registerRequest, out obj) {
	out["realm_domains"] = nonNilObjs(s.domainsWire())
}

// seedDomains allows the realm's own domain.
func seedDomains(r *Realm, _, _ int64) {
	host := r.Host
	r.Domains = []*RealmDomain{{ID: 1, Domain: host, AllowSubdomains: false}}
	r.NextID["realm_domain"] = 1
}

// RealmDomain is an allowed e-mail domain.
type RealmDomain struct {
	ID              int    `json:"id"`
	Domain          string `json:"domain"`
	AllowSubdomains bool   `json:"allow_subdomains"`
}
