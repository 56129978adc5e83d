package refserver

import (
	"encoding/json"
	"sort"
)

// Roles, as Zulip numbers them.
const (
	RoleOwner         = 100
	RoleAdministrator = 200
	RoleModerator     = 300
	RoleMember        = 400
	RoleGuest         = 600
)

// E-mail address visibility values (a per-user setting since FL163).
const (
	EmailVisibleEveryone   = 1
	EmailVisibleMembers    = 2
	EmailVisibleAdmins     = 3
	EmailVisibleNobody     = 4
	EmailVisibleModerators = 5
)

// Custom profile field types.
const (
	FieldShortText       = 1
	FieldLongText        = 2
	FieldSelect          = 3
	FieldDate            = 4
	FieldURL             = 5
	FieldUser            = 6
	FieldExternalAccount = 7
	FieldPronouns        = 8
)

// Realm is the whole state of the fake organization. Every field is exported and
// JSON-serializable so that the optional state file can hold it verbatim; the
// types of each area's fields are declared in the area's own file.
type Realm struct {
	Name string `json:"name"`
	Host string `json:"host"`
	// NextID hands out ids per kind ("user", "channel", "message", "linkifier", ...).
	NextID map[string]int `json:"next_id"`

	Users         map[int]*User    `json:"users"`
	Channels      map[int]*Channel `json:"channels"`
	Messages      []*Message       `json:"messages"`   // ascending by id
	Linkifiers    []*Linkifier     `json:"linkifiers"` // in processing order
	Snippets      map[int]*Snippet `json:"snippets"`
	Domains       []*RealmDomain   `json:"domains"`
	UserTopics    []*UserTopic     `json:"user_topics"`
	ProfileFields []*ProfileField  `json:"profile_fields"` // sorted by Order
	// Bots are the bot-only settings of bot users, by user id (bots.go).
	Bots   map[int]*BotSettings `json:"bots,omitempty"`
	Groups map[int]*UserGroup   `json:"groups"`
	// ChannelFolders are the channel folders in display order.
	ChannelFolders []*ChannelFolder `json:"channel_folders"`
	// Playgrounds are the code playgrounds, in creation order.
	Playgrounds []*Playground `json:"playgrounds,omitempty"`
	// Emoji are the custom emoji, deactivated ones included, in creation order.
	Emoji []*CustomEmoji `json:"emoji,omitempty"`
	// Branding is the organization's icon and logos (branding.go); nil: the defaults.
	Branding *Branding `json:"branding,omitempty"`
	// Invites are the e-mail invitations and reusable invitation links, in
	// creation order, revoked ones included (invites.go).
	Invites []*Invite `json:"invites,omitempty"`
	// DefaultChannelGroups are the default channel groups, in creation order
	// (default_channel_groups.go).
	DefaultChannelGroups []*DefaultChannelGroup `json:"default_channel_groups,omitempty"`
	// UserSettings are each user's personal settings that differ from the
	// defaults, by user id (user_settings.go).
	UserSettings map[int]*UserSettings `json:"user_settings,omitempty"`
	// Exports are the organization's data exports and consents (exports.go).
	Exports     *Exports          `json:"exports,omitempty"`
	Queues      map[string]*Queue `json:"queues"`
	PushDevices []*PushDevice     `json:"push_devices"`
	// SentNotifications records every test push notification "sent", for tests.
	SentNotifications []*PushNotification `json:"sent_notifications"`

	// ModerationRequestChannelID is -1 when moderation requests are disabled.
	ModerationRequestChannelID int           `json:"moderation_request_channel_id"`
	ReportTypes                []ReportType  `json:"report_types"`
	Settings                   RealmSettings `json:"settings"`
	Deactivated                bool          `json:"deactivated"`
	// PlanType is Zulip Cloud's plan (Realm.plan_type): 0 or 1 self-hosted, 2
	// limited (free), 3 standard, 4 standard free, 10 plus.
	PlanType int `json:"plan_type,omitempty"`

	// SMS holds the state of the SMS conversations API (smsserver.Snapshot as JSON).
	SMS json.RawMessage `json:"sms,omitempty"`
}

// RealmSettings are the organization settings the served endpoints consult.
type RealmSettings struct {
	// NameChangesDisabled and the like are not served; only what a rule needs is here.
	MaxTopicLength int `json:"max_topic_length"`
	// MaxMessageLength is the server's MAX_MESSAGE_LENGTH; 0 is Zulip's default, 10000.
	MaxMessageLength int `json:"max_message_length,omitempty"`
	// EmptyTopicDisplayName is realm_empty_topic_display_name.
	EmptyTopicDisplayName string `json:"empty_topic_display_name"`
	// DisallowDisposableEmail and EmailsRestrictedToDomains govern user creation.
	EmailsRestrictedToDomains bool `json:"emails_restricted_to_domains"`
	DisallowPlusInEmail       bool `json:"disallow_plus_in_email"`
	// DisallowDisposableEmail is realm_disallow_disposable_email_addresses
	// (Zulip's default: true); it applies when e-mails are not restricted to domains.
	DisallowDisposableEmail bool `json:"disallow_disposable_email"`
	// GroupSettings are the organization's group-setting permissions, by
	// name (can_create_groups, ...; see realm_permissions.go).
	GroupSettings map[string]GroupSetting `json:"group_settings"`
	// Values are the other settings of internal/realmspec, by name, in the
	// register snapshot's form; a setting missing here has its default
	// (realm_settings.go).
	Values map[string]any `json:"values,omitempty"`
	// UserDefaults are the settings new users get (internal/realmspec.UserDefaults),
	// by name, in the register snapshot's form; a missing one has its default.
	UserDefaults map[string]any `json:"user_defaults,omitempty"`
	// AuthMethods are the authentication methods the organization enabled,
	// by name; a backend missing here has its default (realm_auth_methods.go).
	AuthMethods map[string]bool `json:"auth_methods,omitempty"`
}

// User is a human or bot account.
type User struct {
	ID       int    `json:"id"`
	Email    string `json:"email"` // the real (delivery) address
	FullName string `json:"full_name"`
	APIKey   string `json:"api_key"`
	Password string `json:"password"`
	Role     int    `json:"role"`
	IsActive bool   `json:"is_active"`
	IsBot    bool   `json:"is_bot"`
	BotType  int    `json:"bot_type,omitempty"` // 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded
	// BotOwnerID is 0 for humans.
	BotOwnerID      int    `json:"bot_owner_id,omitempty"`
	Timezone        string `json:"timezone"`
	DateJoined      int64  `json:"date_joined"` // UNIX seconds
	AvatarVersion   int    `json:"avatar_version"`
	EmailVisibility int    `json:"email_visibility"`
	IsImportedStub  bool   `json:"is_imported_stub"`
	// Special permissions granted with manage.py on a real server.
	CanCreateUsers      bool `json:"can_create_users"`
	CanChangeUserEmails bool `json:"can_change_user_emails"`
	// ProfileData maps a custom profile field id to its stored value (always a string;
	// a USER field holds JSON text such as "[11]").
	ProfileData map[int]string `json:"profile_data"`
	Status      *UserStatus    `json:"status,omitempty"`
	// AvatarSource is Zulip's avatar_source: "G" (Gravatar, also when empty) or
	// "U" (uploaded).
	AvatarSource string `json:"avatar_source,omitempty"`
}

// IsAdmin reports whether the user has administrator rights (owners included).
func (u *User) IsAdmin() bool { return u.Role <= RoleAdministrator }

// IsModeratorOrAbove reports whether the user is a moderator, administrator or owner.
func (u *User) IsModeratorOrAbove() bool { return u.Role <= RoleModerator }

// IsOwner reports whether the user is an organization owner.
func (u *User) IsOwner() bool { return u.Role == RoleOwner }

// IsGuest reports whether the user is a guest.
func (u *User) IsGuest() bool { return u.Role == RoleGuest }

// GroupSetting is a group-setting value: a named group id, or an anonymous group.
type GroupSetting struct {
	GroupID         int   `json:"group_id,omitempty"`
	DirectMembers   []int `json:"direct_members,omitempty"`
	DirectSubgroups []int `json:"direct_subgroups,omitempty"`
}

// Wire renders the value as Zulip does: an int for a named group, else an object.
func (g GroupSetting) Wire() any {
	if g.GroupID != 0 {
		return g.GroupID
	}
	m := g.DirectMembers
	if m == nil {
		m = []int{}
	}
	s := g.DirectSubgroups
	if s == nil {
		s = []int{}
	}
	return map[string][]int{"direct_members": m, "direct_subgroups": s}
}

// newID hands out the next id of a kind.
func (r *Realm) newID(kind string) int {
	r.NextID[kind]++
	return r.NextID[kind]
}

// user returns the user with the id, nil if there is none.
func (r *Realm) user(id int) *User { return r.Users[id] }

// userByEmail finds a user by real e-mail address, case-insensitively as Zulip does.
func (r *Realm) userByEmail(email string) *User {
	for _, id := range r.userIDs() {
		if equalFoldASCII(r.Users[id].Email, email) {
			return r.Users[id]
		}
	}
	return nil
}

// userIDs returns every user id in ascending order.
func (r *Realm) userIDs() []int {
	ids := make([]int, 0, len(r.Users))
	for id := range r.Users {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

// channelIDs returns every channel id in ascending order.
func (r *Realm) channelIDs() []int {
	ids := make([]int, 0, len(r.Channels))
	for id := range r.Channels {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

// groupIDs returns every group id in ascending order.
func (r *Realm) groupIDs() []int {
	ids := make([]int, 0, len(r.Groups))
	for id := range r.Groups {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

// message returns the message with the id, or nil.
func (r *Realm) message(id int) *Message {
	i := sort.Search(len(r.Messages), func(i int) bool { return r.Messages[i].ID >= id })
	if i < len(r.Messages) && r.Messages[i].ID == id {
		return r.Messages[i]
	}
	return nil
}

// equalFoldASCII compares e-mail addresses case-insensitively.
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		ca, cb := a[i], b[i]
		if 'A' <= ca && ca <= 'Z' {
			ca += 'a' - 'A'
		}
		if 'A' <= cb && cb <= 'Z' {
			cb += 'a' - 'A'
		}
		if ca != cb {
			return false
		}
	}
	return true
}
