package kit

// The organization's users and the provider's own account, which every area
// checks against (owners of bots, members of groups, subscribers, people named
// by permissions and profile fields): one list per run, shared by all.

import (
	"context"
	"fmt"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Cache keys of the provider's own account and the organization's users, read
// once per provider process; only the functions below use them, so that no
// other cache user can store a different type under them.
const (
	CacheUserCaller = "zulip_user:caller"
	CacheUserUsers  = "zulip_user:users"
)

// userCaller returns the provider's own account, read once per provider process.
func userCaller(ctx context.Context, d *ProviderData) (*zulip.User, error) {
	v, err := d.Cache.get(ctx, CacheUserCaller, func(ctx context.Context) (any, error) {
		return d.Client.GetOwnUser(ctx)
	})
	if err != nil {
		return nil, err
	}
	u, ok := v.(*zulip.User)
	if !ok {
		return nil, fmt.Errorf("unexpected cached value %T", v)
	}
	return u, nil
}

// Users returns the organization's users by id (bots and deactivated users
// included), read once per provider process and forgotten whenever this
// resource creates, deactivates or reactivates a user. The one list serves
// every zulip_user's refresh and every plan-time check (the address taken,
// the last owner, the ids of a Users field) and every zulip_user data source,
// so a plan of N users costs one request, not N: it carries what GET
// /users/{id} would with the Gravatar shortcut (custom profile fields
// included).
func Users(ctx context.Context, d *ProviderData) (map[int64]zulip.User, error) {
	return usersFrom(d.Cache.get(ctx, CacheUserUsers, d.fetchUsers))
}

// WriteUsers performs a change to the organization's users (Cache.Write): the
// user list, and the keys also names that hold users too (the provider's own
// account, the realm's bots), are forgotten whatever the outcome.
func WriteUsers(ctx context.Context, d *ProviderData, send func(context.Context) error, also ...string) error {
	return d.Cache.WriteAll(ctx, append([]string{CacheUserUsers}, also...), send)
}

// UsersSeen is Users for plan-time checks: the newest list this run has
// seen, even if a write made it stale since (Terraform plans every resource
// again during apply, and a fresh list per resource would cost a request per
// user created). Checks that a user exists use CheckUsersSeen instead.
func UsersSeen(ctx context.Context, d *ProviderData) (map[int64]zulip.User, error) {
	if v, ok := d.Cache.lastSeen(CacheUserUsers); ok {
		return usersFrom(v, nil)
	}
	return Users(ctx, d)
}

// CheckUsersSeen runs check on the newest user list this run has seen and, if
// it fails there, again on a list read afresh, so that a plan-time check never
// fails on a stale list (a user created or reactivated since, by this provider
// or another configuration of it). It returns check's verdict, or listErr when no list could be read.
func CheckUsersSeen(ctx context.Context, d *ProviderData, check func(map[int64]zulip.User) error) (verdict, listErr error) {
	users, err := UsersSeen(ctx, d)
	if err != nil {
		return nil, err
	}
	if check(users) == nil {
		return nil, nil
	}
	// Read afresh: even a list this process holds as fresh may miss a user
	// another provider configuration (an alias) created in this run.
	d.Cache.forget(CacheUserUsers)
	if users, err = Users(ctx, d); err != nil {
		return nil, err
	}
	return check(users), nil
}

// UsersAfterWrite is Users for a create that has just ended: one read
// shared with the creates ending beside it (collectionCache.ReadBack).
func UsersAfterWrite(ctx context.Context, d *ProviderData) (map[int64]zulip.User, error) {
	return usersFrom(d.Cache.ReadBack(ctx, CacheUserUsers, d.fetchUsers))
}

// fetchUsers lists the organization's users by id, as Zulip's clients do:
// with the Gravatar shortcut (client_gravatar: a Gravatar avatar's URL is
// null, for the client to compute), which is also the zulip_user data
// source's default, so that the data source answers from this list.
func (d *ProviderData) fetchUsers(ctx context.Context) (any, error) {
	gravatarShortcut := true
	list, err := d.Client.ListUsers(ctx, zulip.GetUserOptions{ClientGravatar: &gravatarShortcut, IncludeCustomProfileFields: true})
	if err != nil {
		return nil, err
	}
	return ByID(list, func(u zulip.User) int64 { return u.UserID }), nil
}

// usersFrom converts what the cache holds under CacheUserUsers.
func usersFrom(v any, err error) (map[int64]zulip.User, error) {
	if err != nil {
		return nil, err
	}
	users, ok := v.(map[int64]zulip.User)
	if !ok {
		return nil, fmt.Errorf("unexpected cached value %T", v)
	}
	return users, nil
}

// OwnAccount returns the provider's own account: the one Configure read when it
// did, else GET /users/me once per provider process.
func OwnAccount(ctx context.Context, d *ProviderData) (*zulip.User, error) {
	if d.Me != nil {
		return d.Me, nil
	}
	return userCaller(ctx, d)
}
