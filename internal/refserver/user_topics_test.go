package refserver

import (
	"fmt"
	"strings"
	"testing"
)

// userTopicRows returns a user's rows as "stream:topic:policy:last_updated".
func userTopicRows(srv *Server, userID int) []string {
	var out []string
	srv.Do(func(r *Realm) {
		for _, t := range r.UserTopics {
			if t.UserID == userID {
				out = append(out, fmt.Sprintf("%d:%s:%d:%d", t.StreamID, t.TopicName, t.VisibilityPolicy, t.LastUpdated))
			}
		}
	})
	return out
}

func TestUserTopicSet(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	now := cfgNow.Unix()
	seedLunch := "1:lunch:1:1706173200"
	if got := userTopicRows(srv, SeedOwnerID); strings.Join(got, ",") != seedLunch {
		t.Fatalf("seed rows = %v", got)
	}
	post := func(userID int, stream, topic, policy string) {
		t.Helper()
		status, body := cfgDo(t, srv, ts, userID, "POST", "/user_topics",
			cfgForm("stream_id", stream, "topic", topic, "visibility_policy", policy))
		cfgWantOK(t, status, body)
	}
	// Setting the policy a row already has (in any letter case) changes nothing.
	post(SeedOwnerID, "1", "LUNCH", "1")
	if got := strings.Join(userTopicRows(srv, SeedOwnerID), ","); got != seedLunch {
		t.Fatalf("rows = %s", got)
	}
	// Topics match case-insensitively; the row takes the new policy, time and spelling.
	post(SeedOwnerID, "1", "Lunch", "3")
	if got := strings.Join(userTopicRows(srv, SeedOwnerID), ","); got != fmt.Sprintf("1:Lunch:3:%d", now) {
		t.Fatalf("rows = %s", got)
	}
	// A topic without messages is fine; 2 (unmuted) is a policy like the others.
	post(SeedOwnerID, "2", "no messages yet", "2")
	// 0 removes the row; removing a missing row is a no-op.
	post(SeedOwnerID, "1", "lUNCH", "0")
	post(SeedOwnerID, "1", "never set", "0")
	if got := strings.Join(userTopicRows(srv, SeedOwnerID), ","); got != fmt.Sprintf("2:no messages yet:2:%d", now) {
		t.Fatalf("rows = %s", got)
	}
	// The realm's name for the empty topic means "".
	post(SeedMember3ID, "7", "general chat", "1")
	if got := strings.Join(userTopicRows(srv, SeedMember3ID), ","); got != fmt.Sprintf("7::1:%d", now) {
		t.Fatalf("rows = %s", got)
	}
	// Exactly 60 characters is allowed.
	post(SeedMember3ID, "7", strings.Repeat("ü", 60), "3")
	// Other users' rows are untouched.
	if got := strings.Join(userTopicRows(srv, SeedMemberID), ","); got != "1:releases:3:1706259600" {
		t.Fatalf("member rows = %s", got)
	}
}

func TestUserTopicErrors(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	cases := []struct {
		name                  string
		stream, topic, policy string
		omit                  string
		code, msg             string
	}{
		{"missing stream_id", "", "t", "1", "stream_id", "REQUEST_VARIABLE_MISSING", "Missing 'stream_id' argument"},
		{"missing topic", "1", "", "1", "topic", "REQUEST_VARIABLE_MISSING", "Missing 'topic' argument"},
		{"missing policy", "1", "t", "", "visibility_policy", "REQUEST_VARIABLE_MISSING", "Missing 'visibility_policy' argument"},
		{"stream_id not an integer", `"general"`, "t", "1", "", "BAD_REQUEST", "stream_id is not an integer"},
		{"policy too large", "1", "t", "4", "", "BAD_REQUEST", "Invalid visibility_policy"},
		{"policy negative", "1", "t", "-1", "", "BAD_REQUEST", "Invalid visibility_policy"},
		{"topic too long", "1", strings.Repeat("x", 61), "1", "", "BAD_REQUEST", "topic is too long (limit: 60 characters)"},
		{"unknown channel", "99", "t", "1", "", "BAD_REQUEST", "Invalid channel ID"},
		{"unknown channel, policy 0", "99", "t", "0", "", "BAD_REQUEST", "Invalid channel ID"},
		{"private channel, not subscribed", "3", "logo", "1", "", "BAD_REQUEST", "Invalid channel ID"},
		{"archived channel", "5", "project x", "1", "", "BAD_REQUEST", "Invalid channel ID"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			form := cfgForm("stream_id", tc.stream, "topic", tc.topic, "visibility_policy", tc.policy)
			form.Del(tc.omit)
			status, body := cfgDo(t, srv, ts, SeedMember2ID, "POST", "/user_topics", form)
			cfgWantError(t, status, body, 400, tc.code, tc.msg)
		})
	}
	if got := userTopicRows(srv, SeedMember2ID); len(got) != 0 {
		t.Fatalf("rows = %v", got)
	}
}

func TestUserTopicChannelAccess(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	// A public channel the guest is not subscribed to.
	srv.Do(func(r *Realm) {
		r.Channels[20] = &Channel{ID: 20, Name: "public-no-guest", StreamPostPolicy: 1, TopicsPolicy: "inherit",
			GroupSettings: map[string]GroupSetting{}, Subscribers: map[int]int{SeedMemberID: 0}}
	})
	cases := []struct {
		who     string
		user    int
		channel int
		ok      bool
	}{
		{"member, public subscribed", SeedMemberID, SeedChannelGeneral, true},
		{"member, public not subscribed", SeedMember2ID, 20, true},
		{"member, private subscribed", SeedMemberID, SeedChannelDesign, true},
		{"member, private not subscribed", SeedMember2ID, SeedChannelDesign, false},
		{"moderator, private not subscribed", SeedModeratorID, SeedChannelDesign, false},
		// Administrators are in can_add_subscribers_group, which grants content access.
		{"administrator, private not subscribed", SeedAdmin2ID, SeedChannelDesign, true},
		{"owner, private not subscribed", SeedOwner2ID, SeedChannelDesign, true},
		{"guest, public subscribed", SeedGuestID, SeedChannelRandom, true},
		{"guest, web-public not subscribed", SeedGuestID, SeedChannelAnnounce, true},
		{"guest, public not subscribed", SeedGuestID, 20, false},
		{"bot, subscribed", SeedBotID, SeedChannelGeneral, true},
		{"bot, public not subscribed", SeedBotID, SeedChannelRandom, true},
		{"member, archived", SeedMemberID, SeedChannelArchived, false},
	}
	for _, tc := range cases {
		t.Run(tc.who, func(t *testing.T) {
			for _, policy := range []string{"1", "2", "3"} {
				status, body := cfgDo(t, srv, ts, tc.user, "POST", "/user_topics",
					cfgForm("stream_id", fmt.Sprint(tc.channel), "topic", "access check", "visibility_policy", policy))
				if tc.ok {
					cfgWantOK(t, status, body)
				} else {
					cfgWantError(t, status, body, 400, "BAD_REQUEST", "Invalid channel ID")
				}
			}
			// Removing a policy needs only an existing channel.
			status, body := cfgDo(t, srv, ts, tc.user, "POST", "/user_topics",
				cfgForm("stream_id", fmt.Sprint(tc.channel), "topic", "access check", "visibility_policy", "0"))
			cfgWantOK(t, status, body)
		})
	}
	// An anonymous group setting grants access to its members and subgroups.
	srv.Do(func(r *Realm) {
		r.Channels[SeedChannelLeaders].GroupSettings["can_add_subscribers_group"] = GroupSetting{GroupID: GroupNobody}
		r.Channels[SeedChannelLeaders].GroupSettings["can_subscribe_group"] = GroupSetting{
			DirectMembers: []int{SeedMember2ID}, DirectSubgroups: []int{GroupLeads}}
	})
	for _, tc := range []struct {
		user int
		ok   bool
	}{{SeedMember2ID, true}, {SeedMember3ID, true} /* backend ⊂ leads */, {SeedAdmin2ID, false}, {SeedGuestID, false}} {
		status, body := cfgDo(t, srv, ts, tc.user, "POST", "/user_topics",
			cfgForm("stream_id", fmt.Sprint(SeedChannelLeaders), "topic", "plans", "visibility_policy", "1"))
		if tc.ok {
			cfgWantOK(t, status, body)
		} else {
			cfgWantError(t, status, body, 400, "BAD_REQUEST", "Invalid channel ID")
		}
	}
}

func TestUserTopicsWire(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "POST", "/user_topics",
		cfgForm("stream_id", "7", "topic", "cats", "visibility_policy", "1", "stream", "random"))
	cfgWantOK(t, status, body)
	if got := cfgJSON(body["ignored_parameters_unsupported"]); got != `["stream"]` {
		t.Fatalf("ignored_parameters_unsupported = %s", got)
	}
	srv.Do(func(r *Realm) {
		r.UserTopics = append(r.UserTopics, &UserTopic{UserID: SeedMemberID, StreamID: SeedChannelArchived,
			TopicName: "project x", LastUpdated: 1, VisibilityPolicy: 1})
	})
	srv.mu.Lock()
	got := cfgJSON(srv.userTopicsWire(SeedMemberID))
	none := cfgJSON(srv.userTopicsWire(SeedGuestID))
	srv.mu.Unlock()
	want := fmt.Sprintf(`[{"last_updated":1706259600,"stream_id":1,"topic_name":"releases","visibility_policy":3},`+
		`{"last_updated":%d,"stream_id":7,"topic_name":"cats","visibility_policy":1}]`, cfgNow.Unix())
	if got != want {
		t.Fatalf("userTopicsWire = %s\nwant %s", got, want)
	}
	if none != "[]" {
		t.Fatalf("userTopicsWire(guest) = %s", none)
	}
}

func TestUserTopicFeatureLevel(t *testing.T) {
	srv, ts := cfgServer(t, 160)
	// A route the server's version lacks is an unknown path: Django's HTML 404 page.
	status, _, raw := cfgDoRaw(t, srv, ts, SeedMemberID, "POST", "/user_topics",
		cfgForm("stream_id", "1", "topic", "t", "visibility_policy", "1"))
	if status != 404 || !strings.Contains(string(raw), "Page not found") {
		t.Fatalf("POST /user_topics at FL160: %d %s, want the HTML 404 page", status, raw)
	}
	// "Followed" arrived in FL219.
	srv, ts = cfgServer(t, 200)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "POST", "/user_topics",
		cfgForm("stream_id", "1", "topic", "t", "visibility_policy", "3"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Invalid visibility_policy")
	status, body = cfgDo(t, srv, ts, SeedMemberID, "POST", "/user_topics",
		cfgForm("stream_id", "1", "topic", "t", "visibility_policy", "2"))
	cfgWantOK(t, status, body)
}
