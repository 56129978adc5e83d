package refserver

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"testing"
)

// brandingUpload posts one PNG to path as user, with night when not empty.
func brandingUpload(e *coreEnv, user int, path string, night string) coreAnswer {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if night != "" {
		_ = mw.WriteField("night", night)
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="logo.png"`)
	h.Set("Content-Type", "image/png")
	w, _ := mw.CreatePart(h)
	_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	_ = mw.Close()
	return e.frontSend(user, http.MethodPost, "/api/v1"+path, mw.FormDataContentType(), &buf)
}

// The icon and logos follow zerver/views/realm_icon.py and realm_logo.py with
// zerver/actions/realm_icon.py and realm_logo.py: administrators only; each
// change bumps the version in the URL and sends realm update_dict (icon,
// logo, night_logo); deleting returns to the Gravatar identicon or the
// default logo; GET /server_settings shows the icon (get_realm_icon_url).
func TestBranding(t *testing.T) {
	e := coreStart(t, Options{})
	reg := func() map[string]any {
		a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", brandingForm("fetch_event_types", `["realm"]`))
		coreWantOK(t, a)
		return a.body
	}
	before := reg()
	if before["realm_icon_source"] != "G" || !strings.HasPrefix(before["realm_icon_url"].(string), "https://secure.gravatar.com/avatar/") ||
		before["realm_logo_source"] != "D" || before["realm_night_logo_url"] != defaultLogoURL {
		t.Fatalf("defaults: %v %v %v %v", before["realm_icon_source"], before["realm_icon_url"], before["realm_logo_source"], before["realm_night_logo_url"])
	}
	queue := eventsRegister(t, e, SeedMemberID, brandingForm("event_types", `["realm"]`))
	a := brandingUpload(e, SeedAdminID, "/realm/icon", "")
	coreWantOK(t, a)
	if a.body["icon_url"] != "/user_avatars/2/realm/icon.png?version=2" {
		t.Errorf("icon_url: %v", a.body["icon_url"])
	}
	coreWantOK(t, brandingUpload(e, SeedAdminID, "/realm/logo", "true"))
	after := reg()
	if after["realm_icon_source"] != "U" || after["realm_night_logo_source"] != "U" ||
		after["realm_night_logo_url"] != "/user_avatars/2/realm/night_logo.png?version=2" || after["realm_logo_source"] != "D" {
		t.Errorf("after uploads: %v", after)
	}
	ss := e.coreRequest(0, http.MethodGet, "/server_settings", nil)
	if ss.body["realm_icon"] != "/user_avatars/2/realm/icon.png?version=2" {
		t.Errorf("server_settings realm_icon: %v", ss.body["realm_icon"])
	}
	a = e.coreRequest(SeedAdminID, http.MethodDelete, "/realm/icon", nil)
	coreWantOK(t, a)
	if a.body["icon_url"] != before["realm_icon_url"] {
		t.Errorf("deleted icon_url: %v", a.body["icon_url"])
	}
	_, body, err := eventsPoll(t.Context(), e, SeedMemberID, brandingForm("queue_id", queue, "last_event_id", "-1", "dont_block", "true"))
	if err != nil {
		t.Fatal(err)
	}
	var props []string
	for _, ev := range body["events"].([]any) {
		m := ev.(map[string]any)
		props = append(props, m["property"].(string))
	}
	if strings.Join(props, " ") != "icon night_logo icon" {
		t.Errorf("events: %v", body["events"])
	}
	if a := brandingUpload(e, SeedModeratorID, "/realm/icon", ""); a.status != 400 || a.body["msg"] != "Must be an organization administrator" {
		t.Errorf("moderator: %d %v", a.status, a.body)
	}
}

// brandingForm builds url.Values from key/value pairs.
func brandingForm(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}
