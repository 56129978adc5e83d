package refserver

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
)

// pngBytes is the start of a PNG file: its signature is what the server checks.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")

// emojiUpload sends POST /realm/emoji/{name} with the files given as
// (content type, data) pairs.
func (e *coreEnv) emojiUpload(userID int, name string, files ...[2]string) coreAnswer {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="f`+string(rune('a'+i))+`"; filename="e.img"`)
		h.Set("Content-Type", f[0])
		w, _ := mw.CreatePart(h)
		_, _ = w.Write([]byte(f[1]))
	}
	_ = mw.Close()
	return e.frontSend(userID, http.MethodPost, "/api/v1/realm/emoji/"+name, mw.FormDataContentType(), &buf)
}

// emojiByName is the emoji list's entry of an active (or any) emoji by name.
func (e *coreEnv) emojiByName(name string, active bool) map[string]any {
	e.t.Helper()
	a := e.frontSend(SeedMemberID, http.MethodGet, "/api/v1/realm/emoji", "", nil)
	coreWantOK(e.t, a)
	for _, v := range a.body["emoji"].(map[string]any) {
		m := v.(map[string]any)
		if m["name"] == name && (!active || m["deactivated"] == false) {
			return m
		}
	}
	return nil
}

// TestUploadEmoji: upload_emoji's checks, in its order, with its words.
func TestUploadEmoji(t *testing.T) {
	e := coreStart(t, Options{})
	png := [2]string{"image/png", string(pngBytes)}
	coreWantOK(t, e.emojiUpload(SeedMemberID, "ship it", png)) // a space is an underscore
	got := e.emojiByName("ship_it", true)
	if got == nil || got["author_id"] != float64(SeedMemberID) || got["still_url"] != nil ||
		!strings.HasPrefix(got["source_url"].(string), "/user_avatars/") || !strings.HasSuffix(got["source_url"].(string), ".png") {
		t.Fatalf("uploaded emoji: %v", got)
	}
	for _, c := range []struct {
		user  int
		name  string
		files [][2]string
		code  string
		msg   string
	}{
		{SeedGuestID, "x", [][2]string{png}, "BAD_REQUEST", "Not allowed for guest users"},
		{SeedMemberID, "Ship", [][2]string{png}, "BAD_REQUEST", "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores."},
		{SeedMemberID, "ship-", [][2]string{png}, "BAD_REQUEST", "Emoji names must end with either a letter or digit."},
		{SeedMemberID, "%20", [][2]string{png}, "BAD_REQUEST", "Emoji name is missing"},
		{SeedMemberID, "ship_it", [][2]string{png}, "BAD_REQUEST", "A custom emoji with this name already exists."},
		{SeedMemberID, "two", [][2]string{png, png}, "BAD_REQUEST", "You must upload exactly one file."},
		{SeedMemberID, "none", nil, "BAD_REQUEST", "You must upload exactly one file."},
		{SeedMemberID, "smile", [][2]string{png}, "BAD_REQUEST", "Only administrators can override built-in emoji."},
		{SeedMemberID, "big", [][2]string{{"image/png", string(pngBytes) + strings.Repeat("x", 5<<20)}}, "BAD_REQUEST", "Uploaded file is larger than the allowed limit of 5 MiB"},
		{SeedMemberID, "svg", [][2]string{{"image/svg+xml", "<svg/>"}}, "BAD_IMAGE", "Invalid image format"},
		{SeedMemberID, "fake", [][2]string{{"image/png", "GIF89a"}}, "BAD_IMAGE", "Could not decode image; did you upload an image file?"},
	} {
		coreWantError(t, e.emojiUpload(c.user, c.name, c.files...), 400, c.code, c.msg)
	}
	coreWantOK(t, e.emojiUpload(SeedAdminID, "smile", png)) // an administrator may override a built-in emoji
	// An animated GIF has a still image; a deactivated name can be used again.
	coreWantOK(t, e.emojiUpload(SeedMemberID, "old_logo", [2]string{"image/gif", "GIF89a....NETSCAPE2.0...."}))
	if got := e.emojiByName("old_logo", true); got == nil || got["still_url"] == nil || got["id"] == "2" {
		t.Errorf("re-used name: %v", got)
	}
	// Who may add emoji is can_add_custom_emoji_group.
	e.srv.Do(func(r *Realm) {
		r.Settings.GroupSettings["can_add_custom_emoji_group"] = GroupSetting{GroupID: GroupAdministrators}
	})
	coreWantError(t, e.emojiUpload(SeedMemberID, "later", png), 400, "BAD_REQUEST", "Insufficient permission")
	coreWantOK(t, e.emojiUpload(SeedAdminID, "later", png))
}

// TestDeleteEmoji: the author or an administrator deactivates an emoji; the
// entry stays in the list, deactivated.
func TestDeleteEmoji(t *testing.T) {
	e := coreStart(t, Options{})
	coreWantOK(t, e.emojiUpload(SeedMemberID, "mine", [2]string{"image/png", string(pngBytes)}))
	coreWantError(t, e.frontSend(SeedMember2ID, http.MethodDelete, "/api/v1/realm/emoji/mine", "", nil),
		400, "BAD_REQUEST", "Must be an organization administrator or emoji author")
	coreWantOK(t, e.frontSend(SeedMemberID, http.MethodDelete, "/api/v1/realm/emoji/mine", "", nil))
	if got := e.emojiByName("mine", false); got == nil || got["deactivated"] != true {
		t.Errorf("deactivated emoji: %v", got)
	}
	coreWantError(t, e.frontSend(SeedMemberID, http.MethodDelete, "/api/v1/realm/emoji/mine", "", nil),
		404, "BAD_REQUEST", "Emoji 'mine' does not exist")
	coreWantOK(t, e.frontSend(SeedAdminID, http.MethodDelete, "/api/v1/realm/emoji/green_tick", "", nil))
}
