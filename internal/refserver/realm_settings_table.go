package refserver

// The server's own table of the organization's settings: what newest Zulip's
// zerver/views/realm.py update_realm and update_realm_user_settings_defaults
// accept, and the register snapshot's realm_* and
// realm_user_settings_defaults keys. It is the server's, not
// internal/realmspec's (which generates the client and the provider), so
// that a wrong entry there is caught here rather than shared;
// TestRealmTables_documented checks both against Zulip's raw newest
// description.

// settingKind is how a setting is typed in the view.
type settingKind int

// The kinds of settings.
const (
	kindBool        settingKind = iota // Json[bool]
	kindText                           // str, at most MaxLength characters (StringConstraints)
	kindLanguage                       // str, one of get_available_language_codes()
	kindIntEnum                        // Json[int] (or an IntEnum), one of Values' codes
	kindStringEnum                     // a value's name; Plain: str, else Json[str]
	kindCount                          // Json[NonNegativeInt]
	kindLimit                          // Json[int | str]: seconds or "unlimited" (null in the register snapshot)
	kindRetention                      // Json[int | str]: days or "unlimited" (-1 in the register snapshot)
	kindChannel                        // Json[int]: a channel id, -1 for none
	kindPermission                     // Json[GroupSettingChangeRequest]
	kindJitsiURL                       // Json[str]: a URL or "server_default" (null in the register snapshot)
	kindAuthMethods                    // Json[dict[str, Any]]
)

// settingValue is one value of an enumerated setting: its name (the string
// on the wire of a kindStringEnum, a label otherwise) and its code (the
// integer on the wire of a kindIntEnum; the stored enum value of a
// kindStringEnum, which update_realm's answer carries).
type settingValue struct {
	Name string
	Code int
}

// realmSetting is one setting.
type realmSetting struct {
	Name        string
	Kind        settingKind
	FL          int  // the feature level that added it (0: older than any this server serves)
	Owner       bool // OrganizationOwnerRequiredError for an administrator
	PlanLimited bool // ensure_not_on_limited_plan
	Plain       bool // a kindStringEnum the view declares str, not Json[str]
	Private     bool // a kindChannel that takes only private channels
	Values      []settingValue
	MaxLength   int
	Default     any // a new organization's value, in the register snapshot's form (a group name for a permission)
}

// code is an enumerated value's code by name (kindStringEnum), and whether
// it is one.
func (sp realmSetting) code(name string) (int, bool) {
	for _, v := range sp.Values {
		if v.Name == name {
			return v.Code, true
		}
	}
	return 0, false
}

// realmSettings are update_realm's parameters, in the order of its signature
// (pydantic reports the first bad one in that order): alphabetical, then
// welcome_message_custom_text.
var realmSettings = []realmSetting{
	{Name: "allow_message_editing", Kind: kindBool, Default: true},
	{Name: "authentication_methods", Kind: kindAuthMethods, Owner: true},
	{Name: "avatar_changes_disabled", Kind: kindBool, Default: false},
	{Name: "can_access_all_users_group", Kind: kindPermission, FL: 225, Default: "role:everyone"},
	{Name: "can_add_custom_emoji_group", Kind: kindPermission, FL: 307, Default: "role:members"},
	{Name: "can_add_subscribers_group", Kind: kindPermission, FL: 341, Default: "role:members"},
	{Name: "can_create_bots_group", Kind: kindPermission, FL: 344, Default: "role:members"},
	{Name: "can_create_groups", Kind: kindPermission, FL: 299, Owner: true, PlanLimited: true, Default: "role:members"},
	{Name: "can_create_private_channel_group", Kind: kindPermission, FL: 266, Default: "role:members"},
	{Name: "can_create_public_channel_group", Kind: kindPermission, FL: 264, Default: "role:members"},
	{Name: "can_create_web_public_channel_group", Kind: kindPermission, FL: 280, Default: "role:owners"},
	{Name: "can_create_write_only_bots_group", Kind: kindPermission, FL: 344, Default: "role:members"},
	{Name: "can_delete_any_message_group", Kind: kindPermission, FL: 281, Default: "role:administrators"},
	{Name: "can_delete_own_message_group", Kind: kindPermission, FL: 291, Default: "role:everyone"},
	{Name: "can_invite_users_group", Kind: kindPermission, FL: 321, Owner: true, Default: "role:members"},
	{Name: "can_manage_all_groups", Kind: kindPermission, FL: 299, Owner: true, Default: "role:owners"},
	{Name: "can_manage_billing_group", Kind: kindPermission, FL: 363, Owner: true, Default: "role:administrators"},
	{Name: "can_mention_many_users_group", Kind: kindPermission, FL: 352, Default: "role:administrators"},
	{Name: "can_move_messages_between_channels_group", Kind: kindPermission, FL: 310, Default: "role:members"},
	{Name: "can_move_messages_between_topics_group", Kind: kindPermission, FL: 316, Default: "role:everyone"},
	{Name: "can_resolve_topics_group", Kind: kindPermission, FL: 367, Default: "role:everyone"},
	{Name: "can_set_delete_message_policy_group", Kind: kindPermission, FL: 407, Default: "role:moderators"},
	{Name: "can_set_topics_policy_group", Kind: kindPermission, FL: 392, Default: "role:members"},
	{Name: "can_summarize_topics_group", Kind: kindPermission, FL: 350, Default: "role:everyone"},
	{Name: "create_multiuse_invite_group", Kind: kindPermission, FL: 209, Owner: true, Default: "role:administrators"},
	{Name: "default_code_block_language", Kind: kindText, FL: 195, Default: ""},
	{Name: "default_language", Kind: kindLanguage, Default: "en"},
	{Name: "description", Kind: kindText, MaxLength: 1000, Default: ""},
	{Name: "digest_emails_enabled", Kind: kindBool, Default: false},
	{Name: "digest_weekday", Kind: kindIntEnum, Default: 1, Values: []settingValue{{"monday", 0}, {"tuesday", 1}, {"wednesday", 2}, {"thursday", 3}, {"friday", 4}, {"saturday", 5}, {"sunday", 6}}},
	{Name: "direct_message_initiator_group", Kind: kindPermission, FL: 270, Default: "role:everyone"},
	{Name: "direct_message_permission_group", Kind: kindPermission, FL: 270, Default: "role:everyone"},
	{Name: "disallow_disposable_email_addresses", Kind: kindBool, Owner: true, Default: true},
	{Name: "email_changes_disabled", Kind: kindBool, Default: false},
	{Name: "emails_restricted_to_domains", Kind: kindBool, Owner: true, Default: false},
	{Name: "enable_guest_user_dm_warning", Kind: kindBool, FL: 348, Default: true},
	{Name: "enable_guest_user_indicator", Kind: kindBool, FL: 216, Default: true},
	{Name: "enable_read_receipts", Kind: kindBool, FL: 137, Default: false},
	{Name: "enable_spectator_access", Kind: kindBool, FL: 109, PlanLimited: true, Default: false},
	{Name: "gif_rating_policy", Kind: kindIntEnum, FL: 453, Default: 2, Values: []settingValue{{"disabled", 0}, {"y", 1}, {"g", 2}, {"pg", 3}, {"pg13", 4}, {"r", 5}}},
	{Name: "inline_image_preview", Kind: kindBool, Default: true},
	{Name: "inline_url_embed_preview", Kind: kindBool, Default: false},
	{Name: "invite_required", Kind: kindBool, Owner: true, Default: true},
	{Name: "jitsi_server_url", Kind: kindJitsiURL, FL: 212, Default: nil},
	{Name: "media_preview_size", Kind: kindIntEnum, FL: 469, Default: 100, Values: []settingValue{{"100", 100}, {"150", 150}, {"200", 200}}},
	{Name: "message_content_allowed_in_email_notifications", Kind: kindBool, Default: true},
	{Name: "message_content_delete_limit_seconds", Kind: kindLimit, FL: 100, Default: 600},
	{Name: "message_content_edit_limit_seconds", Kind: kindLimit, FL: 138, Default: 600},
	{Name: "message_edit_history_visibility_policy", Kind: kindStringEnum, FL: 358, Plain: true, Default: "all", Values: []settingValue{{"all", 1}, {"moves", 2}, {"none", 3}}},
	{Name: "message_retention_days", Kind: kindRetention, Owner: true, PlanLimited: true, Default: -1},
	{Name: "moderation_request_channel_id", Kind: kindChannel, FL: 331, Private: true, Default: -1},
	{Name: "move_messages_between_streams_limit_seconds", Kind: kindLimit, FL: 162, Default: 604800},
	{Name: "move_messages_within_stream_limit_seconds", Kind: kindLimit, FL: 162, Default: 604800},
	{Name: "name", Kind: kindText, MaxLength: 40},
	{Name: "name_changes_disabled", Kind: kindBool, Default: false},
	{Name: "new_stream_announcements_stream_id", Kind: kindChannel, FL: 241, Default: 1},
	{Name: "org_type", Kind: kindIntEnum, FL: 128, Default: 0, Values: []settingValue{{"unspecified", 0}, {"business", 10}, {"open_source", 20}, {"education_nonprofit", 30}, {"education", 35}, {"research", 40}, {"event", 50}, {"nonprofit", 60}, {"government", 70}, {"political_group", 80}, {"community", 90}, {"personal", 100}, {"other", 1000}}},
	{Name: "require_e2ee_push_notifications", Kind: kindBool, FL: 409, Default: false},
	{Name: "require_unique_names", Kind: kindBool, FL: 246, Default: false},
	{Name: "send_channel_events_messages", Kind: kindBool, FL: 434, Default: false},
	{Name: "send_welcome_emails", Kind: kindBool, Default: true},
	{Name: "signup_announcements_stream_id", Kind: kindChannel, FL: 241, Default: 1},
	{Name: "topics_policy", Kind: kindStringEnum, FL: 392, Plain: true, Default: "allow_empty_topic", Values: []settingValue{{"allow_empty_topic", 2}, {"disable_empty_topic", 3}}},
	{Name: "video_chat_provider", Kind: kindIntEnum, Default: 1, Values: []settingValue{{"none", 0}, {"jitsi_meet", 1}, {"zoom", 3}, {"big_blue_button", 4}, {"zoom_server_to_server", 5}, {"constructor_groups", 6}, {"nextcloud_talk", 7}, {"webex", 8}}},
	{Name: "waiting_period_threshold", Kind: kindCount, Owner: true, Default: 0},
	{Name: "want_advertise_in_communities_directory", Kind: kindBool, FL: 129, Default: false},
	{Name: "zulip_update_announcements_stream_id", Kind: kindChannel, FL: 242, Default: -1},
	{Name: "welcome_message_custom_text", Kind: kindText, FL: 416, MaxLength: 8000, Default: ""},
}

// realmUserDefaults are update_realm_user_settings_defaults' parameters
// (RealmUserDefault.property_types), in the order of its signature. Zulip
// keeps enable_login_emails and enable_marketing_emails out on purpose; the
// reaction notification settings wait for a feature level.
var realmUserDefaults = []realmSetting{
	{Name: "automatically_follow_topics_policy", Kind: kindIntEnum, FL: 214, Default: 3, Values: []settingValue{{"participation", 1}, {"send", 2}, {"initiation", 3}, {"never", 4}}},
	{Name: "automatically_follow_topics_where_mentioned", Kind: kindBool, FL: 235, Default: true},
	{Name: "automatically_unmute_topics_in_muted_streams_policy", Kind: kindIntEnum, FL: 214, Default: 2, Values: []settingValue{{"participation", 1}, {"send", 2}, {"initiation", 3}, {"never", 4}}},
	{Name: "color_scheme", Kind: kindIntEnum, Default: 1, Values: []settingValue{{"automatic", 1}, {"dark", 2}, {"light", 3}}},
	{Name: "demote_inactive_streams", Kind: kindIntEnum, Default: 1, Values: []settingValue{{"automatic", 1}, {"always", 2}, {"never", 3}}},
	{Name: "desktop_icon_count_display", Kind: kindIntEnum, Default: 1, Values: []settingValue{{"all_unreads", 1}, {"dms_mentions_followed_topics", 2}, {"dms_mentions", 3}, {"none", 4}}},
	{Name: "display_emoji_reaction_users", Kind: kindBool, FL: 125, Default: true},
	{Name: "email_address_visibility", Kind: kindIntEnum, FL: 163, Default: 1, Values: []settingValue{{"everyone", 1}, {"members", 2}, {"administrators", 3}, {"nobody", 4}, {"moderators", 5}}},
	{Name: "email_notifications_batching_period_seconds", Kind: kindCount, Default: 120},
	{Name: "emojiset", Kind: kindStringEnum, Plain: true, Default: "google", Values: []settingValue{{"google", 0}, {"twitter", 0}, {"text", 0}}},
	{Name: "enable_desktop_notifications", Kind: kindBool, Default: true},
	{Name: "enable_digest_emails", Kind: kindBool, Default: true},
	{Name: "enable_drafts_synchronization", Kind: kindBool, Default: true},
	{Name: "enable_followed_topic_audible_notifications", Kind: kindBool, FL: 189, Default: true},
	{Name: "enable_followed_topic_desktop_notifications", Kind: kindBool, FL: 189, Default: true},
	{Name: "enable_followed_topic_email_notifications", Kind: kindBool, FL: 189, Default: true},
	{Name: "enable_followed_topic_push_notifications", Kind: kindBool, FL: 189, Default: true},
	{Name: "enable_followed_topic_wildcard_mentions_notify", Kind: kindBool, FL: 189, Default: true},
	{Name: "enable_offline_email_notifications", Kind: kindBool, Default: true},
	{Name: "enable_offline_push_notifications", Kind: kindBool, Default: true},
	{Name: "enable_online_push_notifications", Kind: kindBool, Default: true},
	{Name: "enable_sounds", Kind: kindBool, Default: true},
	{Name: "enable_stream_audible_notifications", Kind: kindBool, Default: false},
	{Name: "enable_stream_desktop_notifications", Kind: kindBool, Default: false},
	{Name: "enable_stream_email_notifications", Kind: kindBool, Default: false},
	{Name: "enable_stream_push_notifications", Kind: kindBool, Default: false},
	{Name: "enter_sends", Kind: kindBool, Default: false},
	{Name: "fluid_layout_width", Kind: kindBool, Default: false},
	{Name: "hide_ai_features", Kind: kindBool, FL: 350, Default: false},
	{Name: "high_contrast_mode", Kind: kindBool, Default: false},
	{Name: "left_side_userlist", Kind: kindBool, Default: false},
	{Name: "message_content_in_email_notifications", Kind: kindBool, Default: true},
	{Name: "notification_sound", Kind: kindText, Default: "zulip"},
	{Name: "pm_content_in_desktop_notifications", Kind: kindBool, Default: true},
	{Name: "presence_enabled", Kind: kindBool, Default: true},
	{Name: "realm_name_in_email_notifications_policy", Kind: kindIntEnum, FL: 168, Default: 1, Values: []settingValue{{"automatic", 1}, {"always", 2}, {"never", 3}}},
	{Name: "receives_typing_notifications", Kind: kindBool, FL: 253, Default: true},
	{Name: "resolved_topic_notice_auto_read_policy", Kind: kindStringEnum, FL: 385, Plain: true, Default: "except_followed", Values: []settingValue{{"always", 0}, {"except_followed", 0}, {"never", 0}}},
	{Name: "send_private_typing_notifications", Kind: kindBool, FL: 105, Default: true},
	{Name: "send_read_receipts", Kind: kindBool, FL: 105, Default: true},
	{Name: "send_stream_typing_notifications", Kind: kindBool, FL: 105, Default: true},
	{Name: "starred_message_counts", Kind: kindBool, Default: true},
	{Name: "translate_emoticons", Kind: kindBool, Default: false},
	{Name: "twenty_four_hour_time", Kind: kindBool, FL: 99, Default: false},
	{Name: "user_list_style", Kind: kindIntEnum, FL: 141, Default: 2, Values: []settingValue{{"compact", 1}, {"with_status", 2}, {"with_avatar_and_status", 3}}},
	{Name: "web_animate_image_previews", Kind: kindStringEnum, FL: 275, Plain: true, Default: "always", Values: []settingValue{{"always", 0}, {"on_hover", 0}, {"never", 0}}},
	{Name: "web_channel_default_view", Kind: kindIntEnum, FL: 269, Default: 1, Values: []settingValue{{"top_topic", 1}, {"channel_feed", 2}, {"list_of_topics", 3}, {"top_unread_topic", 4}}},
	{Name: "web_escape_navigates_to_home_view", Kind: kindBool, FL: 219, Default: true},
	{Name: "web_font_size_px", Kind: kindCount, FL: 245, Default: 16},
	{Name: "web_home_view", Kind: kindStringEnum, FL: 219, Plain: true, Default: "inbox", Values: []settingValue{{"recent", 0}, {"inbox", 0}, {"all_messages", 0}}},
	{Name: "web_inbox_show_channel_folders", Kind: kindBool, FL: 431, Default: true},
	{Name: "web_left_sidebar_show_channel_folders", Kind: kindBool, FL: 411, Default: true},
	{Name: "web_left_sidebar_unreads_count_summary", Kind: kindBool, FL: 398, Default: true},
	{Name: "web_line_height_percent", Kind: kindCount, FL: 245, Default: 140},
	{Name: "web_mark_read_on_scroll_policy", Kind: kindIntEnum, FL: 175, Default: 1, Values: []settingValue{{"always", 1}, {"conversation_views", 2}, {"never", 3}}},
	{Name: "web_navigate_to_sent_message", Kind: kindBool, FL: 268, Default: true},
	{Name: "web_stream_unreads_count_display_policy", Kind: kindIntEnum, FL: 210, Default: 2, Values: []settingValue{{"all_channels", 1}, {"unmuted_channels_and_topics", 2}, {"no_channels", 3}}},
	{Name: "web_suggest_update_timezone", Kind: kindBool, FL: 329, Default: true},
	{Name: "wildcard_mentions_notify", Kind: kindBool, Default: true},
}

// realmSettingByName returns the organization setting of a name.
func realmSettingByName(name string) (realmSetting, bool) {
	for _, sp := range realmSettings {
		if sp.Name == name {
			return sp, true
		}
	}
	return realmSetting{}, false
}
