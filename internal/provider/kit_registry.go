package provider

// What the kit knows of a resource type: the registry's entries (registry.go
// lists them) and the objects an organization's adoption finds.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// typeEntry is one resource type.
type typeEntry struct {
	typeName    string
	newResource func() resource.Resource
	// identity is the type's resource identity (identity.go); nil for a type
	// without one.
	identity *identitySpec
	// natural is the natural key, when it is not the identity's required
	// attributes (the default) or Zulip compares it without regard to case;
	// an empty rule for a type without one.
	natural *keyRule
	// journaled marks a type whose creates make an object an interrupted
	// apply can leave behind (journal.go).
	journaled bool
	// noAccount marks a type whose operations use no Zulip account.
	noAccount bool
	// adopt lists the organization's objects of the type for adoption; nil
	// for a type that is not adopted.
	adopt *importSource
}

// identity is a pointer to spec, for registry entries.
func identity(spec identitySpec) *identitySpec { return &spec }

// importTarget is one object to import: a name for its resource block, the
// import id its resource type accepts, and (when not the name) how a list
// shows it.
type importTarget struct {
	name, id, display string
}

// importSource lists the objects of one resource type.
type importSource struct {
	typeName string
	list     func(context.Context, *providerData, filterValues) ([]importTarget, error)
	// listDescription opens the description of the type's list resource;
	// filters are its filters beyond name_regex.
	listDescription string
	filters         map[string]listFilter
	// listOnly marks a type that only a list resource offers (with a filter
	// it needs), not zulip_import_blocks.
	listOnly bool
}

// registrySet is the set of the entries' types for which has holds.
func registrySet(entries []typeEntry, has func(typeEntry) bool) map[string]bool {
	set := map[string]bool{}
	for _, e := range entries {
		if has(e) {
			set[e.typeName] = true
		}
	}
	return set
}

// adoptedSources are the entries' adopted types, in their order.
func adoptedSources(entries []typeEntry) []importSource {
	var out []importSource
	for _, e := range entries {
		if e.adopt != nil {
			src := *e.adopt
			src.typeName = e.typeName
			out = append(out, src)
		}
	}
	return out
}
