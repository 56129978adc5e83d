package acctest

import (
	"fmt"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// SeedTime is when the reference server's seeded realm was "created"
// (refserver.seedBase); seeded timestamps are offsets from it.
var SeedTime = time.Date(2024, 1, 15, 9, 0, 0, 0, time.UTC)

// LinkifierOnServer checks the reference server's copy of a linkifier.
func LinkifierOnServer(srv *Server, id int, urlTemplate string) error {
	err := fmt.Errorf("linkifier %d not on the server", id)
	srv.Do(func(r *refserver.Realm) {
		for _, l := range r.Linkifiers {
			if l.ID == id {
				err = nil
				if l.URLTemplate != urlTemplate {
					err = fmt.Errorf("server has url_template %q, want %q", l.URLTemplate, urlTemplate)
				}
			}
		}
	})
	return err
}

// DomainOnServer checks the reference server's copy of an allowed domain.
func DomainOnServer(srv *Server, domain string, allowSubdomains bool) error {
	err := fmt.Errorf("domain %q is not allowed on the server", domain)
	srv.Do(func(r *refserver.Realm) {
		for _, d := range r.Domains {
			if d.Domain == domain {
				err = nil
				if d.AllowSubdomains != allowSubdomains {
					err = fmt.Errorf("server has allow_subdomains=%t for %q, want %t", d.AllowSubdomains, domain, allowSubdomains)
				}
			}
		}
	})
	return err
}

// ChannelByName finds a channel on the server.
func ChannelByName(srv *Server, name string) (ch refserver.Channel, ok bool) {
	srv.Do(func(r *refserver.Realm) {
		for _, c := range r.Channels {
			if c.Name == name {
				ch, ok = *c, true
			}
		}
	})
	return ch, ok
}

// GroupByName finds a group on the server.
func GroupByName(srv *Server, name string) (g refserver.UserGroup, ok bool) {
	srv.Do(func(r *refserver.Realm) {
		for _, v := range r.Groups {
			if v.Name == name {
				g, ok = *v, true
			}
		}
	})
	return g, ok
}

// CountIn counts the elements of a slice that match.
func CountIn[S ~[]E, E any](s S, match func(E) bool) int {
	n := 0
	for _, e := range s {
		if match(e) {
			n++
		}
	}
	return n
}

// CountInMap counts the values of a map that match.
func CountInMap[M ~map[K]V, K comparable, V any](m M, match func(V) bool) int {
	n := 0
	for _, v := range m {
		if match(v) {
			n++
		}
	}
	return n
}
