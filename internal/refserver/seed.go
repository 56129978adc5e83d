package refserver

import (
	"strings"
	"time"
)

// Seeded user ids. The seeded realm is deterministic: tests may rely on these.
const (
	SeedOwnerID         = 1  // owner, holds can_change_user_emails
	SeedAdminID         = 2  // administrator, holds can_create_users
	SeedAdmin2ID        = 3  // administrator without special permissions
	SeedModeratorID     = 4  // moderator
	SeedMemberID        = 5  // member; e-mail visible to administrators only
	SeedMember2ID       = 6  // member; e-mail visible to nobody
	SeedGuestID         = 7  // guest; e-mail visible to members
	SeedBotID           = 8  // generic bot owned by SeedMemberID
	SeedOwner2ID        = 9  // second owner, without special permissions
	SeedDeactivatedID   = 10 // deactivated member
	SeedMember3ID       = 11 // member; e-mail visible to everyone
	SeedIncomingBotID   = 12 // incoming-webhook bot owned by SeedAdminID
	SeedChannelGeneral  = 1  // public, default, everyone subscribed
	SeedChannelAnnounce = 2  // web-public
	SeedChannelDesign   = 3  // private, protected history
	SeedChannelLeaders  = 4  // private, history shared with subscribers
	SeedChannelArchived = 5  // archived public channel
	SeedChannelModReqs  = 6  // private moderation request channel
	SeedChannelRandom   = 7  // public, not every user subscribed
)

// Seeded system group ids.
const (
	GroupOwners = iota + 1
	GroupAdministrators
	GroupModerators
	GroupFullMembers
	GroupMembers
	GroupEveryone
	GroupInternet
	GroupNobody
	GroupBackend     // custom
	GroupFrontend    // custom
	GroupRetired     // custom, deactivated
	GroupLeads       // custom, with a subgroup
	seedGroupsNextID = GroupLeads
)

// Seeded custom profile field ids, one of each type, plus one not editable by users.
const (
	FieldIDPhone      = 1 // SHORT_TEXT
	FieldIDBiography  = 2 // LONG_TEXT
	FieldIDTeam       = 3 // SELECT
	FieldIDBirthday   = 4 // DATE
	FieldIDWebsite    = 5 // URL
	FieldIDMentor     = 6 // USER
	FieldIDGitHub     = 7 // EXTERNAL_ACCOUNT
	FieldIDPronouns   = 8 // PRONOUNS
	FieldIDEmployeeID = 9 // SHORT_TEXT, editable_by_user false
)

// SeedUser describes a seeded account's credentials, for tests and the standalone command.
type SeedUser struct {
	ID       int
	Email    string
	FullName string
	Role     int
	IsBot    bool
	APIKey   string
	Password string
	Active   bool
}

// seedBase is the fixed "creation time" of the seeded realm, so answers are stable.
var seedBase = time.Date(2024, 1, 15, 9, 0, 0, 0, time.UTC)

// seedAPIKey derives a stable 32-character API key for a seeded user.
// Real keys are 32 alphanumerics, and the server rejects anything else as malformed.
func seedAPIKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			b.WriteRune(r)
		}
	}
	return (b.String() + "apikeyapikeyapikeyapikeyapikey00")[:32]
}

// seedRealm builds the deterministic starting organization.
func seedRealm(host string, _ time.Time) *Realm {
	r := &Realm{
		Name:                       "Zulip Reference Realm",
		Host:                       host,
		NextID:                     map[string]int{},
		Users:                      map[int]*User{},
		Channels:                   map[int]*Channel{},
		Snippets:                   map[int]*Snippet{},
		Groups:                     map[int]*UserGroup{},
		Queues:                     map[string]*Queue{},
		ModerationRequestChannelID: SeedChannelModReqs,
		ReportTypes: []ReportType{
			{Key: "spam", Name: "Spam"},
			{Key: "harassment", Name: "Harassment"},
			{Key: "inappropriate", Name: "Inappropriate content"},
			{Key: "norms", Name: "Violates community norms"},
			{Key: "other", Name: "Other reason"},
		},
		Settings: RealmSettings{MaxTopicLength: 60, EmptyTopicDisplayName: "general chat"},
	}
	day := int64(24 * 3600)
	base := seedBase.Unix()
	// Each area seeds its part, in seed-step order: users first, then what
	// refers to them (groups, channels, messages, ...).
	for _, a := range areasBySeedStep() {
		if a.seed != nil {
			a.seed(r, base, day)
		}
	}
	return r
}

// defaultGroupSettings returns the group settings of a new group.
func defaultGroupSettings(admins int) map[string]GroupSetting {
	return map[string]GroupSetting{
		"can_add_members_group":    {GroupID: admins},
		"can_join_group":           {GroupID: GroupNobody},
		"can_leave_group":          {GroupID: GroupEveryone},
		"can_manage_group":         {GroupID: GroupNobody},
		"can_mention_group":        {GroupID: GroupEveryone},
		"can_remove_members_group": {GroupID: admins},
	}
}

// SeedUsers lists the seeded accounts and their credentials.
func (s *Server) SeedUsers() []SeedUser {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []SeedUser
	for _, id := range s.realm.userIDs() {
		u := s.realm.Users[id]
		if id > SeedIncomingBotID {
			break
		}
		out = append(out, SeedUser{ID: u.ID, Email: u.Email, FullName: u.FullName, Role: u.Role, IsBot: u.IsBot,
			APIKey: u.APIKey, Password: u.Password, Active: u.IsActive})
	}
	return out
}

// User returns a copy of the credentials of a user by id (for tests).
func (s *Server) User(id int) (SeedUser, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.realm.Users[id]
	if u == nil {
		return SeedUser{}, false
	}
	return SeedUser{ID: u.ID, Email: u.Email, FullName: u.FullName, Role: u.Role, IsBot: u.IsBot,
		APIKey: u.APIKey, Password: u.Password, Active: u.IsActive}, true
}
