package refserver

import (
	"fmt"
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
	addUser := func(id int, name, local string, role, visibility int) *User {
		u := &User{
			ID: id, Email: local + "@" + host, FullName: name, APIKey: seedAPIKey(local),
			Password: "password-" + local, Role: role, IsActive: true, Timezone: "Europe/Berlin",
			DateJoined: base + int64(id)*day, AvatarVersion: 1, EmailVisibility: visibility,
			ProfileData: map[int]string{},
		}
		r.Users[id] = u
		return u
	}
	addUser(SeedOwnerID, "Olivia Owner", "olivia", RoleOwner, EmailVisibleEveryone).CanChangeUserEmails = true
	addUser(SeedAdminID, "Aaron Admin", "aaron", RoleAdministrator, EmailVisibleEveryone).CanCreateUsers = true
	addUser(SeedAdmin2ID, "Alice Admin", "alice", RoleAdministrator, EmailVisibleMembers)
	addUser(SeedModeratorID, "Mona Moderator", "mona", RoleModerator, EmailVisibleModerators)
	addUser(SeedMemberID, "Mark Member", "mark", RoleMember, EmailVisibleAdmins)
	addUser(SeedMember2ID, "Maria Member", "maria", RoleMember, EmailVisibleNobody).Timezone = ""
	addUser(SeedGuestID, "Gus Guest", "gus", RoleGuest, EmailVisibleMembers)
	bot := addUser(SeedBotID, "Build Bot", "build-bot", RoleMember, EmailVisibleEveryone)
	bot.IsBot, bot.BotType, bot.BotOwnerID, bot.Timezone = true, 1, SeedMemberID, ""
	addUser(SeedOwner2ID, "Oscar Owner", "oscar", RoleOwner, EmailVisibleAdmins)
	addUser(SeedDeactivatedID, "Dan Departed", "dan", RoleMember, EmailVisibleEveryone).IsActive = false
	addUser(SeedMember3ID, "Mei Member", "mei", RoleMember, EmailVisibleEveryone).Timezone = "Asia/Tokyo"
	hook := addUser(SeedIncomingBotID, "Alerts Hook", "alerts-bot", RoleMember, EmailVisibleEveryone)
	hook.IsBot, hook.BotType, hook.BotOwnerID, hook.Timezone = true, 2, SeedAdminID, ""
	r.NextID["user"] = SeedIncomingBotID

	r.Users[SeedMemberID].Status = &UserStatus{StatusText: "In a meeting", EmojiName: "calendar", EmojiCode: "1f4c5", ReactionType: "unicode_emoji"}
	r.Users[SeedMember3ID].Status = &UserStatus{Away: true}
	r.Users[SeedOwnerID].Status = &UserStatus{StatusText: "Working remotely"}

	seedGroups(r, base)
	seedChannels(r, base, day)
	seedMessages(r, base)
	seedChatArea(r, base, day)
	seedProfileFields(r)

	r.Linkifiers = []*Linkifier{{
		ID: 1, Pattern: "#(?P<id>[0-9]+)", URLTemplate: "https://github.com/zulip/zulip/issues/{id}",
		AlternativeURLTemplates: []string{},
	}}
	r.NextID["linkifier"] = 1
	r.Domains = []*RealmDomain{{ID: 1, Domain: host, AllowSubdomains: false}}
	r.NextID["realm_domain"] = 1
	r.Snippets[1] = &Snippet{ID: 1, OwnerID: SeedOwnerID, Title: "Welcome", Content: "Welcome to the team! Please read #**general>rules**.", DateCreated: base + 3*day}
	r.Snippets[2] = &Snippet{ID: 2, OwnerID: SeedMemberID, Title: "Standup", Content: "Yesterday / Today / Blockers", DateCreated: base + 4*day}
	r.NextID["snippet"] = 2
	r.UserTopics = []*UserTopic{
		{UserID: SeedOwnerID, StreamID: SeedChannelGeneral, TopicName: "lunch", LastUpdated: base + 10*day, VisibilityPolicy: 1},
		{UserID: SeedMemberID, StreamID: SeedChannelGeneral, TopicName: "releases", LastUpdated: base + 11*day, VisibilityPolicy: 3},
	}
	r.PushDevices = []*PushDevice{
		{ID: 1, UserID: SeedOwnerID, Kind: PushKindAPNs, Token: strings.Repeat("ab12", 16), AppID: "org.zulip.Zulip"},
		{ID: 2, UserID: SeedOwnerID, Kind: PushKindE2EE},
		{ID: 3, UserID: SeedMemberID, Kind: PushKindFCM, Token: "fcm-token-mark-0001", AppID: "com.zulipmobile"},
	}
	r.NextID["push_device"] = 3
	return r
}

// seedGroups creates the system groups and a few custom ones.
func seedGroups(r *Realm, base int64) {
	sys := func(id int, name, desc string, subgroups ...int) {
		g := &UserGroup{ID: id, Name: name, Description: desc, Members: []int{}, DirectSubgroupIDs: subgroups,
			IsSystemGroup: true, Settings: map[string]GroupSetting{}}
		if g.DirectSubgroupIDs == nil {
			g.DirectSubgroupIDs = []int{}
		}
		r.Groups[id] = g
	}
	sys(GroupOwners, "role:owners", "Owners of this organization")
	sys(GroupAdministrators, "role:administrators", "Administrators of this organization, including owners", GroupOwners)
	sys(GroupModerators, "role:moderators", "Moderators of this organization, including administrators", GroupAdministrators)
	sys(GroupFullMembers, "role:fullmembers", "Members of this organization, not including new accounts and guests", GroupModerators)
	sys(GroupMembers, "role:members", "Members of this organization, not including guests", GroupFullMembers)
	sys(GroupEveryone, "role:everyone", "Everyone in this organization, including guests", GroupMembers)
	sys(GroupInternet, "role:internet", "Everyone on the internet", GroupEveryone)
	sys(GroupNobody, "role:nobody", "Nobody")
	// Each user is a direct member only of the system group for their role.
	for _, id := range r.userIDs() {
		u := r.Users[id]
		var gid int
		switch u.Role {
		case RoleOwner:
			gid = GroupOwners
		case RoleAdministrator:
			gid = GroupAdministrators
		case RoleModerator:
			gid = GroupModerators
		case RoleMember:
			gid = GroupFullMembers
		case RoleGuest:
			gid = GroupEveryone
		}
		r.Groups[gid].Members = append(r.Groups[gid].Members, id)
	}
	for _, g := range r.Groups {
		g.Settings = defaultGroupSettings(GroupAdministrators)
	}
	custom := func(id int, name, desc string, creator int, members, subgroups []int) *UserGroup {
		g := &UserGroup{ID: id, Name: name, Description: desc, Members: members, DirectSubgroupIDs: subgroups,
			DateCreated: base + int64(id)*3600, CreatorID: creator, Settings: defaultGroupSettings(GroupAdministrators)}
		r.Groups[id] = g
		return g
	}
	custom(GroupBackend, "backend", "Backend engineers", SeedAdminID, []int{SeedMemberID, SeedMember3ID}, []int{})
	custom(GroupFrontend, "frontend", "Frontend engineers", SeedAdminID, []int{SeedMember2ID}, []int{})
	custom(GroupRetired, "retired-team", "A team that no longer exists", SeedOwnerID, []int{SeedDeactivatedID}, []int{}).Deactivated = true
	leads := custom(GroupLeads, "leads", "Team leads, and all of backend", SeedOwnerID, []int{SeedOwnerID}, []int{GroupBackend})
	leads.Settings["can_manage_group"] = GroupSetting{DirectMembers: []int{SeedOwnerID}, DirectSubgroups: []int{GroupAdministrators}}
	r.NextID["group"] = seedGroupsNextID
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

// seedChannels creates channels of every kind with their subscribers.
func seedChannels(r *Realm, base, day int64) {
	add := func(id int, name, desc string, private, webPublic, historyPublic bool, subs ...int) *Channel {
		ch := &Channel{
			ID: id, Name: name, Description: desc, DateCreated: base + int64(id)*day, CreatorID: SeedOwnerID,
			InviteOnly: private, IsWebPublic: webPublic, HistoryPublicToSubscribers: historyPublic,
			StreamPostPolicy: 1, TopicsPolicy: "inherit", Subscribers: map[int]int{},
			GroupSettings: map[string]GroupSetting{
				"can_add_subscribers_group":    {GroupID: GroupAdministrators},
				"can_remove_subscribers_group": {GroupID: GroupAdministrators},
				"can_administer_channel_group": {DirectMembers: []int{SeedOwnerID}, DirectSubgroups: []int{}},
				"can_send_message_group":       {GroupID: GroupEveryone},
				"can_subscribe_group":          {GroupID: GroupNobody},
				"can_create_topic_group":       {GroupID: GroupEveryone},
			},
		}
		for _, u := range subs {
			ch.Subscribers[u] = 0
		}
		r.Channels[id] = ch
		return ch
	}
	everyone := []int{SeedOwnerID, SeedAdminID, SeedAdmin2ID, SeedModeratorID, SeedMemberID, SeedMember2ID, SeedGuestID, SeedBotID, SeedOwner2ID, SeedMember3ID}
	add(SeedChannelGeneral, "general", "Everyone is here.", false, false, true, everyone...).IsDefault = true
	ann := add(SeedChannelAnnounce, "announce", "Announcements, **readable on the web**.", false, true, true, SeedOwnerID, SeedAdminID, SeedMemberID, SeedMember3ID)
	ann.GroupSettings["can_send_message_group"] = GroupSetting{GroupID: GroupAdministrators}
	ann.StreamPostPolicy = 2
	ann.IsDefault = true
	add(SeedChannelDesign, "design", "Design reviews (private, protected history).", true, false, false, SeedOwnerID, SeedAdminID, SeedMemberID)
	add(SeedChannelLeaders, "leadership", "Leads only; history shared with new subscribers.", true, false, true, SeedOwnerID, SeedOwner2ID, SeedAdminID)
	arch := add(SeedChannelArchived, "old-projects", "Archived.", false, false, true, SeedOwnerID, SeedMemberID)
	arch.IsArchived = true
	forever := -1
	arch.MessageRetentionDays = &forever
	add(SeedChannelModReqs, "moderation-requests", "Reports of messages, for moderators.", true, false, true, SeedOwnerID, SeedAdminID, SeedModeratorID)
	add(SeedChannelRandom, "random", "Anything goes.", false, false, true, SeedMemberID, SeedMember2ID, SeedMember3ID, SeedGuestID)
	r.NextID["channel"] = SeedChannelRandom
}

// seedMessages creates topics with messages, flags and mentions.
func seedMessages(r *Realm, base int64) {
	type msg struct {
		ch     int
		topic  string
		sender int
		text   string
	}
	msgs := []msg{
		{SeedChannelGeneral, "welcome", SeedOwnerID, "Welcome to the organization!"},
		{SeedChannelGeneral, "welcome", SeedMemberID, "Thanks, glad to be here."},
		{SeedChannelGeneral, "lunch", SeedMember3ID, "Pizza on Friday?"},
		{SeedChannelGeneral, "releases", SeedAdminID, "Release 1.0 is out. @**Mark Member** please check the deploy."},
		{SeedChannelAnnounce, "news", SeedOwnerID, "Our new office opens in March."},
		{SeedChannelDesign, "logo", SeedOwnerID, "First logo drafts are in."},
		{SeedChannelDesign, "logo", SeedAdminID, "I like the blue one."},
		{SeedChannelLeaders, "planning", SeedOwnerID, "Q3 planning starts next week."},
		{SeedChannelArchived, "project x", SeedMemberID, "Project X is wound down."},
		{SeedChannelRandom, "cats", SeedMember2ID, "Look at this cat picture."},
		{SeedChannelRandom, "cats", SeedGuestID, "So cute! @**Maria Member**"},
		{SeedChannelDesign, "colors", SeedMemberID, "Which palette do we use for the website?"},
		{SeedChannelGeneral, "releases", SeedMember3ID, "Release notes are in the wiki."},
		{SeedChannelRandom, "", SeedMember3ID, "A message in the empty topic."},
	}
	for i, m := range msgs {
		id := i + 1
		message := &Message{ID: id, ChannelID: m.ch, Topic: m.topic, SenderID: m.sender, Content: m.text,
			Timestamp: base + int64(id)*3600, Flags: map[int][]string{}}
		for uid := range r.Channels[m.ch].Subscribers {
			var flags []string
			if uid == m.sender {
				flags = append(flags, "read")
			}
			message.Flags[uid] = flags
		}
		r.Messages = append(r.Messages, message)
	}
	// Mentions, a star, and messages read by some users.
	r.Messages[3].Flags[SeedMemberID] = []string{"mentioned"}
	r.Messages[10].Flags[SeedMember2ID] = []string{"mentioned"}
	r.Messages[0].Flags[SeedMemberID] = []string{"read", "starred"}
	r.Messages[0].Flags[SeedOwnerID] = []string{"read", "starred"}
	r.Messages[1].Flags[SeedOwnerID] = []string{"read"}
	// Mark joined "design" after its first two messages: with protected history
	// he sees only later ones.
	r.Channels[SeedChannelDesign].Subscribers[SeedMemberID] = 7
	delete(r.Messages[5].Flags, SeedMemberID)
	delete(r.Messages[6].Flags, SeedMemberID)
	r.NextID["message"] = len(msgs)
}

// seedProfileFields creates a custom profile field of every type, with data.
func seedProfileFields(r *Realm) {
	fields := []*ProfileField{
		{ID: FieldIDPhone, Type: FieldShortText, Name: "Phone number", Hint: "Including the country code"},
		{ID: FieldIDBiography, Type: FieldLongText, Name: "Biography", Hint: "What do you do?"},
		{ID: FieldIDTeam, Type: FieldSelect, Name: "Team", Hint: "Your team",
			FieldData: `{"0":{"text":"Engineering","order":"1"},"1":{"text":"Design","order":"2"},"2":{"text":"Sales","order":"3"}}`},
		{ID: FieldIDBirthday, Type: FieldDate, Name: "Birthday", Hint: ""},
		{ID: FieldIDWebsite, Type: FieldURL, Name: "Website", Hint: "Or your blog"},
		{ID: FieldIDMentor, Type: FieldUser, Name: "Mentor", Hint: "Who helps you"},
		{ID: FieldIDGitHub, Type: FieldExternalAccount, Name: "GitHub username", Hint: "Your GitHub username", FieldData: `{"subtype":"github"}`},
		{ID: FieldIDPronouns, Type: FieldPronouns, Name: "Pronouns", Hint: "What pronouns should people use for you?"},
		{ID: FieldIDEmployeeID, Type: FieldShortText, Name: "Employee ID", Hint: "Set by HR", Required: true},
	}
	for i, f := range fields {
		f.Order = i + 1
		f.EditableByUser = f.ID != FieldIDEmployeeID
	}
	fields[FieldIDPhone-1].DisplayInProfileSummary = true
	fields[FieldIDGitHub-1].UseForUserMatching = true
	r.ProfileFields = fields
	r.NextID["profile_field"] = len(fields)

	set := func(uid int, values map[int]string) {
		for k, v := range values {
			r.Users[uid].ProfileData[k] = v
		}
	}
	set(SeedOwnerID, map[int]string{FieldIDPhone: "+1-555-0100", FieldIDTeam: "0", FieldIDPronouns: "she/her", FieldIDEmployeeID: "E-0001"})
	set(SeedMemberID, map[int]string{FieldIDBiography: "Backend engineer.", FieldIDBirthday: "1990-04-01",
		FieldIDWebsite: "https://mark.example.org", FieldIDMentor: fmt.Sprintf("[%d]", SeedAdminID), FieldIDGitHub: "markm"})
	set(SeedMember3ID, map[int]string{FieldIDTeam: "1", FieldIDMentor: fmt.Sprintf("[%d,%d]", SeedOwnerID, SeedMemberID)})
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
