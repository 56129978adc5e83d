package kit

// The create journal: recovery from a killed apply in one plain apply.
//
// Terraform records a created object in its state only after the provider
// answers, and persists the state now and then. An apply killed outright
// (SIGKILL, a cancelled CI job, a machine that went down) therefore leaves
// objects in the organization that no state holds; the next plan would find
// each of them "already existing" and ask for one import per object, and
// those that a failed resource's dependents name only one round later.
//
// So the provider keeps a journal in Terraform's data directory (the
// `.terraform` directory of the working directory, or TF_DATA_DIR): after
// each create of an object, one line with the object's type, its keys, its
// natural key and its import id; once a later run reads the object from a
// state, a line saying so. An object the journal names and no state holds is
// this working directory's own: the plan lets its resource be created again
// and says that it will be adopted, and the create adopts it (imports it,
// reads it, and updates it to the configuration) instead of making another.
// The adoption checks that the object it finds is the very object the journal
// recorded (the same id), so a stranger that took the name since is never
// adopted; and only a resource of the type and natural key the journal
// recorded adopts it (a type without a natural key, such as a saved snippet,
// by the same planned values). Entries are kept 30 days.
//
// Where the working directory does not outlive the run (a pipeline's fresh
// clone), there is no journal to read: the plan names each object with its
// import block, as before.

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// journalFile is the journal's name inside Terraform's data directory.
const journalFile = "zulip-provider-creates.jsonl"

// journalKeep is how long an entry no state has confirmed is kept.
const journalKeep = 30 * 24 * time.Hour

// NewCreateJournal is the create journal of the given types, kept in dir
// (see WithCreateJournal); nil without a directory.
func NewCreateJournal(dir string, types map[string]bool) *CreateJournal {
	if dir == "" {
		return nil
	}
	return &CreateJournal{path: filepath.Join(dir, journalFile), types: types}
}

// covers reports a journal that records creates of TypeName.
func (j *CreateJournal) covers(typeName string) bool {
	return j != nil && j.types[typeName]
}

// DataDir is Terraform's data directory as a provider started by Terraform
// sees it: TF_DATA_DIR, else .terraform in the working directory (Terraform
// starts its providers there), as an absolute path.
func DataDir(getenv func(string) string) string {
	dir := getenv("TF_DATA_DIR")
	if dir == "" {
		dir = ".terraform"
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return abs
}

// journalEntry is one line of the journal.
type journalEntry struct {
	Realm string `json:"realm"`
	Type  string `json:"type"`
	// Keys are the object's id and identity values (as noteHeld takes them).
	Keys []string `json:"keys"`
	// Natural is the natural key as the plan claimed it; empty for a type
	// without one, which Fingerprint (the planned values) stands in for.
	Natural     string    `json:"natural,omitempty"`
	Fingerprint string    `json:"fingerprint,omitempty"`
	ImportID    string    `json:"import_id"`
	At          time.Time `json:"at"`
	// Held marks a line that says a state holds the object now.
	Held bool `json:"held,omitempty"`
	// Intent marks a create whose outcome is unknown: the request was sent,
	// its answer lost, and the collection read afterwards had no new object
	// (the request could still be in flight at the server). It has no Keys;
	// After is the largest id seen before the attempt (Zulip's ids grow),
	// so the object it may have made is the one with the same natural key
	// and a larger id (resolveIntent). Intent lines are told apart by ID; a
	// Held line with that ID ends one.
	Intent bool   `json:"intent,omitempty"`
	ID     string `json:"id,omitempty"`
	After  int64  `json:"after,omitempty"`
}

// CreateJournal is the journal of one provider process.
type CreateJournal struct {
	path string
	// types are the journaled types (the registry's entries marked journaled).
	types map[string]bool
	mu    sync.Mutex
	once  sync.Once
	// pending are the entries no state has confirmed yet.
	pending []journalEntry
}

// load reads the journal once, drops what states confirmed and what expired,
// and writes it back compacted (or removes it) when anything was dropped.
// Two provider processes of one run (two provider configurations) may load
// and compact at once; the worst outcome is a confirmation lost, which the
// next run's read writes again.
func (j *CreateJournal) load(ctx context.Context) {
	j.once.Do(func() {
		f, err := os.Open(j.path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				tflog.Warn(ctx, "the create journal could not be read", map[string]any{"path": j.path, "error": err.Error()})
			}
			return
		}
		defer func() { _ = f.Close() }()
		lines := 0
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			lines++
			var e journalEntry
			switch {
			case json.Unmarshal(sc.Bytes(), &e) != nil: // a line cut short by a kill
			case e.Held && e.Intent:
				j.pending = slices.DeleteFunc(j.pending, func(p journalEntry) bool { return p.Intent && p.ID == e.ID })
			case e.Held:
				j.pending = slices.DeleteFunc(j.pending, func(p journalEntry) bool { return p.sameObject(e) })
			case time.Since(e.At) <= journalKeep:
				j.pending = append(j.pending, e)
			}
		}
		// Anything but the pending entries (confirmations, expired or cut
		// lines) is dropped from the file.
		if lines > len(j.pending) {
			j.rewrite(ctx)
		}
	})
}

// sameObject reports an entry of the same object (realm, type and id).
func (e journalEntry) sameObject(o journalEntry) bool {
	return e.Realm == o.Realm && e.Type == o.Type && len(e.Keys) > 0 && len(o.Keys) > 0 && e.Keys[0] == o.Keys[0]
}

// rewrite replaces the file by the pending entries; removes it when there
// are none. Called with the entries loaded, under j.mu or before any use.
func (j *CreateJournal) rewrite(ctx context.Context) {
	if len(j.pending) == 0 {
		if err := os.Remove(j.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			tflog.Warn(ctx, "the create journal could not be removed", map[string]any{"path": j.path, "error": err.Error()})
		}
		return
	}
	var buf []byte
	for _, e := range j.pending {
		line, err := json.Marshal(e)
		if err != nil {
			return
		}
		buf = append(append(buf, line...), '\n')
	}
	tmp := j.path + ".tmp"
	if err := os.WriteFile(tmp, buf, 0o600); err != nil {
		tflog.Warn(ctx, "the create journal could not be compacted", map[string]any{"path": j.path, "error": err.Error()})
		return
	}
	if err := os.Rename(tmp, j.path); err != nil {
		tflog.Warn(ctx, "the create journal could not be compacted", map[string]any{"path": j.path, "error": err.Error()})
	}
}

// appendLine writes one entry at the end of the file.
func (j *CreateJournal) appendLine(ctx context.Context, e journalEntry) {
	line, err := json.Marshal(e)
	if err != nil {
		return
	}
	if err = os.MkdirAll(filepath.Dir(j.path), 0o755); err == nil {
		err = appendFile(j.path, append(line, '\n'))
	}
	if err != nil {
		tflog.Warn(ctx, "the create journal could not be written; an apply killed now would need imports to recover",
			map[string]any{"path": j.path, "error": err.Error()})
	}
}

// appendFile writes data at the end of the file at path, creating it.
func appendFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	return errors.Join(werr, cerr)
}

// recordIntent notes a create whose outcome is unknown (journalEntry.Intent).
func (j *CreateJournal) recordIntent(ctx context.Context, e journalEntry) {
	if j == nil || e.Natural == "" || e.ImportID == "" {
		return
	}
	j.load(ctx)
	e.Intent, e.ID, e.At = true, NewInvocationID(), time.Now().UTC()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pending = append(j.pending, e)
	j.appendLine(ctx, e)
}

// findIntent returns the intent of a create of TypeName with the natural key.
func (j *CreateJournal) findIntent(ctx context.Context, realm, typeName, natural string) (journalEntry, bool) {
	if !j.covers(typeName) || natural == "" {
		return journalEntry{}, false
	}
	j.load(ctx)
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range slices.Backward(j.pending) {
		if e.Intent && e.Realm == realm && e.Type == typeName && e.Natural == natural {
			return e, true
		}
	}
	return journalEntry{}, false
}

// endIntent drops an intent, resolved or found to have made nothing.
func (j *CreateJournal) endIntent(ctx context.Context, e journalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pending = slices.DeleteFunc(j.pending, func(p journalEntry) bool { return p.Intent && p.ID == e.ID })
	j.appendLine(ctx, journalEntry{Realm: e.Realm, Type: e.Type, Intent: true, ID: e.ID, Held: true, At: time.Now().UTC()})
}

// record notes an object this process created.
func (j *CreateJournal) record(ctx context.Context, e journalEntry) {
	if j == nil || len(e.Keys) == 0 || e.ImportID == "" {
		return
	}
	j.load(ctx)
	e.At = time.Now().UTC()
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pending = append(slices.DeleteFunc(j.pending, func(p journalEntry) bool { return p.sameObject(e) }), e)
	j.appendLine(ctx, e)
}

// confirm notes that a state holds an object (by any of its keys): the
// journal forgets it.
func (j *CreateJournal) confirm(ctx context.Context, realm, typeName string, keys []string) {
	if len(keys) == 0 || !j.covers(typeName) {
		return
	}
	j.load(ctx)
	j.mu.Lock()
	defer j.mu.Unlock()
	i := slices.IndexFunc(j.pending, func(e journalEntry) bool {
		return e.Realm == realm && e.Type == typeName && len(e.Keys) > 0 && slices.Contains(keys, e.Keys[0])
	})
	if i < 0 {
		return
	}
	e := j.pending[i]
	j.pending = slices.Delete(j.pending, i, i+1)
	j.appendLine(ctx, journalEntry{Realm: e.Realm, Type: e.Type, Keys: e.Keys[:1], Held: true, At: time.Now().UTC()})
}

// holds reports an object (by its id or identity value) that the journal
// names: created by an apply of this working directory that no state has
// confirmed.
func (j *CreateJournal) holds(ctx context.Context, realm, typeName, key string) bool {
	if !j.covers(typeName) {
		return false
	}
	j.load(ctx)
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.ContainsFunc(j.pending, func(e journalEntry) bool {
		return e.Realm == realm && e.Type == typeName && slices.Contains(e.Keys, key)
	})
}

// find returns the entry a new object of TypeName would adopt: the same
// natural key, or for a type without one the same planned values.
func (j *CreateJournal) find(ctx context.Context, realm, typeName, natural, fingerprint string) (journalEntry, bool) {
	if !j.covers(typeName) {
		return journalEntry{}, false
	}
	j.load(ctx)
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range slices.Backward(j.pending) {
		if e.Intent || e.Realm != realm || e.Type != typeName {
			continue
		}
		if natural != "" && e.Natural == natural || natural == "" && e.Natural == "" && fingerprint != "" && e.Fingerprint == fingerprint {
			return e, true
		}
	}
	return journalEntry{}, false
}

// forget drops an entry whose object is gone.
func (j *CreateJournal) forget(ctx context.Context, e journalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.pending = slices.DeleteFunc(j.pending, func(p journalEntry) bool { return p.sameObject(e) })
	j.appendLine(ctx, journalEntry{Realm: e.Realm, Type: e.Type, Keys: e.Keys[:1], Held: true, At: time.Now().UTC()})
}

// fingerprint is a digest of a planned object's values.
func fingerprint(raw tftypes.Value) string {
	dv, err := tfprotov6.NewDynamicValue(raw.Type(), raw)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(dv.MsgPack)
	return hex.EncodeToString(sum[:])
}

// creating counts the creates in flight, which Drain waits for.
var creating sync.WaitGroup

// Drain waits, at most timeout, for the creates in flight to finish and be
// journaled. main calls it when Terraform is gone, before the process ends.
func Drain(timeout time.Duration) {
	done := make(chan struct{})
	go func() {
		creating.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(timeout):
	}
}

// realmKey is the organization a journal entry belongs to.
func (d *ProviderData) realmKey() string {
	if d == nil || d.Client == nil {
		return ""
	}
	return d.Client.BaseURL()
}

// Journaled reports an object that the create journal names (see holds).
func (d *ProviderData) Journaled(ctx context.Context, typeName, key string) bool {
	return d != nil && d.Journal.holds(ctx, d.realmKey(), typeName, key)
}

// adoptJournaled adopts, for a create, the object an interrupted apply of
// this working directory created for the same resource: it imports it by the
// journal's import id, reads it, checks that it is the object the journal
// recorded, and updates it to the plan. It reports false, having changed
// nothing, when there is no such object (the create then goes ahead).
func (r *ruledResource) adoptJournaled(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) bool {
	d, typ := r.data, r.info.typeName
	if d == nil || !d.Journal.covers(typ) {
		return false
	}
	natural := r.info.natural.value(req.Plan.Raw)
	fp := ""
	if natural == "" {
		fp = fingerprint(req.Plan.Raw)
	}
	e, ok := d.Journal.find(ctx, d.realmKey(), typ, natural, fp)
	if !ok || d.heldInRun(typ, e.Keys[0]) {
		return false
	}
	read, ok := r.importAndRead(ctx, e.ImportID, req.Plan.Raw.Type(), resp.State,
		resource.ReadRequest{ProviderMeta: req.ProviderMeta, Private: resp.Private})
	if !ok || !slices.Contains(r.info.keyValues(read.State.Raw), e.Keys[0]) {
		tflog.Info(ctx, "the object the create journal names is gone or another now has its key; creating",
			map[string]any{"type": typ, "import_id": e.ImportID})
		d.Journal.forget(ctx, e)
		return false
	}
	// The plan of a create leaves computed values unknown; an update plan
	// has the prior values there.
	plan := tfsdk.Plan{Schema: req.Plan.Schema, Raw: fillUnknown(req.Plan.Raw, read.State.Raw)}
	if plan.Raw.Equal(read.State.Raw) { // as configured already: nothing to send
		resp.State, resp.Private = read.State, read.Private
		addAdopted(&resp.Diagnostics, r.what(), e.ImportID)
		return true
	}
	upd := resource.UpdateResponse{State: tfsdk.State{Schema: resp.State.Schema, Raw: plan.Raw}, Private: read.Private}
	r.Resource.Update(ctx, resource.UpdateRequest{Config: req.Config, Plan: plan, State: read.State,
		ProviderMeta: req.ProviderMeta, Private: read.Private}, &upd)
	resp.Diagnostics.Append(upd.Diagnostics...)
	if upd.Diagnostics.HasError() {
		// Nothing is in state: the next plan adopts it again, or names it.
		return true
	}
	resp.State, resp.Private = upd.State, upd.Private
	addAdopted(&resp.Diagnostics, r.what(), e.ImportID)
	return true
}

// journalIntent journals a create whose outcome is unknown (journalEntry.Intent):
// for a type with a natural key and an identity the plan knows (a name), by
// which resolveIntent looks the object up.
func (r *ruledResource) journalIntent(ctx context.Context, req resource.CreateRequest, after int64) {
	d := r.data
	if d == nil || !d.Journal.covers(r.info.typeName) || r.identity == nil {
		return
	}
	d.Journal.recordIntent(ctx, journalEntry{Realm: d.realmKey(), Type: r.info.typeName,
		Natural: r.info.natural.value(req.Plan.Raw), ImportID: r.identity.importIDOf(req.Plan.Raw), After: after})
}

// resolveIntent, in the plan of a new object, settles the journal's intent of
// an earlier create with the same natural key: the object that holds the key
// now, when it is newer than every object that create saw before (a larger
// id), is the one the create made, and becomes a journaled object, which the
// plan's checks let through and the create adopts (adoptJournaled); otherwise
// the create made nothing, and the intent is dropped.
func (r *ruledResource) resolveIntent(ctx context.Context, req resource.ModifyPlanRequest) {
	d, typ := r.data, r.info.typeName
	natural := r.info.natural.value(req.Plan.Raw)
	intent, ok := d.Journal.findIntent(ctx, d.realmKey(), typ, natural)
	if !ok || !d.CanAsk() {
		return
	}
	defer d.Journal.endIntent(ctx, intent)
	read, ok := r.importAndRead(ctx, intent.ImportID, req.Plan.Raw.Type(), tfsdk.State{Schema: req.Plan.Schema},
		resource.ReadRequest{ProviderMeta: req.ProviderMeta})
	if !ok {
		return
	}
	state := read.State
	keys := r.info.keyValues(state.Raw)
	id, err := strconv.ParseInt(firstOf(keys), 10, 64)
	if err != nil || id <= intent.After || d.heldInRun(typ, keys[0]) || r.info.natural.value(state.Raw) != natural {
		tflog.Info(ctx, "the object holding the key is not the one an interrupted create made", map[string]any{"type": typ, "import_id": intent.ImportID})
		return
	}
	d.Journal.record(ctx, journalEntry{Realm: intent.Realm, Type: typ, Keys: keys, Natural: natural,
		ImportID: r.identity.importIDOf(state.Raw)})
}

// firstOf is the first of values, "" when there is none.
func firstOf(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}

// importAndRead imports the object with importID and reads it, as an import
// would, the read taking its provider meta and private state from base;
// false when there is no such object.
func (r *ruledResource) importAndRead(ctx context.Context, importID string, typ tftypes.Type, schema tfsdk.State,
	base resource.ReadRequest) (resource.ReadResponse, bool) {
	importer, ok := r.Resource.(resource.ResourceWithImportState)
	if !ok {
		return resource.ReadResponse{}, false
	}
	imp := resource.ImportStateResponse{State: tfsdk.State{Schema: schema.Schema, Raw: tftypes.NewValue(typ, nil)}}
	importer.ImportState(ctx, resource.ImportStateRequest{ID: importID}, &imp)
	if imp.Diagnostics.HasError() {
		return resource.ReadResponse{}, false
	}
	base.State = imp.State
	read := resource.ReadResponse{State: imp.State, Private: base.Private}
	r.Resource.Read(ctx, base, &read)
	if read.Diagnostics.HasError() || read.State.Raw.IsNull() {
		return resource.ReadResponse{}, false
	}
	return read, true
}

// addAdopted tells that a create adopted a journaled object.
func addAdopted(diags *diag.Diagnostics, what, importID string) {
	diags.AddWarning(TitleCase(what)+" Adopted After an Interrupted Apply",
		fmt.Sprintf("An earlier apply in this working directory created this %s (import id %q) and was stopped before "+
			"Terraform recorded it. This apply adopted it and brought it to the configuration, instead of creating "+
			"another.", what, importID))
}

// what names the type in messages ("linkifier", "custom emoji").
func (r *ruledResource) what() string {
	return strings.ReplaceAll(strings.TrimPrefix(r.info.typeName, "zulip_"), "_", " ")
}

// fillUnknown replaces the unknown values of plan by the values at the same
// place in state.
func fillUnknown(plan, state tftypes.Value) tftypes.Value {
	out, err := tftypes.Transform(plan, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		if got, _, werr := tftypes.WalkAttributePath(state, p); werr == nil {
			if sv, ok := got.(tftypes.Value); ok {
				return sv, nil
			}
		}
		return v, nil // not in state: stays unknown
	})
	if err != nil {
		return plan
	}
	return out
}

// noteAdoption tells, in the plan of a new object, that the create will adopt
// the object an interrupted apply created for it.
func (r *ruledResource) noteAdoption(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	d, typ := r.data, r.info.typeName
	natural := r.info.natural.value(req.Plan.Raw)
	if d.Journal == nil || natural == "" {
		return
	}
	e, ok := d.Journal.find(ctx, d.realmKey(), typ, natural, "")
	if !ok {
		return
	}
	if d.heldInRun(typ, e.Keys[0]) {
		return // another resource's state has it
	}
	resp.Diagnostics.AddWarning(TitleCase(r.what())+" Will Be Adopted",
		fmt.Sprintf("An earlier apply in this working directory created this %s (import id %q) and was stopped before "+
			"Terraform recorded it. The apply adopts it and brings it to the configuration instead of creating another.",
			r.what(), e.ImportID))
}
