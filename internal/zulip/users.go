package zulip

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// User roles (the "role" field, FL59).
const (
	RoleOwner         = 100
	RoleAdministrator = 200
	RoleModerator     = 300
	RoleMember        = 400
	RoleGuest         = 600
)

// roleNames maps role values to the names the provider uses in configuration.
var roleNames = map[int]string{
	RoleOwner:         "owner",
	RoleAdministrator: "administrator",
	RoleModerator:     "moderator",
	RoleMember:        "member",
	RoleGuest:         "guest",
}

// RoleNames returns the role names in order of decreasing privilege.
func RoleNames() []string {
	return []string{"owner", "administrator", "moderator", "member", "guest"}
}

// RoleName returns the name of a role value ("owner", ...) and whether it is known.
func RoleName(role int) (string, bool) {
	name, ok := roleNames[role]
	return name, ok
}

// RoleFromName returns the role value of a name and whether it is known.
func RoleFromName(name string) (int, bool) {
	for role, n := range roleNames {
		if n == name {
			return role, true
		}
	}
	return 0, false
}

// User is a user or bot of the organization (digest §4.3). Email is the Zulip API e-mail,
// which is a dummy user{id}@{host} when the caller may not see the real address;
// DeliveryEmail is the real address, nil when hidden.
type User struct {
	UserID         int64                   `json:"user_id"`
	Email          string                  `json:"email"`
	DeliveryEmail  *string                 `json:"delivery_email"`
	FullName       string                  `json:"full_name"`
	DateJoined     string                  `json:"date_joined"`
	IsActive       bool                    `json:"is_active"`
	IsOwner        bool                    `json:"is_owner"`
	IsAdmin        bool                    `json:"is_admin"`
	IsGuest        bool                    `json:"is_guest"`
	IsBot          bool                    `json:"is_bot"`
	BotType        *int                    `json:"bot_type"`
	BotOwnerID     *int64                  `json:"bot_owner_id"`
	Role           int                     `json:"role"`
	Timezone       string                  `json:"timezone"`
	AvatarURL      *string                 `json:"avatar_url"`
	AvatarVersion  int64                   `json:"avatar_version"`
	IsImportedStub bool                    `json:"is_imported_stub"`
	ProfileData    map[string]ProfileValue `json:"profile_data,omitempty"`
}

// ProfileValue is one custom profile field value on a user. Value is always a string (a
// Users field holds a JSON list as text, e.g. "[11]"); RenderedValue is the HTML of text
// fields, nil for other types.
type ProfileValue struct {
	Value         string  `json:"value"`
	RenderedValue *string `json:"rendered_value,omitempty"`
}

// GetUserOptions are the query parameters of GetUser, GetUserByEmail and ListUsers.
type GetUserOptions struct {
	// ClientGravatar: when true (the server default since FL92) avatar_url is null for
	// Gravatar users. Nil leaves the server default.
	ClientGravatar *bool
	// IncludeCustomProfileFields adds profile_data to non-bot users.
	IncludeCustomProfileFields bool
}

func (o GetUserOptions) params() *params {
	p := newParams().optJSONBool("client_gravatar", o.ClientGravatar)
	if o.IncludeCustomProfileFields {
		p.json("include_custom_profile_fields", true)
	}
	return p
}

// CreateUserRequest is the body of CreateUser; all fields are required.
type CreateUserRequest struct {
	Email    string
	Password string
	FullName string
}

// UpdateUserRequest is the body of UpdateUser; nil fields are not sent.
type UpdateUserRequest struct {
	FullName *string
	Role     *int
	// ProfileData sets (or, with a null value, clears) custom profile field values.
	ProfileData []ProfileDataItem
	// NewEmail changes the e-mail (FL285; needs can_change_user_emails).
	NewEmail *string
}

// DeactivateUserRequest holds the options of DeactivateUser.
type DeactivateUserRequest struct {
	// NotificationComment, when not nil, e-mails the user about the deactivation with this
	// text ("" sends the e-mail without custom text).
	NotificationComment *string
	// Actions, when not nil, deletes data along with the deactivation (FL459).
	Actions *DeactivationActions
}

// DeactivationActions is the "actions" object of DeactivateUser (FL459).
type DeactivationActions struct {
	DeleteProfile                bool `json:"delete_profile"`
	DeletePublicChannelMessages  bool `json:"delete_public_channel_messages"`
	DeletePrivateChannelMessages bool `json:"delete_private_channel_messages"`
	DeleteDirectMessages         bool `json:"delete_direct_messages"`
}

// GetUser returns a user by id (GET /users/{id}). Idempotent. An unknown or inaccessible id
// is IsNotFound ("No such user").
func (c *Client) GetUser(ctx context.Context, id int64, opts GetUserOptions) (*User, error) {
	return c.getUser(ctx, "users/"+strconv.FormatInt(id, 10), opts)
}

// GetUserByEmail returns a user by real e-mail (when the caller may see it) or by the dummy
// API e-mail user{id}@{host} (GET /users/{email}, FL39; real addresses FL302). Idempotent.
func (c *Client) GetUserByEmail(ctx context.Context, email string, opts GetUserOptions) (*User, error) {
	return c.getUser(ctx, "users/"+url.PathEscape(email), opts)
}

func (c *Client) getUser(ctx context.Context, path string, opts GetUserOptions) (*User, error) {
	var out struct {
		User User `json:"user"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: path, params: opts.params(), idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out.User, nil
}

// ListUsers returns every accessible user, bots and deactivated users included
// (GET /users). Idempotent.
func (c *Client) ListUsers(ctx context.Context, opts GetUserOptions) ([]User, error) {
	var out struct {
		Members []User `json:"members"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "users", params: opts.params(), idempotent: true}, &out)
	return out.Members, err
}

// GetOwnUser returns the caller (GET /users/me). Idempotent.
func (c *Client) GetOwnUser(ctx context.Context) (*User, error) {
	// The fields are at the top level of the answer, next to result and msg.
	var out User
	if err := c.do(ctx, request{method: http.MethodGet, path: "users/me", idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateUser creates an account and returns its id (POST /users; administrators with
// can_create_users). Not idempotent: a repeat fails with "already in use", so it is retried
// only when the server certainly did not process it; reconcile with GetUserByEmail.
func (c *Client) CreateUser(ctx context.Context, r CreateUserRequest) (int64, error) {
	p := newParams().str("email", r.Email).str("password", r.Password).str("full_name", r.FullName)
	var out struct {
		UserID int64 `json:"user_id"`
	}
	err := c.do(ctx, request{method: http.MethodPost, path: "users", params: p, idempotent: false}, &out)
	return out.UserID, err
}

// UpdateUser changes a user's name, role, profile data or e-mail (PATCH /users/{id};
// administrators, owners for the owner role). Idempotent.
func (c *Client) UpdateUser(ctx context.Context, id int64, r UpdateUserRequest) error {
	p := newParams().optStr("full_name", r.FullName).optStr("new_email", r.NewEmail)
	if r.Role != nil {
		p.json("role", *r.Role)
	}
	if r.ProfileData != nil {
		p.json("profile_data", r.ProfileData)
	}
	return c.do(ctx, request{method: http.MethodPatch, path: "users/" + strconv.FormatInt(id, 10), params: p, idempotent: true}, nil)
}

// DeactivateUser deactivates a user (DELETE /users/{id}; administrators). Not idempotent:
// a repeat fails with an error other than not-found, so after an uncertain failure the
// caller should read the user's is_active instead.
func (c *Client) DeactivateUser(ctx context.Context, id int64, r DeactivateUserRequest) error {
	p := newParams().optStr("deactivation_notification_comment", r.NotificationComment)
	var q *params
	if r.Actions != nil {
		// "actions" is a query parameter even on this DELETE (FL459).
		q = newParams().json("actions", r.Actions)
	}
	return c.do(ctx, request{method: http.MethodDelete, path: "users/" + strconv.FormatInt(id, 10), params: p, query: q, idempotent: false}, nil)
}

// ReactivateUser reactivates a deactivated user (POST /users/{id}/reactivate;
// administrators). Not idempotent, like DeactivateUser.
func (c *Client) ReactivateUser(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodPost, path: "users/" + strconv.FormatInt(id, 10) + "/reactivate", idempotent: false}, nil)
}

// DeactivateOwnUser deactivates the caller's own account (DELETE /users/me). Irreversible
// for the caller, whose credentials stop working, and not idempotent. The last owner or
// user gets CANNOT_DEACTIVATE_LAST_USER (IsCannotDeactivateLastUser).
func (c *Client) DeactivateOwnUser(ctx context.Context) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "users/me", idempotent: false}, nil)
}
