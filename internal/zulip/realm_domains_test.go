package zulip

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestListRealmDomains(t *testing.T) {
	env := setup(t)
	env.handle("/realm/domains", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		success(w, `"domains":[{"domain":"example.com","allow_subdomains":false},{"domain":"corp.example","allow_subdomains":true}]`)
	})
	got, err := env.client.ListRealmDomains(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []RealmDomain{{"example.com", false}, {"corp.example", true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestAddRealmDomain(t *testing.T) {
	env := setup(t)
	env.handle("/realm/domains", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{"domain": {"Example.COM"}, "allow_subdomains": {"true"}})
		success(w, `"new_domain":[17,"example.com"]`)
	})
	got, err := env.client.AddRealmDomain(context.Background(), "Example.COM", true)
	if err != nil {
		t.Fatal(err)
	}
	if *got != (NewRealmDomain{ID: 17, Domain: "example.com"}) {
		t.Errorf("got %+v", got)
	}
}

func TestAddRealmDomain_badAnswer(t *testing.T) {
	env := setup(t)
	env.handle("/realm/domains", func(w http.ResponseWriter, r *http.Request) {
		success(w, `"new_domain":[17]`)
	})
	_, err := env.client.AddRealmDomain(context.Background(), "example.com", false)
	if err == nil || !strings.Contains(err.Error(), "new_domain") {
		t.Errorf("error = %v", err)
	}
}

func TestUpdateRealmDomain(t *testing.T) {
	env := setup(t)
	env.handle("/realm/domains/{domain}", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		if got := r.PathValue("domain"); got != "Example.com" {
			t.Errorf("domain = %q", got)
		}
		testFormValues(t, r, url.Values{"allow_subdomains": {"false"}})
		success(w, "")
	})
	if err := env.client.UpdateRealmDomain(context.Background(), "Example.com", false); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteRealmDomain_pathEscaped(t *testing.T) {
	env := setup(t)
	env.handle("/realm/domains/{domain}", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		if got := r.PathValue("domain"); got != "bad/dom ain?x" {
			t.Errorf("domain = %q", got)
		}
		if !strings.HasSuffix(r.URL.EscapedPath(), "/realm/domains/bad%2Fdom%20ain%3Fx") {
			t.Errorf("escaped path = %q", r.URL.EscapedPath())
		}
		testQuery(t, r, nil)
		success(w, "")
	})
	if err := env.client.DeleteRealmDomain(context.Background(), "bad/dom ain?x"); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteRealmDomain_notFound(t *testing.T) {
	env := setup(t)
	env.handle("/realm/domains/{domain}", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"No entry found for domain example.com.","code":"BAD_REQUEST"}`)
	})
	if err := env.client.DeleteRealmDomain(context.Background(), "example.com"); !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}
