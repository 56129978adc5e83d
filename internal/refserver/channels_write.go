package refserver

import (
	"encoding/json"
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
		s.handle("POST /channels/create", authUser, withEvents(s.createChannel, s.emitChannelCreated))
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

// retentionParam reads message_retention_days: "realm_default" (nil),
// "unlimited" (-1) or a positive number of days (parse_message_retention_days).
func (c *call) retentionParam() (set bool, days *int, err error) {
	text, ok := c.raw("message_retention_days")
	if !ok {
		return false, nil, nil
	}
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return true, nil, errInvalidJSON("message_retention_days")
	}
	switch x := v.(type) {
	case string:
		switch x {
		case "realm_default":
			return true, nil, nil
		case "unlimited":
			unlimited := -1
			return true, &unlimited, nil
		}
		return true, nil, errBadRequest("Bad value for 'message_retention_days': %s", x)
	case float64:
		if x != float64(int(x)) || x <= 0 {
			return true, nil, errBadRequest("Bad value for 'message_retention_days': %s", strconv.FormatFloat(x, 'f', -1, 64))
		}
		n := int(x)
		return true, &n, nil
	}
	return true, nil, errInvalid("message_retention_days is not valid")
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

// createChannel is POST /channels/create.
func (s *Server) createChannel(c *call) (obj, error) {
	r := c.realm()
	if c.user.IsGuest() {
		return nil, errBadRequest("Not allowed for guest users")
	}
	name, err := c.reqString("name")
	if err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	var subscribers []int
	if err := c.reqJSON("subscribers", &subscribers); err != nil {
		return nil, err
	}
	description, _ := c.optString("description")
	if len([]rune(description)) > maxChannelDescriptionLength {
		return nil, errInvalid("description is too long (limit: 1024 characters)")
	}
	flags := map[string]bool{}
	for _, f := range []string{"announce", "invite_only", "is_web_public", "is_default_stream", "default_push_notifications"} {
		if flags[f], err = c.optBool(f, false); err != nil {
			return nil, err
		}
	}
	history := !flags["invite_only"]
	if c.params.Has("history_public_to_subscribers") {
		if history, err = c.optBool("history_public_to_subscribers", history); err != nil {
			return nil, err
		}
	}
	retentionSet, retention, err := c.retentionParam()
	if err != nil {
		return nil, err
	}
	policy, err := c.topicsPolicyParam(true)
	if err != nil {
		return nil, err
	}
	_, folder, err := c.folderParam()
	if err != nil {
		return nil, err
	}
	if _, err := c.optBool("send_new_subscription_messages", true); err != nil {
		return nil, err
	}
	settings, err := c.channelSettingValues()
	if err != nil {
		return nil, err
	}
	if err := r.activeUsers(subscribers); err != nil {
		return nil, err
	}
	if err := checkChannelPrivacy(flags["invite_only"], flags["is_web_public"], history, flags["is_default_stream"]); err != nil {
		return nil, err
	}
	if err := c.checkChannelCreation(flags["invite_only"], flags["is_web_public"]); err != nil {
		return nil, err
	}
	if retentionSet && !c.user.IsOwner() {
		return nil, errPrincipal("owner")
	}
	if err := r.checkChannelName(name, 0); err != nil {
		return nil, err
	}
	for setting, cfg := range channelPermissionConfigs {
		if _, ok := settings[setting]; !ok {
			settings[setting] = r.defaultSetting(cfg, c.user.ID)
		}
	}
	ch := &Channel{
		ID: r.newID("channel"), Name: name, Description: strings.ReplaceAll(description, "\n", " "),
		DateCreated: s.now().Unix(), CreatorID: c.user.ID, InviteOnly: flags["invite_only"],
		IsWebPublic: flags["is_web_public"], HistoryPublicToSubscribers: history, IsDefault: flags["is_default_stream"],
		MessageRetentionDays: retention, StreamPostPolicy: 1, TopicsPolicy: policy, GroupSettings: settings,
		Subscribers: map[int]int{}, FolderID: folder, DefaultPushNotifications: flags["default_push_notifications"],
	}
	if ch.TopicsPolicy == "" {
		ch.TopicsPolicy = "inherit"
	}
	for _, id := range subscribers {
		ch.Subscribers[id] = r.newestMessageID()
	}
	r.Channels[ch.ID] = ch
	return obj{"id": ch.ID}, nil
}

// folderParam reads folder_id: set reports whether it was given, folder is
// the folder (nil: none, with null). An id that names no folder of the realm
// is refused.
func (c *call) folderParam() (set bool, folder *int, err error) {
	if !c.params.Has("folder_id") {
		return false, nil, nil
	}
	if _, err := c.optJSON("folder_id", &folder); err != nil {
		return true, nil, err
	}
	if folder != nil && c.realm().folder(*folder) == nil {
		return true, nil, errBadRequest("Invalid channel folder ID")
	}
	return true, folder, nil
}

// newestMessageID is the id of the newest message (0: none): a new
// subscriber with protected history sees only messages after it.
func (r *Realm) newestMessageID() int {
	if len(r.Messages) == 0 {
		return 0
	}
	return r.Messages[len(r.Messages)-1].ID
}

// channelSettingValues reads the permission settings of a new channel.
func (c *call) channelSettingValues() (map[string]GroupSetting, error) {
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
		if err := c.checkSettingValue(setting, channelPermissionConfigs[setting], canon); err != nil {
			return nil, err
		}
		if channelDeleteSettings[setting] && !r.hasRealmPermission("can_set_delete_message_policy_group", c.user) {
			return nil, errInsufficientPermission()
		}
		out[setting] = r.storedSetting(canon)
	}
	return out, nil
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

// checkChannelCreation is the creation permission of a channel of a kind:
// can_create_{private,public,web_public}_channel_group.
func (c *call) checkChannelCreation(private, webPublic bool) error {
	r := c.realm()
	setting := "can_create_public_channel_group"
	if private {
		setting = "can_create_private_channel_group"
	}
	if !r.hasRealmPermission(setting, c.user) {
		return errInsufficientPermission()
	}
	if webPublic && !r.hasRealmPermission("can_create_web_public_channel_group", c.user) {
		return errInsufficientPermission()
	}
	return nil
}

// accessChannelForUpdate is access_stream_for_delete_or_update_requiring_metadata_access:
// an administrator, or a member of the channel's can_administer_channel_group
// with metadata access.
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
	if c.s.canAccessChannelMetadata(c.user, ch) && c.s.channelSettingHas(ch, "can_administer_channel_group", c.user) && !c.user.IsGuest() {
		return ch, nil
	}
	if !c.s.canAccessChannelMetadata(c.user, ch) {
		return nil, errBadRequest("Invalid channel ID")
	}
	return nil, errInsufficientPermission()
}

// updateChannel is update_stream_backend.
func (s *Server) updateChannel(c *call) (obj, error) {
	r := c.realm()
	ch, err := c.accessChannelForUpdate()
	if err != nil {
		return nil, err
	}
	bools := map[string]*bool{}
	for _, f := range []string{"is_private", "is_web_public", "history_public_to_subscribers", "is_default_stream", "is_archived"} {
		if c.params.Has(f) {
			b, err := c.optBool(f, false)
			if err != nil {
				return nil, err
			}
			bools[f] = &b
		}
	}
	retentionSet, retention, err := c.retentionParam()
	if err != nil {
		return nil, err
	}
	policy, err := c.topicsPolicyParam(false)
	if err != nil {
		return nil, err
	}
	changes := map[string]*settingChange{}
	for _, setting := range sortedKeys(channelPermissionConfigs) {
		ch, err := c.optSettingChange(setting)
		if err != nil {
			return nil, err
		}
		if ch != nil {
			changes[setting] = ch
		}
	}
	description, hasDescription := c.optString("description")
	newName, hasName := c.optString("new_name")
	folderSet, folder, err := c.folderParam()
	if err != nil {
		return nil, err
	}
	pushDefault, err := c.optBool("default_push_notifications", ch.DefaultPushNotifications)
	if err != nil {
		return nil, err
	}

	private, webPublic, isDefault := ch.InviteOnly, ch.IsWebPublic, ch.IsDefault
	if b := bools["is_private"]; b != nil {
		private = *b
	}
	if b := bools["is_web_public"]; b != nil {
		webPublic = *b
	}
	if b := bools["is_default_stream"]; b != nil {
		isDefault = *b
	}
	history := ch.HistoryPublicToSubscribers
	switch {
	case bools["history_public_to_subscribers"] != nil:
		history = *bools["history_public_to_subscribers"]
	case bools["is_private"] != nil:
		history = !private
	}
	if err := checkChannelPrivacy(private, webPublic, history, isDefault); err != nil {
		return nil, err
	}
	if !private && r.ModerationRequestChannelID == ch.ID {
		return nil, errBadRequest("Moderation request channel must be private.")
	}
	if bools["is_private"] != nil {
		if !s.canAccessChannelContent(c.user, ch) {
			return nil, errBadRequest("Channel content access is required.")
		}
		if err := c.checkChannelCreation(private, false); err != nil {
			return nil, err
		}
	}
	if webPublic && bools["is_web_public"] != nil && *bools["is_web_public"] {
		if err := c.checkChannelCreation(false, true); err != nil {
			return nil, err
		}
	}
	if bools["is_default_stream"] != nil && !c.user.IsAdmin() {
		return nil, errBadRequest("You do not have permission to change default channels.")
	}
	if retentionSet && !c.user.IsOwner() {
		return nil, errPrincipal("owner")
	}
	if hasDescription && len([]rune(description)) > maxChannelDescriptionLength {
		return nil, errInvalid("description is too long (limit: 1024 characters)")
	}
	if hasName {
		newName = strings.TrimSpace(newName)
		if newName == ch.Name {
			return nil, errBadRequest("Channel already has that name.")
		}
		if !strings.EqualFold(newName, ch.Name) {
			if err := r.checkChannelName(newName, ch.ID); err != nil {
				return nil, err
			}
		}
	}
	for _, setting := range sortedKeys(changes) {
		changed, err := r.changedSetting(s.channelSetting(ch, setting), *changes[setting])
		if err != nil {
			return nil, err
		}
		if !changed {
			delete(changes, setting)
			continue
		}
		canon := r.canonicalSetting(changes[setting].New)
		if err := c.checkSettingValue(setting, channelPermissionConfigs[setting], canon); err != nil {
			return nil, err
		}
		if channelDeleteSettings[setting] && !r.hasRealmPermission("can_set_delete_message_policy_group", c.user) {
			return nil, errInsufficientPermission()
		}
	}

	// Everything is checked: apply (Zulip's view is one transaction).
	ch.InviteOnly, ch.IsWebPublic, ch.HistoryPublicToSubscribers, ch.IsDefault = private, webPublic, history, isDefault
	if retentionSet {
		ch.MessageRetentionDays = retention
	}
	if b := bools["is_archived"]; b != nil && !*b && c.s.opts.FeatureLevel >= channelUnarchiveFL {
		ch.IsArchived = false
	}
	if policy != "" {
		ch.TopicsPolicy = policy
	}
	if hasDescription {
		ch.Description = strings.ReplaceAll(description, "\n", " ")
	}
	if hasName {
		ch.Name = newName
	}
	if folderSet {
		ch.FolderID = folder
	}
	ch.DefaultPushNotifications = pushDefault
	for setting, change := range changes {
		ch.GroupSettings[setting] = r.storedSetting(r.canonicalSetting(change.New))
	}
	return obj{}, nil
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
	return obj{}, nil
}
