// Package realmspec describes, once, the organization settings that Zulip's
// PATCH /realm accepts (their names, kinds, values, feature levels and who may
// change them, after newest Zulip's zerver/views/realm.py (update_realm) and
// zerver/models/realms.py: Realm.property_types, the defaults of its fields
// and REALM_PERMISSION_GROUP_SETTINGS), and all 41 group-setting permissions
// of the organization, a channel and a user group with who may hold each
// (permissions.go). The reference server keeps tables of its own; a test
// checks both against Zulip's raw OpenAPI description. internal/cmd/gen-realm
// generates the client's encoding and the provider's schema, model and
// mapping from this package.
package realmspec

//go:generate go run ../cmd/gen-realm -root ../..

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
	// Channel is a channel id, -1 meaning disabled: an existing channel that
	// is not archived and that the caller can see ("Invalid channel ID"),
	// private when the setting is Private.
	Channel
	// Permission is a group-setting value, sent as {new, old}.
	Permission
	// JitsiURL is a URL, or "server_default" (null in the register snapshot).
	JitsiURL
	// AuthMethods is a JSON object of authentication method names to whether
	// each is enabled; the register snapshot gives each as {enabled,
	// available, unavailable_reason} (FL243).
	AuthMethods
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
	// Plain settings of kind StringEnum go as plain text, not JSON (the
	// view declares them str: the defaults' enumerations of strings, and
	// update_realm's topics_policy and message_edit_history_visibility_policy,
	// read by parse_enum_from_string_value).
	Plain bool
	// Private Channel settings take only a private channel (-1 aside).
	Private bool
	// Sound settings take "none" or one of the server's notification sounds
	// (register's available_notification_sounds, beside the defaults).
	Sound bool
	// Values are an enumerated setting's values.
	Values []Value
	// Holders is who may hold a Permission (permissions.go).
	Holders Holders
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
	{Name: "authentication_methods", Kind: AuthMethods, Owner: true, Description: "Which ways of logging in are enabled, by " +
		"method name (`Email`, `GitHub`, `Google`, `SAML`, ...: the server's own). Only the methods named are managed; at " +
		"least one must stay enabled, and a method the server or the plan lacks cannot be enabled."},
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
	{Name: "message_edit_history_visibility_policy", Kind: StringEnum, Plain: true, FL: 358, Default: "all", Description: "Which edit history users can see.",
		Values: []Value{{Name: "all"}, {Name: "moves"}, {Name: "none"}}},
	{Name: "topics_policy", Kind: StringEnum, Plain: true, FL: 392, Default: "allow_empty_topic", Description: "Whether messages may be sent without a topic, where a channel does not say.",
		Values: []Value{{Name: "allow_empty_topic"}, {Name: "disable_empty_topic"}}},
	{Name: "message_retention_days", Kind: Retention, Owner: true, PlanLimited: true, Default: -1, Description: "How long messages are kept."},
	{Name: "enable_read_receipts", Kind: Bool, FL: 137, Default: false, Description: "Whether read receipts are available."},
	{Name: "inline_image_preview", Kind: Bool, Default: true, Description: "Whether images linked in messages are previewed."},
	{Name: "inline_url_embed_preview", Kind: Bool, Default: false, Description: "Whether web pages linked in messages are previewed."},
	{Name: "send_channel_events_messages", Kind: Bool, FL: 434, Default: false, Description: "Whether Notification Bot posts about channel events (renames, description and permission changes)."},
	{Name: "gif_rating_policy", Kind: IntEnum, FL: 453, Default: 2, Description: "The highest rating of the GIFs the GIPHY and " +
		"Tenor integrations offer (before feature level 453 the setting was named giphy_rating, which this provider does not manage).",
		Values: []Value{{"disabled", 0, ""}, {"y", 1, ""}, {"g", 2, ""}, {"pg", 3, ""}, {"pg13", 4, ""}, {"r", 5, ""}}},
	{Name: "media_preview_size", Kind: IntEnum, FL: 469, Default: 100, Description: "The height of image and video previews, in percent of the default.",
		Values: []Value{{"100", 100, ""}, {"150", 150, ""}, {"200", 200, ""}}},
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
	{Name: "moderation_request_channel_id", Kind: Channel, Private: true, FL: 331, Default: -1, Description: "The private channel where reported messages go (-1: reporting is disabled)."},

	// Permissions (REALM_PERMISSION_GROUP_SETTINGS).
	{Name: "can_access_all_users_group", Kind: Permission, Holders: Holders{SystemOnly: true, Systems: []string{"role:everyone", "role:members"}, Everyone: true}, FL: 225, Default: "role:everyone", Description: "Who can see every user of the organization (guests only when role:everyone)."},
	{Name: "can_add_custom_emoji_group", Kind: Permission, Holders: nobodyNotAll, FL: 307, Default: "role:members", Description: "Who can add custom emoji."},
	{Name: "can_add_subscribers_group", Kind: Permission, Holders: nobodyNotAll, FL: 341, Default: "role:members", Description: "Who can subscribe others to channels."},
	{Name: "can_create_bots_group", Kind: Permission, Holders: nobodyNotAll, FL: 344, Default: "role:members", Description: "Who can create any bot."},
	{Name: "can_create_groups", Kind: Permission, Holders: nobodyNotAll, FL: 299, Owner: true, PlanLimited: true, Default: "role:members", Description: "Who can create user groups."},
	{Name: "can_create_private_channel_group", Kind: Permission, Holders: nobodyNotAll, FL: 266, Default: "role:members", Description: "Who can create private channels."},
	{Name: "can_create_public_channel_group", Kind: Permission, Holders: nobodyNotAll, FL: 264, Default: "role:members", Description: "Who can create public channels."},
	{Name: "can_create_web_public_channel_group", Kind: Permission, Holders: Holders{SystemOnly: true, Systems: []string{"role:moderators", "role:administrators", "role:owners", "role:nobody"}, Nobody: true}, FL: 280, Default: "role:owners", Description: "Who can create web-public channels."},
	{Name: "can_create_write_only_bots_group", Kind: Permission, Holders: nobodyNotAll, FL: 344, Default: "role:members", Description: "Who can create bots that only send messages (incoming webhooks)."},
	{Name: "can_delete_any_message_group", Kind: Permission, Holders: nobodyNotAll, FL: 281, Default: "role:administrators", Description: "Who can delete any message."},
	{Name: "can_delete_own_message_group", Kind: Permission, Holders: nobodyOrAnyone, FL: 291, Default: "role:everyone", Description: "Who can delete their own messages."},
	{Name: "can_invite_users_group", Kind: Permission, Holders: nobodyNotAll, FL: 321, Owner: true, Default: "role:members", Description: "Who can invite users."},
	{Name: "can_manage_all_groups", Kind: Permission, Holders: Holders{}, FL: 299, Owner: true, Default: "role:owners", Description: "Who can manage every user group."},
	{Name: "can_manage_billing_group", Kind: Permission, Holders: Holders{}, FL: 363, Owner: true, Default: "role:administrators", Description: "Who can manage the plan and billing."},
	{Name: "can_mention_many_users_group", Kind: Permission, Holders: nobodyOrAnyone, FL: 352, Default: "role:administrators", Description: "Who can use wildcard mentions in large channels."},
	{Name: "can_move_messages_between_channels_group", Kind: Permission, Holders: nobodyNotAll, FL: 310, Default: "role:members", Description: "Who can move messages between channels."},
	{Name: "can_move_messages_between_topics_group", Kind: Permission, Holders: nobodyOrAnyone, FL: 316, Default: "role:everyone", Description: "Who can move messages between topics."},
	{Name: "can_resolve_topics_group", Kind: Permission, Holders: nobodyOrAnyone, FL: 367, Default: "role:everyone", Description: "Who can resolve topics."},
	{Name: "can_set_delete_message_policy_group", Kind: Permission, Holders: nobodyNotAll, FL: 407, Default: "role:moderators", Description: "Who can set channels' message deletion permissions."},
	{Name: "can_set_topics_policy_group", Kind: Permission, Holders: nobodyOrAnyone, FL: 392, Default: "role:members", Description: "Who can set channels' topics policy."},
	{Name: "can_summarize_topics_group", Kind: Permission, Holders: nobodyOrAnyone, FL: 350, Default: "role:everyone", Description: "Who can use AI summaries of topics."},
	{Name: "create_multiuse_invite_group", Kind: Permission, Holders: nobodyNotAll, FL: 209, Owner: true, Default: "role:administrators", Description: "Who can create reusable invitation links."},
	{Name: "direct_message_initiator_group", Kind: Permission, Holders: nobodyOrAnyone, FL: 270, Default: "role:everyone", Description: "Who can start direct message conversations."},
	{Name: "direct_message_permission_group", Kind: Permission, Holders: nobodyOrAnyone, FL: 270, Default: "role:everyone", Description: "Who can be in direct message conversations (one member of it must be)."},
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

// UserDefaults are the settings of PATCH /realm/user_settings_defaults: what
// new users get (RealmUserDefault.property_types, zerver/views/realm.py
// update_realm_user_settings_defaults). Zulip keeps enable_login_emails and
// enable_marketing_emails out of them on purpose, and default_language and
// allow_private_data_export are shown but cannot be set through it; the
// reaction notification settings are left out until Zulip 13.0 gives them a
// feature level. The register snapshot has
// them in realm_user_settings_defaults, by these names.
var UserDefaults = []Setting{
	// Display.
	{Name: "web_home_view", Kind: StringEnum, Plain: true, FL: 219, Default: "inbox", Description: "The view the web app opens with.",
		Values: []Value{{Name: "recent"}, {Name: "inbox"}, {Name: "all_messages"}}},
	{Name: "color_scheme", Kind: IntEnum, Default: 1, Description: "The color theme.",
		Values: []Value{{"automatic", 1, ""}, {"dark", 2, ""}, {"light", 3, ""}}},
	{Name: "emojiset", Kind: StringEnum, Plain: true, Default: "google", Description: "The emoji style.",
		Values: []Value{{Name: "google"}, {Name: "twitter"}, {Name: "text"}}},
	{Name: "twenty_four_hour_time", Kind: Bool, FL: 99, Default: false, Description: "Whether times show in 24-hour format."},
	{Name: "fluid_layout_width", Kind: Bool, Default: false, Description: "Whether the web app uses the full width of wide screens."},
	{Name: "high_contrast_mode", Kind: Bool, Default: false, Description: "Whether the web app uses high contrast."},
	{Name: "web_font_size_px", Kind: Count, FL: 245, Default: 16, Description: "The web app's font size, in pixels."},
	{Name: "web_line_height_percent", Kind: Count, FL: 245, Default: 140, Description: "The web app's line height, in percent."},
	{Name: "starred_message_counts", Kind: Bool, Default: true, Description: "Whether the number of starred messages is shown."},
	{Name: "translate_emoticons", Kind: Bool, Default: false, Description: "Whether emoticons such as :) become emoji."},
	{Name: "display_emoji_reaction_users", Kind: Bool, FL: 125, Default: true, Description: "Whether reactions show who reacted."},
	{Name: "left_side_userlist", Kind: Bool, Default: false, Description: "Whether the user list shows in the left sidebar."},
	{Name: "user_list_style", Kind: IntEnum, FL: 141, Default: 2, Description: "How the user list looks.",
		Values: []Value{{"compact", 1, ""}, {"with_status", 2, ""}, {"with_avatar_and_status", 3, ""}}},
	{Name: "demote_inactive_streams", Kind: IntEnum, Default: 1, Description: "Whether inactive channels are demoted in the left sidebar.",
		Values: []Value{{"automatic", 1, ""}, {"always", 2, ""}, {"never", 3, ""}}},
	{Name: "web_mark_read_on_scroll_policy", Kind: IntEnum, FL: 175, Default: 1, Description: "When scrolling marks messages as read.",
		Values: []Value{{"always", 1, ""}, {"conversation_views", 2, ""}, {"never", 3, ""}}},
	{Name: "web_channel_default_view", Kind: IntEnum, FL: 269, Default: 1, Description: "Where clicking a channel leads.",
		Values: []Value{{"top_topic", 1, ""}, {"channel_feed", 2, ""}, {"list_of_topics", 3, ""}, {"top_unread_topic", 4, ""}}},
	{Name: "web_animate_image_previews", Kind: StringEnum, Plain: true, FL: 275, Default: "always", Description: "When animated images play.",
		Values: []Value{{Name: "always"}, {Name: "on_hover"}, {Name: "never"}}},
	{Name: "web_stream_unreads_count_display_policy", Kind: IntEnum, FL: 210, Default: 2, Description: "Which channels show unread counts.",
		Values: []Value{{"all_channels", 1, ""}, {"unmuted_channels_and_topics", 2, ""}, {"no_channels", 3, ""}}},
	{Name: "web_escape_navigates_to_home_view", Kind: Bool, FL: 219, Default: true, Description: "Whether the Escape key leads to the home view."},
	{Name: "web_suggest_update_timezone", Kind: Bool, FL: 329, Default: true, Description: "Whether the web app offers to update the time zone."},
	{Name: "web_navigate_to_sent_message", Kind: Bool, FL: 268, Default: true, Description: "Whether sending a message leads to it."},
	{Name: "web_left_sidebar_unreads_count_summary", Kind: Bool, FL: 398, Default: true, Description: "Whether the left sidebar sums up unread counts."},
	{Name: "web_left_sidebar_show_channel_folders", Kind: Bool, FL: 411, Default: true, Description: "Whether the left sidebar groups channels by folder."},
	{Name: "web_inbox_show_channel_folders", Kind: Bool, FL: 431, Default: true, Description: "Whether the inbox groups channels by folder."},
	{Name: "hide_ai_features", Kind: Bool, FL: 350, Default: false, Description: "Whether AI features are hidden."},

	// Notifications.
	{Name: "enable_stream_desktop_notifications", Kind: Bool, Default: false, Description: "Desktop notifications for channel messages."},
	{Name: "enable_stream_email_notifications", Kind: Bool, Default: false, Description: "E-mail notifications for channel messages."},
	{Name: "enable_stream_push_notifications", Kind: Bool, Default: false, Description: "Mobile notifications for channel messages."},
	{Name: "enable_stream_audible_notifications", Kind: Bool, Default: false, Description: "Sounds for channel messages."},
	{Name: "enable_followed_topic_desktop_notifications", Kind: Bool, FL: 189, Default: true, Description: "Desktop notifications for followed topics."},
	{Name: "enable_followed_topic_email_notifications", Kind: Bool, FL: 189, Default: true, Description: "E-mail notifications for followed topics."},
	{Name: "enable_followed_topic_push_notifications", Kind: Bool, FL: 189, Default: true, Description: "Mobile notifications for followed topics."},
	{Name: "enable_followed_topic_audible_notifications", Kind: Bool, FL: 189, Default: true, Description: "Sounds for followed topics."},
	{Name: "enable_followed_topic_wildcard_mentions_notify", Kind: Bool, FL: 189, Default: true, Description: "Notifications for wildcard mentions in followed topics."},
	{Name: "enable_desktop_notifications", Kind: Bool, Default: true, Description: "Desktop notifications for direct messages and mentions."},
	{Name: "enable_sounds", Kind: Bool, Default: true, Description: "Sounds for direct messages and mentions."},
	{Name: "enable_offline_email_notifications", Kind: Bool, Default: true, Description: "E-mail notifications for direct messages and mentions."},
	{Name: "enable_offline_push_notifications", Kind: Bool, Default: true, Description: "Mobile notifications when offline."},
	{Name: "enable_online_push_notifications", Kind: Bool, Default: true, Description: "Mobile notifications when online."},
	{Name: "wildcard_mentions_notify", Kind: Bool, Default: true, Description: "Whether wildcard mentions notify as mentions do."},
	{Name: "notification_sound", Kind: Text, Sound: true, Default: "zulip", Description: "The notification sound (one of the server's sounds, or none)."},
	{Name: "desktop_icon_count_display", Kind: IntEnum, Default: 1, Description: "What the desktop icon's count counts.",
		Values: []Value{{"all_unreads", 1, ""}, {"dms_mentions_followed_topics", 2, ""}, {"dms_mentions", 3, ""}, {"none", 4, ""}}},
	{Name: "pm_content_in_desktop_notifications", Kind: Bool, Default: true, Description: "Whether desktop notifications show direct messages' content."},
	{Name: "message_content_in_email_notifications", Kind: Bool, Default: true, Description: "Whether e-mail notifications show the messages' content."},
	{Name: "realm_name_in_email_notifications_policy", Kind: IntEnum, FL: 168, Default: 1, Description: "Whether e-mail notifications name the organization.",
		Values: []Value{{"automatic", 1, ""}, {"always", 2, ""}, {"never", 3, ""}}},
	{Name: "email_notifications_batching_period_seconds", Kind: Count, Default: 120, Description: "How long e-mail notifications wait to be sent together, in seconds."},
	{Name: "enable_digest_emails", Kind: Bool, Default: true, Description: "Whether the user gets digest e-mails."},
	{Name: "enable_drafts_synchronization", Kind: Bool, Default: true, Description: "Whether drafts are kept on the server."},
	{Name: "automatically_follow_topics_policy", Kind: IntEnum, FL: 214, Default: 3, Description: "Which topics are followed automatically.",
		Values: []Value{{"participation", 1, ""}, {"send", 2, ""}, {"initiation", 3, ""}, {"never", 4, ""}}},
	{Name: "automatically_unmute_topics_in_muted_streams_policy", Kind: IntEnum, FL: 214, Default: 2, Description: "Which topics of muted channels are unmuted automatically.",
		Values: []Value{{"participation", 1, ""}, {"send", 2, ""}, {"initiation", 3, ""}, {"never", 4, ""}}},
	{Name: "automatically_follow_topics_where_mentioned", Kind: Bool, FL: 235, Default: true, Description: "Whether topics one is mentioned in are followed."},
	{Name: "resolved_topic_notice_auto_read_policy", Kind: StringEnum, Plain: true, FL: 385, Default: "except_followed", Description: "When notices of resolved topics are marked as read.",
		Values: []Value{{Name: "always"}, {Name: "except_followed"}, {Name: "never"}}},

	// Privacy and input.
	{Name: "presence_enabled", Kind: Bool, Default: true, Description: "Whether others can see the user's availability."},
	{Name: "enter_sends", Kind: Bool, Default: false, Description: "Whether Enter sends a message."},
	{Name: "receives_typing_notifications", Kind: Bool, FL: 253, Default: true, Description: "Whether others' typing is shown."},
	{Name: "send_private_typing_notifications", Kind: Bool, FL: 105, Default: true, Description: "Whether typing in direct messages is shown to others."},
	{Name: "send_stream_typing_notifications", Kind: Bool, FL: 105, Default: true, Description: "Whether typing in channels is shown to others."},
	{Name: "send_read_receipts", Kind: Bool, FL: 105, Default: true, Description: "Whether others can see that the user read their messages."},
	{Name: "email_address_visibility", Kind: IntEnum, FL: 163, Default: 1, Description: "Who can see the user's real e-mail address.",
		Values: []Value{{"everyone", 1, ""}, {"members", 2, ""}, {"administrators", 3, ""}, {"nobody", 4, ""}, {"moderators", 5, ""}}},
}

// zulipMajors are the first feature level of each Zulip major version, newest
// first (from the "New in Zulip X (feature level N)" notes of Zulip's API
// description).
var zulipMajors = []struct {
	level   int
	version string
}{
	{498, "Zulip 13.0"}, {421, "Zulip 12.0"}, {378, "Zulip 11.0"}, {279, "Zulip 10.0"}, {238, "Zulip 9.0"},
	{186, "Zulip 8.0"}, {155, "Zulip 7.0"}, {115, "Zulip 6.0"}, {65, "Zulip 5.0"}, {27, "Zulip 4.0"},
}

// ZulipVersion names the Zulip version that introduced a feature level.
func ZulipVersion(level int) string {
	for _, m := range zulipMajors {
		if level >= m.level {
			return m.version
		}
	}
	return "Zulip 3.0"
}
