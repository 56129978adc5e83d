package kit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestCreateJournal: an object recorded is held until a state confirms it;
// the next process reads what is pending and compacts the file; a
// confirmation removes the file once nothing is pending; expired and cut
// lines are dropped.
func TestCreateJournal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, journalFile)
	realm := "https://chat.example"
	j := NewCreateJournal(dir, testJournaledTypes)
	j.record(ctx, journalEntry{Realm: realm, Type: "zulip_channel", Keys: []string{"12", "ops"}, Natural: "ops", ImportID: "ops"})
	j.record(ctx, journalEntry{Realm: realm, Type: "zulip_linkifier", Keys: []string{"5", "A-(?P<id>.+)"}, Natural: "A-(?P<id>.+)", ImportID: "A-(?P<id>.+)"})
	j.record(ctx, journalEntry{Realm: realm, Type: "zulip_saved_snippet", Keys: []string{"7"}, Fingerprint: "f1", ImportID: "7"})

	if !j.holds(ctx, realm, "zulip_channel", "12") || !j.holds(ctx, realm, "zulip_channel", "ops") {
		t.Error("a recorded channel is not held by its id and name")
	}
	if j.holds(ctx, "https://other.example", "zulip_channel", "12") || j.holds(ctx, realm, "zulip_user_group", "12") {
		t.Error("the journal holds an object of another organization or type")
	}
	if _, ok := j.find(ctx, realm, "zulip_channel", "ops", ""); !ok {
		t.Error("the channel is not found by its natural key")
	}
	if _, ok := j.find(ctx, realm, "zulip_saved_snippet", "", "f1"); !ok {
		t.Error("the snippet is not found by its planned values")
	}
	if _, ok := j.find(ctx, realm, "zulip_saved_snippet", "", "f2"); ok {
		t.Error("a snippet with other values adopts the journaled one")
	}

	// A state confirms the channel: another process sees the rest, and the
	// file holds only the pending entries after its load.
	j.confirm(ctx, realm, "zulip_channel", []string{"12", "ops"})
	next := NewCreateJournal(dir, testJournaledTypes)
	if next.holds(ctx, realm, "zulip_channel", "12") {
		t.Error("a confirmed channel is still held by the next process")
	}
	if !next.holds(ctx, realm, "zulip_linkifier", "5") {
		t.Error("the pending linkifier is lost for the next process")
	}
	if n := countLines(t, path); n != 2 {
		t.Errorf("after the next process's load the journal has %d lines, want the 2 pending", n)
	}

	// Expired and cut lines are dropped; confirming the rest removes the file.
	old := journalEntry{Realm: realm, Type: "zulip_user_group", Keys: []string{"40"}, Natural: "old", ImportID: "old",
		At: time.Now().Add(-journalKeep - time.Hour)}
	next.appendLine(ctx, old)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"realm":"https://chat.ex`)
	_ = f.Close()
	third := NewCreateJournal(dir, testJournaledTypes)
	if third.holds(ctx, realm, "zulip_user_group", "40") {
		t.Error("an expired entry is held")
	}
	third.confirm(ctx, realm, "zulip_linkifier", []string{"5"})
	third.confirm(ctx, realm, "zulip_saved_snippet", []string{"7"})
	if last := NewCreateJournal(dir, testJournaledTypes); last.holds(ctx, realm, "zulip_saved_snippet", "7") {
		t.Error("a confirmed snippet is held")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the journal remains once nothing is pending (%v)", err)
	}
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(raw), "\n")
}

// TestFillUnknown: the unknown values of a create's plan take the read
// object's values, the known ones stay.
func TestFillUnknown(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.Number, "name": tftypes.String}}
	plan := tftypes.NewValue(typ, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.Number, tftypes.UnknownValue), "name": tftypes.NewValue(tftypes.String, "ops")})
	state := tftypes.NewValue(typ, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.Number, 12), "name": tftypes.NewValue(tftypes.String, "old")})
	got := fillUnknown(plan, state)
	want := tftypes.NewValue(typ, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.Number, 12), "name": tftypes.NewValue(tftypes.String, "ops")})
	if !got.Equal(want) {
		t.Errorf("fillUnknown = %v, want %v", got, want)
	}
}

// testJournaledTypes are the types TestCreateJournal records.
var testJournaledTypes = map[string]bool{"zulip_channel": true, "zulip_linkifier": true, "zulip_saved_snippet": true}

// TestCreateJournalIntents: a create whose outcome is unknown is kept as an
// intent, which holds no object (it has no id) and is not adopted as one; the
// next process finds it by its natural key, and once ended it is gone for
// good.
func TestCreateJournalIntents(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	realm := "https://chat.example"
	j := NewCreateJournal(dir, testJournaledTypes)
	j.recordIntent(ctx, journalEntry{Realm: realm, Type: "zulip_channel", Natural: "ops", ImportID: "ops", After: 11})
	j.recordIntent(ctx, journalEntry{Realm: realm, Type: "zulip_channel", ImportID: "x"}) // no natural key: not kept
	if j.holds(ctx, realm, "zulip_channel", "ops") || j.holds(ctx, realm, "zulip_channel", "12") {
		t.Error("an intent holds an object")
	}
	if _, ok := j.find(ctx, realm, "zulip_channel", "ops", ""); ok {
		t.Error("an intent is found as a journaled object")
	}
	next := NewCreateJournal(dir, testJournaledTypes)
	intent, ok := next.findIntent(ctx, realm, "zulip_channel", "ops")
	if !ok || intent.After != 11 || intent.ImportID != "ops" || intent.ID == "" {
		t.Fatalf("the next process finds the intent %+v (%v); want ops after 11 with an id", intent, ok)
	}
	if _, ok := next.findIntent(ctx, realm, "zulip_channel", "dev"); ok {
		t.Error("an intent is found by another natural key")
	}
	next.endIntent(ctx, intent)
	if _, ok := NewCreateJournal(dir, testJournaledTypes).findIntent(ctx, realm, "zulip_channel", "ops"); ok {
		t.Error("an ended intent is found by a later process")
	}
}
