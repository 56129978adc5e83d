// Package realmspec describes, once, the organization settings that Zulip's
// PATCH /realm accepts: their names, kinds, values, feature levels and who may
// change them, after newest Zulip's zerver/views/realm.py (update_realm) and
// zerver/models/realms.py (Realm.property_types, the defaults of its fields
// and REALM_PERMISSION_GROUP_SETTINGS). The reference server validates and
// serves the settings from this table, and internal/cmd/gen-realm generates
// the client's encoding and the provider's schema, model and mapping from it.
package realmspec

// Kind is how a setting is typed in the API and in Terraform.
type Kind int

// The kinds of settings.
const (
	// Bool is a JSON-encoded boolean.
	Bool Kind = iota
	// Text is a plain string of at most MaxLength characters (0: no limit).
	Text
	// Language is a language code the server knows (default_language).
	Language
	// IntEnum is an integer code on the wire; Terraform spells it by name.
	IntEnum
	// StringEnum is a JSON-encoded string on the wire; Terraform spells it by
	// name (Value.Wire, when set, is what the wire carries instead).
	StringEnum
	// Count is a non-negative integer.
	Count
	// Limit is a number of seconds or "unlimited" (null in the register snapshot).
	Limit
	// Retention is a number of days or "unlimited" (-1 in the register snapshot).
	Retention
	// Channel is a channel id, -1 meaning disabled.
	Channel
	// Permission is a group-setting value, sent as {new, old}.
	Permission
	// JitsiURL is a URL, or "server_default" (null in the register snapshot).
	JitsiURL
)

// Value is one value of an enumerated setting.
type Value struct {
	// Name is how Terraform spells the value.
	Name string
	// Code is the integer on the wire (IntEnum).
	Code int
	// Wire is the string on the wire when it differs from Name (StringEnum).
	Wire string
}

// WireString is the string a StringEnum value has on the wire.
func (v Value) WireString() string {
	if v.Wire != "" {
		return v.Wire
	}
	return v.Name
}

// Setting is one organization setting.
type Setting struct {
	// Name is the PATCH /realm parameter and the Terraform attribute.
	Name string
	// Kind says how it is typed.
	Kind Kind
	// FL is the feature level that added it (0: every server this project supports).
	FL int
	// Owner settings need an organization owner (OrganizationOwnerRequiredError).
	Owner bool
	// PlanLimited settings are refused on a limited (Zulip Cloud Free) plan
	// (Realm.ensure_not_on_limited_plan).
	PlanLimited bool
	// Values are an enumerated setting's values.
	Values []Value
	// MaxLength bounds a Text setting, in characters.
	MaxLength int
	// Default is a new organization's value, in the register snapshot's form
	// (a group name for a Permission).
	Default any
	// Description is the documentation's sentence, without the rules the
	// generator adds (values, feature level, role).
	Description string
}

// Register is the register snapshot's key for the setting.
func (s Setting) Register() string { return "realm_" + s.Name }

// Settings are the settings of PATCH /realm, in the order the documentation
// lists them: the organization's profile, then its rules, then its
// permissions.
var Settings = []Setting{
	// Profile.
	{Name: "name", Kind: Text, MaxLength: 40, Description: "The organization's name."},
	{Name: "description", Kind: Text, MaxLength: 1000, Default: "", Description: "The organization's description (Zulip Markdown), shown on its login and registration pages."},
	{Name: "org_type", Kind: IntEnum, FL: 128, Default: 0, Description: "The organization type.", Values: []Value{
		{"unspecified", 0, ""}, {"business", 10, ""}, {"open_source", 20, ""}, {"education_nonprofit", 30, ""},
		{"education", 35, ""}, {"research", 40, ""}, {"event", 50, ""}, {"nonprofit", 60, ""}, {"government", 70, ""},
		{"political_group", 80, ""}, {"community", 90, ""}, {"personal", 100, ""}, {"other", 1000, ""}}},
	{Name: "default_language", Kind: Language, Default: "en", Description: "The organization language, for automated messages and invitation e-mails."},
	{Name: "want_advertise_in_communities_directory", Kind: Bool, FL: 129, Default: false, Description: "Whether the organization may be listed in the Zulip communities directory."},
	{Name: "welcome_message_custom_text", Kind: Text, FL: 416, MaxLength: 8000, Default: "", Description: "The custom text (Zulip Markdown) Welcome Bot sends new users."},
	{Name: "default_code_block_language", Kind: Text, FL: 195, Default: "", Description: "The language of code blocks that name none (empty: none)."},

	// Joining.
	{Name: "invite_required", Kind: Bool, Owner: true, Default: true, Description: "Whether joining needs an invitation."},
	{Name: "emails_restricted_to_domains", Kind: Bool, Owner: true, Default: false, Description: "Whether new users' e-mail addresses must be in the organization's allowed domains (zulip_allowed_domain)."},
	{Name: "disallow_disposable_email_addresses", Kind: Bool, Owner: true, Default: true, Description: "Whether disposable e-mail addresses are refused."},
	{Name: "waiting_period_threshold", Kind: Count, Owner: true, Default: 0, Description: "How many days a new member waits before becoming a full member."},
	{Name: "send_welcome_emails", Kind: Bool, Default: true, Description: "Whether new users get welcome e-mails."},
	{Name: "require_unique_names", Kind: Bool, FL: 246, Default: false, Description: "Whether users' names must be unique."},
	{Name: "name_changes_disabled", Kind: Bool, Default: false, Description: "Whether users may not change their names."},
	{Name: "email_changes_disabled", Kind: Bool, Default: false, Description: "Whether users may not change their e-mail addresses."},
	{Name: "avatar_changes_disabled", Kind: Bool, Default: false, Description: "Whether users may not change their avatars."},
	{Name: "enable_spectator_access", Kind: Bool, FL: 109, PlanLimited: true, Default: false, Description: "Whether web-public channels can be read without logging in."},

	// Messages.
	{Name: "allow_message_editing", Kind: Bool, Default: true, Description: "Whether users may edit their messages."},
	{Name: "message_content_edit_limit_seconds", Kind: Limit, FL: 138, Default: 600, Description: "How long after sending a message its content may be edited."},
	{Name: "message_content_delete_limit_seconds", Kind: Limit, FL: 100, Default: 600, Description: "How long after sending a message its sender may delete it."},
	{Name: "move_messages_within_stream_limit_seconds", Kind: Limit, FL: 162, Default: 604800, Description: "How long after sending a message users who are not moderators may move it to another topic."},
	{Name: "move_messages_between_streams_limit_seconds", Kind: Limit, FL: 162, Default: 604800, Description: "How long after sending a message users who are not moderators may move it to another channel."},
	{Name: "message_edit_history_visibility_policy", Kind: StringEnum, FL: 358, Default: "all", Description: "Which edit history users can see.",
		Values: []Value{{Name: "all"}, {Name: "moves"}, {Name: "none"}}},
	{Name: "topics_policy", Kind: StringEnum, FL: 392, Default: "allow_empty_topic", Description: "Whether messages may be sent without a topic, where a channel does not say.",
		Values: []Value{{Name: "allow_empty_topic"}, {Name: "disable_empty_topic"}}},
	{Name: "message_retention_days", Kind: Retention, Owner: true, PlanLimited: true, Default: -1, Description: "How long messages are kept."},
	{Name: "enable_read_receipts", Kind: Bool, FL: 137, Default: false, Description: "Whether read receipts are available."},
	{Name: "inline_image_preview", Kind: Bool, Default: true, Description: "Whether images linked in messages are previewed."},
	{Name: "inline_url_embed_preview", Kind: Bool, Default: false, Description: "Whether web pages linked in messages are previewed."},
	{Name: "send_channel_events_messages", Kind: Bool, FL: 434, Default: false, Description: "Whether Notification Bot posts about channel events (renames, description and permission changes)."},
	{Name: "enable_guest_user_indicator", Kind: Bool, FL: 216, Default: true, Description: "Whether guests' names are marked \"(guest)\"."},
	{Name: "enable_guest_user_dm_warning", Kind: Bool, FL: 348, Default: true, Description: "Whether users are warned when a direct message has a guest recipient."},

	// Notifications and integrations.
	{Name: "digest_emails_enabled", Kind: Bool, Default: false, Description: "Whether inactive users get digest e-mails."},
	{Name: "digest_weekday", Kind: IntEnum, Default: 1, Description: "The day digest e-mails are sent.", Values: []Value{
		{"monday", 0, ""}, {"tuesday", 1, ""}, {"wednesday", 2, ""}, {"thursday", 3, ""}, {"friday", 4, ""}, {"saturday", 5, ""}, {"sunday", 6, ""}}},
	{Name: "message_content_allowed_in_email_notifications", Kind: Bool, Default: true, Description: "Whether message content appears in e-mail notifications."},
	{Name: "require_e2ee_push_notifications", Kind: Bool, FL: 409, Default: false, Description: "Whether mobile push notifications are sent only end-to-end encrypted."},
	{Name: "video_chat_provider", Kind: IntEnum, Default: 1, Description: "The video call provider. Zoom and BigBlueButton need the server's configuration.", Values: []Value{
		{"none", 0, ""}, {"jitsi_meet", 1, ""}, {"zoom", 3, ""}, {"big_blue_button", 4, ""}, {"zoom_server_to_server", 5, ""},
		{"constructor_groups", 6, ""}, {"nextcloud_talk", 7, ""}, {"webex", 8, ""}}},
	{Name: "jitsi_server_url", Kind: JitsiURL, FL: 212, Default: nil, Description: "The Jitsi Meet server of the organization's calls, or `server_default` for the server's."},
	{Name: "new_stream_announcements_stream_id", Kind: Channel, FL: 241, Default: 1, Description: "The channel where new channels are announced (-1: none)."},
	{Name: "signup_announcements_stream_id", Kind: Channel, FL: 241, Default: 1, Description: "The channel where new users are announced (-1: none)."},
	{Name: "zulip_update_announcements_stream_id", Kind: Channel, FL: 242, Default: -1, Description: "The channel where Zulip's own update announcements are posted (-1: none)."},
	{Name: "moderation_request_channel_id", Kind: Channel, FL: 331, Default: -1, Description: "The private channel where reported messages go (-1: reporting is disabled)."},

	// Permissions (REALM_PERMISSION_GROUP_SETTINGS).
	{Name: "can_access_all_users_group", Kind: Permission, FL: 225, Default: "role:everyone", Description: "Who can see every user of the organization (guests only when role:everyone)."},
	{Name: "can_add_custom_emoji_group", Kind: Permission, FL: 307, Default: "role:members", Description: "Who can add custom emoji."},
	{Name: "can_add_subscribers_group", Kind: Permission, FL: 341, Default: "role:members", Description: "Who can subscribe others to channels."},
	{Name: "can_create_bots_group", Kind: Permission, FL: 344, Default: "role:members", Description: "Who can create any bot."},
	{Name: "can_create_groups", Kind: Permission, FL: 299, Owner: true, PlanLimited: true, Default: "role:members", Description: "Who can create user groups."},
	{Name: "can_create_private_channel_group", Kind: Permission, FL: 266, Default: "role:members", Description: "Who can create private channels."},
	{Name: "can_create_public_channel_group", Kind: Permission, FL: 264, Default: "role:members", Description: "Who can create public channels."},
	{Name: "can_create_web_public_channel_group", Kind: Permission, FL: 280, Default: "role:owners", Description: "Who can create web-public channels."},
	{Name: "can_create_write_only_bots_group", Kind: Permission, FL: 344, Default: "role:members", Description: "Who can create bots that only send messages (incoming webhooks)."},
	{Name: "can_delete_any_message_group", Kind: Permission, FL: 281, Default: "role:administrators", Description: "Who can delete any message."},
	{Name: "can_delete_own_message_group", Kind: Permission, FL: 291, Default: "role:everyone", Description: "Who can delete their own messages."},
	{Name: "can_invite_users_group", Kind: Permission, FL: 321, Owner: true, Default: "role:members", Description: "Who can invite users."},
	{Name: "can_manage_all_groups", Kind: Permission, FL: 299, Owner: true, Default: "role:owners", Description: "Who can manage every user group."},
	{Name: "can_manage_billing_group", Kind: Permission, FL: 363, Owner: true, Default: "role:administrators", Description: "Who can manage the plan and billing."},
	{Name: "can_mention_many_users_group", Kind: Permission, FL: 352, Default: "role:administrators", Description: "Who can use wildcard mentions in large channels."},
	{Name: "can_move_messages_between_channels_group", Kind: Permission, FL: 310, Default: "role:members", Description: "Who can move messages between channels."},
	{Name: "can_move_messages_between_topics_group", Kind: Permission, FL: 316, Default: "role:everyone", Description: "Who can move messages between topics."},
	{Name: "can_resolve_topics_group", Kind: Permission, FL: 367, Default: "role:everyone", Description: "Who can resolve topics."},
	{Name: "can_set_delete_message_policy_group", Kind: Permission, FL: 407, Default: "role:moderators", Description: "Who can set channels' message deletion permissions."},
	{Name: "can_set_topics_policy_group", Kind: Permission, FL: 392, Default: "role:members", Description: "Who can set channels' topics policy."},
	{Name: "can_summarize_topics_group", Kind: Permission, FL: 350, Default: "role:everyone", Description: "Who can use AI summaries of topics."},
	{Name: "create_multiuse_invite_group", Kind: Permission, FL: 209, Owner: true, Default: "role:administrators", Description: "Who can create reusable invitation links."},
	{Name: "direct_message_initiator_group", Kind: Permission, FL: 270, Default: "role:everyone", Description: "Who can start direct message conversations."},
	{Name: "direct_message_permission_group", Kind: Permission, FL: 270, Default: "role:everyone", Description: "Who can be in direct message conversations (one member of it must be)."},
}

// ByName returns the setting of a name.
func ByName(name string) (Setting, bool) {
	for _, s := range Settings {
		if s.Name == name {
			return s, true
		}
	}
	return Setting{}, false
}
