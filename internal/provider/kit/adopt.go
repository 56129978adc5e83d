package kit

// Adopting an organization: what each type's list of objects to import is
// made of (zulip_import_blocks and the list resources read the lists the
// registry's entries give, kit/list.go).

import (
	"context"
	"slices"
	"strings"

	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// FilterUserID is the filter of the lists of one user's objects.
const FilterUserID = "user_id"

// AdoptionStage orders the adopted types in what zulip_import_blocks writes:
// the organization first, then what refers to it.
type AdoptionStage int

// The stages, in order.
const (
	// StageOrganization: the organization's settings.
	StageOrganization AdoptionStage = iota
	// StageObjects: the organization's objects (domains, linkifiers, fields,
	// emoji, groups, folders, channels).
	StageObjects
	// StageOrders: the orders of those objects.
	StageOrders
	// StageMembers: who is in each group and channel.
	StageMembers
	// StageAccounts: users and bots.
	StageAccounts
	// StageOwn: what belongs to one account (its snippets, topic
	// preferences, subscriptions and memberships).
	StageOwn
)

// Singleton is the one object of an organization-wide resource.
func Singleton(id string) func(context.Context, *ProviderData, FilterValues) ([]ImportTarget, error) {
	return func(context.Context, *ProviderData, FilterValues) ([]ImportTarget, error) {
		return []ImportTarget{{Name: "all", ID: id, Display: id}}, nil
	}
}

// OrderOf is the order resource of a collection, when it has something to
// order (an order resource needs at least one object).
func OrderOf[T any](coll func(*ProviderData) *Collection[T], id string, counts func(T) bool) func(context.Context, *ProviderData, FilterValues) ([]ImportTarget, error) {
	return func(ctx context.Context, d *ProviderData, _ FilterValues) ([]ImportTarget, error) {
		list, err := coll(d).List(ctx)
		if err != nil || !slices.ContainsFunc(list, counts) {
			return nil, err
		}
		return []ImportTarget{{Name: "all", ID: id, Display: id}}, nil
	}
}

// ImportFrom lists a collection's objects to import: pick gives a name, the
// import id, and whether the object is imported at all.
func ImportFrom[T any](coll func(*ProviderData) *Collection[T], pick func(T) (name, id string, ok bool)) func(context.Context, *ProviderData, FilterValues) ([]ImportTarget, error) {
	return ImportFromFiltered(coll, func(v T, _ FilterValues) (string, string, bool) { return pick(v) })
}

// ImportFromFiltered is ImportFrom for a type whose list has filters.
func ImportFromFiltered[T any](coll func(*ProviderData) *Collection[T], pick func(T, FilterValues) (name, id string, ok bool)) func(context.Context, *ProviderData, FilterValues) ([]ImportTarget, error) {
	return func(ctx context.Context, d *ProviderData, f FilterValues) ([]ImportTarget, error) {
		list, err := coll(d).List(ctx)
		if err != nil {
			return nil, err
		}
		var out []ImportTarget
		for _, v := range list {
			if name, id, ok := pick(v, f); ok {
				out = append(out, ImportTarget{Name: name, ID: id})
			}
		}
		return out, nil
	}
}

// UserFilter is the filter of a list of one user's objects (what).
func UserFilter(what string) map[string]ListFilter {
	return map[string]ListFilter{FilterUserID: {Attr: listschema.Int64Attribute{Required: true,
		MarkdownDescription: "The user whose " + what + " are listed."}}}
}

// UsersToImport lists the users keep accepts (an area's humans or bots) by
// their real address where the provider's account may see it, shown as
// "Full Name <address>", in the order of their addresses.
func UsersToImport(ctx context.Context, d *ProviderData, keep func(zulip.User) bool) ([]ImportTarget, error) {
	users, err := Users(ctx, d)
	if err != nil {
		return nil, err
	}
	var out []ImportTarget
	for _, u := range users {
		if !keep(u) {
			continue
		}
		address := u.Email // the API address; the real one when the account may see it
		if u.DeliveryEmail != nil && *u.DeliveryEmail != "" {
			address = *u.DeliveryEmail
		}
		local, _, _ := strings.Cut(address, "@")
		out = append(out, ImportTarget{Name: local, ID: address, Display: u.FullName + " <" + address + ">"})
	}
	slices.SortFunc(out, func(a, b ImportTarget) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}
