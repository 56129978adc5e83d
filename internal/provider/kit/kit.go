package kit

// The kit: what every resource shares, written once so that the rules of
// DESIGN.md ("adoption never erases", "half-succeeded creates converge",
// "uncertain failures never adopt strangers", "the plan tells what can be
// known") are properties of the provider rather than of each resource.
//
//   - ResourceBase gives a resource its type name, Configure and provider data.
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
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// ResourceBase is embedded by every resource: it names the resource and keeps
// the provider data Configure hands over.
type ResourceBase struct {
	// name is the type name without the provider's prefix, e.g. "linkifier".
	Name string
	Data *ProviderData
}

// Metadata names the resource.
func (b *ResourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.Name
}

// Configure receives the provider's data.
func (b *ResourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.Data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Collection is one of the realm's collections that Zulip lists only whole.
// It is read at most once per run however many resources read it (the cache
// shares one request among concurrent readers) and is forgotten by write, the
// only way the provider changes it.
type Collection[T any] struct {
	// name is the cache key and the plural noun in messages ("linkifiers").
	Name  string
	Cache *collectionCache
	Fetch func(context.Context) ([]T, error)
	// filter, when set, keeps the elements this view of the collection shows
	// (e.g. the active custom groups of the list of all groups); the cache
	// holds the whole list.
	Filter func(T) bool
	// Also are the other cache keys that hold the collection (the register
	// snapshot a StateCollection is read from): a write forgets them too.
	Also []string
}

// StateCollection is a collection Zulip lists only through POST /register
// (fetch type), read from the run's shared register snapshot (State) and
// kept under name; a write forgets both.
func StateCollection[T any](d *ProviderData, name, fetchType string, of func(*zulip.RegisterResponse) []T) *Collection[T] {
	c := newCollection(d, name, func(ctx context.Context) ([]T, error) {
		resp, err := State(ctx, d, fetchType)
		if err != nil {
			return nil, err
		}
		if list := of(resp); list != nil {
			return list, nil
		}
		return []T{}, nil
	})
	c.Also = []string{StateKey(fetchType)}
	return c
}

// shown applies the collection's filter to a list.
func (c *Collection[T]) shown(list []T) []T {
	if c.Filter == nil {
		return list
	}
	out := make([]T, 0, len(list))
	for _, v := range list {
		if c.Filter(v) {
			out = append(out, v)
		}
	}
	return out
}

// newCollection returns the collection name of d's cache, fetched by fetch.
func newCollection[T any](d *ProviderData, name string, fetch func(context.Context) ([]T, error)) *Collection[T] {
	return &Collection[T]{Name: name, Cache: d.Cache, Fetch: fetch}
}

// List returns the whole collection, from the cache when this run read it already.
func (c *Collection[T]) List(ctx context.Context) ([]T, error) {
	list, err := CachedAs(ctx, c.Cache, c.Name, c.Fetch)
	return c.shown(list), err
}

// Write performs a change to the collection. The cached copy is forgotten
// whatever the outcome: even a request that failed may have changed it. While
// writes are in flight, reads of the collection wait for them (see
// collectionCache), so parallel creates read it back once.
func (c *Collection[T]) Write(ctx context.Context, send func(context.Context) error) error {
	return c.Cache.WriteAll(ctx, append([]string{c.Name}, c.Also...), send)
}

// WriteKnown performs a write whose effect on the collection the provider
// knows from the request and its answer: send returns apply, which gives the
// collection as the server now holds it (nil when it cannot say), so that the
// cached copy stays valid and reading it back costs no request; otherwise the
// collection is forgotten, as by write.
func (c *Collection[T]) WriteKnown(ctx context.Context, send func(context.Context) (apply func([]T) []T, err error)) error {
	w := c.Cache.BeginWrite(c.Name)
	defer w.End()
	return c.Cache.WriteAll(ctx, c.Also, func(ctx context.Context) error {
		return c.sendKnown(ctx, w, send)
	})
}

// sendKnown is WriteKnown's request and its effect on the collection.
func (c *Collection[T]) sendKnown(ctx context.Context, w *writeTicket, send func(context.Context) (apply func([]T) []T, err error)) error {
	apply, err := send(ctx)
	if err == nil && apply != nil {
		w.EndKnown(func(old any) (any, bool) {
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
// collection (see WriteKnown).
func (c *Collection[T]) create(ctx context.Context, send func(context.Context) (obj T, made bool, err error)) error {
	return c.WriteKnown(ctx, func(ctx context.Context) (func([]T) []T, error) {
		obj, made, err := send(ctx)
		if err != nil || !made {
			return nil, err
		}
		return func(list []T) []T { return append(list, obj) }, nil
	})
}

// LastSeen returns the newest copy of the collection this run has seen, with
// the objects its own creates made, even when a write has made it stale; only
// a run that has not read it yet reads it now.
func (c *Collection[T]) LastSeen(ctx context.Context) ([]T, error) {
	if v, ok := c.Cache.lastSeen(c.Name); ok {
		if list, ok := v.([]T); ok {
			return c.shown(list), nil
		}
	}
	return c.List(ctx)
}

// ReadBack returns the collection as it is after the caller's own write
// ended, sharing one request with the read-backs of the writes that end beside
// it (collectionCache.ReadBack).
func (c *Collection[T]) ReadBack(ctx context.Context) ([]T, error) {
	v, err := c.Cache.ReadBack(ctx, c.Name, func(ctx context.Context) (any, error) { return c.Fetch(ctx) })
	if err != nil {
		return nil, err
	}
	list, ok := v.([]T)
	if !ok {
		return nil, fmt.Errorf("internal error: the cache holds a %T under %q, not a %T", v, c.Name, list)
	}
	return c.shown(list), nil
}

// Objects is the skeleton of a resource whose objects live in a collection.
// M is the resource's model, T the client's object.
type Objects[M any, T any] struct {
	// TypeName is the resource type ("zulip_linkifier"); what the object's noun
	// in messages ("linkifier"); role the role writes need.
	TypeName, What string
	Role           RequiredRole
	// coll returns the collection the objects live in.
	Coll func(*ProviderData) *Collection[T]
	// Key is the object's id as Terraform keeps it (and imports it by);
	// StateKey reads it from a model, SetKey writes it. A type keyed by a
	// numeric id sets IDOf and ID instead, which give all three.
	Key      func(T) string
	StateKey func(*M) string
	SetKey   func(*M, string)
	IDOf     func(T) int64
	ID       func(*M) *types.Int64
	// FromAPI copies the server's view of an object into a model (with the
	// provider's data, for types that refer to others by name).
	FromAPI func(context.Context, *ProviderData, T, *M, *diag.Diagnostics)
	// ImportHint ends the error of an import id that matches nothing: what
	// the id may be, and where the user can look it up.
	ImportHint string
	// archived, when set, is the object as Zulip keeps it after Delete
	// (archived, deactivated): the run's cached list keeps it so, and the
	// create of a replacement, planned after the delete, takes it back.
	Archived func(T) T
	// Remove is how Delete removes an object, by the state's key (the client's
	// delete; DeleteByID adapts one by numeric id). Lookup turns an import id
	// into a matcher (ByNameOrID, ByKeyOrID) or says why it is not one. With
	// them, ObjectResource is the type's Delete and ImportState.
	Remove func(*ProviderData) func(context.Context, string) error
	Lookup func(string) (func(T) bool, error)
}

// ObjectResource is the base of a resource whose objects live in a
// collection: its Read, Delete and ImportState are the Objects' own (a type
// whose delete or import does more declares its own method, which wins).
type ObjectResource[M any, T any] struct {
	ResourceBase
	Objects *Objects[M, T]
}

// ObjectResourceOf is the base of the resource whose objects objects
// describes, named by their TypeName.
func ObjectResourceOf[M any, T any](objects *Objects[M, T]) ObjectResource[M, T] {
	return ObjectResource[M, T]{ResourceBase: ResourceBase{Name: strings.TrimPrefix(objects.TypeName, "zulip_")}, Objects: objects}
}

// Read refreshes the object (Objects.Read).
func (r *ObjectResource[M, T]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	r.Objects.Read(ctx, r.Data, req, resp)
}

// Delete removes the object through Objects.Remove.
func (r *ObjectResource[M, T]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.Objects.Delete(ctx, r.Data, req, resp, r.Objects.Remove(r.Data))
}

// ImportState adopts the object Objects.Lookup finds.
func (r *ObjectResource[M, T]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	r.Objects.Import(ctx, r.Data, req, resp, r.Objects.Lookup)
}

// key is Key, or the numeric id.
func (o Objects[M, T]) key(v T) string {
	if o.IDOf != nil {
		return strconv.FormatInt(o.IDOf(v), 10)
	}
	return o.Key(v)
}

// stateKey is StateKey, or the model's numeric id.
func (o Objects[M, T]) stateKey(m *M) string {
	if o.ID != nil {
		return strconv.FormatInt(o.ID(m).ValueInt64(), 10)
	}
	return o.StateKey(m)
}

// setKey is SetKey, or sets the model's numeric id (keys made by key).
func (o Objects[M, T]) setKey(m *M, k string) {
	if o.ID != nil {
		n, _ := strconv.ParseInt(k, 10, 64)
		*o.ID(m) = types.Int64Value(n)
		return
	}
	o.SetKey(m, k)
}

// DeleteByID adapts a client's delete by numeric id to Delete's callback,
// which gets the state's key (an id kept as a number or as a string).
func DeleteByID(del func(context.Context, int64) error) func(context.Context, string) error {
	return func(ctx context.Context, id string) error {
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return fmt.Errorf("the state's id %q is not a number: %w", id, err)
		}
		return del(ctx, n)
	}
}

// title is what in Title Case, for diagnostic summaries.
func (o Objects[M, T]) title() string { return TitleCase(o.What) }

// read fills m from the collection and reports whether the object exists.
func (o Objects[M, T]) read(ctx context.Context, d *ProviderData, m *M, diags *diag.Diagnostics) bool {
	c := o.Coll(d)
	return o.readFrom(ctx, d, c.Name, c.List, m, diags)
}

// readAfterWrite is read for a create or update that has just ended: the
// collection comes from the cache when the write kept it valid, else from a
// read-back shared with the writes ending beside it.
func (o Objects[M, T]) readAfterWrite(ctx context.Context, d *ProviderData, m *M, diags *diag.Diagnostics) bool {
	c := o.Coll(d)
	return o.readFrom(ctx, d, c.Name, c.ReadBack, m, diags)
}

// readFrom fills m from the collection (name) that list returns.
func (o Objects[M, T]) readFrom(ctx context.Context, d *ProviderData, name string, list func(context.Context) ([]T, error),
	m *M, diags *diag.Diagnostics) bool {
	all, err := list(ctx)
	if err != nil {
		AddAPIError(diags, "Unable to Read "+TitleCase(name), "list the "+name, RoleAny, err)
		return false
	}
	key := o.stateKey(m)
	for _, v := range all {
		if o.key(v) == key {
			o.FromAPI(ctx, d, v, m, diags)
			return true
		}
	}
	return false
}

// Read refreshes a resource; an object that no longer exists is removed from
// state (and created again by the next plan), never reported as an error.
func (o Objects[M, T]) Read(ctx context.Context, d *ProviderData, req resource.ReadRequest, resp *resource.ReadResponse) {
	Refresh(ctx, d, req, resp, o.What+" no longer exists", func(ctx context.Context, m *M, diags *diag.Diagnostics) bool {
		return o.read(ctx, d, m, diags)
	})
}

// Refresh is the Read of a resource whose object fill refreshes into the
// state's model: fill reports false when the object is gone (deleted,
// deactivated, no longer holding what the resource manages), which removes
// the resource from state, logged as gone says, for the next plan to create
// it again; a gone object is never an error.
func Refresh[M any](ctx context.Context, d *ProviderData, req resource.ReadRequest, resp *resource.ReadResponse, gone string,
	fill func(context.Context, *M, *diag.Diagnostics) bool) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.Ready(&resp.Diagnostics) {
		return
	}
	read := m
	found := fill(ctx, &m, &resp.Diagnostics)
	switch {
	case resp.Diagnostics.HasError():
	case !found:
		var id attr.Value
		_ = req.State.GetAttribute(ctx, path.Root("id"), &id) // types without an id log none
		tflog.Info(ctx, gone+"; removing it from state", map[string]any{"id": fmt.Sprint(id)})
		resp.State.RemoveResource(ctx)
	default:
		StoreRefreshed(ctx, &resp.State, read, &m, &resp.Diagnostics)
	}
}

// Found adapts a read that reports a gone object by calling gone (the form a
// resource shares between Refresh and the read-back after a write, where a
// gone object is an error) to Refresh's fill.
func Found[M any](read func(ctx context.Context, m *M, diags *diag.Diagnostics, gone func())) func(context.Context, *M, *diag.Diagnostics) bool {
	return func(ctx context.Context, m *M, diags *diag.Diagnostics) bool {
		found := true
		read(ctx, m, diags, func() { found = false })
		return found
	}
}

// StoreRefreshed ends a Read: it sets the state to now, the model the refresh
// filled in from read (the model the stored state decoded to), unless the
// refresh changed nothing. The framework starts a Read's response from the
// stored state, so then the response already holds it, and encoding the model
// again would be most of an unchanged refresh's cost, for every resource of
// every plan. A model whose fields are not all framework values (a Go slice,
// map or pointer that a refresh could change in place, unseen by the
// comparison) is always set.
func StoreRefreshed[M any](ctx context.Context, st *tfsdk.State, read M, now *M, diags *diag.Diagnostics) {
	if valuesOnly(reflect.TypeFor[M]()) && reflect.DeepEqual(read, *now) {
		return
	}
	diags.Append(st.Set(ctx, now)...)
}

// valuesOnlyTypes caches valuesOnly's answer by model type.
var valuesOnlyTypes sync.Map

// valuesOnly reports whether t is a struct whose fields are all framework
// values (attr.Value implementations, which are immutable), so that a copy of
// a model is a snapshot of it.
func valuesOnly(t reflect.Type) bool {
	if v, ok := valuesOnlyTypes.Load(t); ok {
		known, _ := v.(bool)
		return known
	}
	ok := t.Kind() == reflect.Struct
	value := reflect.TypeFor[attr.Value]()
	for i := 0; ok && i < t.NumField(); i++ {
		f := t.Field(i).Type
		ok = f.Kind() == reflect.Struct && (f.Implements(value) || valuesOnly(f))
	}
	valuesOnlyTypes.Store(t, ok)
	return ok
}

// Delete removes the object through send; one that is already gone is not an error.
func (o Objects[M, T]) Delete(ctx context.Context, d *ProviderData, req resource.DeleteRequest, resp *resource.DeleteResponse,
	send func(context.Context, string) error) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.Ready(&resp.Diagnostics) {
		return
	}
	k := o.stateKey(&m)
	// The cached list loses the object, so that a create planned after this
	// delete in the same run (the second half of a replacement) does not find
	// it in the run's newest copy.
	err := o.Coll(d).WriteKnown(ctx, func(ctx context.Context) (func([]T) []T, error) {
		err := send(ctx, k)
		if err != nil && !zulip.IsNotFound(err) {
			return nil, err
		}
		return func(list []T) []T { return o.afterDelete(list, k) }, nil
	})
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Unable to Delete "+o.title(), "delete the "+o.What, o.Role, err)
	}
}

// afterDelete is a cached list without the object k, or with it as Zulip
// keeps it after a delete (archived).
func (o Objects[M, T]) afterDelete(list []T, k string) []T {
	if o.Archived == nil {
		return slices.DeleteFunc(list, func(v T) bool { return o.key(v) == k })
	}
	return ChangedIn(list, func(v *T) bool { return o.key(*v) == k }, func(v *T) { *v = o.Archived(*v) })
}

// ChangedIn is a copy of a cached list with change made to the elements that
// match (the cached list itself is shared, and never changed in place).
func ChangedIn[T any](list []T, match func(*T) bool, change func(*T)) []T {
	out := slices.Clone(list)
	for i := range out {
		if match(&out[i]) {
			change(&out[i])
		}
	}
	return out
}

// UpdateWithPermissions is the Update of a resource with permission
// settings: build turns plan and state (with the run's directory of groups)
// into the request, which send makes as a write to the collection. The
// permissions go as {new, old} with the state's value as old, so a change
// made by someone else since the plan is refused (EXPECTATION_MISMATCH) and
// explained, not overwritten.
func UpdateWithPermissions[M any, T any, R any](ctx context.Context, o Objects[M, T], d *ProviderData, req resource.UpdateRequest, resp *resource.UpdateResponse,
	name func(*M) string, build func(ctx context.Context, plan, state M, dir GroupDirectory) (R, error), send func(ctx context.Context, state M, r R) error) {
	plan, state, ok := LoadUpdate[M](ctx, d, req, &resp.Diagnostics)
	if !ok {
		return
	}
	summary := "Unable to Update " + o.title()
	dir, err := d.Groups(ctx)
	if err != nil {
		AddAPIError(&resp.Diagnostics, summary, "list the user groups", RoleAny, err)
		return
	}
	update, err := build(ctx, plan, state, dir)
	if err != nil {
		resp.Diagnostics.AddError(summary, err.Error())
		return
	}
	// An update that changes nothing is not sent: Zulip refuses an empty
	// PATCH ("No new data supplied"). A create that adopts a journaled object
	// plans one when the configuration leaves every differing value unmanaged.
	if !reflect.ValueOf(update).IsZero() {
		err = o.Coll(d).Write(ctx, func(ctx context.Context) error { return send(ctx, state, update) })
	}
	switch {
	case err == nil:
	case zulip.IsExpectationMismatch(err):
		resp.Diagnostics.AddError(o.title()+" Changed Since the Plan",
			fmt.Sprintf("A permission of %s %q changed after Terraform read it, so Zulip refused to overwrite it (the "+
				"provider sends the value it planned from as the expected old value). Run terraform plan again to see "+
				"the change, then apply. Server said: %s", o.What, name(&state), err))
		return
	default:
		AddAPIError(&resp.Diagnostics, summary, "update the "+o.What, o.Role, err)
		return
	}
	o.setKey(&plan, o.stateKey(&state))
	o.AfterUpdate(ctx, d, &plan, resp)
}

// Update is the Update of an object changed by one request: send makes it
// (within the collection's Write, so that the run's list is read again), may
// report what it finds wrong in the plan first (diags), and the object keeps
// its key and is read back into the state.
func (o Objects[M, T]) Update(ctx context.Context, d *ProviderData, req resource.UpdateRequest, resp *resource.UpdateResponse,
	send func(ctx context.Context, plan, state *M, diags *diag.Diagnostics) error) {
	plan, state, ok := LoadUpdate[M](ctx, d, req, &resp.Diagnostics)
	if !ok {
		return
	}
	err := o.Coll(d).Write(ctx, func(ctx context.Context) error { return send(ctx, &plan, &state, &resp.Diagnostics) })
	if resp.Diagnostics.HasError() {
		return
	}
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Unable to Update "+o.title(), "update the "+o.What, o.Role, err)
		return
	}
	o.setKey(&plan, o.stateKey(&state))
	o.AfterUpdate(ctx, d, &plan, resp)
}

// ByNameOrID is the import lookup of a type whose objects are imported by
// their name (compared as Zulip does: case-insensitively when fold) or their
// numeric id.
func ByNameOrID[T any](typeName string, id func(T) int64, name func(T) string, fold bool) func(string) (func(T) bool, error) {
	return ByKeyOrID(typeName, "name", id, name, fold)
}

// ByKeyOrID is ByNameOrID for a human key of another kind (keyName: "pattern",
// "title").
func ByKeyOrID[T any](typeName, keyName string, id func(T) int64, name func(T) string, fold bool) func(string) (func(T) bool, error) {
	return func(key string) (func(T) bool, error) {
		if key == "" {
			return nil, fmt.Errorf("a %s is imported by its %s or its numeric id, got an empty id", typeName, keyName)
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

// ImportPair splits the import id of a pair of a container and a user,
// `<container>:<user id>` (a channel's subscription, a group's membership):
// the container's name or id, and the user's id. The user id follows the
// last colon, so a name may hold colons. A malformed id is an error naming
// the format (form, e.g. "<group name or id>:<user id>") and an example.
func ImportPair(typeName, form, example, id string, diags *diag.Diagnostics) (container string, user int64, ok bool) {
	i := strings.LastIndexByte(id, ':')
	user, err := strconv.ParseInt(id[i+1:], 10, 64)
	if i <= 0 || err != nil {
		diags.AddError("Invalid Import ID", fmt.Sprintf("A %s is imported by %s, e.g. %s; got %q.", typeName, form, example, id))
		return "", 0, false
	}
	return id[:i], user, true
}

// Import adopts an existing object. lookup turns the import id into a matcher
// (by id, or by a human key such as a pattern or a domain) or explains why the
// id is not one; the object found is read whole into state.
func (o Objects[M, T]) Import(ctx context.Context, d *ProviderData, req resource.ImportStateRequest, resp *resource.ImportStateResponse,
	lookup func(string) (func(T) bool, error)) {
	match, err := lookup(strings.TrimSpace(req.ID))
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID", err.Error())
		return
	}
	if !d.Ready(&resp.Diagnostics) {
		return
	}
	c := o.Coll(d)
	all, err := c.List(ctx)
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Unable to Read "+TitleCase(c.Name), "list the "+c.Name, RoleAny, err)
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
			fmt.Sprintf("No %s matches the import id %q. %s", o.What, req.ID, o.ImportHint))
		return
	case 1:
	default:
		keys := make([]string, len(found))
		for i, v := range found {
			keys[i] = o.key(v)
		}
		resp.Diagnostics.AddError("Ambiguous Import ID",
			fmt.Sprintf("%d %s match the import id %q (ids %s); import one of them by its id.",
				len(found), c.Name, req.ID, strings.Join(keys, ", ")))
		return
	}
	var m M
	o.FromAPI(ReadAll(ctx), d, found[0], &m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// ReconcileTimeout bounds the read that settles an uncertain create.
const ReconcileTimeout = 30 * time.Second

// Settling is the context of the look that settles an uncertain create: it
// must happen even when the attempt ended because Terraform was interrupted
// or is gone (the journal then records what it finds), so it gets a short
// time of its own.
func Settling(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), ReconcileTimeout)
}

// Creation is one attempt to create an object of o.
type Creation[M any, T any] struct {
	Objects Objects[M, T]
	// send performs the create and returns the new object's key.
	Send func(context.Context) (string, error)
	// SameKey reports whether an object has the configured natural key (the
	// pattern of a linkifier, the domain of an allowed domain, the title and
	// content of a snippet); matches whether it has every configured value.
	SameKey, Matches func(T) bool
	// made, when set, returns the new object exactly as the server lists it,
	// from the configuration and the key the create answered, so that it is
	// added to the cached collection instead of the collection being read
	// again. Only for types whose stored form the request fully determines.
	Made func(key string) T
}

// Create performs the attempt and returns the new object's key. When the
// outcome is unknown (a timeout, a 5xx, a connection lost after the request was
// sent) the collection is read again: the one object that was not there before
// the attempt and matches every configured value is adopted. Anything else is
// an error that names what was found, with an import block to copy, and never
// a stranger adopted or a second object created.
func (c Creation[M, T]) Create(ctx context.Context, d *ProviderData, diags *diag.Diagnostics) (string, bool) {
	o := c.Objects
	coll := o.Coll(d)
	// What existed before the attempt is the newest copy this run has seen
	// (with what its own creates made): an object missing from it was made
	// since, by this attempt or by someone else at the same moment, and is
	// adopted only if it is the only one and matches every configured value.
	// Reading the collection afresh before every create would cost a request
	// per object for a check that only an uncertain failure needs.
	before, err := coll.LastSeen(ctx)
	if err != nil {
		AddAPIError(diags, "Unable to Create "+o.title(), "list the "+coll.Name+" before creating one", RoleAny, err)
		return "", false
	}
	existed := make(map[string]bool, len(before))
	for _, v := range before {
		existed[o.key(v)] = true
	}
	var key string
	err = coll.create(ctx, func(ctx context.Context) (obj T, made bool, err error) {
		if key, err = c.Send(ctx); err != nil || c.Made == nil {
			return obj, false, err
		}
		return c.Made(key), true, nil
	})
	if err == nil {
		return key, true
	}
	if IsClientError(err) { // a refusal: nothing was created
		AddAPIError(diags, "Unable to Create "+o.title(), "create the "+o.What, o.Role, err)
		return "", false
	}
	if zulip.IsNotSent(err) { // interrupted (or unable to connect) before the request left: nothing to look for
		AddAPIError(diags, "Unable to Create "+o.title(), fmt.Sprintf("create the %s (the request was never sent, so "+
			"nothing was created; apply again)", o.What), o.Role, err)
		return "", false
	}
	lctx, cancel := Settling(ctx)
	defer cancel()
	after, lerr := coll.List(lctx)
	if lerr != nil {
		noteUncertain(ctx, existed)
		diags.AddError("Unable to Create "+o.title(),
			fmt.Sprintf("The server did not confirm the creation of the %s (%s), and reading the %s again to see whether "+
				"it exists failed too (%s). Before applying again, check the organization: if the %s exists, import it.",
				o.What, err, coll.Name, lerr, o.What))
		return "", false
	}
	var adopt, clash []string
	for _, v := range after {
		switch k := o.key(v); {
		case existed[k]:
		case c.Matches(v):
			adopt = append(adopt, k)
		case c.SameKey(v):
			clash = append(clash, k)
		}
	}
	switch {
	case len(adopt) == 1 && len(clash) == 0:
		tflog.Warn(ctx, "the server did not confirm the create, but exactly one new matching "+o.What+" exists; adopting it",
			map[string]any{"id": adopt[0], "error": err.Error()})
		return adopt[0], true
	case len(adopt)+len(clash) == 0:
		// The request may still be in flight at the server: the journal
		// keeps the attempt, and the next plan adopts the object it made.
		noteUncertain(ctx, existed)
		AddAPIError(diags, "Unable to Create "+o.title(), fmt.Sprintf("create the %s (the %s read afterwards have no new "+
			"one, so nothing was created; apply again)", o.What, coll.Name), o.Role, err)
	default:
		found := append(adopt, clash...)
		sort.Strings(found)
		blocks := make([]string, len(found))
		for i, k := range found {
			blocks[i] = ImportBlock(o.TypeName, k)
		}
		diags.AddError("Unable to Create "+o.title(),
			fmt.Sprintf("The server did not confirm the creation of the %s (%s), and the %s read afterwards hold %d new "+
				"%s like it (%s) that the provider cannot tell apart from one made by someone else, so it adopted none. "+
				"If one of them is this resource's, import it instead of applying again:\n\n%s",
				o.What, err, coll.Name, len(found), Pluralize(o.What, len(found)), strings.Join(found, ", "), strings.Join(blocks, "\n")))
	}
	return "", false
}

// createAttempt is what the wrapper's Create (ruledResource.Create, which
// puts it in the context) learns from a creation inside it: that its outcome
// is unknown, and the largest id seen before it.
type createAttempt struct {
	uncertain bool
	after     int64
	// named: the collection's keys are not ids (an emoji's name), so a
	// newer object cannot be told from an older one.
	named bool
}

type attemptKey struct{}

// withAttempt is ctx with a new attempt to fill.
func withAttempt(ctx context.Context) (context.Context, *createAttempt) {
	a := &createAttempt{}
	return context.WithValue(ctx, attemptKey{}, a), a
}

// noteUncertain records in the context's attempt that the create's outcome
// is unknown; existed are the keys seen before it (ids, for the types the
// journal keeps intents of).
func noteUncertain(ctx context.Context, existed map[string]bool) {
	a, ok := ctx.Value(attemptKey{}).(*createAttempt)
	if !ok {
		return
	}
	a.uncertain = true
	for k := range existed {
		id, err := strconv.ParseInt(k, 10, 64)
		a.named = a.named || err != nil
		a.after = max(a.after, id)
	}
}

// Load reads a request's plan or state (from) into a new M and tells whether
// the operation may go on: the value decoded and the provider configured (the
// diagnostics say why not).
func Load[M any](ctx context.Context, d *ProviderData, from interface {
	Get(context.Context, any) diag.Diagnostics
}, diags *diag.Diagnostics) (M, bool) {
	var m M
	diags.Append(from.Get(ctx, &m)...)
	return m, !diags.HasError() && d.Ready(diags)
}

// Revive is a create that takes over the retired object of the configured
// key (an archived channel, a deactivated group, as r words it): send is the
// one write that revives it with the configuration (through its collection's
// Write); then the object is read back as a create's. role is what the write
// needs.
func (o Objects[M, T]) Revive(ctx context.Context, d *ProviderData, r Retirement, plan *M, id int64, name string, role RequiredRole,
	send func(context.Context) error, resp *resource.CreateResponse) {
	verb := strings.TrimSuffix(r.Revived, "d")
	if err := send(ctx); err != nil {
		AddAPIError(&resp.Diagnostics, "Unable to "+TitleCase(verb+" "+r.What),
			fmt.Sprintf("%s the %s %s %q (id %d)", verb, r.Retired, r.What, name, id), role, err)
		return
	}
	tflog.Info(ctx, r.Revived+" the "+r.Retired+" "+r.What+" of the configured name", map[string]any{"id": id, "name": name})
	o.FinishCreate(ctx, d, plan, strconv.FormatInt(id, 10), resp)
}

// FinishCreate stores the new object's key in plan, then reads the object back
// into state. The object exists once this is called, so nothing here may fail
// the create: Terraform taints a create that reports an error and the next
// apply would replace (delete) the object it has just made. A read-back that
// fails is therefore a warning; state keeps the configuration's values with
// the server-computed ones left empty, and the next refresh reads what the
// server really holds, so the next plan shows exactly what is left to do.
func (o Objects[M, T]) FinishCreate(ctx context.Context, d *ProviderData, plan *M, key string, resp *resource.CreateResponse) {
	o.setKey(plan, key)
	var readDiags diag.Diagnostics
	found := o.readAfterWrite(ctx, d, plan, &readDiags)
	switch {
	case readDiags.HasError():
		addIncomplete(&resp.Diagnostics, o.What, key, "reading it back failed", readDiags)
	case !found:
		addIncomplete(&resp.Diagnostics, o.What, key, fmt.Sprintf("it is missing from the %s read back (deleted at once by someone else?)", o.Coll(d).Name), nil)
	default:
		resp.Diagnostics.Append(readDiags...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	SettleUnknowns(ctx, &resp.State, &resp.Diagnostics)
}

// AfterUpdate reads an updated object back into plan and state; one deleted
// meanwhile is an error (Terraform keeps the prior state, and the next plan
// creates it again).
func (o Objects[M, T]) AfterUpdate(ctx context.Context, d *ProviderData, plan *M, resp *resource.UpdateResponse) {
	if !o.readAfterWrite(ctx, d, plan, &resp.Diagnostics) {
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddError(o.title()+" Disappeared",
				fmt.Sprintf("The %s %s was deleted while it was being updated.", o.What, o.stateKey(plan)))
		}
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

// addIncomplete reports a created object whose remaining steps failed, as a
// warning (see FinishCreate for why never an error).
func addIncomplete(diags *diag.Diagnostics, what, key, why string, cause diag.Diagnostics) {
	detail := fmt.Sprintf("The %s was created (id %s), but %s. Terraform keeps it in state as configured; the next "+
		"`terraform plan` reads what the server holds and shows what is left to do, and the next apply finishes it "+
		"in place (nothing is deleted or created twice).", what, key, why)
	for _, d := range cause.Errors() {
		detail += "\n\n" + d.Summary() + ": " + d.Detail()
	}
	diags.AddWarning(TitleCase(what)+" Created but Not Finished", detail)
}

// SettleUnknowns replaces the values still unknown in a state (computed values
// the provider could not learn) by null: Terraform refuses unknown values after
// apply, and null tells the next refresh to fill them.
func SettleUnknowns(ctx context.Context, state *tfsdk.State, diags *diag.Diagnostics) {
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

// CheckKeyFree fails the plan of a new object whose natural key (attr) is
// already taken in the organization, with an import block to copy: Zulip would
// refuse the create at apply time, or worse, a duplicate would be made.
func (c Creation[M, T]) CheckKeyFree(ctx context.Context, d *ProviderData, attr path.Path, describe string, diags *diag.Diagnostics) {
	if !d.CanAsk() {
		return // nothing to ask the server with; the operation will say why
	}
	o := c.Objects
	coll := o.Coll(d)
	// The newest copy this run has seen is enough: the plan's first look reads
	// the collection, and Terraform plans each resource again during apply,
	// when a fresh read per resource would cost a request per object created.
	all, err := coll.LastSeen(ctx)
	if err != nil {
		AddAPIError(diags, "Unable to Read "+TitleCase(coll.Name), "list the "+coll.Name+" to check that "+describe+" is free", RoleAny, err)
		return
	}
	i := slices.IndexFunc(all, func(v T) bool { return c.SameKey(v) && !d.HeldByState(o.TypeName, o.key(v)) })
	if i < 0 {
		return
	}
	v := all[i]
	diags.AddAttributeError(attr, o.title()+" Already Exists",
		fmt.Sprintf("The organization already has %s with %s (import id %q), so creating another would fail or "+
			"duplicate it. To manage the existing one with this resource, import it (with <name> this resource's name):"+
			"\n\n%s\n\nor remove it from the organization first.", article(o.What), describe, o.key(v), ImportBlock(o.TypeName, o.key(v))))
}

// WithoutData adapts a FromAPI that needs nothing but the object.
func WithoutData[M any, T any](f func(context.Context, T, *M, *diag.Diagnostics)) func(context.Context, *ProviderData, T, *M, *diag.Diagnostics) {
	return func(ctx context.Context, _ *ProviderData, v T, m *M, diags *diag.Diagnostics) { f(ctx, v, m, diags) }
}

// Unchanged reports a plan that changes nothing: the prior state planned as
// it is. ModifyPlan skips its checks then (they ran when the values were first
// planned, and nothing will be sent), and so the cost of decoding the models,
// which the framework's reflection makes the bulk of a large plan.
func Unchanged(req resource.ModifyPlanRequest) bool {
	return !req.State.Raw.IsNull() && req.Plan.Raw.Equal(req.State.Raw)
}

// Planned is the plan a ModifyPlan checks, decoded: ok is false when there
// is nothing to check (the resource is being destroyed, or the plan changes
// nothing: see Unchanged) and when the plan did not decode.
func Planned[M any](ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) (plan M, ok bool) {
	if req.Plan.Raw.IsNull() || Unchanged(req) {
		return plan, false
	}
	diags.Append(req.Plan.Get(ctx, &plan)...)
	return plan, !diags.HasError()
}

// PlanAndState is the plan of a ModifyPlan that compares it with the prior
// state, and that state (the zero model when creating); ok is false when the
// resource is being destroyed and when either did not decode. Unlike Planned
// it runs on a plan that changes nothing, for checks that look beyond the
// configuration (a file's content, the time).
func PlanAndState[M any](ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) (plan, state M, creating, ok bool) {
	if req.Plan.Raw.IsNull() {
		return plan, state, false, false
	}
	diags.Append(req.Plan.Get(ctx, &plan)...)
	creating = req.State.Raw.IsNull()
	if !creating {
		diags.Append(req.State.Get(ctx, &state)...)
	}
	return plan, state, creating, !diags.HasError()
}

// RequireRole fails a plan whose change needs a role the provider's account
// does not have, naming the role, instead of letting the apply fail with
// Zulip's bare "Insufficient permission".
func (d *ProviderData) RequireRole(ctx context.Context, role RequiredRole, action string, attr path.Path, diags *diag.Diagnostics) {
	if !d.CanAsk() || role == RoleAny {
		return
	}
	me, err := d.Caller(ctx)
	if err != nil {
		tflog.Warn(ctx, "could not read the provider's own account; the role check is left to the server", map[string]any{"error": err.Error()})
		return
	}
	need := zulip.RoleAdministrator
	if role == RoleOwner {
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

// Caller is the provider's own account: as Configure read it, or else read
// once per run.
func (d *ProviderData) Caller(ctx context.Context) (*zulip.User, error) {
	if d.Me != nil {
		return d.Me, nil
	}
	return CachedAs(ctx, d.Cache, cacheCaller, d.Client.GetOwnUser)
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
	// objects (NoteInPlan), by set name.
	sets map[string]map[string]bool
	// held are the objects a state of this run holds, by type and key
	// (HeldByState); claims the natural keys its plans claim (rules.go).
	held     map[string]bool
	replaced map[string]bool
	claims   map[string]*keyClaims
	// warnedUnknown: the plan has said once that server checks were skipped.
	warnedUnknown bool
	// groupRenames are the renames of groups this run's applies made, in
	// order (groups()).
	groupRenames groupRenameLog
}

// mark records objects of a type, by key, in one of the notes' sets.
func (n *planNotes) mark(set *map[string]bool, typeName string, keys ...string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if *set == nil {
		*set = map[string]bool{}
	}
	for _, k := range keys {
		(*set)[typeName+"\x00"+k] = true
	}
}

// marked reports whether an object of a type is in one of the notes' sets.
func (n *planNotes) marked(set *map[string]bool, typeName, key string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return (*set)[typeName+"\x00"+key]
}

// NoteInPlan adds key to this plan's set named set and returns the keys the
// set holds now: how the plans of one type see what the others of the plan
// do (a group managed by both kinds of membership resource, the fields shown
// in the profile summary).
func (d *ProviderData) NoteInPlan(set, key string) map[string]bool {
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

// NoteMembers records that a resource of this plan manages the members of
// what (a channel's subscribers, a group's members): all of them
// (authoritative) or one each. Once both kinds manage the same members it
// warns with summary and detail: the authoritative resource would remove, on
// every apply, the members the additive ones add.
func (d *ProviderData) NoteMembers(what string, authoritative bool, summary, detail string, diags *diag.Diagnostics) {
	if d == nil {
		return
	}
	if kinds := d.NoteInPlan(what, strconv.FormatBool(authoritative)); kinds["true"] && kinds["false"] {
		diags.AddWarning(summary, detail)
	}
}

// NoteOwnerOnly records a planned change that needs an owner, and warns when
// the provider's account steps down from owner in the same plan.
func (d *ProviderData) NoteOwnerOnly(what string, diags *diag.Diagnostics) {
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

// NoteStepDown records that the plan takes the owner role from the
// provider's own account (by names the change), and warns when owner-only
// changes are planned in the same run.
func (d *ProviderData) NoteStepDown(by string, diags *diag.Diagnostics) {
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

// ImportBlock is an import block for an object, ready to copy.
func ImportBlock(typeName, id string) string {
	return fmt.Sprintf("import {\n  to = %s.<name>\n  id = %q\n}", typeName, id)
}

// TitleCase capitalizes each word ("allowed domain" → "Allowed Domain").
func TitleCase(s string) string {
	words := strings.Fields(strings.ReplaceAll(s, "_", " "))
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// Pluralize returns noun for one and a plain English plural otherwise.
func Pluralize(noun string, n int) string {
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
	// "a user", "a unique": a "u" said "you" takes "a".
	if strings.ContainsRune("aeiou", rune(name[0])) && !strings.HasPrefix(name, "us") && !strings.HasPrefix(name, "uni") {
		return "an " + name
	}
	return "a " + name
}

// readAllKey marks the context of a read that fills every value.
type readAllKey struct{}

// ReadAll is ctx marked for a read that fills every value, those a
// configuration may leave out included (PermissionTable.Read): an import's, a
// data source's, or the read of an object a create takes over.
func ReadAll(ctx context.Context) context.Context {
	return context.WithValue(ctx, readAllKey{}, true)
}

// ReadsAll tells whether ctx is marked by ReadAll.
func ReadsAll(ctx context.Context) bool {
	v, _ := ctx.Value(readAllKey{}).(bool)
	return v
}

// LoadUpdate is an update's plan and prior state, and whether both decoded
// and the provider is ready for the update's requests.
func LoadUpdate[M any](ctx context.Context, d *ProviderData, req resource.UpdateRequest, diags *diag.Diagnostics) (plan, state M, ok bool) {
	diags.Append(req.Plan.Get(ctx, &plan)...)
	diags.Append(req.State.Get(ctx, &state)...)
	return plan, state, !diags.HasError() && d.Ready(diags)
}
