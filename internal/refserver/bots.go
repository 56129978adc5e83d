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

// createBot is POST /bots (add_bot_backend).
func (s *Server) createBot(c *call) (obj, error) {
	if err := c.requireMemberOrAdmin(); err != nil {
		return nil, err
	}
	fullNameRaw, err := c.reqString("full_name")
	if err != nil {
		return nil, err
	}
	shortNameRaw, err := c.reqString("short_name")
	if err != nil {
		return nil, err
	}
	botType, err := c.optIntParam("bot_type", BotGeneric)
	if err != nil {
		return nil, err
	}
	payloadURL, _, err := c.optURL("payload_url")
	if err != nil {
		return nil, err
	}
	serviceName, hasServiceName := c.optString("service_name")
	config, _, err := c.optConfigData("config_data")
	if err != nil {
		return nil, err
	}
	interfaceType, err := c.optIntParam("interface_type", serviceGeneric)
	if err != nil {
		return nil, err
	}
	sendingName, hasSending := c.optString("default_sending_stream")
	eventsName, hasEvents := c.optString("default_events_register_stream")
	var allPublic bool
	if _, err := c.optJSON("default_all_public_streams", &allPublic); err != nil {
		return nil, err
	}

	r := c.realm()
	shortName, err := checkShortName(shortNameRaw)
	if err != nil {
		return nil, err
	}
	if botType != BotIncoming && serviceName == "" {
		serviceName = shortName
	}
	fullName, err := r.checkBotFullName(fullNameRaw, 0)
	if err != nil {
		return nil, err
	}
	email, err := r.botEmail(shortName)
	if err != nil {
		return nil, err
	}
	if botType == BotEmbedded {
		return nil, errBadRequest("Embedded bots are not enabled.")
	}
	if r.userByEmail(email) != nil {
		return nil, errBadRequest("Username already in use")
	}
	if err := r.checkBotNameAvailable(fullName); err != nil {
		return nil, err
	}
	if !s.canCreateBot(c.user, botType) {
		return nil, errInsufficientPermission()
	}
	allowed := false
	for _, t := range s.allowedBotTypes(c.user) {
		allowed = allowed || t == botType
	}
	if !allowed {
		return nil, errBadRequest("Invalid bot type")
	}
	if interfaceType != serviceGeneric && interfaceType != serviceSlack {
		return nil, errBadRequest("Invalid interface type")
	}
	settings := &BotSettings{DefaultAllPublicStreams: allPublic}
	if hasSending {
		ch, err := s.botChannelByName(c, sendingName)
		if err != nil {
			return nil, err
		}
		settings.DefaultSendingChannelID = ch.ID
	}
	if hasEvents {
		ch, err := s.botChannelByName(c, eventsName)
		if err != nil {
			return nil, err
		}
		settings.DefaultEventsRegisterChannelID = ch.ID
	}
	// check_valid_bot_config for an incoming webhook bot naming its
	// integration: only integrations with configuration options pass.
	// Choice: this server knows no integration with configuration options.
	if botType == BotIncoming && hasServiceName && serviceName != "" {
		return nil, errBadRequest("Invalid integration '%s'.", serviceName)
	}

	u := &User{
		ID: r.newID("user"), Email: email, FullName: fullName, Role: RoleMember, IsActive: true,
		IsBot: true, BotType: botType, BotOwnerID: c.user.ID, DateJoined: s.now().Unix(),
		AvatarVersion: 1, EmailVisibility: EmailVisibleEveryone, ProfileData: map[int]string{},
	}
	u.APIKey = s.derivedKey("api-key", u.ID)
	r.Users[u.ID] = u
	r.setRoleGroup(u)
	if botType == BotOutgoing {
		settings.Service = &BotService{Name: serviceName, BaseURL: payloadURL, Interface: interfaceType,
			Token: s.derivedKey("service-token", u.ID)}
	}
	if botType == BotIncoming && len(config) > 0 {
		settings.Config = config
	}
	if r.Bots == nil {
		r.Bots = map[int]*BotSettings{}
	}
	r.Bots[u.ID] = settings
	return obj{
		"user_id":                        u.ID,
		"api_key":                        u.APIKey,
		"avatar_url":                     avatarURL(u, false),
		"default_sending_stream":         r.channelName(settings.DefaultSendingChannelID),
		"default_events_register_stream": r.channelName(settings.DefaultEventsRegisterChannelID),
		"default_all_public_streams":     settings.DefaultAllPublicStreams,
	}, nil
}

// emitBotAdded is notify_created_bot: realm_bot add, to the bot's administrators.
func (s *Server) emitBotAdded(_ *call, payload obj) {
	id, _ := payload["user_id"].(int)
	if bot := s.realm.user(id); bot != nil {
		s.emit(obj{"type": "realm_bot", "op": "add", "bot": s.botWire(bot)}, botAdmins(bot))
	}
}

// updateBot is PATCH /bots/{bot_id} (patch_bot_backend). Every check runs
// before anything changes. Choice: Zulip applies each change as it goes, so
// a later error there leaves the earlier changes made; here a refused request
// changes nothing.
func (s *Server) updateBot(c *call) (obj, error) {
	if err := c.requireMemberOrAdmin(); err != nil {
		return nil, err
	}
	fullName, hasName := c.optString("full_name")
	var role int
	hasRole, err := c.optJSON("role", &role)
	if err != nil {
		return nil, err
	}
	if hasRole {
		switch role {
		case RoleOwner, RoleAdministrator, RoleModerator, RoleMember, RoleGuest:
		default:
			return nil, errInvalid("Invalid role")
		}
	}
	var ownerID int
	hasOwner, err := c.optJSON("bot_owner_id", &ownerID)
	if err != nil {
		return nil, err
	}
	config, hasConfig, err := c.optConfigData("config_data")
	if err != nil {
		return nil, err
	}
	payloadURL, hasPayloadURL, err := c.optURL("service_payload_url")
	if err != nil {
		return nil, err
	}
	iface, err := c.optIntParam("service_interface", serviceGeneric)
	if err != nil {
		return nil, err
	}
	sendingName, hasSending := c.optString("default_sending_stream")
	eventsName, hasEvents := c.optString("default_events_register_stream")
	var allPublic bool
	hasAllPublic, err := c.optJSON("default_all_public_streams", &allPublic)
	if err != nil {
		return nil, err
	}
	shortNameRaw, hasShortName := "", false
	if s.opts.FeatureLevel >= botShortNameFL {
		shortNameRaw, hasShortName = c.optString("short_name")
	}

	bot, err := s.accessBot(c)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	newName := bot.FullName
	if hasName {
		// check_change_bot_full_name: an unchanged name is silently accepted.
		if newName, err = r.checkBotFullName(fullName, bot.ID); err != nil {
			return nil, err
		}
		if newName != bot.FullName {
			if err := r.checkBotNameAvailable(newName); err != nil {
				return nil, err
			}
		}
	}
	// Choice: short_name is checked right after full_name (PR #36964's
	// placement is not at hand); an unchanged address is not checked again.
	newEmail := bot.Email
	if hasShortName {
		short, err := checkShortName(shortNameRaw)
		if err != nil {
			return nil, err
		}
		if newEmail, err = r.botEmail(short); err != nil {
			return nil, err
		}
		if !equalFoldASCII(newEmail, bot.Email) {
			if r.userByEmail(newEmail) != nil {
				return nil, errBadRequest("Username already in use")
			}
		} else {
			newEmail = bot.Email
		}
	}
	if hasRole && role != bot.Role {
		if (role == RoleOwner || bot.Role == RoleOwner) && !c.user.IsOwner() {
			return nil, errPrincipal("owner")
		} else if !c.user.IsAdmin() {
			return nil, errPrincipal("administrator")
		}
	}
	var owner *User
	if hasOwner {
		owner = r.user(ownerID)
		switch {
		case owner == nil:
			return nil, errBadRequest("Failed to change owner, no such user")
		case !owner.IsActive:
			return nil, errBadRequest("Failed to change owner, user is deactivated")
		case owner.IsBot:
			return nil, errBadRequest("Failed to change owner, bots can't own other bots")
		}
	}
	sending, events := -1, -1
	if hasSending {
		sending = 0
		if sendingName != "" {
			ch, err := s.botChannelByName(c, sendingName)
			if err != nil {
				return nil, err
			}
			sending = ch.ID
		}
	}
	if hasEvents {
		events = 0
		if eventsName != "" {
			ch, err := s.botChannelByName(c, eventsName)
			if err != nil {
				return nil, err
			}
			events = ch.ID
		}
	}
	if hasPayloadURL && iface != serviceGeneric && iface != serviceSlack {
		return nil, errBadRequest("Invalid interface type")
	}

	settings := r.botSettings(bot.ID, true)
	bot.FullName = newName
	bot.Email = newEmail
	if hasRole && role != bot.Role {
		bot.Role = role
		r.setRoleGroup(bot)
	}
	if owner != nil {
		bot.BotOwnerID = owner.ID
	}
	if sending >= 0 {
		settings.DefaultSendingChannelID = sending
	}
	if events >= 0 {
		settings.DefaultEventsRegisterChannelID = events
	}
	if hasAllPublic {
		settings.DefaultAllPublicStreams = allPublic
	}
	// do_update_outgoing_webhook_service updates the bot's service rows:
	// none for a bot that has no service.
	if hasPayloadURL && settings.Service != nil {
		settings.Service.BaseURL = payloadURL
		settings.Service.Interface = iface
	}
	if hasConfig {
		if settings.Config == nil {
			settings.Config = map[string]string{}
		}
		for k, v := range config {
			settings.Config[k] = v
		}
	}

	out := obj{
		"full_name":                      bot.FullName,
		"avatar_url":                     avatarURL(bot, false),
		"service_interface":              iface,
		"service_payload_url":            nil,
		"config_data":                    nil,
		"default_sending_stream":         r.channelName(settings.DefaultSendingChannelID),
		"default_events_register_stream": r.channelName(settings.DefaultEventsRegisterChannelID),
		"default_all_public_streams":     settings.DefaultAllPublicStreams,
	}
	if hasPayloadURL {
		out["service_payload_url"] = payloadURL
	}
	if hasConfig {
		out["config_data"] = config
	}
	if o := r.user(bot.BotOwnerID); o != nil {
		out["bot_owner"] = o.Email
	}
	return out, nil
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
