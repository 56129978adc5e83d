package zulip

import (
	"context"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"testing"
)

// deleteForm is the form body of a DELETE (which Request.ParseForm leaves unread).
func deleteForm(t *testing.T, r *http.Request) url.Values {
	t.Helper()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	v, err := url.ParseQuery(string(body))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var _ = methodGroup(methodCasesBranding)

// methodCasesBranding: the organization's icon and logos.
func methodCasesBranding() []methodCase {
	return []methodCase{
		{"GetRealmBranding", "POST", "/register", func(ctx context.Context, c *Client) error { return ignore(c.GetRealmBranding(ctx)) }},
		{"UploadRealmIcon", "POST", "/realm/icon", func(ctx context.Context, c *Client) error {
			return c.UploadRealmIcon(ctx, "icon.png", "image/png", []byte("\x89PNG"))
		}},
		{"DeleteRealmIcon", "DELETE", "/realm/icon", func(ctx context.Context, c *Client) error { return c.DeleteRealmIcon(ctx) }},
		{"UploadRealmLogo", "POST", "/realm/logo", func(ctx context.Context, c *Client) error {
			return c.UploadRealmLogo(ctx, true, "logo.png", "image/png", []byte("\x89PNG"))
		}},
		{"DeleteRealmLogo", "DELETE", "/realm/logo", func(ctx context.Context, c *Client) error { return c.DeleteRealmLogo(ctx, false) }},
	}
}

// TestGetRealmBranding: the sources and URLs come from register's realm
// section, and the queue registered for them is deleted.
func TestGetRealmBranding(t *testing.T) {
	env := setup(t)
	env.handle("/register", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		if err := r.ParseForm(); err != nil {
			t.Fatal(err)
		}
		if got := r.PostForm.Get("fetch_event_types"); got != `["realm"]` {
			t.Errorf("fetch_event_types = %q", got)
		}
		success(w, `"queue_id":"q1","realm_icon_url":"/i.png?version=2","realm_icon_source":"U",
			"realm_logo_url":"/static/logo.svg","realm_logo_source":"D",
			"realm_night_logo_url":"/n.png?version=3","realm_night_logo_source":"U"`)
	})
	deleted := ""
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		deleted = deleteForm(t, r).Get("queue_id")
		success(w, "")
	})
	b, err := env.client.GetRealmBranding(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := RealmBranding{IconURL: "/i.png?version=2", IconSource: BrandingUploaded, LogoURL: "/static/logo.svg",
		LogoSource: "D", NightLogoURL: "/n.png?version=3", NightLogoSource: BrandingUploaded}
	if *b != want {
		t.Errorf("branding = %+v, want %+v", *b, want)
	}
	if deleted != "q1" {
		t.Errorf("deleted queue %q, want q1", deleted)
	}
}

// TestUploadRealmLogo: the image goes as the one file of a multipart body,
// with night as a JSON boolean beside it.
func TestUploadRealmLogo(t *testing.T) {
	env := setup(t)
	env.handle("/realm/logo", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		ct, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || ct != "multipart/form-data" {
			t.Fatalf("content type %q: %v", r.Header.Get("Content-Type"), err)
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		parts := map[string]string{}
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(part)
			if part.FileName() != "" {
				if part.FileName() != "logo.png" || part.Header.Get("Content-Type") != "image/png" {
					t.Errorf("file part %q %q", part.FileName(), part.Header.Get("Content-Type"))
				}
				parts["(file)"] = string(data)
				continue
			}
			parts[part.FormName()] = string(data)
		}
		if parts["night"] != "true" || parts["(file)"] != "\x89PNG" || len(parts) != 2 {
			t.Errorf("parts = %q", parts)
		}
		success(w, "")
	})
	if err := env.client.UploadRealmLogo(context.Background(), true, "logo.png", "image/png", []byte("\x89PNG")); err != nil {
		t.Fatal(err)
	}
}

// TestDeleteRealmLogo: night is sent as a JSON boolean.
func TestDeleteRealmLogo(t *testing.T) {
	env := setup(t)
	env.handle("/realm/logo", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		if got := deleteForm(t, r).Get("night"); got != "false" {
			t.Errorf("night = %q", got)
		}
		success(w, "")
	})
	if err := env.client.DeleteRealmLogo(context.Background(), false); err != nil {
		t.Fatal(err)
	}
}
