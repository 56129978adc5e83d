package refserver

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// The channel write endpoints (POST /channels/create, PATCH and DELETE
// /streams/{id}), after newest Zulip's zerver/views/streams.py,
// zerver/lib/streams.py and zerver/models/streams.py.

// Feature levels of the channel write endpoints.
const (
	channelCreateFL    = 417 // POST /channels/create
	channelUnarchiveFL = 388 // PATCH is_archived=false
)

// maxChannelNameLength and maxChannelDescriptionLength are Stream.MAX_NAME_LENGTH
// and Stream.MAX_DESCRIPTION_LENGTH.
const (
	maxChannelNameLength        = 60
	maxChannelDescriptionLength = 1024
)

// channelPermissionConfigs is Stream.stream_permission_group_settings;
// "channel_creator" is an anonymous group of the creator.
var channelPermissionConfigs = map[string]permissionConfig{
	"can_add_subscribers_group":              {allowNobodyGroup: true, defaultGroup: sysNobody},
	"can_administer_channel_group":           {allowNobodyGroup: true, defaultGroup: groupCreator},
	"can_create_topic_group":                 {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
	"can_delete_any_message_group":           {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysNobody},
	"can_delete_own_message_group":           {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysNobody},
	"can_move_messages_out_of_channel_group": {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysNobody},
	"can_move_messages_within_channel_group": {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysNobody},
	"can_remove_subscribers_group":           {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysAdministrators},
	"can_resolve_topics_group":               {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysNobody},
	"can_send_message_group":                 {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
	"can_subscribe_group":                    {allowNobodyGroup: true, defaultGroup: sysNobody},
}

// channelDeleteSettings need the organization's can_set_delete_message_policy_group.
var channelDeleteSettings = map[string]bool{"can_delete_any_message_group": true, "can_delete_own_message_group": true}

// topicsPolicies are StreamTopicsPolicyEnum's names.
var topicsPolicies = []string{"inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"}

// routesChannelWrites registers the channel write endpoints.
func (s *Server) routesChannelWrites() {
	if s.opts.FeatureLevel >= channelCreateFL {
		s.handle("POST /channels/create", authUser, s.withChannelCreationNotices(withEvents(s.createChannel, s.emitChannelCreated)))
	}
	s.handle("PATCH /streams/{stream_id}", authUser, s.withChannelEvents(s.updateChannel))
	s.handle("DELETE /streams/{stream_id}", authUser, s.withChannelEvents(s.archiveChannel))
}

// checkChannelName is check_stream_name with check_stream_name_available:
// names are unique case-insensitively, archived channels included.
func (r *Realm) checkChannelName(name string, except int) error {
	if strings.TrimSpace(name) == "" {
		return errBadRequest("Channel name can't be empty.")
	}
	if len([]rune(name)) > maxChannelNameLength {
		return errBadRequest("Channel name too long (limit: %d characters).", maxChannelNameLength)
	}
	for i, c := range []rune(name) {
		if !isPrintable(c) {
			return errBadRequest("Invalid character in channel name, at position %d.", i+1)
		}
	}
	if ch := r.channelByName(name); ch != nil && ch.ID != except {
		return errCode(409, "CHANNEL_ALREADY_EXISTS", "Channel '"+name+"' already exists", nil)
	}
	return nil
}

// retentionParam reads message_retention_days of a new channel:
// "realm_default" or absent (nil), "unlimited" (-1) or a positive number of
// days (parse_message_retention_days).
func (c *call) retentionParam() (*int, error) {
	set, v, err := c.retentionRaw()
	if !set || err != nil {
		return nil, err
	}
	return parseRetention(v)
}

// retentionRaw reads message_retention_days as the view's Json[str] |
// Json[int] declares it: malformed JSON is refused when the request is
// parsed, a bad value only where the view calls parse_message_retention_days.
func (c *call) retentionRaw() (set bool, v any, err error) {
	text, ok := c.raw("message_retention_days")
	if !ok {
		return false, nil, nil
	}
	if json.Unmarshal([]byte(text), &v) != nil {
		return true, nil, errInvalidJSON("message_retention_days")
	}
	switch v.(type) {
	case string, float64:
		return true, v, nil
	}
	return true, nil, errInvalid("message_retention_days is not valid")
}

// parseRetention is parse_message_retention_days (zerver/lib/retention.py).
func parseRetention(v any) (*int, error) {
	switch x := v.(type) {
	case string:
		switch x {
		case "realm_default":
			return nil, nil
		case "unlimited":
			unlimited := -1
			return &unlimited, nil
		}
		return nil, errBadRequest("Bad value for 'message_retention_days': %s", x)
	case float64:
		if x != float64(int(x)) || x <= 0 {
			return nil, errBadRequest("Bad value for 'message_retention_days': %s", strconv.FormatFloat(x, 'f', -1, 64))
		}
		n := int(x)
		return &n, nil
	}
	return nil, errInvalid("message_retention_days is not valid")
}

// topicsPolicyParam reads topics_policy.
func (c *call) topicsPolicyParam(jsonEncoded bool) (string, error) {
	text, ok := c.raw("topics_policy")
	if !ok {
		return "", nil
	}
	if jsonEncoded {
		if err := json.Unmarshal([]byte(text), &text); err != nil {
			return "", errInvalidJSON("topics_policy")
		}
	}
	for _, p := range topicsPolicies {
		if p == text {
			return p, nil
		}
	}
	return "", errBadRequest("Invalid topics_policy")
}

// channelCreation is a POST /channels/create request as read: the channel's
// name, first subscribers, description, flags and settings.
type channelCreation struct {
	name             string
	subscribers      []int
	description      string
	flags            map[string]bool
	requestedHistory *bool
	history          bool
	retention        *int
	policy           string
	folder           *int
}

// createChannel is POST /channels/create.
func (s *Server) createChannel(c *call) (obj, error) {
	if c.user.IsGuest() {
		return nil, errBadRequest("Not allowed for guest users")
	}
	cc, err := readChannelCreation(c)
	if err != nil {
		return nil, err
	}
	settings, err := c.checkChannelCreation(cc)
	if err != nil {
		return nil, err
	}
	ch := s.addChannel(c, cc, settings)
	return obj{"id": ch.ID}, nil
}

// readChannelCreation reads POST /channels/create's parameters in Zulip's
// order, refusing a missing or malformed one and a description too long.
// The history is the requested one, or shared exactly when the channel is
// public.
func readChannelCreation(c *call) (*channelCreation, error) {
	cc := &channelCreation{flags: map[string]bool{}}
	name, err := c.reqString("name")
	if err != nil {
		return nil, err
	}
	cc.name = strings.TrimSpace(name)
	if err := c.reqJSON("subscribers", &cc.subscribers); err != nil {
		return nil, err
	}
	cc.description, _ = c.optString("description")
	if len([]rune(cc.description)) > maxChannelDescriptionLength {
		return nil, errInvalid("description is too long (limit: 1024 characters)")
	}
	for _, f := range []string{"announce", "invite_only", "is_web_public", "is_default_stream", "default_push_notifications"} {
		if cc.flags[f], err = c.optBool(f, false); err != nil {
			return nil, err
		}
	}
	if c.params.Has("history_public_to_subscribers") {
		h, err := c.optBool("history_public_to_subscribers", false)
		if err != nil {
			return nil, err
		}
		cc.requestedHistory = &h
	}
	cc.history = !cc.flags["invite_only"]
	if cc.requestedHistory != nil {
		cc.history = *cc.requestedHistory
	}
	if cc.retention, err = c.retentionParam(); err != nil {
		return nil, err
	}
	if cc.policy, err = c.topicsPolicyParam(true); err != nil {
		return nil, err
	}
	if cc.folder, err = c.folderParam(); err != nil {
		return nil, err
	}
	if _, err := c.optBool("send_new_subscription_messages", true); err != nil {
		return nil, err
	}
	return cc, nil
}

// checkChannelCreation runs POST /channels/create's checks in Zulip's order
// (topics policy, permission settings, subscribers, privacy, the caller's
// permissions, name) and returns the channel's permission settings as
// requested.
func (c *call) checkChannelCreation(cc *channelCreation) (map[string]GroupSetting, error) {
	r := c.realm()
	if err := c.checkTopicsPolicyPermission(cc.policy); err != nil {
		return nil, err
	}
	settings, err := c.channelSettingValues(cc.flags["invite_only"], cc.requestedHistory)
	if err != nil {
		return nil, err
	}
	if err := r.subscriberUsers(cc.subscribers); err != nil {
		return nil, err
	}
	if err := checkChannelPrivacy(cc.flags["invite_only"], cc.flags["is_web_public"], cc.history, false); err != nil {
		return nil, err
	}
	if err := c.checkChannelCreationPermissions(cc.flags["invite_only"], cc.flags["is_web_public"], cc.flags["is_default_stream"], cc.retention != nil); err != nil {
		return nil, err
	}
	if err := r.checkChannelName(cc.name, 0); err != nil {
		return nil, err
	}
	return settings, nil
}

// addChannel adds a checked new channel, created by the caller, with the
// permission settings not requested at their defaults and its first
// subscribers.
func (s *Server) addChannel(c *call, cc *channelCreation, settings map[string]GroupSetting) *Channel {
	r := c.realm()
	for setting, cfg := range channelPermissionConfigs {
		if _, ok := settings[setting]; !ok {
			settings[setting] = r.defaultSetting(cfg, c.user.ID)
		}
	}
	ch := &Channel{
		ID: r.newID("channel"), Name: cc.name, Description: strings.ReplaceAll(cc.description, "\n", " "),
		DateCreated: s.now().Unix(), CreatorID: c.user.ID, InviteOnly: cc.flags["invite_only"],
		IsWebPublic: cc.flags["is_web_public"], HistoryPublicToSubscribers: cc.history, IsDefault: cc.flags["is_default_stream"],
		MessageRetentionDays: cc.retention, StreamPostPolicy: 1, TopicsPolicy: cc.policy, GroupSettings: settings,
		Subscribers: map[int]int{}, FolderID: cc.folder, DefaultPushNotifications: cc.flags["default_push_notifications"],
	}
	if ch.TopicsPolicy == "" {
		ch.TopicsPolicy = "inherit"
	}
	for _, id := range cc.subscribers {
		ch.Subscribers[id] = r.newestMessageID()
	}
	r.Channels[ch.ID] = ch
	return ch
}

// subscriberUsers checks the subscribers of a new channel as
// bulk_access_users_by_id does for the view (allow_deactivated=False, bots
// allowed): an unknown or deactivated id is "No such user".
func (r *Realm) subscriberUsers(ids []int) error {
	for _, id := range ids {
		if u := r.user(id); u == nil || !u.IsActive {
			return errBadRequest("No such user")
		}
	}
	return nil
}

// checkTopicsPolicyPermission is validate_topics_policy's permission check
// (zerver/lib/streams.py): a policy other than inherit needs the
// organization's can_set_topics_policy_group.
func (c *call) checkTopicsPolicyPermission(policy string) error {
	if policy != "" && policy != "inherit" && !c.realm().hasRealmPermission("can_set_topics_policy_group", c.user) {
		return errInsufficientPermission()
	}
	return nil
}

// folderParam reads the folder_id of a new channel (nil: none, absent or
// null). An id that names no folder of the realm is refused.
func (c *call) folderParam() (folder *int, err error) {
	if !c.params.Has("folder_id") {
		return nil, nil
	}
	if _, err := c.optJSON("folder_id", &folder); err != nil {
		return nil, err
	}
	if folder != nil && c.realm().folder(*folder) == nil {
		return nil, errBadRequest("Invalid channel folder ID")
	}
	return folder, nil
}

// newestMessageID is the id of the newest message (0: none): a new
// subscriber with protected history sees only messages after it.
func (r *Realm) newestMessageID() int {
	if len(r.Messages) == 0 {
		return 0
	}
	return r.Messages[len(r.Messages)-1].ID
}

// channelSettingValues reads the permission settings of a new channel, as
// access_requested_group_permissions_for_streams (zerver/lib/streams.py)
// checks them, in Stream.stream_permission_group_settings order: a
// can_create_topic_group other than role:everyone is refused for a channel
// with protected history (history nil: the default of a private or public
// channel), and a delete-message setting other than role:nobody needs the
// organization's can_set_delete_message_policy_group.
func (c *call) channelSettingValues(private bool, history *bool) (map[string]GroupSetting, error) {
	r := c.realm()
	out := map[string]GroupSetting{}
	for _, setting := range sortedKeys(channelPermissionConfigs) {
		v, err := c.optSettingValue(setting)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		canon := r.canonicalSetting(*v)
		if setting == "can_create_topic_group" {
			protected := private // get_default_value_for_history_public_to_subscribers
			if history != nil {
				protected = !*history
			}
			if protected && !isEveryoneSetting(canon) {
				return nil, errIncompatibleParameters("history_public_to_subscribers", "can_create_topic_group")
			}
		}
		if err := c.checkSettingValue(setting, channelPermissionConfigs[setting], canon); err != nil {
			return nil, err
		}
		stored := r.storedSetting(canon)
		if channelDeleteSettings[setting] && stored.GroupID != GroupNobody && !r.hasRealmPermission("can_set_delete_message_policy_group", c.user) {
			return nil, errInsufficientPermission()
		}
		out[setting] = stored
	}
	return out, nil
}

// isEveryoneSetting reports whether a canonical setting value is the
// role:everyone group itself (an anonymous group holding it and nothing else
// is canonicalized to it; with more members it is not, as Zulip treats it).
func isEveryoneSetting(v GroupSetting) bool { return v.GroupID == GroupEveryone }

// errIncompatibleParameters is IncompatibleParametersError.
func errIncompatibleParameters(params ...string) *apiError {
	list := strings.Join(params, ", ")
	return errCode(http.StatusBadRequest, "BAD_REQUEST", "Unsupported parameter combination: "+list, obj{"parameters": list})
}

// checkChannelPrivacy is update_stream_backend's rules on the combination
// of privacy settings.
func checkChannelPrivacy(private, webPublic, history, isDefault bool) error {
	if (webPublic && !history) || (webPublic && private) || (!private && !history) {
		return errBadRequest("Invalid parameters")
	}
	if private && isDefault {
		return errBadRequest("A default channel cannot be private.")
	}
	return nil
}

// checkChannelCreationPermissions is check_channel_creation_permissions
// (zerver/lib/streams.py), in its order: the creation permission of a
// public or private channel, an administrator for a default channel, a
// default channel not private, web-public channels enabled on the server and
// in the organization and then the permission to create them, and an owner
// (on a plan that allows it) for a retention period.
func (c *call) checkChannelCreationPermissions(private, webPublic, isDefault, retention bool) error {
	r := c.realm()
	setting := "can_create_public_channel_group"
	if private {
		setting = "can_create_private_channel_group"
	}
	if !r.hasRealmPermission(setting, c.user) {
		return errInsufficientPermission()
	}
	if isDefault && !c.user.IsAdmin() {
		return errInsufficientPermission()
	}
	if private && isDefault {
		return errBadRequest("A default channel cannot be private.")
	}
	if webPublic {
		if err := c.checkWebPublicCreation(); err != nil {
			return err
		}
	}
	if retention {
		if !c.user.IsOwner() {
			return errPrincipal("owner")
		}
		if r.planType() == planLimited {
			return errPlanLimited()
		}
	}
	return nil
}

// checkWebPublicCreation is the web-public part of
// check_channel_creation_permissions and update_stream_backend: the server
// and the organization must allow web-public channels
// (Realm.web_public_streams_enabled), then the user needs
// can_create_web_public_channel_group (can_create_web_public_streams).
func (c *call) checkWebPublicCreation() error {
	if !c.s.webPublicStreamsEnabled() {
		return errBadRequest("Web-public channels are not enabled.")
	}
	if !c.realm().hasRealmPermission("can_create_web_public_channel_group", c.user) {
		return errInsufficientPermission()
	}
	return nil
}

// webPublicStreamsEnabled is Realm.web_public_streams_enabled
// (zerver/models/realms.py): the WEB_PUBLIC_STREAMS_ENABLED server setting,
// a plan other than the limited one, and enable_spectator_access.
func (s *Server) webPublicStreamsEnabled() bool {
	r := s.realm
	if !s.opts.WebPublicStreamsEnabled || r.planType() == planLimited {
		return false
	}
	return r.realmBool("enable_spectator_access")
}

// webPublicAccessEnabled is Realm.allow_web_public_streams_access
// (has_web_public_streams): web-public channels enabled, and one exists in
// get_web_public_streams_queryset, which does not exclude archived channels.
func (s *Server) webPublicAccessEnabled() bool {
	if !s.webPublicStreamsEnabled() {
		return false
	}
	for _, ch := range s.realm.Channels {
		if ch.IsWebPublic && !ch.InviteOnly && ch.HistoryPublicToSubscribers {
			return true
		}
	}
	return false
}

// accessChannelForUpdate is access_stream_for_delete_or_update_requiring_metadata_access
// (zerver/lib/streams.py, check_stream_access_for_delete_or_update_requiring_metadata_access):
// an administrator, or a member of the channel's can_administer_channel_group
// (never a guest: the setting does not allow role:everyone). Anyone else who
// has content access to the channel is told they may not administer it; the
// others, that the channel does not exist.
func (c *call) accessChannelForUpdate() (*Channel, error) {
	id, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	ch := c.realm().Channels[id]
	if ch == nil {
		return nil, errBadRequest("Invalid channel ID")
	}
	if c.user.IsAdmin() {
		return ch, nil
	}
	if !c.user.IsGuest() && c.s.channelSettingHas(ch, "can_administer_channel_group", c.user) {
		return ch, nil
	}
	if c.s.canAccessChannelContent(c.user, ch) {
		return nil, errCannotAdministerChannel()
	}
	return nil, errBadRequest("Invalid channel ID")
}

// errCannotAdministerChannel is CannotAdministerChannelError.
func errCannotAdministerChannel() *apiError {
	return errBadRequest("You do not have permission to administer this channel.")
}

// channelSettingsRequiringContentAccess is
// Stream.stream_permission_group_settings_requiring_content_access: the
// settings that grant content access, which only someone with content access
// may change.
var channelSettingsRequiringContentAccess = map[string]bool{"can_add_subscribers_group": true, "can_subscribe_group": true}

// channelUpdate is a PATCH /streams/{stream_id} request as typed_endpoint
// parses it: the privacy flags sent (nil: not sent), the retention, the
// topics policy, the group settings changed, the description, the name, the
// folder and the default for push notifications.
type channelUpdate struct {
	bools          map[string]*bool
	retentionSet   bool
	retentionValue any
	policy         string
	changes        map[string]*settingChange
	description    string
	hasDescription bool
	newName        string
	hasName        bool
	folderSet      bool
	folder         *int
	pushDefault    bool
}

// channelPrivacy is a channel's privacy as a PATCH proposes it.
type channelPrivacy struct {
	private, webPublic, history, isDefault bool
}

// updateChannel is update_stream_backend (zerver/views/streams.py). The view
// is not one transaction: after its checks on the proposed privacy it applies
// the privacy, then the default flag, the retention, unarchiving, the topics
// policy, the description, the name and the folder one after the other, each
// checked just before it is applied, and then each changed group setting in
// its own transaction. A request refused half-way keeps what was applied
// before the refusal, as on Zulip.
func (s *Server) updateChannel(c *call) (obj, error) {
	r := c.realm()
	ch, err := c.accessChannelForUpdate()
	if err != nil {
		return nil, err
	}
	u, err := c.readChannelUpdate(ch)
	if err != nil {
		return nil, err
	}
	if err := s.changeChannelPrivacy(c, ch, u); err != nil {
		return nil, err
	}
	if err := c.changeChannelDefaultAndRetention(ch, u); err != nil {
		return nil, err
	}
	// is_archived=true is not an archive (DELETE is); false unarchives.
	if b := u.bools["is_archived"]; b != nil && !*b && c.s.opts.FeatureLevel >= channelUnarchiveFL {
		if err := r.unarchiveChannel(ch); err != nil {
			return nil, err
		}
	}
	if err := c.changeChannelTopicsPolicy(ch, u.policy); err != nil {
		return nil, err
	}
	if u.hasDescription {
		ch.Description = strings.ReplaceAll(u.description, "\n", " ")
	}
	if err := r.changeChannelNameAndFolder(ch, u); err != nil {
		return nil, err
	}
	ch.DefaultPushNotifications = u.pushDefault
	if err := s.changeChannelSettings(c, ch, u.changes); err != nil {
		return nil, err
	}
	return obj{}, nil
}

// readChannelUpdate reads PATCH /streams/{stream_id}'s parameters in
// Zulip's order, refusing a malformed one and a description too long.
func (c *call) readChannelUpdate(ch *Channel) (*channelUpdate, error) {
	u := &channelUpdate{bools: map[string]*bool{}, changes: map[string]*settingChange{}}
	for _, f := range []string{"is_private", "is_web_public", "history_public_to_subscribers", "is_default_stream", "is_archived"} {
		if c.params.Has(f) {
			b, err := c.optBool(f, false)
			if err != nil {
				return nil, err
			}
			u.bools[f] = &b
		}
	}
	var err error
	if u.retentionSet, u.retentionValue, err = c.retentionRaw(); err != nil {
		return nil, err
	}
	if u.policy, err = c.topicsPolicyParam(false); err != nil {
		return nil, err
	}
	for _, setting := range sortedKeys(channelPermissionConfigs) {
		change, err := c.optSettingChange(setting)
		if err != nil {
			return nil, err
		}
		if change != nil {
			u.changes[setting] = change
		}
	}
	u.description, u.hasDescription = c.optString("description")
	if u.hasDescription && len([]rune(u.description)) > maxChannelDescriptionLength {
		return nil, errInvalid("description is too long (limit: 1024 characters)")
	}
	u.newName, u.hasName = c.optString("new_name")
	u.folderSet = c.params.Has("folder_id")
	if u.folderSet {
		if _, err := c.optJSON("folder_id", &u.folder); err != nil {
			return nil, err
		}
	}
	if u.pushDefault, err = c.optBool("default_push_notifications", ch.DefaultPushNotifications); err != nil {
		return nil, err
	}
	return u, nil
}

// proposedPrivacy is the channel's privacy after the request: each flag as
// sent or as it is; the history as sent, else shared exactly when the
// channel becomes public, else as it is.
func (u *channelUpdate) proposedPrivacy(ch *Channel) channelPrivacy {
	p := channelPrivacy{private: ch.InviteOnly, webPublic: ch.IsWebPublic, history: ch.HistoryPublicToSubscribers, isDefault: ch.IsDefault}
	if b := u.bools["is_private"]; b != nil {
		p.private = *b
	}
	if b := u.bools["is_web_public"]; b != nil {
		p.webPublic = *b
	}
	if b := u.bools["is_default_stream"]; b != nil {
		p.isDefault = *b
	}
	switch {
	case u.bools["history_public_to_subscribers"] != nil:
		p.history = *u.bools["history_public_to_subscribers"]
	case u.bools["is_private"] != nil:
		p.history = !p.private
	}
	return p
}

// privacyChanged reports whether the request sends a flag of the channel's
// privacy (is_private, is_web_public, history_public_to_subscribers).
func (u *channelUpdate) privacyChanged() bool {
	return u.bools["is_private"] != nil || u.bools["is_web_public"] != nil || u.bools["history_public_to_subscribers"] != nil
}

// changeChannelPrivacy checks the proposed privacy as a whole (its
// combination, the moderation request channel, topics under protected
// history, the caller's permissions) and applies it
// (do_change_stream_permission).
func (s *Server) changeChannelPrivacy(c *call, ch *Channel, u *channelUpdate) error {
	r := c.realm()
	p := u.proposedPrivacy(ch)
	if err := checkChannelPrivacy(p.private, p.webPublic, p.history, p.isDefault); err != nil {
		return err
	}
	if !p.private && r.ModerationRequestChannelID == ch.ID {
		return errBadRequest("Moderation request channel must be private.")
	}
	if err := s.checkProtectedHistoryTopics(r, ch, u, p.history); err != nil {
		return err
	}
	if u.bools["is_private"] != nil {
		// Changing public/private needs content access as well as
		// administering the channel.
		if !s.canAccessChannelContent(c.user, ch) {
			return errBadRequest("Channel content access is required.")
		}
		setting := "can_create_public_channel_group"
		if p.private {
			setting = "can_create_private_channel_group"
		}
		if !r.hasRealmPermission(setting, c.user) {
			return errInsufficientPermission()
		}
	}
	if b := u.bools["is_web_public"]; b != nil && *b {
		if err := c.checkWebPublicCreation(); err != nil {
			return err
		}
	}
	if u.privacyChanged() {
		ch.InviteOnly, ch.IsWebPublic, ch.HistoryPublicToSubscribers = p.private, p.webPublic, p.history
	}
	return nil
}

// checkProtectedHistoryTopics is
// validate_can_create_topic_group_setting_for_protected_history_streams: a
// channel with protected history lets everyone start topics, so neither the
// history nor the setting may be changed to break that.
func (s *Server) checkProtectedHistoryTopics(r *Realm, ch *Channel, u *channelUpdate, history bool) error {
	topicChange := u.changes["can_create_topic_group"]
	if (!u.privacyChanged() && topicChange == nil) || history {
		return nil
	}
	proposed := r.canonicalSetting(r.settingForAPI(s.channelSetting(ch, "can_create_topic_group")))
	if topicChange != nil {
		proposed = r.canonicalSetting(topicChange.New)
	}
	if !isEveryoneSetting(proposed) {
		return errIncompatibleParameters("history_public_to_subscribers", "can_create_topic_group")
	}
	return nil
}

// changeChannelDefaultAndRetention applies is_default_stream, which needs
// an administrator (can_manage_default_streams), then
// message_retention_days, which needs an owner on a plan that has it.
func (c *call) changeChannelDefaultAndRetention(ch *Channel, u *channelUpdate) error {
	if b := u.bools["is_default_stream"]; b != nil {
		if !c.user.IsAdmin() { // can_manage_default_streams
			return errBadRequest("You do not have permission to change default channels.")
		}
		ch.IsDefault = *b
	}
	if !u.retentionSet {
		return nil
	}
	if !c.user.IsOwner() {
		return errPrincipal("owner")
	}
	if c.realm().planType() == planLimited {
		return errPlanLimited()
	}
	retention, err := parseRetention(u.retentionValue)
	if err != nil {
		return err
	}
	ch.MessageRetentionDays = retention
	return nil
}

// changeChannelTopicsPolicy applies a topics policy sent (policy != ""):
// the caller needs can_set_topics_policy_group, and empty_topic_only needs
// a channel without named topics.
func (c *call) changeChannelTopicsPolicy(ch *Channel, policy string) error {
	if policy == "" {
		return nil
	}
	if err := c.checkTopicsPolicyPermission(policy); err != nil {
		return err
	}
	r := c.realm()
	if policy == "empty_topic_only" && r.channelHasNamedTopics(ch) {
		return errCannotSetTopicsPolicy(r)
	}
	ch.TopicsPolicy = policy
	return nil
}

// changeChannelNameAndFolder applies new_name, refusing the same name and
// (unless only its case changes) an invalid or taken one, then folder_id,
// refusing a folder that does not exist.
func (r *Realm) changeChannelNameAndFolder(ch *Channel, u *channelUpdate) error {
	if u.hasName {
		newName := strings.TrimSpace(u.newName)
		if newName == ch.Name {
			return errBadRequest("Channel already has that name.")
		}
		if !strings.EqualFold(newName, ch.Name) {
			if err := r.checkChannelName(newName, ch.ID); err != nil {
				return err
			}
		}
		ch.Name = newName
	}
	if u.folderSet {
		if u.folder != nil && r.folder(*u.folder) == nil {
			return errBadRequest("Invalid channel folder ID")
		}
		ch.FolderID = u.folder
	}
	return nil
}

// changeChannelSettings applies each changed group setting in its own
// transaction, in name order: a setting granting content access needs
// content access, the value must be allowed for the setting, and a delete
// setting other than nobody needs can_set_delete_message_policy_group.
func (s *Server) changeChannelSettings(c *call, ch *Channel, changes map[string]*settingChange) error {
	r := c.realm()
	for _, setting := range sortedKeys(changes) {
		changed, err := r.changedSetting(s.channelSetting(ch, setting), *changes[setting])
		if err != nil {
			return err
		}
		if !changed {
			continue
		}
		if channelSettingsRequiringContentAccess[setting] && !s.canAccessChannelContent(c.user, ch) {
			return errBadRequest("Channel content access is required.")
		}
		canon := r.canonicalSetting(changes[setting].New)
		if err := c.checkSettingValue(setting, channelPermissionConfigs[setting], canon); err != nil {
			return err
		}
		stored := r.storedSetting(canon)
		if channelDeleteSettings[setting] && stored.GroupID != GroupNobody && !r.hasRealmPermission("can_set_delete_message_policy_group", c.user) {
			return errInsufficientPermission()
		}
		ch.GroupSettings[setting] = stored
	}
	return nil
}

// unarchiveChannel is do_unarchive_stream (zerver/actions/streams.py) under
// its own name: the channel must be archived, and a private one must keep a
// subscriber (deactivated users count). A private channel that was
// web-public stops being web-public.
func (r *Realm) unarchiveChannel(ch *Channel) error {
	if !ch.IsArchived {
		return errBadRequest("Channel is not currently deactivated")
	}
	if ch.InviteOnly && len(ch.Subscribers) == 0 {
		return errBadRequest("Channel is private and have no subscribers")
	}
	ch.IsArchived = false
	if ch.InviteOnly && ch.IsWebPublic {
		ch.IsWebPublic = false
	}
	return nil
}

// channelHasNamedTopics is channel_has_named_topics: a message of the
// channel in a topic other than the empty one.
func (r *Realm) channelHasNamedTopics(ch *Channel) bool {
	for _, m := range r.Messages {
		if m.ChannelID == ch.ID && m.Topic != "" {
			return true
		}
	}
	return false
}

// errCannotSetTopicsPolicy is CannotSetTopicsPolicyError, raised with the
// empty topic's display name (get_topic_display_name("")). Its wording could
// not be read in Zulip's sources available here (zerver/lib/exceptions.py);
// see DESIGN.md.
func errCannotSetTopicsPolicy(r *Realm) *apiError {
	return errBadRequest("To enable this configuration, all messages in this channel must be in the \"%s\" topic. Consider renaming or deleting other topics.",
		r.Settings.EmptyTopicDisplayName)
}

// channelSetting is a channel's value of a setting (its default when unset).
func (s *Server) channelSetting(ch *Channel, name string) GroupSetting {
	if v, ok := ch.GroupSettings[name]; ok {
		return v
	}
	for _, d := range channelGroupSettings {
		if d.name == name {
			return GroupSetting{GroupID: d.def}
		}
	}
	return GroupSetting{}
}

// archiveChannel is deactivate_stream_backend: Zulip 10 keeps an archived
// channel's name and subscribers, and it stops being a default channel.
func (s *Server) archiveChannel(c *call) (obj, error) {
	ch, err := c.accessChannelForUpdate()
	if err != nil {
		return nil, err
	}
	if ch.IsArchived {
		return nil, errBadRequest("Channel is already deactivated")
	}
	ch.IsArchived, ch.IsDefault = true, false
	if c.realm().ModerationRequestChannelID == ch.ID {
		c.realm().ModerationRequestChannelID = -1
	}
	s.dropFromDefaultChannelGroups(ch.ID)
	return obj{}, nil
}
