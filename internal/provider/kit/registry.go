package kit

// What the kit knows of a type: each area package declares its types once
// (its register.go, an Area), and the provider gathers the areas (the
// provider's registry.go); the provider's resources, data sources, ephemeral
// resources and actions, the list resources, zulip_import_blocks, the
// journal and the kit's rules all read the entries.

import (
	"cmp"
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TypeEntry is one resource type.
type TypeEntry struct {
	TypeName    string
	NewResource func() resource.Resource
	// Contract is the kind of object the type manages, which says the tests
	// it must have (acctest.Contract checks them).
	Contract Contract
	// identity is the type's resource identity (identity.go); nil for a type
	// without one.
	Identity *IdentitySpec
	// natural is the natural key, when it is not the identity's required
	// attributes (the default) or Zulip compares it without regard to case;
	// an empty rule for a type without one.
	Natural *KeyRule
	// journaled marks a type whose creates make an object an interrupted
	// apply can leave behind (journal.go).
	Journaled bool
	// NoAccount marks a type whose operations use no Zulip account.
	NoAccount bool
	// Role is the role every change of the type's objects needs, destroy
	// included (a linkifier, a code playground: an administrator; the allowed
	// domains: an owner); the kit checks it at plan. Empty for a type whose
	// needs depend on the object (a channel, a group) or that any member may
	// change.
	Role *TypeRole
	// Level is the Zulip feature level the type needs (its endpoints'), and
	// AttrLevels the level an attribute needs when the configuration sets it;
	// the kit refuses a plan on an older server, naming the level.
	Level      int
	AttrLevels map[string]int
	// Destroy is what the plan of a destroy says, for a type whose destroy
	// does not delete (Zulip archives a channel, deactivates a bot, keeps
	// the organization's settings) or deletes more than the object; nil for
	// a plain delete.
	Destroy *Note
	// adopt lists the organization's objects of the type for adoption; nil
	// for a type that is not adopted.
	Adopt *ImportSource
}

// Contract is the kind of object a resource type manages, for the test
// contract: each kind makes some tests required.
type Contract int

const (
	// ContractUnset is no contract: a registry entry must name one.
	ContractUnset Contract = iota
	// CollectionObject: one object of a collection the server lists whole,
	// created, adopted and half-failed through the kit's collections; the
	// kit's shared tests run on it.
	CollectionObject
	// ManagedObject: another object the type manages (a singleton, an
	// order, a membership, an object of its own), with its own tests.
	ManagedObject
	// Invocation: an operation performed once (invocation.go).
	Invocation
)

// Identity is a pointer to spec, for registry entries.
func Identity(spec IdentitySpec) *IdentitySpec { return &spec }

// ImportTarget is one object to import: a name for its resource block, the
// import id its resource type accepts, and (when not the name) how a list
// shows it.
type ImportTarget struct {
	Name, ID, Display string
}

// ImportSource lists the objects of one resource type.
type ImportSource struct {
	TypeName string
	List     func(context.Context, *ProviderData, FilterValues) ([]ImportTarget, error)
	// ListDescription opens the description of the type's list resource;
	// filters are its filters beyond name_regex.
	ListDescription string
	Filters         map[string]ListFilter
	// ListOnly marks a type that only a list resource offers (with a filter
	// it needs), not zulip_import_blocks.
	ListOnly bool
	// Stage places the type in zulip_import_blocks' order.
	Stage AdoptionStage
}

// Area is what an area package declares: its resource types, with what the
// kit needs to know of each, and its data sources, ephemeral resources and
// actions. Adding a type adds it to its area's declaration, and nothing else
// of the provider changes.
type Area struct {
	Resources          []TypeEntry
	DataSources        []func() datasource.DataSource
	EphemeralResources []func() ephemeral.EphemeralResource
	Actions            []func() action.Action
	// Functions are the area's provider functions (Terraform 1.8 and newer).
	Functions []func() function.Function
	// State are the register fetch types the area's types read (State): a
	// run's first register asks for all the areas' at once.
	State []string
}

// RegistrySet is the set of the entries' types for which has holds.
func RegistrySet(entries []TypeEntry, has func(TypeEntry) bool) map[string]bool {
	set := map[string]bool{}
	for _, e := range entries {
		if has(e) {
			set[e.TypeName] = true
		}
	}
	return set
}

// AdoptedSources are the entries' adopted types, by stage, then in the
// entries' order.
func AdoptedSources(entries []TypeEntry) []ImportSource {
	var out []ImportSource
	for _, e := range entries {
		if e.Adopt != nil {
			src := *e.Adopt
			src.TypeName = e.TypeName
			out = append(out, src)
		}
	}
	slices.SortStableFunc(out, func(a, b ImportSource) int { return cmp.Compare(a.Stage, b.Stage) })
	return out
}

// TypeRole is the role the changes of a type need (TypeEntry.Role).
type TypeRole struct {
	Need RequiredRole
	// Of names what is changed, for "Changing <Of> needs ...": "linkifiers",
	// "the organization's allowed domains".
	Of string
}

// Note is a warning the plan shows.
type Note struct {
	Title, Detail string
}
