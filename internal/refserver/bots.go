package refserver

import (
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

func init() {
	registerArea("bots", area{seedStep: 15, routes: (*Server).routesBots,
		sections: map[string]registerSection{"realm_bot": (*Server).registerRealmBot}})
}

// The bots area: POST /bots, PATCH /bots/{bot_id}, DELETE /bots/{bot_id},
// GET /bots/{bot_id}/api_key (FL463), POST /bots/{bot_id}/api_key/regenerate,
// register's realm_bot section and the realm_bot events.
//
// What was verified, and where (Zulip's server code, read with the search
// tools; none of it copied):
//   - zerver/views/users.py (zulip/zulip, the stored version at commit
//     1abac9c1, REQ-style): add_bot_backend, patch_bot_backend,
//     regenerate_bot_api_key, deactivate_bot_backend. Their order of checks:
//     add_bot_backend runs check_short_name, check_full_name, builds the
//     address short_name-bot@<bot domain>, refuses embedded bots when they
//     are disabled, "Username already in use" for a taken address (any user,
//     deactivated bots included), check_bot_name_available ("Name is already
//     in use!" when an active user has the name), the creation permission,
//     check_valid_bot_type ("Invalid bot type"), check_valid_interface_type
//     ("Invalid interface type"), the default channels by name
//     (access_stream_by_name), check_valid_bot_config. The answer has
//     user_id, api_key, avatar_url, default_sending_stream,
//     default_events_register_stream and default_all_public_streams.
//     patch_bot_backend: access_bot_by_id, full_name
//     (check_change_bot_full_name), role (owner/administrator rules of
//     update_user_backend, without the last-owner check), bot_owner_id
//     ("Failed to change owner, ..."), default channels ("" clears),
//     default_all_public_streams, service_payload_url with
//     service_interface, config_data. Its answer has full_name, avatar_url,
//     service_interface, service_payload_url, config_data, the default
//     channels and bot_owner (the owner's e-mail).
//   - zerver/lib/users.py (a newer stored version, with
//     check_can_create_bot): a bot needs can_create_bots_group, or, for an
//     incoming webhook bot, can_create_write_only_bots_group; otherwise
//     "Insufficient permission". access_bot_by_id: "No such bot" for an
//     unknown id or a human, "Insufficient permission" unless the caller
//     administers the bot (an administrator, or the bot's owner), and
//     "Must be an organization owner" for a bot holding can_create_users.
//     check_short_name: stripped, empty is "Bad name or username".
//   - zerver/models/users.py allowed_bot_types (newest): can_create_bots_group
//     allows generic, incoming and outgoing webhook bots (and embedded when
//     enabled); can_create_write_only_bots_group only incoming webhooks.
//   - require_member_or_admin guards POST/PATCH /bots and the key endpoints
//     ("Not allowed for guest users", "This endpoint does not accept bot
//     requests.").
//   - The newest OpenAPI description: get-bot-api-key (FL463),
//     regenerate-bot-api-key, the realm_bot register section and events,
//     whose bot object since FL474 is only user_id, the default channels,
//     default_all_public_streams and services (before: also email,
//     full_name, bot_type, is_active, api_key, avatar_url, owner_id).
//   - short_name in PATCH /bots/{bot_id}: zulip/zulip PR #36964 (merged) and
//     the API documentation PR #39454 ("New in Zulip 12.0 (feature level
//     447)"); the PR says an unchanged short name is not validated again.
//
// Choices where Zulip's code was not at hand are marked "Choice:".

// Bot types, as Zulip numbers them.
const (
	BotGeneric  = 1
	BotIncoming = 2
	BotOutgoing = 3
	BotEmbedded = 4
)

// Outgoing webhook service interfaces (Service.ALLOWED_INTERFACE_TYPES).
const (
	serviceGeneric = 1
	serviceSlack   = 2
)

// Feature levels of the bots area.
const (
	botAPIKeyFL      = 463 // GET /bots/{bot_id}/api_key
	botShortNameFL   = 447 // PATCH /bots/{bot_id} short_name
	realmBotSlimFL   = 474 // realm_bot objects without email, name, key, ...
	botCreateGroupFL = 344 // can_create_write_only_bots_group
)

// BotSettings are the bot-only fields of a bot user (UserProfile's default
// channels and the bot's Service and BotConfigData rows). A bot without an
// entry has the defaults: no default channels, default_all_public_streams
// false, no service.
type BotSettings struct {
	// DefaultSendingChannelID and DefaultEventsRegisterChannelID are 0 for none.
	DefaultSendingChannelID        int  `json:"default_sending_channel_id,omitempty"`
	DefaultEventsRegisterChannelID int  `json:"default_events_register_channel_id,omitempty"`
	DefaultAllPublicStreams        bool `json:"default_all_public_streams,omitempty"`
	// Service is the outgoing webhook or embedded bot service, nil for others.
	Service *BotService `json:"service,omitempty"`
	// Config is the bot's configuration data (embedded and incoming webhook bots).
	Config map[string]string `json:"config,omitempty"`
}

// BotService is Zulip's Service row: Token is a secret that the outgoing
// webhook's receiver uses to authenticate Zulip.
type BotService struct {
	Name      string `json:"name"`
	BaseURL   string `json:"base_url"`
	Interface int    `json:"interface"`
	Token     string `json:"token"`
}

// routesBots registers the bot endpoints that exist at the advertised level.
func (s *Server) routesBots() {
	s.handle("POST /bots", authUser, s.withUserEvents(withEvents(s.createBot, s.emitBotAdded)))
	s.handle("PATCH /bots/{bot_id}", authUser, s.withUserEvents(s.withBotEvents(s.updateBot)))
	s.handle("DELETE /bots/{bot_id}", authUser, s.withUserEvents(s.withBotEvents(s.deactivateBot)))
	s.handle("POST /bots/{bot_id}/api_key/regenerate", authUser, s.withBotEvents(s.regenerateBotAPIKey))
	if s.opts.FeatureLevel >= botAPIKeyFL {
		s.handle("GET /bots/{bot_id}/api_key", authUser, s.getBotAPIKey)
	}
}

// botSettings returns the bot's settings, creating its entry when create is set.
func (r *Realm) botSettings(id int, create bool) *BotSettings {
	if b := r.Bots[id]; b != nil || !create {
		if b == nil {
			return &BotSettings{}
		}
		return b
	}
	if r.Bots == nil {
		r.Bots = map[int]*BotSettings{}
	}
	b := &BotSettings{}
	r.Bots[id] = b
	return b
}

// botDomain is Realm.get_bot_domain: the realm's host (Choice: this server has
// no FAKE_EMAIL_DOMAIN setting; its realm host is the realm's domain).
func (r *Realm) botDomain() string { return r.Host }

// channelName renders a default channel: its name, or null.
func (r *Realm) channelName(id int) any {
	if ch := r.Channels[id]; ch != nil && id != 0 {
		return ch.Name
	}
	return nil
}

// servicesWire is get_service_dicts_for_bot: outgoing webhook bots list their
// service (base_url, interface, token), embedded bots their service name and
// configuration, others nothing.
func (r *Realm) servicesWire(u *User) []obj {
	b := r.botSettings(u.ID, false)
	out := []obj{}
	switch {
	case u.BotType == BotOutgoing && b.Service != nil:
		out = append(out, obj{"base_url": b.Service.BaseURL, "interface": b.Service.Interface, "token": b.Service.Token})
	case u.BotType == BotEmbedded && b.Service != nil:
		cfg := map[string]string{}
		for k, v := range b.Config {
			cfg[k] = v
		}
		out = append(out, obj{"service_name": b.Service.Name, "config_data": cfg})
	}
	return out
}

// botWire is the realm_bot object of a bot at the advertised feature level.
func (s *Server) botWire(u *User) obj {
	r := s.realm
	b := r.botSettings(u.ID, false)
	out := obj{
		"user_id":                        u.ID,
		"default_sending_stream":         r.channelName(b.DefaultSendingChannelID),
		"default_events_register_stream": r.channelName(b.DefaultEventsRegisterChannelID),
		"default_all_public_streams":     b.DefaultAllPublicStreams,
		"services":                       r.servicesWire(u),
	}
	if s.opts.FeatureLevel < realmBotSlimFL {
		var owner any
		if u.BotOwnerID != 0 {
			owner = u.BotOwnerID
		}
		out["email"] = u.Email
		out["full_name"] = u.FullName
		out["bot_type"] = u.BotType
		out["is_active"] = u.IsActive
		out["api_key"] = u.APIKey
		out["avatar_url"] = avatarURL(u, false)
		out["owner_id"] = owner
	}
	return out
}

// botAdmins reports whether the user receives a bot's realm_bot events: its
// owner and the administrators (bot_owner_user_ids plus realm admins).
func botAdmins(bot *User) func(u *User) bool {
	return func(u *User) bool { return u.IsAdmin() || u.ID == bot.BotOwnerID }
}

// accessBot is access_bot_by_id.
func (s *Server) accessBot(c *call) (*User, error) {
	id, err := c.pathInt("bot_id")
	if err != nil {
		return nil, err
	}
	bot := c.realm().user(id)
	if bot == nil || !bot.IsBot {
		return nil, errBadRequest("No such bot")
	}
	if !canAdminUser(c.user, bot) {
		return nil, errInsufficientPermission()
	}
	if bot.CanCreateUsers && !c.user.IsOwner() {
		return nil, errPrincipal("owner")
	}
	return bot, nil
}

// isIncomingWebhookBot is UserProfile.is_incoming_webhook.
func (u *User) isIncomingWebhookBot() bool { return u.IsBot && u.BotType == BotIncoming }

// canCreateBot is check_can_create_bot (FL344 split the permission; before
// it, can_create_bots_group alone decides). Choice: below FL344 the
// write-only group is not consulted.
func (s *Server) canCreateBot(u *User, botType int) bool {
	r := s.realm
	if r.hasRealmPermission("can_create_bots_group", u) {
		return true
	}
	return botType == BotIncoming && s.opts.FeatureLevel >= botCreateGroupFL &&
		r.hasRealmPermission("can_create_write_only_bots_group", u)
}

// allowedBotTypes is UserProfile.allowed_bot_types. Choice: embedded bots
// are disabled, as EMBEDDED_BOTS_ENABLED is by default in production.
func (s *Server) allowedBotTypes(u *User) []int {
	if s.realm.hasRealmPermission("can_create_bots_group", u) {
		return []int{BotGeneric, BotIncoming, BotOutgoing}
	}
	if s.opts.FeatureLevel >= botCreateGroupFL && s.realm.hasRealmPermission("can_create_write_only_bots_group", u) {
		return []int{BotIncoming}
	}
	return nil
}

// checkBotFullName is check_full_name with the realm's require_unique_names
// (Choice: names are compared case-insensitively after Unicode simple folding,
// standing in for NFKC casefold), except is the user whose name changes.
func (r *Realm) checkBotFullName(raw string, except int) (string, error) {
	name, err := checkFullName(raw)
	if err != nil {
		return "", err
	}
	if unique, _ := r.Setting("require_unique_names").(bool); unique {
		for _, u := range r.Users {
			if u.ID != except && strings.EqualFold(u.FullName, name) {
				return "", errBadRequest("Unique names required in this organization.")
			}
		}
	}
	return name, nil
}

// checkBotNameAvailable is check_bot_name_available(is_activation=False).
func (r *Realm) checkBotNameAvailable(name string) error {
	for _, u := range r.Users {
		if u.IsActive && u.FullName == strings.TrimSpace(name) {
			return errBadRequest("Name is already in use!")
		}
	}
	return nil
}

// botEmail builds short_name-bot@<bot domain> from a checked short name.
// Choice: Zulip's Address() quotes a local part that is not a dot-atom and
// Django's validator accepts quoted local parts; this server refuses such
// short names (spaces, quotes, "@", ...) with "Bad name or username".
func (r *Realm) botEmail(shortName string) (string, error) {
	email := shortName + "-bot@" + r.botDomain()
	if strings.ContainsAny(shortName, "\r\n") || !validEmail(email) {
		return "", errBadRequest("Bad name or username")
	}
	return email, nil
}

// checkShortName is check_short_name.
func checkShortName(raw string) (string, error) {
	v := strings.TrimSpace(raw)
	if v == "" {
		return "", errBadRequest("Bad name or username")
	}
	return v, nil
}

// botChannelByName is access_stream_by_name for a default channel.
func (s *Server) botChannelByName(c *call, name string) (*Channel, error) {
	ch := c.realm().channelByName(name)
	if ch == nil || ch.IsArchived || !s.canAccessChannelContent(c.user, ch) {
		return nil, errBadRequest("Invalid channel name '%s'", name)
	}
	return ch, nil
}

// optURL reads a JSON-encoded URL parameter (check_url): "<name> is not a URL".
func (c *call) optURL(name string) (string, bool, error) {
	var v string
	ok, err := c.optJSON(name, &v)
	if err != nil || !ok {
		return "", ok, err
	}
	u, perr := url.Parse(v)
	if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", true, errBadRequest("%s is not a URL", name)
	}
	return v, true, nil
}

// optConfigData reads a JSON object of strings (check_dict(value_validator=check_string)).
func (c *call) optConfigData(name string) (map[string]string, bool, error) {
	raw, ok := c.raw(name)
	if !ok {
		return nil, false, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil || m == nil {
		if !json.Valid([]byte(raw)) {
			return nil, true, errInvalidJSON(name)
		}
		return nil, true, errBadRequest("%s is not a dict", name)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := map[string]string{}
	for _, k := range keys {
		v, isString := m[k].(string)
		if !isString {
			return nil, true, errBadRequest("%s[\"%s\"] is not a string", name, k)
		}
		out[k] = v
	}
	return out, true, nil
}

// optIntParam reads a JSON integer parameter with a default.
func (c *call) optIntParam(name string, def int) (int, error) {
	v := def
	if _, err := c.optJSON(name, &v); err != nil {
		return 0, err
	}
	return v, nil
}

// botCreation is a POST /bots request as read, before any check against the
// realm.
type botCreation struct {
	fullName       string
	shortName      string
	botType        int
	payloadURL     string
	serviceName    string
	hasServiceName bool
	config         map[string]string
	iface          int
	sendingName    string
	hasSending     bool
	eventsName     string
	hasEvents      bool
	allPublic      bool
}

// createBot is POST /bots (add_bot_backend).
func (s *Server) createBot(c *call) (obj, error) {
	if err := c.requireMemberOrAdmin(); err != nil {
		return nil, err
	}
	b, err := readBotCreation(c)
	if err != nil {
		return nil, err
	}
	email, err := c.realm().checkBotIdentity(b)
	if err != nil {
		return nil, err
	}
	if err := s.checkBotKind(c, b); err != nil {
		return nil, err
	}
	settings, err := s.newBotSettings(c, b)
	if err != nil {
		return nil, err
	}
	u := s.addBot(c, b, email, settings)
	r := c.realm()
	return obj{
		"user_id":                        u.ID,
		"api_key":                        u.APIKey,
		"avatar_url":                     avatarURL(u, false),
		"default_sending_stream":         r.channelName(settings.DefaultSendingChannelID),
		"default_events_register_stream": r.channelName(settings.DefaultEventsRegisterChannelID),
		"default_all_public_streams":     settings.DefaultAllPublicStreams,
	}, nil
}

// readBotCreation reads POST /bots's parameters in Zulip's order, refusing a
// missing or malformed one.
func readBotCreation(c *call) (*botCreation, error) {
	b := &botCreation{}
	var err error
	if b.fullName, err = c.reqString("full_name"); err != nil {
		return nil, err
	}
	if b.shortName, err = c.reqString("short_name"); err != nil {
		return nil, err
	}
	if b.botType, err = c.optIntParam("bot_type", BotGeneric); err != nil {
		return nil, err
	}
	if b.payloadURL, _, err = c.optURL("payload_url"); err != nil {
		return nil, err
	}
	b.serviceName, b.hasServiceName = c.optString("service_name")
	if b.config, _, err = c.optConfigData("config_data"); err != nil {
		return nil, err
	}
	if b.iface, err = c.optIntParam("interface_type", serviceGeneric); err != nil {
		return nil, err
	}
	b.sendingName, b.hasSending = c.optString("default_sending_stream")
	b.eventsName, b.hasEvents = c.optString("default_events_register_stream")
	if _, err := c.optJSON("default_all_public_streams", &b.allPublic); err != nil {
		return nil, err
	}
	return b, nil
}

// checkBotIdentity checks a new bot's short and full names in Zulip's order
// (short name, full name, embedded bots, address in use, name in use),
// normalizes them into b and returns the bot's address. A bot that is not an
// incoming webhook gets its short name as service name by default.
func (r *Realm) checkBotIdentity(b *botCreation) (string, error) {
	shortName, err := checkShortName(b.shortName)
	if err != nil {
		return "", err
	}
	b.shortName = shortName
	if b.botType != BotIncoming && b.serviceName == "" {
		b.serviceName = shortName
	}
	if b.fullName, err = r.checkBotFullName(b.fullName, 0); err != nil {
		return "", err
	}
	email, err := r.botEmail(shortName)
	if err != nil {
		return "", err
	}
	if b.botType == BotEmbedded {
		return "", errBadRequest("Embedded bots are not enabled.")
	}
	if r.userByEmail(email) != nil {
		return "", errBadRequest("Username already in use")
	}
	if err := r.checkBotNameAvailable(b.fullName); err != nil {
		return "", err
	}
	return email, nil
}

// checkBotKind checks that the caller may create a bot of this type and that
// the type and interface are ones this server offers.
func (s *Server) checkBotKind(c *call, b *botCreation) error {
	if !s.canCreateBot(c.user, b.botType) {
		return errInsufficientPermission()
	}
	allowed := false
	for _, t := range s.allowedBotTypes(c.user) {
		allowed = allowed || t == b.botType
	}
	if !allowed {
		return errBadRequest("Invalid bot type")
	}
	if b.iface != serviceGeneric && b.iface != serviceSlack {
		return errBadRequest("Invalid interface type")
	}
	return nil
}

// newBotSettings returns a new bot's settings: its default channels, which
// the caller must be able to use, and whether it reads all public channels.
// It refuses an incoming webhook bot that names an integration.
func (s *Server) newBotSettings(c *call, b *botCreation) (*BotSettings, error) {
	settings := &BotSettings{DefaultAllPublicStreams: b.allPublic}
	if b.hasSending {
		ch, err := s.botChannelByName(c, b.sendingName)
		if err != nil {
			return nil, err
		}
		settings.DefaultSendingChannelID = ch.ID
	}
	if b.hasEvents {
		ch, err := s.botChannelByName(c, b.eventsName)
		if err != nil {
			return nil, err
		}
		settings.DefaultEventsRegisterChannelID = ch.ID
	}
	// check_valid_bot_config for an incoming webhook bot naming its
	// integration: only integrations with configuration options pass.
	// Choice: this server knows no integration with configuration options.
	if b.botType == BotIncoming && b.hasServiceName && b.serviceName != "" {
		return nil, errBadRequest("Invalid integration '%s'.", b.serviceName)
	}
	return settings, nil
}

// addBot adds a checked new bot, owned by the caller, with its settings,
// service (an outgoing webhook bot) and configuration (an incoming one).
func (s *Server) addBot(c *call, b *botCreation, email string, settings *BotSettings) *User {
	r := c.realm()
	u := &User{
		ID: r.newID("user"), Email: email, FullName: b.fullName, Role: RoleMember, IsActive: true,
		IsBot: true, BotType: b.botType, BotOwnerID: c.user.ID, DateJoined: s.now().Unix(),
		AvatarVersion: 1, EmailVisibility: EmailVisibleEveryone, ProfileData: map[int]string{},
	}
	u.APIKey = s.derivedKey("api-key", u.ID)
	r.Users[u.ID] = u
	r.setRoleGroup(u)
	if b.botType == BotOutgoing {
		settings.Service = &BotService{Name: b.serviceName, BaseURL: b.payloadURL, Interface: b.iface,
			Token: s.derivedKey("service-token", u.ID)}
	}
	if b.botType == BotIncoming && len(b.config) > 0 {
		settings.Config = b.config
	}
	if r.Bots == nil {
		r.Bots = map[int]*BotSettings{}
	}
	r.Bots[u.ID] = settings
	return u
}

// emitBotAdded is notify_created_bot: realm_bot add, to the bot's administrators.
func (s *Server) emitBotAdded(_ *call, payload obj) {
	id, _ := payload["user_id"].(int)
	if bot := s.realm.user(id); bot != nil {
		s.emit(obj{"type": "realm_bot", "op": "add", "bot": s.botWire(bot)}, botAdmins(bot))
	}
}

// botUpdate is a PATCH /bots/{bot_id} request as read, before any check
// against the bot or the realm.
type botUpdate struct {
	fullName      string
	hasName       bool
	role          int
	hasRole       bool
	ownerID       int
	hasOwner      bool
	config        map[string]string
	hasConfig     bool
	payloadURL    string
	hasPayloadURL bool
	iface         int
	sendingName   string
	hasSending    bool
	eventsName    string
	hasEvents     bool
	allPublic     bool
	hasAllPublic  bool
	shortName     string
	hasShortName  bool
}

// botChange is what a checked PATCH /bots/{bot_id} writes: the bot's new
// name and address, its new owner (nil: unchanged) and its default channels
// (-1: unchanged, 0: none).
type botChange struct {
	name, email     string
	owner           *User
	sending, events int
}

// updateBot is PATCH /bots/{bot_id} (patch_bot_backend). Every check runs
// before anything changes. Choice: Zulip applies each change as it goes, so
// a later error there leaves the earlier changes made; here a refused request
// changes nothing.
func (s *Server) updateBot(c *call) (obj, error) {
	if err := c.requireMemberOrAdmin(); err != nil {
		return nil, err
	}
	u, err := s.readBotUpdate(c)
	if err != nil {
		return nil, err
	}
	bot, err := s.accessBot(c)
	if err != nil {
		return nil, err
	}
	ch, err := s.checkBotUpdate(c, bot, u)
	if err != nil {
		return nil, err
	}
	settings := c.realm().applyBotUpdate(bot, u, ch)
	return botUpdateAnswer(c.realm(), bot, settings, u), nil
}

// readBotUpdate reads PATCH /bots/{bot_id}'s parameters in Zulip's order,
// refusing a malformed one and a role that is none of Zulip's.
func (s *Server) readBotUpdate(c *call) (*botUpdate, error) {
	u := &botUpdate{}
	var err error
	u.fullName, u.hasName = c.optString("full_name")
	if u.hasRole, err = c.optJSON("role", &u.role); err != nil {
		return nil, err
	}
	if u.hasRole {
		switch u.role {
		case RoleOwner, RoleAdministrator, RoleModerator, RoleMember, RoleGuest:
		default:
			return nil, errInvalid("Invalid role")
		}
	}
	if u.hasOwner, err = c.optJSON("bot_owner_id", &u.ownerID); err != nil {
		return nil, err
	}
	if u.config, u.hasConfig, err = c.optConfigData("config_data"); err != nil {
		return nil, err
	}
	if u.payloadURL, u.hasPayloadURL, err = c.optURL("service_payload_url"); err != nil {
		return nil, err
	}
	if u.iface, err = c.optIntParam("service_interface", serviceGeneric); err != nil {
		return nil, err
	}
	u.sendingName, u.hasSending = c.optString("default_sending_stream")
	u.eventsName, u.hasEvents = c.optString("default_events_register_stream")
	if u.hasAllPublic, err = c.optJSON("default_all_public_streams", &u.allPublic); err != nil {
		return nil, err
	}
	if s.opts.FeatureLevel >= botShortNameFL {
		u.shortName, u.hasShortName = c.optString("short_name")
	}
	return u, nil
}

// checkBotUpdate runs PATCH /bots/{bot_id}'s checks against the bot and the
// realm in Zulip's order (name, address, role, owner, default channels,
// interface) and returns what the request will write.
func (s *Server) checkBotUpdate(c *call, bot *User, u *botUpdate) (*botChange, error) {
	r := c.realm()
	ch := &botChange{sending: -1, events: -1}
	var err error
	if ch.name, err = r.checkBotNameChange(bot, u); err != nil {
		return nil, err
	}
	if ch.email, err = r.checkBotAddressChange(bot, u); err != nil {
		return nil, err
	}
	if u.hasRole && u.role != bot.Role {
		if (u.role == RoleOwner || bot.Role == RoleOwner) && !c.user.IsOwner() {
			return nil, errPrincipal("owner")
		} else if !c.user.IsAdmin() {
			return nil, errPrincipal("administrator")
		}
	}
	if u.hasOwner {
		if ch.owner, err = r.checkNewBotOwner(u.ownerID); err != nil {
			return nil, err
		}
	}
	if u.hasSending {
		if ch.sending, err = s.botDefaultChannel(c, u.sendingName); err != nil {
			return nil, err
		}
	}
	if u.hasEvents {
		if ch.events, err = s.botDefaultChannel(c, u.eventsName); err != nil {
			return nil, err
		}
	}
	if u.hasPayloadURL && u.iface != serviceGeneric && u.iface != serviceSlack {
		return nil, errBadRequest("Invalid interface type")
	}
	return ch, nil
}

// checkBotNameChange is check_change_bot_full_name: it returns the bot's
// name after the request, refusing an invalid or taken new name; an
// unchanged name is silently accepted.
func (r *Realm) checkBotNameChange(bot *User, u *botUpdate) (string, error) {
	if !u.hasName {
		return bot.FullName, nil
	}
	name, err := r.checkBotFullName(u.fullName, bot.ID)
	if err != nil {
		return "", err
	}
	if name != bot.FullName {
		if err := r.checkBotNameAvailable(name); err != nil {
			return "", err
		}
	}
	return name, nil
}

// checkBotAddressChange returns the bot's address after the request,
// refusing an invalid short name and an address in use. Choice: short_name
// is checked right after full_name (PR #36964's placement is not at hand);
// an unchanged address is not checked again.
func (r *Realm) checkBotAddressChange(bot *User, u *botUpdate) (string, error) {
	if !u.hasShortName {
		return bot.Email, nil
	}
	short, err := checkShortName(u.shortName)
	if err != nil {
		return "", err
	}
	email, err := r.botEmail(short)
	if err != nil {
		return "", err
	}
	if equalFoldASCII(email, bot.Email) {
		return bot.Email, nil
	}
	if r.userByEmail(email) != nil {
		return "", errBadRequest("Username already in use")
	}
	return email, nil
}

// checkNewBotOwner returns the user a bot is to be given to, refusing a
// missing, deactivated or bot user with Zulip's messages.
func (r *Realm) checkNewBotOwner(id int) (*User, error) {
	owner := r.user(id)
	switch {
	case owner == nil:
		return nil, errBadRequest("Failed to change owner, no such user")
	case !owner.IsActive:
		return nil, errBadRequest("Failed to change owner, user is deactivated")
	case owner.IsBot:
		return nil, errBadRequest("Failed to change owner, bots can't own other bots")
	}
	return owner, nil
}

// botDefaultChannel returns the id of the channel a bot's default is set to:
// 0 for an empty name (no default), or the named channel the caller may use.
func (s *Server) botDefaultChannel(c *call, name string) (int, error) {
	if name == "" {
		return 0, nil
	}
	ch, err := s.botChannelByName(c, name)
	if err != nil {
		return 0, err
	}
	return ch.ID, nil
}

// applyBotUpdate writes a checked PATCH /bots/{bot_id} and returns the bot's
// settings after it.
func (r *Realm) applyBotUpdate(bot *User, u *botUpdate, ch *botChange) *BotSettings {
	settings := r.botSettings(bot.ID, true)
	bot.FullName = ch.name
	bot.Email = ch.email
	if u.hasRole && u.role != bot.Role {
		bot.Role = u.role
		r.setRoleGroup(bot)
	}
	if ch.owner != nil {
		bot.BotOwnerID = ch.owner.ID
	}
	if ch.sending >= 0 {
		settings.DefaultSendingChannelID = ch.sending
	}
	if ch.events >= 0 {
		settings.DefaultEventsRegisterChannelID = ch.events
	}
	if u.hasAllPublic {
		settings.DefaultAllPublicStreams = u.allPublic
	}
	// do_update_outgoing_webhook_service updates the bot's service rows:
	// none for a bot that has no service.
	if u.hasPayloadURL && settings.Service != nil {
		settings.Service.BaseURL = u.payloadURL
		settings.Service.Interface = u.iface
	}
	if u.hasConfig {
		if settings.Config == nil {
			settings.Config = map[string]string{}
		}
		for k, v := range u.config {
			settings.Config[k] = v
		}
	}
	return settings
}

// botUpdateAnswer is PATCH /bots/{bot_id}'s answer: the bot's name, avatar,
// default channels and owner after the change, and the service fields and
// configuration as sent.
func botUpdateAnswer(r *Realm, bot *User, settings *BotSettings, u *botUpdate) obj {
	out := obj{
		"full_name":                      bot.FullName,
		"avatar_url":                     avatarURL(bot, false),
		"service_interface":              u.iface,
		"service_payload_url":            nil,
		"config_data":                    nil,
		"default_sending_stream":         r.channelName(settings.DefaultSendingChannelID),
		"default_events_register_stream": r.channelName(settings.DefaultEventsRegisterChannelID),
		"default_all_public_streams":     settings.DefaultAllPublicStreams,
	}
	if u.hasPayloadURL {
		out["service_payload_url"] = u.payloadURL
	}
	if u.hasConfig {
		out["config_data"] = u.config
	}
	if o := r.user(bot.BotOwnerID); o != nil {
		out["bot_owner"] = o.Email
	}
	return out
}

// deactivateBot is DELETE /bots/{bot_id} (deactivate_bot_backend). Choice:
// deactivating a deactivated bot succeeds without a change.
func (s *Server) deactivateBot(c *call) (obj, error) {
	bot, err := s.accessBot(c)
	if err != nil {
		return nil, err
	}
	if bot.IsActive {
		s.deactivateLocked(bot)
	}
	return nil, nil
}

// getBotAPIKey is GET /bots/{bot_id}/api_key (FL463).
func (s *Server) getBotAPIKey(c *call) (obj, error) {
	if err := c.requireMemberOrAdmin(); err != nil {
		return nil, err
	}
	bot, err := s.accessBot(c)
	if err != nil {
		return nil, err
	}
	return obj{"api_key": bot.APIKey}, nil
}

// regenerateBotAPIKey is POST /bots/{bot_id}/api_key/regenerate: the old key
// stops authenticating at once.
func (s *Server) regenerateBotAPIKey(c *call) (obj, error) {
	if err := c.requireMemberOrAdmin(); err != nil {
		return nil, err
	}
	bot, err := s.accessBot(c)
	if err != nil {
		return nil, err
	}
	bot.APIKey = s.derivedKey("regenerated-api-key", c.realm().newID("api_key"))
	return obj{"api_key": bot.APIKey}, nil
}

// botFacts is what the realm_bot update events compare.
type botFacts struct {
	wire  obj
	owner int
}

// withBotEvents wraps a handler that changes a bot: after it succeeded, one
// realm_bot update per changed property of the bot object (as each of
// Zulip's do_change_* actions sends its own), to the bot's administrators;
// an owner change also tells everyone the new bot_owner_id (realm_user),
// and a previous owner who is no administrator loses the bot (realm_bot
// delete) while a new one who is no administrator gains it (realm_bot add),
// as do_change_bot_owner does.
func (s *Server) withBotEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		id, _ := strconv.Atoi(c.r.PathValue("bot_id"))
		var before *botFacts
		if bot := s.realm.user(id); bot != nil && bot.IsBot {
			before = &botFacts{wire: s.botWire(bot), owner: bot.BotOwnerID}
		}
		payload, err := h(c)
		if err != nil || before == nil {
			return payload, err
		}
		bot := s.realm.user(id)
		after := s.botWire(bot)
		if bot.BotOwnerID != before.owner {
			s.emitOwnerChange(bot, before.owner)
		}
		keys := make([]string, 0, len(after))
		for k := range after {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "user_id" || k == "owner_id" || cfgEqual(before.wire[k], after[k]) {
				continue
			}
			s.emit(obj{"type": "realm_bot", "op": "update", "bot": obj{"user_id": id, k: after[k]}}, botAdmins(bot))
		}
		return payload, err
	}
}

// emitOwnerChange is do_change_bot_owner's events.
func (s *Server) emitOwnerChange(bot *User, previous int) {
	s.emit(obj{"type": "realm_user", "op": "update", "person": obj{"user_id": bot.ID, "bot_owner_id": bot.BotOwnerID}}, nil)
	skip := map[int]bool{}
	if old := s.realm.user(previous); old != nil && !old.IsAdmin() {
		s.emitToUser(old.ID, obj{"type": "realm_bot", "op": "delete", "bot": obj{"user_id": bot.ID}})
		skip[old.ID] = true
	}
	if owner := s.realm.user(bot.BotOwnerID); owner != nil && !owner.IsAdmin() {
		s.emitToUser(owner.ID, obj{"type": "realm_bot", "op": "add", "bot": s.botWire(bot)})
		skip[owner.ID] = true
	}
	if s.opts.FeatureLevel < realmBotSlimFL {
		s.emit(obj{"type": "realm_bot", "op": "update", "bot": obj{"user_id": bot.ID, "owner_id": bot.BotOwnerID}},
			func(u *User) bool { return !skip[u.ID] && botAdmins(bot)(u) })
	}
}

// cfgEqual compares two wire values by their JSON encoding.
func cfgEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// registerRealmBot is register's realm_bot section (get_owned_bot_dicts):
// an administrator sees every bot of the organization, anyone else the
// bots they own.
func (s *Server) registerRealmBot(rr *registerRequest, out obj) {
	r := s.realm
	me := rr.c.user
	bots := []obj{}
	for _, id := range r.userIDs() {
		u := r.Users[id]
		if u.IsBot && (me.IsAdmin() || u.BotOwnerID == me.ID) {
			bots = append(bots, s.botWire(u))
		}
	}
	out["realm_bots"] = bots
}
