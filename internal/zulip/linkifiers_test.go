package zulip

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

func TestListLinkifiers(t *testing.T) {
	env := setup(t)
	env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testAuth(t, r)
		testQuery(t, r, nil)
		success(w, `"linkifiers":[
			{"pattern":"#(?P<id>[0-9]+)","url_template":"https://github.com/zulip/zulip/issues/{id}","id":1,
			 "example_input":"#1234","reverse_template":"#{id}","alternative_url_templates":["https://github.com/zulip/zulip/pull/{id}"],"future_field":1},
			{"pattern":"old","url_template":"https://o/","id":2}]`)
	})
	got, err := env.client.ListLinkifiers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []Linkifier{
		{ID: 1, Pattern: "#(?P<id>[0-9]+)", URLTemplate: "https://github.com/zulip/zulip/issues/{id}", ExampleInput: ptr("#1234"),
			ReverseTemplate: ptr("#{id}"), AlternativeURLTemplates: []string{"https://github.com/zulip/zulip/pull/{id}"}},
		{ID: 2, Pattern: "old", URLTemplate: "https://o/"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ListLinkifiers = %+v, want %+v", got, want)
	}
}

func TestCreateLinkifier(t *testing.T) {
	env := setup(t)
	env.handle("/realm/filters", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testAuth(t, r)
		testFormValues(t, r, url.Values{
			"pattern":                   {"#(?P<id>[0-9]+)"},
			"url_template":              {"https://x.example/{id}"},
			"example_input":             {"#12"},
			"reverse_template":          {"#{id}"},
			"alternative_url_templates": {`["https://x.example/pull/{id}"]`},
		})
		success(w, `"id":42`)
	})
	id, err := env.client.CreateLinkifier(context.Background(), LinkifierRequest{
		Pattern: "#(?P<id>[0-9]+)", URLTemplate: "https://x.example/{id}", ExampleInput: ptr("#12"), ReverseTemplate: ptr("#{id}"),
		AlternativeURLTemplates: []string{"https://x.example/pull/{id}"},
	})
	if err != nil || id != 42 {
		t.Fatalf("CreateLinkifier = %d, %v", id, err)
	}
}

func TestCreateLinkifier_minimal(t *testing.T) {
	env := setup(t)
	env.handle("/realm/filters", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"pattern": {"p"}, "url_template": {"u"}})
		success(w, `"id":1`)
	})
	if _, err := env.client.CreateLinkifier(context.Background(), LinkifierRequest{Pattern: "p", URLTemplate: "u"}); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateLinkifier(t *testing.T) {
	env := setup(t)
	env.handle("/realm/filters/7", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		// Pattern and url_template always travel; "" resets example_input; an empty list
		// clears the alternatives.
		testFormValues(t, r, url.Values{
			"pattern":                   {"p"},
			"url_template":              {"u"},
			"example_input":             {""},
			"alternative_url_templates": {"[]"},
		})
		success(w, "")
	})
	err := env.client.UpdateLinkifier(context.Background(), 7, LinkifierRequest{Pattern: "p", URLTemplate: "u", ExampleInput: ptr(""), AlternativeURLTemplates: []string{}})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDeleteLinkifier(t *testing.T) {
	env := setup(t)
	env.handle("/realm/filters/7", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testFormValues(t, r, nil)
		success(w, "")
	})
	if err := env.client.DeleteLinkifier(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteLinkifier_notFound(t *testing.T) {
	env := setup(t)
	env.handle("/realm/filters/7", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"Linkifier not found.","code":"BAD_REQUEST"}`)
	})
	err := env.client.DeleteLinkifier(context.Background(), 7)
	if !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}

func TestReorderLinkifiers(t *testing.T) {
	env := setup(t)
	env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, url.Values{"ordered_linkifier_ids": {"[3,1,2]"}})
		success(w, "")
	})
	if err := env.client.ReorderLinkifiers(context.Background(), []int64{3, 1, 2}); err != nil {
		t.Fatal(err)
	}
}
