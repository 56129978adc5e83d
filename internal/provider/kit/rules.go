package kit

// The rules every resource type keeps through Terraform's own operations
// (replacement, a tainted object, two resources with one natural key, a
// provider without an account), written once as a wrapper that
// Resources puts around every type, so that no type can miss them.
//
// Replacement and taint. Terraform plans the new half of a replacement
// without a prior state, so a resource's "already exists" check would find
// the very object it is about to replace and refuse the plan. Terraform gives
// the provider one thread to follow in each case:
//   - `-replace` (and a change that requires replacement) plans twice: first
//     with the prior state, then with none but with the private data the first
//     plan returned. ruledResource.ModifyPlan writes the prior object's keys
//     into that private data on every plan with a prior state, and on a plan
//     without one reads them back: those objects are being replaced.
//   - a tainted object is planned once, without its prior state or private
//     data; but the refresh before that plan reads it. Read records the keys of
//     every object a state of this run holds.
//   - during apply, the destroy half runs first: Delete records the keys it
//     destroyed.
// An existing object with one of those keys is therefore this configuration's
// own (HeldByState), and the type's check lets the create go ahead; an object
// no state holds is still refused with its import block. That a second
// resource of this configuration claims a held object is caught by the natural
// key claims: every plan of an object claims its natural key, and a key
// claimed twice in one plan, or claimed by a new object while another resource
// gives it up (removed from the configuration or renamed), fails the plan.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// KeyRule says how to find a type's natural key in a plan: the attributes
// whose values together are unique in the organization, and whether Zulip
// compares them without regard to case.
type KeyRule struct {
	Attrs []string
	Fold  bool
}

// replacesKey is the private-data key under which a plan with a prior state
// records that object's keys, for the plan of its replacement.
const replacesKey = "replaces"

// Ruled wraps the resources of a registry entry in the kit's rules, with its
// identity when it has one.
func Ruled(e TypeEntry) func() resource.Resource {
	var once sync.Once
	var info *ruleInfo
	return func() resource.Resource {
		inner := e.NewResource()
		once.Do(func() { info = newRuleInfo(inner, e) })
		r := &ruledResource{Resource: inner, info: info, identity: e.Identity}
		if e.Identity != nil {
			if _, ok := inner.(resource.ResourceWithImportState); !ok {
				panic(fmt.Sprintf("internal error: %s has an identity but no import", info.typeName))
			}
			return &ruledIdentified{r}
		}
		return r
	}
}

// ruleInfo is what the rules know of a type, worked out once.
type ruleInfo struct {
	typeName string
	// keys are the attributes that identify an object held in a state: the
	// id and the identity's attributes, whichever the schema has.
	keys []string
	// natural is the natural key; empty when the type has none.
	natural KeyRule
	// NoAccount: the type's operations use no Zulip account.
	noAccount bool
	// role is the role every change needs (TypeEntry.Role); nil for none.
	role *TypeRole
	// destroy is what a destroy's plan says (TypeEntry.Destroy); nil for none.
	destroy *Note
	// level and attrLevels are the feature levels the type and its
	// attributes need (TypeEntry.Level, AttrLevels).
	level      int
	attrLevels map[string]int
}

// newRuleInfo reads a type's name, schema and registry entry.
func newRuleInfo(r resource.Resource, e TypeEntry) *ruleInfo {
	identity := e.Identity
	ctx := context.Background()
	var meta resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
	var sch resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sch)
	if meta.TypeName != e.TypeName {
		panic(fmt.Sprintf("internal error: the registry's %s makes resources of type %s", e.TypeName, meta.TypeName))
	}
	info := &ruleInfo{typeName: meta.TypeName, noAccount: e.NoAccount, role: e.Role, destroy: e.Destroy,
		level: e.Level, attrLevels: e.AttrLevels}
	if _, ok := sch.Schema.Attributes["id"]; ok {
		info.keys = append(info.keys, "id")
	}
	var required []string
	if identity != nil {
		for _, a := range identity.Attrs {
			if !slices.Contains(info.keys, a.Name) {
				info.keys = append(info.keys, a.Name)
			}
			if !a.optional {
				required = append(required, a.Name)
			}
		}
	}
	sort.Strings(required)
	info.natural = KeyRule{Attrs: required}
	if e.Natural != nil {
		info.natural = *e.Natural
	}
	return info
}

// ruledResource is a resource with the kit's rules around it. It passes
// every call on to the resource, and the optional ones it implements.
type ruledResource struct {
	resource.Resource
	info *ruleInfo
	// identity is the type's identity (identity.go), nil when it has none.
	identity *IdentitySpec
	data     *ProviderData
}

var (
	_ resource.ResourceWithImportState      = (*ruledResource)(nil)
	_ resource.ResourceWithIdentity         = (*ruledIdentified)(nil)
	_ resource.ResourceWithModifyPlan       = (*ruledResource)(nil)
	_ resource.ResourceWithValidateConfig   = (*ruledResource)(nil)
	_ resource.ResourceWithConfigValidators = (*ruledResource)(nil)
	_ resource.ResourceWithUpgradeState     = (*ruledResource)(nil)
)

// Configure hands the provider's data to the resource, and keeps it.
func (r *ruledResource) Configure(ctx context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if c, ok := r.Resource.(resource.ResourceWithConfigure); ok {
		c.Configure(ctx, req, resp)
	}
	if d, ok := req.ProviderData.(*ProviderData); ok {
		r.data = d
	}
}

// Metadata names the resource and marks a mutable identity.
func (r *ruledResource) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.Resource.Metadata(ctx, req, resp)
	if r.identity != nil {
		resp.ResourceBehavior.MutableIdentity = r.identity.Mutable
	}
}

// Create creates the object (or adopts the one an interrupted apply of this
// working directory created for it, journal.go), records its identity, and
// journals it.
func (r *ruledResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	creating.Add(1)
	defer creating.Done()
	ctx, attempt := withAttempt(ctx)
	if !r.adoptJournaled(ctx, req, resp) {
		r.Resource.Create(ctx, req, resp)
	}
	if resp.State.Raw.IsNull() && attempt.uncertain && !attempt.named {
		r.journalIntent(ctx, req, attempt.after)
	}
	if r.identity != nil {
		r.identity.afterCreate(ctx, req, resp)
	}
	// Journaled even when the create failed after making the object (its
	// state is then tainted, or lost if Terraform is gone).
	if d := r.data; d != nil && d.Journal.covers(r.info.typeName) && r.identity != nil &&
		!resp.State.Raw.IsNull() {
		e := journalEntry{Realm: d.realmKey(), Type: r.info.typeName, Keys: r.info.keyValues(resp.State.Raw),
			Natural: r.info.natural.value(req.Plan.Raw), ImportID: r.identity.importIDOf(resp.State.Raw)}
		if e.ImportID == "" && len(e.Keys) > 0 && r.info.keys[0] == "id" {
			// A create that did not finish may lack a computed identity value
			// (a bot's address); the id is an import id too (completeAfterCreate).
			e.ImportID = e.Keys[0]
		}
		if e.Natural == "" {
			e.Fingerprint = fingerprint(req.Plan.Raw)
		}
		d.Journal.record(ctx, e)
	}
}

// Read refreshes the object and its identity, and records that a state
// holds it.
func (r *ruledResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	r.Resource.Read(ctx, req, resp)
	if r.identity != nil {
		r.identity.afterRefresh(ctx, req.State, resp.State, resp.Identity, &resp.Diagnostics)
	}
	if !resp.Diagnostics.HasError() {
		keys := r.info.keyValues(resp.State.Raw)
		r.data.noteHeld(r.info.typeName, keys)
		if r.data != nil {
			r.data.Journal.confirm(ctx, r.data.realmKey(), r.info.typeName, keys)
		}
	}
}

// Update changes the object, then records its identity (which a rename changes).
func (r *ruledResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.Resource.Update(ctx, req, resp)
	if r.identity != nil {
		r.identity.afterRefresh(ctx, req.State, resp.State, resp.Identity, &resp.Diagnostics)
	}
	forgetReplacedKeys(ctx, resp.Private, &resp.Diagnostics)
}

// forgetReplacedKeys keeps the keys an update's plan left for a replacement
// (leaveKeysForReplacement) out of the state: Terraform would hand them to the
// plan that creates the object again after someone else deleted or retired
// it, which is no replacement.
func forgetReplacedKeys(ctx context.Context, private interface {
	GetKey(context.Context, string) ([]byte, diag.Diagnostics)
	SetKey(context.Context, string, []byte) diag.Diagnostics
}, diags *diag.Diagnostics) {
	if raw, _ := private.GetKey(ctx, replacesKey); len(raw) > 0 {
		diags.Append(private.SetKey(ctx, replacesKey, nil)...)
	}
}

// Delete destroys the object and records it, so that the plan of its
// replacement, which Terraform makes again after the delete, does not count
// it as someone else's.
func (r *ruledResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.Resource.Delete(ctx, req, resp)
	if !resp.Diagnostics.HasError() {
		r.data.noteReplaced(r.info.typeName, r.info.keyValues(req.State.Raw))
	}
}

// ModifyPlan applies the kit's plan rules around the resource's own checks.
func (r *ruledResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	d, typ := r.data, r.info.typeName
	creating := req.State.Raw.IsNull() && !req.Plan.Raw.IsNull()
	replan := creating && r.takeReplacedKeys(ctx, req, resp)
	if !req.Plan.Raw.IsNull() && !r.info.noAccount && !d.accountForPlan(&resp.Diagnostics) {
		return
	}
	if creating && d != nil && d.Destroying {
		// The refreshing plan terraform destroy makes first: nothing will be
		// created, so no create-time check may stand in the destroy's way.
		return
	}
	// The keys of the object the prior state holds, read once.
	priorKeys := r.info.keyValues(req.State.Raw)
	// A state holds the object even when no refresh read it (-refresh=false).
	d.noteHeld(typ, priorKeys)
	if d != nil {
		d.Journal.confirm(ctx, d.realmKey(), typ, priorKeys)
		if creating {
			r.resolveIntent(ctx, req)
			r.noteAdoption(ctx, req, resp)
		}
	}
	if note := r.info.destroy; note != nil && req.Plan.Raw.IsNull() {
		resp.Diagnostics.AddWarning(note.Title, note.Detail)
	}
	if role := r.info.role; role != nil && d.KnowsServer() && !Unchanged(req) {
		d.RequireRole(ctx, role.Need, "Changing "+role.Of, path.Empty(), &resp.Diagnostics)
	}
	if m, ok := r.Resource.(resource.ResourceWithModifyPlan); ok && r.info.levelsMet(req, d, &resp.Diagnostics) {
		m.ModifyPlan(ctx, req, resp)
	}
	if d == nil {
		return
	}
	if !replan { // the first plan of the replacement claimed the key already
		// Claimed even when the type's own checks failed, so that a duplicate is
		// named as one whichever of the two resources Terraform plans first.
		r.claimNaturalKey(req, resp)
	}
	r.leaveKeysForReplacement(ctx, req, resp, priorKeys)
}

// levelsMet refuses the plan of an object on a server older than its type
// needs, or than an attribute the configuration sets needs, naming the
// level; it reports false when the type itself is refused (its own checks
// would only ask the server for what it lacks).
func (i *ruleInfo) levelsMet(req resource.ModifyPlanRequest, d *ProviderData, diags *diag.Diagnostics) bool {
	if req.Plan.Raw.IsNull() || Unchanged(req) || !d.KnowsServer() {
		return true
	}
	return requireLevels(d, i.typeName, i.level, i.attrLevels, req.Config.Raw, false, diags)
}

// requireLevels refuses, naming the level, a type on a server older than
// level, or an attribute of config that is set (and, with ignoreFalse, not
// false) on a server older than its attrLevels entry. It reports false when
// the type itself is refused.
func requireLevels(d *ProviderData, what string, level int, attrLevels map[string]int, config tftypes.Value, ignoreFalse bool, diags *diag.Diagnostics) bool {
	if err := d.RequireFeatureLevel(level, what); err != nil {
		diags.AddError("Zulip Server Too Old", err.Error())
		return false
	}
	attrs := make([]string, 0, len(attrLevels))
	for a := range attrLevels {
		attrs = append(attrs, a)
	}
	sort.Strings(attrs)
	for _, a := range attrs {
		v, _, err := tftypes.WalkAttributePath(config, tftypes.NewAttributePath().WithAttributeName(a))
		if tv, ok := v.(tftypes.Value); err != nil || !ok || tv.IsNull() || ignoreFalse && tv.Equal(tftypes.NewValue(tftypes.Bool, false)) {
			continue
		}
		if err := d.RequireFeatureLevel(attrLevels[a], a); err != nil {
			diags.AddAttributeError(path.Root(a), "Zulip Server Too Old", err.Error())
		}
	}
	return true
}

// takeReplacedKeys, in the second plan of a replacement (a create whose
// private data holds the keys the first plan left), notes the object being
// replaced as such and reports true.
func (r *ruledResource) takeReplacedKeys(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) bool {
	if req.Private == nil {
		return false
	}
	raw, _ := req.Private.GetKey(ctx, replacesKey)
	if len(raw) == 0 {
		return false
	}
	var keys []string
	if json.Unmarshal(raw, &keys) == nil {
		r.data.noteReplaced(r.info.typeName, keys)
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacesKey, nil)...)
	return true
}

// leaveKeysForReplacement records, in the plan of an object the state holds,
// its keys for the second plan of a replacement (takeReplacedKeys).
func (r *ruledResource) leaveKeysForReplacement(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, priorKeys []string) {
	if len(priorKeys) == 0 || req.Plan.Raw.IsNull() || resp.Private == nil || resp.Diagnostics.HasError() {
		return
	}
	if raw, err := json.Marshal(priorKeys); err == nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, replacesKey, raw)...)
	}
}

// claimNaturalKey records the natural key this plan gives its object (and
// the one a prior object gives up), and fails the plan of a key that two
// resources of the configuration claim.
func (r *ruledResource) claimNaturalKey(req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	rule := r.info.natural
	if len(rule.Attrs) == 0 {
		return
	}
	var prior, planned string
	if !req.State.Raw.IsNull() {
		prior = rule.value(req.State.Raw)
	}
	if !req.Plan.Raw.IsNull() {
		planned = rule.value(resp.Plan.Raw)
	}
	claim := func(key string, kind claimKind) {
		shown := strings.ReplaceAll(key, "\x00", " / ")
		if rule.Fold { // shown as configured
			shown = strings.Join(rawStrings(resp.Plan.Raw, rule.Attrs), " / ")
			if req.Plan.Raw.IsNull() || kind == claimGivenUp {
				shown = strings.Join(rawStrings(req.State.Raw, rule.Attrs), " / ")
			}
		}
		if summary, detail := r.data.notes.claim(r.info.typeName, naturalKeyNoun(rule), key, shown, kind); summary != "" {
			resp.Diagnostics.AddError(summary, detail)
		}
	}
	switch {
	case prior == planned && prior != "": // an object that keeps its key
		claim(planned, claimKept)
	default:
		if prior != "" && !req.State.Raw.IsNull() {
			claim(prior, claimGivenUp)
		}
		if planned != "" {
			if req.State.Raw.IsNull() {
				claim(planned, claimNew)
			} else {
				claim(planned, claimKept)
			}
		}
	}
}

// naturalKeyNoun names a natural key in messages ("name", "email").
func naturalKeyNoun(rule KeyRule) string {
	return strings.ReplaceAll(strings.Join(rule.Attrs, " and "), "_", " ")
}

// value is the natural key of a state or plan, "" when a part of it is
// unknown or null (nothing can be said of it yet).
func (k KeyRule) value(raw tftypes.Value) string {
	parts := rawStrings(raw, k.Attrs)
	if len(parts) != len(k.Attrs) {
		return ""
	}
	v := strings.Join(parts, "\x00")
	if k.Fold {
		v = strings.ToLower(v)
	}
	return v
}

// keyValues are the values that identify the object a state holds.
func (i *ruleInfo) keyValues(raw tftypes.Value) []string {
	return rawStrings(raw, i.keys)
}

// rawStrings are the known, non-null values of the named top-level
// attributes of an object value, written as strings (numbers in decimal);
// attributes that are missing, null or unknown are left out.
func rawStrings(raw tftypes.Value, names []string) []string {
	if raw.IsNull() || !raw.IsKnown() || len(names) == 0 {
		return nil
	}
	var attrs map[string]tftypes.Value
	if raw.As(&attrs) != nil {
		return nil
	}
	out := make([]string, 0, len(names))
	for _, name := range names {
		v, ok := attrs[name]
		if !ok || v.IsNull() || !v.IsKnown() {
			continue
		}
		switch {
		case v.Type().Is(tftypes.String):
			var s string
			if v.As(&s) == nil {
				out = append(out, s)
			}
		case v.Type().Is(tftypes.Number):
			var n big.Float
			if v.As(&n) == nil {
				out = append(out, n.Text('f', -1))
			}
		}
	}
	return out
}

// claimKind is how a plan involves a natural key.
type claimKind int

const (
	claimKept    claimKind = iota // an object in state that has, or takes, the key
	claimNew                      // a new object that takes the key
	claimGivenUp                  // an object in state that gives the key up (destroyed or renamed)
)

// keyClaims are the natural keys one plan's objects claim, by type and key.
type keyClaims struct {
	taken, new, givenUp int
}

// claim records one plan's use of a natural key (noun names it in
// messages, shown is its value as configured) and returns why the plan
// fails, or "".
func (n *planNotes) claim(typeName, noun, key, shown string, kind claimKind) (summary, detail string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.claims == nil {
		n.claims = map[string]*keyClaims{}
	}
	c := n.claims[typeName+"\x00"+key]
	if c == nil {
		c = &keyClaims{}
		n.claims[typeName+"\x00"+key] = c
	}
	switch kind {
	case claimKept:
		c.taken++
	case claimNew:
		c.taken++
		c.new++
	case claimGivenUp:
		c.givenUp++
	}
	switch {
	case c.taken > 1:
		return "Two Resources With One " + TitleCase(noun), fmt.Sprintf("Two %s resources of this configuration have "+
			"the %s %q, which Zulip keeps unique: the apply would create one and fail on the other, or both would "+
			"manage one object. Keep one resource for it. (To destroy the configuration as it is, run "+
			"`terraform destroy -refresh=false`: its first, refreshing plan makes this check too.)", typeName, noun, shown)
	case c.new > 0 && c.givenUp > 0:
		return TitleCase(noun) + " Moves Between Resources", fmt.Sprintf("A %s resource of this configuration gives up "+
			"the %s %q (it is removed from the configuration, or changed) while a new one takes it, and Terraform may "+
			"run the create first, which Zulip would refuse. If it is the same object under a new resource address, "+
			"say so with a `moved` block; otherwise apply the two changes in two steps.", typeName, noun, shown)
	}
	return "", ""
}

// noteHeld records objects a state of this run holds (refreshed, being
// replaced, or destroyed by this run), by type and key.
func (d *ProviderData) noteHeld(typeName string, keys []string) {
	if d == nil || len(keys) == 0 {
		return
	}
	d.notes.mark(&d.notes.held, typeName, keys...)
}

// noteReplaced records objects this run replaces: planned for replacement
// (-replace, or a change that requires it) or destroyed by it.
func (d *ProviderData) noteReplaced(typeName string, keys []string) {
	if d == nil || len(keys) == 0 {
		return
	}
	d.noteHeld(typeName, keys)
	d.notes.mark(&d.notes.replaced, typeName, keys...)
}

// replacing reports an object (by its id or identity value) that this run
// replaces or has destroyed (noteReplaced). Unlike HeldByState, it does not
// know of tainted objects, which Terraform plans without a trace of the
// object they replace.
func (d *ProviderData) replacing(typeName, key string) bool {
	if d == nil {
		return false
	}
	return d.notes.marked(&d.notes.replaced, typeName, key)
}

// HeldByState reports an object (by its id or identity value) that a state
// of this run holds: refreshed by this run, planned for replacement, or
// destroyed by it; or that an interrupted apply of this working directory
// created and no state recorded (journal.go), which the create adopts. A type's "already exists" check skips such an object: it
// is this configuration's own, which a tainted or replaced resource is about
// to make again; a second resource that claims it is refused by the natural
// key claims instead.
func (d *ProviderData) HeldByState(typeName, key string) bool {
	if d == nil {
		return false
	}
	return d.heldInRun(typeName, key) || d.Journaled(context.Background(), typeName, key)
}

// heldInRun reports an object that a state of this run holds (HeldByState
// without the journal).
func (d *ProviderData) heldInRun(typeName, key string) bool {
	if d == nil {
		return false
	}
	return d.notes.marked(&d.notes.held, typeName, key)
}

// accountForPlan fails the plan of a change when the provider has no
// account to make it with (the plan would otherwise pass with every server
// check skipped, and only the apply fail), and warns once per run when the
// provider's configuration is not known yet.
func (d *ProviderData) accountForPlan(diags *diag.Diagnostics) bool {
	switch {
	case d == nil:
		return true // not configured yet: validation only
	case d.UnknownConfig:
		d.notes.mu.Lock()
		first := !d.notes.warnedUnknown
		d.notes.warnedUnknown = true
		d.notes.mu.Unlock()
		if first {
			diags.AddWarning("Server Checks Skipped",
				"The Zulip provider's url, email, api_key or zuliprc depends on a value that is not known until apply, "+
					"so this plan could not check anything against the server (existing names, roles, feature levels). "+
					"The apply checks them when the values are known.")
		}
		return true
	case !d.HasCreds:
		diags.AddError("Missing Zulip Credentials", d.NoCredentials)
		return false
	}
	return true
}

// ImportState passes the import on to the resource. An import by identity
// becomes the import id the resource accepts, so that each type has one
// lookup, and the identity is recorded from what was imported.
func (r *ruledResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	i, ok := r.Resource.(resource.ResourceWithImportState)
	if !ok {
		resp.Diagnostics.AddError("Import Not Supported", fmt.Sprintf("%s cannot be imported.", r.info.typeName))
		return
	}
	if r.identity != nil && req.ID == "" && req.Identity != nil && !req.Identity.Raw.IsNull() {
		id, ok := r.identity.toImportID(ctx, req.Identity, &resp.Diagnostics)
		if !ok {
			return
		}
		req.ID = id
	}
	i.ImportState(ctx, req, resp)
	if r.identity != nil && !resp.Diagnostics.HasError() {
		r.identity.fromState(ctx, resp.State, resp.Identity, &resp.Diagnostics)
	}
}

// ruledIdentified is a ruledResource with an identity.
type ruledIdentified struct{ *ruledResource }

// IdentitySchema describes the identity.
func (r *ruledIdentified) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = r.identity.schema()
}

// ValidateConfig passes the configuration to the resource's own checks.
func (r *ruledResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if v, ok := r.Resource.(resource.ResourceWithValidateConfig); ok {
		v.ValidateConfig(ctx, req, resp)
	}
}

// ConfigValidators are the resource's own.
func (r *ruledResource) ConfigValidators(ctx context.Context) []resource.ConfigValidator {
	if v, ok := r.Resource.(resource.ResourceWithConfigValidators); ok {
		return v.ConfigValidators(ctx)
	}
	return nil
}

// UpgradeState is the resource's own.
func (r *ruledResource) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	if u, ok := r.Resource.(resource.ResourceWithUpgradeState); ok {
		return u.UpgradeState(ctx)
	}
	return nil
}
