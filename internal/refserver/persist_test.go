package refserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStateFilePersistence(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "realm.json")
	e := coreStart(t, Options{StateFile: state})
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("state file not written at start: %v", err)
	}
	// Changes through the API.
	a := e.coreRequest(SeedAdminID, http.MethodPost, "/users", url.Values{
		"email": {"newbie@zulip.example.com"}, "password": {"s3cret-pass"}, "full_name": {"New Bie"}})
	coreWantOK(t, a)
	newID := int(a.body["user_id"].(float64))
	coreWantOK(t, e.coreRequest(SeedOwnerID, http.MethodPatch, fmt.Sprintf("/users/%d", SeedMemberID), url.Values{
		"role": {"300"}, "full_name": {"Mark Moderator"}, "profile_data": {`[{"id":1,"value":"+49 30 1234"}]`}}))
	coreWantOK(t, e.coreRequest(SeedOwnerID, http.MethodDelete, fmt.Sprintf("/users/%d", SeedMember2ID), url.Values{}))
	reg := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {`[]`}})
	coreWantOK(t, reg)
	queueID := reg.body["queue_id"].(string)
	// An out-of-band change.
	e.srv.Do(func(r *Realm) { r.Name = "Renamed Realm" })
	// An SMS conversation.
	sms := smsCreate(t, e, url.Values{"to": {"+46700000001"}, "message": {"Saturday?"}, "reply_url": {"https://example.com/hook"}})

	// "Kill" the server: drop it without any shutdown, start another on the file.
	e.ts.Close()
	e2 := coreStart(t, Options{StateFile: state})

	_, body := e2.coreDo(SeedOwnerID, http.MethodGet, fmt.Sprintf("/users/%d", newID), nil)
	if u := body["user"].(map[string]any); u["full_name"] != "New Bie" || u["delivery_email"] != "newbie@zulip.example.com" {
		t.Errorf("created user lost: %v", u)
	}
	newbie, ok := e2.srv.User(newID)
	if !ok || newbie.Password != "s3cret-pass" {
		t.Fatalf("credentials lost: %+v", newbie)
	}
	a = e2.coreRequest(newID, http.MethodGet, "/users/me", nil)
	coreWantOK(t, a)
	_, body = e2.coreDo(SeedOwnerID, http.MethodGet, fmt.Sprintf("/users/%d", SeedMemberID),
		url.Values{"include_custom_profile_fields": {"true"}})
	u := body["user"].(map[string]any)
	if u["role"] != 300.0 || u["full_name"] != "Mark Moderator" {
		t.Errorf("update lost: %v", u)
	}
	if pd := u["profile_data"].(map[string]any); pd["1"].(map[string]any)["value"] != "+49 30 1234" {
		t.Errorf("profile data lost: %v", pd)
	}
	if m, _ := e2.srv.User(SeedMember2ID); m.Active {
		t.Error("deactivation lost")
	}
	a = e2.coreRequest(SeedMemberID, http.MethodDelete, "/events", url.Values{"queue_id": {queueID}})
	coreWantOK(t, a)
	e2.srv.Do(func(r *Realm) {
		if r.Name != "Renamed Realm" {
			t.Errorf("Do change lost: %q", r.Name)
		}
		if g := r.Groups[GroupModerators]; !containsInt(g.Members, SeedMemberID) {
			t.Errorf("role group lost: %v", g.Members)
		}
	})
	if _, ok := e2.srv.SMS().Conversation(sms); !ok {
		t.Errorf("SMS conversation %s lost", sms)
	}
	// Ids keep growing after a restart.
	a = e2.coreRequest(SeedAdminID, http.MethodPost, "/users", url.Values{
		"email": {"second@zulip.example.com"}, "password": {"s3cret-pass"}, "full_name": {"Second"}})
	coreWantOK(t, a)
	if got := int(a.body["user_id"].(float64)); got != newID+1 {
		t.Errorf("next id %d, want %d", got, newID+1)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	for _, en := range entries {
		if en.Name() != "realm.json" {
			t.Errorf("stray file %s", en.Name())
		}
	}
	// The file is private: it holds API keys.
	if fi, _ := os.Stat(state); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

// containsInt reports whether l holds v.
func containsInt(l []int, v int) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

func TestStateFileWrittenBeforeAnswer(t *testing.T) {
	state := filepath.Join(t.TempDir(), "realm.json")
	srv, err := New(Options{StateFile: state})
	if err != nil {
		t.Fatal(err)
	}
	// Serve one request in-process and read the file the moment it has answered.
	u, _ := srv.User(SeedOwnerID)
	req := httptest.NewRequest(http.MethodPatch, "/api/v1/users/5", strings.NewReader("full_name=Renamed+Mark"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(u.Email, u.APIKey)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("status %d %s", rec.Code, rec.Body)
	}
	data, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	var r Realm
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Users[SeedMemberID].FullName != "Renamed Mark" {
		t.Fatalf("the acknowledged change is not on disk: %q", r.Users[SeedMemberID].FullName)
	}
}

func TestStateFileErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{StateFile: bad}); err == nil {
		t.Error("a corrupt state file was accepted")
	}
	if _, err := New(Options{StateFile: filepath.Join(dir, "missing-dir", "x.json")}); err == nil {
		t.Error("an unwritable state file was accepted")
	}
}

func TestStateFileRespectsSeedDeterminism(t *testing.T) {
	// Without a state file, two servers are identical; keys are stable.
	a, _ := New(Options{})
	b, _ := New(Options{})
	ua, _ := a.User(SeedOwnerID)
	ub, _ := b.User(SeedOwnerID)
	if ua != ub {
		t.Errorf("seeded users differ: %+v %+v", ua, ub)
	}
}

// TestStaleTempFilesRemovedAtStart: a server killed between writing its
// temporary file and renaming it (SIGKILL mid-persist) leaves
// .<state>.tmp-*; the next start removes those, and only those.
func TestStaleTempFilesRemovedAtStart(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "realm.json")
	e := coreStart(t, Options{StateFile: state})
	e.ts.Close()
	stale := []string{".realm.json.tmp-123456", ".realm.json.tmp-"}
	kept := []string{"realm.json", ".realm.json.bak", "other.json", ".other.json.tmp-1", "realm.json.tmp-1"}
	for _, name := range append(stale, kept[1:]...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".realm.json.tmp-dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, ".realm.json.tmp-dir") // not a file writeFileAtomic made
	var logBuf strings.Builder
	srv, err := New(Options{StateFile: state, Logger: log.New(&logBuf, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.User(SeedOwnerID); !ok {
		t.Fatal("the state was not loaded")
	}
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left behind: %v", name, err)
		}
		if !strings.Contains(logBuf.String(), "removed "+name+",") {
			t.Errorf("removal of %s not logged:\n%s", name, logBuf.String())
		}
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s removed: %v", name, err)
		}
	}
}
