package provider

// The kit: what every resource shares, written once so that the rules of
// DESIGN.md ("adoption never erases", "half-succeeded creates converge",
// "uncertain failures never adopt strangers", "the plan tells what can be
// known") are properties of the provider rather than of each resource.
//
//   - resourceBase gives a resource its type name, Configure and provider data.
//   - collection[T] is one of the realm's whole-listed collections, read once per
//     run and forgotten by its own write method.
//   - objects[M, T] is the skeleton of a resource whose objects live in a
//     collection: read (dropping the resource when the object is gone), create
//     with reconciliation, the read-back that never taints, delete, import by id
//     or human key, and the plan-time "already exists" check.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// resourceBase is embedded by every resource: it names the resource and keeps
// the provider data Configure hands over.
type resourceBase struct {
	// name is the type name without the provider's prefix, e.g. "linkifier".
	name string
	data *providerData
}

// Metadata names the resource.
func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure receives the provider's data.
func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// collection is one of the realm's collections that Zulip lists only whole.
// It is read at most once per run however many resources read it (the cache
// shares one request among concurrent readers) and is forgotten by write, the
// only way the provider changes it.
type collection[T any] struct {
	// name is the cache key and the plural noun in messages ("linkifiers").
	name  string
	cache *collectionCache
	fetch func(context.Context) ([]T, error)
	// filter, when set, keeps the elements this view of the collection shows
	// (e.g. the active custom groups of the list of all groups); the cache
	// holds the whole list.
	filter func(T) bool
}

// shown applies the collection's filter to a list.
func (c *collection[T]) shown(list []T) []T {
	if c.filter == nil {
		return list
	}
	out := make([]T, 0, len(list))
	for _, v := range list {
		if c.filter(v) {
			out = append(out, v)
		}
	}
	return out
}

// newCollection returns the collection name of d's cache, fetched by fetch.
func newCollection[T any](d *providerData, name string, fetch func(context.Context) ([]T, error)) *collection[T] {
	return &collection[T]{name: name, cache: d.cache, fetch: fetch}
}

// list returns the whole collection, from the cache when this run read it already.
func (c *collection[T]) list(ctx context.Context) ([]T, error) {
	list, err := cachedAs(ctx, c.cache, c.name, c.fetch)
	return c.shown(list), err
}

// write performs a change to the collection. The cached copy is forgotten
// whatever the outcome: even a request that failed may have changed it. While
// writes are in flight, reads of the collection wait for them (see
// collectionCache), so parallel creates read it back once.
func (c *collection[T]) write(ctx context.Context, send func(context.Context) error) error {
	w := c.cache.beginWrite(c.name)
	defer w.end()
	return send(ctx)
}

// writeKnown performs a write whose effect on the collection the provider
// knows from the request and its answer: send returns apply, which gives the
// collection as the server now holds it (nil when it cannot say), so that the
// cached copy stays valid and reading it back costs no request; otherwise the
// collection is forgotten, as by write.
func (c *collection[T]) writeKnown(ctx context.Context, send func(context.Context) (apply func([]T) []T, err error)) error {
	w := c.cache.beginWrite(c.name)
	defer w.end()
	apply, err := send(ctx)
	if err == nil && apply != nil {
		w.endKnown(func(old any) (any, bool) {
			list, ok := old.([]T)
			if !ok {
				return nil, false
			}
			return apply(slices.Clip(list)), true
		})
	}
	return err
}

// create performs a write that creates one object. When send also returns the
// object as the server now holds it (made true), it is added to the cached
// collection (see writeKnown).
func (c *collection[T]) create(ctx context.Context, send func(context.Context) (obj T, made bool, err error)) error {
	return c.writeKnown(ctx, func(ctx context.Context) (func([]T) []T, error) {
		obj, made, err := send(ctx)
		if err != nil || !made {
			return nil, err
		}
		return func(list []T) []T { return append(list, obj) }, nil
	})
}

// lastSeen returns the newest copy of the collection this run has seen, with
// the objects its own creates made, even when a write has made it stale; only
// a run that has not read it yet reads it now.
func (c *collection[T]) lastSeen(ctx context.Context) ([]T, error) {
	if v, ok := c.cache.lastSeen(c.name); ok {
		if list, ok := v.([]T); ok {
			return c.shown(list), nil
		}
	}
	return c.list(ctx)
}

// readBack returns the collection as it is after the caller's own write
// ended, sharing one request with the read-backs of the writes that end beside
// it (collectionCache.readBack).
func (c *collection[T]) readBack(ctx context.Context) ([]T, error) {
	v, err := c.cache.readBack(ctx, c.name, func(ctx context.Context) (any, error) { return c.fetch(ctx) })
	if err != nil {
		return nil, err
	}
	list, ok := v.([]T)
	if !ok {
		return nil, fmt.Errorf("internal error: the cache holds a %T under %q, not a %T", v, c.name, list)
	}
	return c.shown(list), nil
}

// objects is the skeleton of a resource whose objects live in a collection.
// M is the resource's model, T the client's object.
type objects[M any, T any] struct {
	// typeName is the resource type ("zulip_linkifier"); what the object's noun
	// in messages ("linkifier"); role the role writes need.
	typeName, what string
	role           requiredRole
	// coll returns the collection the objects live in.
	coll func(*providerData) *collection[T]
	// key is the object's id as Terraform keeps it (and imports it by);
	// stateKey reads it from a model, setKey writes it.
	key      func(T) string
	stateKey func(*M) string
	setKey   func(*M, string)
	// fromAPI copies the server's view of an object into a model (with the
	// provider's data, for types that refer to others by name).
	fromAPI func(context.Context, *providerData, T, *M, *diag.Diagnostics)
	// importHint ends the error of an import id that matches nothing: what
	// the id may be, and where the user can look it up.
	importHint string
	// archived, when set, is the object as Zulip keeps it after Delete
	// (archived, deactivated): the run's cached list keeps it so, and the
	// create of a replacement, planned after the delete, takes it back.
	archived func(T) T
}

// title is what in Title Case, for diagnostic summaries.
func (o objects[M, T]) title() string { return titleCase(o.what) }

// read fills m from the collection and reports whether the object exists.
func (o objects[M, T]) read(ctx context.Context, d *providerData, m *M, diags *diag.Diagnostics) bool {
	c := o.coll(d)
	return o.readFrom(ctx, d, c.name, c.list, m, diags)
}

// readAfterWrite is read for a create or update that has just ended: the
// collection comes from the cache when the write kept it valid, else from a
// read-back shared with the writes ending beside it.
func (o objects[M, T]) readAfterWrite(ctx context.Context, d *providerData, m *M, diags *diag.Diagnostics) bool {
	c := o.coll(d)
	return o.readFrom(ctx, d, c.name, c.readBack, m, diags)
}

// readFrom fills m from the collection (name) that list returns.
func (o objects[M, T]) readFrom(ctx context.Context, d *providerData, name string, list func(context.Context) ([]T, error),
	m *M, diags *diag.Diagnostics) bool {
	all, err := list(ctx)
	if err != nil {
		addAPIError(diags, "Unable to Read "+titleCase(name), "list the "+name, roleAny, err)
		return false
	}
	key := o.stateKey(m)
	for _, v := range all {
		if o.key(v) == key {
			o.fromAPI(ctx, d, v, m, diags)
			return true
		}
	}
	return false
}

// Read refreshes a resource; an object that no longer exists is removed from
// state (and created again by the next plan), never reported as an error.
func (o objects[M, T]) Read(ctx context.Context, d *providerData, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.ready(&resp.Diagnostics) {
		return
	}
	found := o.read(ctx, d, &m, &resp.Diagnostics)
	switch {
	case resp.Diagnostics.HasError():
	case !found:
		tflog.Info(ctx, o.what+" no longer exists; removing it from state", map[string]any{"id": o.stateKey(&m)})
		resp.State.RemoveResource(ctx)
	default:
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}

// Delete removes the object through send; one that is already gone is not an error.
func (o objects[M, T]) Delete(ctx context.Context, d *providerData, req resource.DeleteRequest, resp *resource.DeleteResponse,
	send func(context.Context, string) error) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.ready(&resp.Diagnostics) {
		return
	}
	k := o.stateKey(&m)
	// The cached list loses the object, so that a create planned after this
	// delete in the same run (the second half of a replacement) does not find
	// it in the run's newest copy.
	err := o.coll(d).writeKnown(ctx, func(ctx context.Context) (func([]T) []T, error) {
		err := send(ctx, k)
		if err != nil && !zulip.IsNotFound(err) {
			return nil, err
		}
		return func(list []T) []T { return o.afterDelete(list, k) }, nil
	})
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to Delete "+o.title(), "delete the "+o.what, o.role, err)
	}
}

// afterDelete is a cached list without the object k, or with it as Zulip
// keeps it after a delete (archived).
func (o objects[M, T]) afterDelete(list []T, k string) []T {
	if o.archived == nil {
		return slices.DeleteFunc(list, func(v T) bool { return o.key(v) == k })
	}
	return changedIn(list, func(v *T) bool { return o.key(*v) == k }, func(v *T) { *v = o.archived(*v) })
}

// changedIn is a copy of a cached list with change made to the elements that
// match (the cached list itself is shared, and never changed in place).
func changedIn[T any](list []T, match func(*T) bool, change func(*T)) []T {
	out := slices.Clone(list)
	for i := range out {
		if match(&out[i]) {
			change(&out[i])
		}
	}
	return out
}

// updateWithPermissions is the Update of a resource with permission
// settings: build turns plan and state (with the run's directory of groups)
// into the request, which send makes as a write to the collection. The
// permissions go as {new, old} with the state's value as old, so a change
// made by someone else since the plan is refused (EXPECTATION_MISMATCH) and
// explained, not overwritten.
func updateWithPermissions[M any, T any, R any](ctx context.Context, o objects[M, T], d *providerData, req resource.UpdateRequest, resp *resource.UpdateResponse,
	name func(*M) string, build func(ctx context.Context, plan, state M, dir groupDirectory) (R, error), send func(ctx context.Context, state M, r R) error) {
	var plan, state M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !d.ready(&resp.Diagnostics) {
		return
	}
	summary := "Unable to Update " + o.title()
	dir, err := d.groups(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, summary, "list the user groups", roleAny, err)
		return
	}
	update, err := build(ctx, plan, state, dir)
	if err != nil {
		resp.Diagnostics.AddError(summary, err.Error())
		return
	}
	err = o.coll(d).write(ctx, func(ctx context.Context) error { return send(ctx, state, update) })
	switch {
	case err == nil:
	case zulip.IsExpectationMismatch(err):
		resp.Diagnostics.AddError(o.title()+" Changed Since the Plan",
			fmt.Sprintf("A permission of %s %q changed after Terraform read it, so Zulip refused to overwrite it (the "+
				"provider sends the value it planned from as the expected old value). Run terraform plan again to see "+
				"the change, then apply. Server said: %s", o.what, name(&state), err))
		return
	default:
		addAPIError(&resp.Diagnostics, summary, "update the "+o.what, o.role, err)
		return
	}
	o.setKey(&plan, o.stateKey(&state))
	o.afterUpdate(ctx, d, &plan, resp)
}

// byNameOrID is the import lookup of a type whose objects are imported by
// their name (compared as Zulip does: case-insensitively when fold) or their
// numeric id.
func byNameOrID[T any](typeName string, id func(T) int64, name func(T) string, fold bool) func(string) (func(T) bool, error) {
	return func(key string) (func(T) bool, error) {
		if key == "" {
			return nil, fmt.Errorf("a %s is imported by its name or its numeric id, got an empty id", typeName)
		}
		if n, err := strconv.ParseInt(key, 10, 64); err == nil && n > 0 {
			return func(v T) bool { return id(v) == n }, nil
		}
		if fold {
			return func(v T) bool { return strings.EqualFold(name(v), key) }, nil
		}
		return func(v T) bool { return name(v) == key }, nil
	}
}

// Import adopts an existing object. lookup turns the import id into a matcher
// (by id, or by a human key such as a pattern or a domain) or explains why the
// id is not one; the object found is read whole into state.
func (o objects[M, T]) Import(ctx context.Context, d *providerData, req resource.ImportStateRequest, resp *resource.ImportStateResponse,
	lookup func(string) (func(T) bool, error)) {
	match, err := lookup(strings.TrimSpace(req.ID))
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", err.Error())
		return
	}
	if !d.ready(&resp.Diagnostics) {
		return
	}
	c := o.coll(d)
	all, err := c.list(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to Read "+titleCase(c.name), "list the "+c.name, roleAny, err)
		return
	}
	var found []T
	for _, v := range all {
		if match(v) {
			found = append(found, v)
		}
	}
	switch len(found) {
	case 0:
		resp.Diagnostics.AddError(o.title()+" Not Found",
			fmt.Sprintf("No %s matches the import id %q. %s", o.what, req.ID, o.importHint))
		return
	case 1:
	default:
		keys := make([]string, len(found))
		for i, v := range found {
			keys[i] = o.key(v)
		}
		resp.Diagnostics.AddError("Ambiguous Import ID",
			fmt.Sprintf("%d %s match the import id %q (ids %s); import one of them by its id.",
				len(found), c.name, req.ID, strings.Join(keys, ", ")))
		return
	}
	var m M
	o.fromAPI(ctx, d, found[0], &m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// reconcileTimeout bounds the read that settles an uncertain create.
const reconcileTimeout = 30 * time.Second

// settling is the context of the look that settles an uncertain create: it
// must happen even when the attempt ended because Terraform was interrupted
// or is gone (the journal then records what it finds), so it gets a short
// time of its own.
func settling(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), reconcileTimeout)
}

// creation is one attempt to create an object of o.
type creation[M any, T any] struct {
	o objects[M, T]
	// send performs the create and returns the new object's key.
	send func(context.Context) (string, error)
	// sameKey reports whether an object has the configured natural key (the
	// pattern of a linkifier, the domain of an allowed domain, the title and
	// content of a snippet); matches whether it has every configured value.
	sameKey, matches func(T) bool
	// made, when set, returns the new object exactly as the server lists it,
	// from the configuration and the key the create answered, so that it is
	// added to the cached collection instead of the collection being read
	// again. Only for types whose stored form the request fully determines.
	made func(key string) T
}

// create performs the attempt and returns the new object's key. When the
// outcome is unknown (a timeout, a 5xx, a connection lost after the request was
// sent) the collection is read again: the one object that was not there before
// the attempt and matches every configured value is adopted. Anything else is
// an error that names what was found, with an import block to copy, and never
// a stranger adopted or a second object created.
func (c creation[M, T]) create(ctx context.Context, d *providerData, diags *diag.Diagnostics) (string, bool) {
	o := c.o
	coll := o.coll(d)
	// What existed before the attempt is the newest copy this run has seen
	// (with what its own creates made): an object missing from it was made
	// since, by this attempt or by someone else at the same moment, and is
	// adopted only if it is the only one and matches every configured value.
	// Reading the collection afresh before every create would cost a request
	// per object for a check that only an uncertain failure needs.
	before, err := coll.lastSeen(ctx)
	if err != nil {
		addAPIError(diags, "Unable to Create "+o.title(), "list the "+coll.name+" before creating one", roleAny, err)
		return "", false
	}
	existed := make(map[string]bool, len(before))
	for _, v := range before {
		existed[o.key(v)] = true
	}
	var key string
	err = coll.create(ctx, func(ctx context.Context) (obj T, made bool, err error) {
		if key, err = c.send(ctx); err != nil || c.made == nil {
			return obj, false, err
		}
		return c.made(key), true, nil
	})
	if err == nil {
		return key, true
	}
	if isClientError(err) { // a refusal: nothing was created
		addAPIError(diags, "Unable to Create "+o.title(), "create the "+o.what, o.role, err)
		return "", false
	}
	if zulip.IsNotSent(err) { // interrupted (or unable to connect) before the request left: nothing to look for
		addAPIError(diags, "Unable to Create "+o.title(), fmt.Sprintf("create the %s (the request was never sent, so "+
			"nothing was created; apply again)", o.what), o.role, err)
		return "", false
	}
	lctx, cancel := settling(ctx)
	defer cancel()
	after, lerr := coll.list(lctx)
	if lerr != nil {
		diags.AddError("Unable to Create "+o.title(),
			fmt.Sprintf("The server did not confirm the creation of the %s (%s), and reading the %s again to see whether "+
				"it exists failed too (%s). Before applying again, check the organization: if the %s exists, import it.",
				o.what, err, coll.name, lerr, o.what))
		return "", false
	}
	var adopt, clash []string
	for _, v := range after {
		switch k := o.key(v); {
		case existed[k]:
		case c.matches(v):
			adopt = append(adopt, k)
		case c.sameKey(v):
			clash = append(clash, k)
		}
	}
	switch {
	case len(adopt) == 1 && len(clash) == 0:
		tflog.Warn(ctx, "the server did not confirm the create, but exactly one new matching "+o.what+" exists; adopting it",
			map[string]any{"id": adopt[0], "error": err.Error()})
		return adopt[0], true
	case len(adopt)+len(clash) == 0:
		addAPIError(diags, "Unable to Create "+o.title(), fmt.Sprintf("create the %s (the %s read afterwards have no new "+
			"one, so nothing was created; apply again)", o.what, coll.name), o.role, err)
	default:
		found := append(adopt, clash...)
		sort.Strings(found)
		blocks := make([]string, len(found))
		for i, k := range found {
			blocks[i] = importBlock(o.typeName, k)
		}
		diags.AddError("Unable to Create "+o.title(),
			fmt.Sprintf("The server did not confirm the creation of the %s (%s), and the %s read afterwards hold %d new "+
				"%s like it (%s) that the provider cannot tell apart from one made by someone else, so it adopted none. "+
				"If one of them is this resource's, import it instead of applying again:\n\n%s",
				o.what, err, coll.name, len(found), pluralize(o.what, len(found)), strings.Join(found, ", "), strings.Join(blocks, "\n")))
	}
	return "", false
}

// finishCreate stores the new object's key in plan, then reads the object back
// into state. The object exists once this is called, so nothing here may fail
// the create: Terraform taints a create that reports an error and the next
// apply would replace (delete) the object it has just made. A read-back that
// fails is therefore a warning; state keeps the configuration's values with
// the server-computed ones left empty, and the next refresh reads what the
// server really holds, so the next plan shows exactly what is left to do.
func (o objects[M, T]) finishCreate(ctx context.Context, d *providerData, plan *M, key string, resp *resource.CreateResponse) {
	o.setKey(plan, key)
	var readDiags diag.Diagnostics
	found := o.readAfterWrite(ctx, d, plan, &readDiags)
	switch {
	case readDiags.HasError():
		addIncomplete(&resp.Diagnostics, o.what, key, "reading it back failed", readDiags)
	case !found:
		addIncomplete(&resp.Diagnostics, o.what, key, fmt.Sprintf("it is missing from the %s read back (deleted at once by someone else?)", o.coll(d).name), nil)
	default:
		resp.Diagnostics.Append(readDiags...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	settleUnknowns(ctx, &resp.State, &resp.Diagnostics)
}

// afterUpdate reads an updated object back into plan and state; one deleted
// meanwhile is an error (Terraform keeps the prior state, and the next plan
// creates it again).
func (o objects[M, T]) afterUpdate(ctx context.Context, d *providerData, plan *M, resp *resource.UpdateResponse) {
	if !o.readAfterWrite(ctx, d, plan, &resp.Diagnostics) {
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddError(o.title()+" Disappeared",
				fmt.Sprintf("The %s %s was deleted while it was being updated.", o.what, o.stateKey(plan)))
		}
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// addIncomplete reports a created object whose remaining steps failed, as a
// warning (see finishCreate for why never an error).
func addIncomplete(diags *diag.Diagnostics, what, key, why string, cause diag.Diagnostics) {
	detail := fmt.Sprintf("The %s was created (id %s), but %s. Terraform keeps it in state as configured; the next "+
		"`terraform plan` reads what the server holds and shows what is left to do, and the next apply finishes it "+
		"in place (nothing is deleted or created twice).", what, key, why)
	for _, d := range cause.Errors() {
		detail += "\n\n" + d.Summary() + ": " + d.Detail()
	}
	diags.AddWarning(titleCase(what)+" Created but Not Finished", detail)
}

// settleUnknowns replaces the values still unknown in a state (computed values
// the provider could not learn) by null: Terraform refuses unknown values after
// apply, and null tells the next refresh to fill them.
func settleUnknowns(ctx context.Context, state *tfsdk.State, diags *diag.Diagnostics) {
	if state.Raw.IsFullyKnown() {
		return
	}
	raw, err := tftypes.Transform(state.Raw, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if !v.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		diags.AddError("Internal Error", fmt.Sprintf("The provider could not settle its state: %s. This is a bug in the provider.", err))
		return
	}
	state.Raw = raw
	tflog.Debug(ctx, "unknown values in the new state were set to null")
}

// checkKeyFree fails the plan of a new object whose natural key (attr) is
// already taken in the organization, with an import block to copy: Zulip would
// refuse the create at apply time, or worse, a duplicate would be made.
func (c creation[M, T]) checkKeyFree(ctx context.Context, d *providerData, attr path.Path, describe string, diags *diag.Diagnostics) {
	if !d.knowsServer() || !d.hasCreds {
		return // nothing to ask the server with; the operation will say why
	}
	o := c.o
	coll := o.coll(d)
	// The newest copy this run has seen is enough: the plan's first look reads
	// the collection, and Terraform plans each resource again during apply,
	// when a fresh read per resource would cost a request per object created.
	all, err := coll.lastSeen(ctx)
	if err != nil {
		addAPIError(diags, "Unable to Read "+titleCase(coll.name), "list the "+coll.name+" to check that "+describe+" is free", roleAny, err)
		return
	}
	i := slices.IndexFunc(all, func(v T) bool { return c.sameKey(v) && !d.heldByState(o.typeName, o.key(v)) })
	if i < 0 {
		return
	}
	v := all[i]
	diags.AddAttributeError(attr, o.title()+" Already Exists",
		fmt.Sprintf("The organization already has %s with %s (import id %q), so creating another would fail or "+
			"duplicate it. To manage the existing one with this resource, import it (with <name> this resource's name):"+
			"\n\n%s\n\nor remove it from the organization first.", article(o.what), describe, o.key(v), importBlock(o.typeName, o.key(v))))
}

// withoutData adapts a fromAPI that needs nothing but the object.
func withoutData[M any, T any](f func(context.Context, T, *M, *diag.Diagnostics)) func(context.Context, *providerData, T, *M, *diag.Diagnostics) {
	return func(ctx context.Context, _ *providerData, v T, m *M, diags *diag.Diagnostics) { f(ctx, v, m, diags) }
}

// unchanged reports a plan that changes nothing: the prior state planned as
// it is. ModifyPlan skips its checks then (they ran when the values were first
// planned, and nothing will be sent), and so the cost of decoding the models,
// which the framework's reflection makes the bulk of a large plan.
func unchanged(req resource.ModifyPlanRequest) bool {
	return !req.State.Raw.IsNull() && req.Plan.Raw.Equal(req.State.Raw)
}

// requireRole fails a plan whose change needs a role the provider's account
// does not have, naming the role, instead of letting the apply fail with
// Zulip's bare "Insufficient permission".
func (d *providerData) requireRole(ctx context.Context, role requiredRole, action string, attr path.Path, diags *diag.Diagnostics) {
	if !d.knowsServer() || !d.hasCreds || role == roleAny {
		return
	}
	me, err := d.caller(ctx)
	if err != nil {
		tflog.Warn(ctx, "could not read the provider's own account; the role check is left to the server", map[string]any{"error": err.Error()})
		return
	}
	need := zulip.RoleAdministrator
	if role == roleOwner {
		need = zulip.RoleOwner
	}
	if me.Role <= need { // Zulip's roles count down: owner 100, administrator 200, ...
		return
	}
	has, _ := zulip.RoleName(me.Role)
	detail := fmt.Sprintf("%s needs %s, but the provider's account (%s) is %s. Configure the provider with the API key "+
		"of %s, or of a bot with that role.", action, role, me.Email, article(has), role)
	if attr.Equal(path.Empty()) {
		diags.AddError("Insufficient Role", detail)
		return
	}
	diags.AddAttributeError(attr, "Insufficient Role", detail)
}

// caller is the provider's own account: as Configure read it, or else read
// once per run.
func (d *providerData) caller(ctx context.Context) (*zulip.User, error) {
	if d.me != nil {
		return d.me, nil
	}
	return cachedAs(ctx, d.cache, cacheCaller, d.client.GetOwnUser)
}

// cacheCaller is the cache key of the provider's own account.
const cacheCaller = "users/me"

// planNotes collects, within one plan, the changes that conflict only in
// combination: the provider's account stepping down from owner while other
// changes need an owner. Terraform orders the two only by references, so the
// owner-only changes may be applied after the account has lost the role.
type planNotes struct {
	mu          sync.Mutex
	ownerOnly   []string
	stepsDownBy string
	// planned are the names resources of this plan create or rename to, by
	// type (a group, a custom profile field), so that references by name may
	// name them before they exist.
	planned map[string]bool
	// sets are what types note in the plan to see each other's planned
	// objects (noteInPlan), by set name.
	sets map[string]map[string]bool
	// held are the objects a state of this run holds, by type and key
	// (heldByState); claims the natural keys its plans claim (kit_rules.go).
	held     map[string]bool
	replaced map[string]bool
	claims   map[string]*keyClaims
	// warnedUnknown: the plan has said once that server checks were skipped.
	warnedUnknown bool
	// groupRenames are the renames of groups this run's applies made, in
	// order (groups()).
	groupRenames groupRenameLog
}

// noteInPlan adds key to this plan's set named set and returns the keys the
// set holds now: how the plans of one type see what the others of the plan
// do (a group managed by both kinds of membership resource, the fields shown
// in the profile summary).
func (d *providerData) noteInPlan(set, key string) map[string]bool {
	if d == nil {
		return map[string]bool{key: true}
	}
	d.notes.mu.Lock()
	defer d.notes.mu.Unlock()
	if d.notes.sets == nil {
		d.notes.sets = map[string]map[string]bool{}
	}
	if d.notes.sets[set] == nil {
		d.notes.sets[set] = map[string]bool{}
	}
	d.notes.sets[set][key] = true
	return maps.Clone(d.notes.sets[set])
}

// noteOwnerOnly records a planned change that needs an owner, and warns when
// the provider's account steps down from owner in the same plan.
func (d *providerData) noteOwnerOnly(what string, diags *diag.Diagnostics) {
	if d == nil {
		return
	}
	d.notes.mu.Lock()
	defer d.notes.mu.Unlock()
	d.notes.ownerOnly = append(d.notes.ownerOnly, what)
	if d.notes.stepsDownBy != "" {
		addStepDownWarning(diags, d.notes.stepsDownBy, []string{what})
	}
}

// noteStepDown records that the plan takes the owner role from the
// provider's own account (by names the change), and warns when owner-only
// changes are planned in the same run.
func (d *providerData) noteStepDown(by string, diags *diag.Diagnostics) {
	if d == nil {
		return
	}
	d.notes.mu.Lock()
	defer d.notes.mu.Unlock()
	d.notes.stepsDownBy = by
	if len(d.notes.ownerOnly) > 0 {
		addStepDownWarning(diags, by, d.notes.ownerOnly)
	}
}

// addStepDownWarning warns of owner-only changes planned beside the account's step-down.
func addStepDownWarning(diags *diag.Diagnostics, by string, changes []string) {
	diags.AddWarning("The Provider's Account Steps Down From Owner",
		fmt.Sprintf("This plan takes the owner role from the provider's own account (%s) and also makes changes that "+
			"need an owner (%s). Terraform may apply the step-down first, and the owner-only changes would then fail. "+
			"Apply the owner-only changes first (for example with -target), or step down in a later run.",
			by, strings.Join(changes, "; ")))
}

// importBlock is an import block for an object, ready to copy.
func importBlock(typeName, id string) string {
	return fmt.Sprintf("import {\n  to = %s.<name>\n  id = %q\n}", typeName, id)
}

// titleCase capitalizes each word ("allowed domain" → "Allowed Domain").
func titleCase(s string) string {
	words := strings.Fields(strings.ReplaceAll(s, "_", " "))
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// pluralize returns noun for one and a plain English plural otherwise.
func pluralize(noun string, n int) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// article puts "a" or "an" before a role name.
func article(name string) string {
	if name == "" {
		return "of an unknown role"
	}
	if strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
