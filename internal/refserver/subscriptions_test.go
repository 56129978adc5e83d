package refserver

import (
	"net/http"
	"testing"
)

// TestSubscriptions: channels by name (a missing one is created, an archived
// one refused), who may add and remove others, and peer events.
func TestSubscriptions(t *testing.T) {
	e := chatNew(t)
	q := e.chatOK(SeedOwnerID, http.MethodPost, "/register", chatForm("event_types", `["subscription"]`))["queue_id"].(string)
	body := e.chatOK(SeedMemberID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "random"}, {"name": "new", "description": "N"}]`))
	if got := chatJSON(body["subscribed"]); got != `{"5":["new"]}` || chatJSON(body["already_subscribed"]) != `{"5":["random"]}` {
		t.Errorf("subscribed %s, already %s", got, chatJSON(body["already_subscribed"]))
	}
	var created *Channel
	e.srv.Do(func(r *Realm) { created = r.channelByName("new") })
	if created == nil || created.CreatorID != SeedMemberID || created.Description != "N" {
		t.Fatalf("the channel subscribing created: %+v", created)
	}
	e.chatFail(SeedMemberID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "old-projects"}]`),
		400, "BAD_REQUEST", "Unable to access channel (old-projects).")
	e.chatFail(SeedMember2ID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "leadership"}]`),
		400, "BAD_REQUEST", "Unable to access channel (leadership).")
	// The realm lets members add others by default; role:nobody stops them.
	e.srv.Do(func(r *Realm) {
		r.Settings.GroupSettings["can_add_subscribers_group"] = GroupSetting{GroupID: GroupNobody}
	})
	body = e.chatOK(SeedMemberID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "general"}]`,
		"principals", "[6]", "authorization_errors_fatal", "false"))
	if chatJSON(body["unauthorized"]) != `["general"]` {
		t.Errorf("unauthorized = %s", chatJSON(body["unauthorized"]))
	}
	e.chatFail(SeedMemberID, http.MethodDelete, "/users/me/subscriptions", chatForm("subscriptions", `["random"]`, "principals", "[6]"),
		400, "BAD_REQUEST", "Insufficient permission")
	body = e.chatOK(SeedAdminID, http.MethodDelete, "/users/me/subscriptions", chatForm("subscriptions", `["random"]`, "principals", "[6]"))
	if chatJSON(body["removed"]) != `["random"]` {
		t.Errorf("removed = %s", chatJSON(body["removed"]))
	}
	if got := chatJSON(e.chatOK(SeedMemberID, http.MethodGet, "/streams/7/members", nil)["subscribers"]); got != "[5,7,11]" {
		t.Errorf("subscribers of random = %s", got)
	}
	events := e.chatOK(SeedOwnerID, http.MethodGet, "/events", chatForm("queue_id", q, "last_event_id", "-1", "dont_block", "true"))["events"]
	want := `[{"id":0,"op":"peer_add","stream_ids":[` + chatJSON(created.ID) + `],"type":"subscription","user_ids":[5]},` +
		`{"id":1,"op":"peer_remove","stream_ids":[7],"type":"subscription","user_ids":[6]}]`
	if got := chatJSON(events); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
}

// TestSubscriptionOwnEvents: users learn of their own subscriptions (op add,
// with the subscription and its subscribers) and unsubscriptions (op remove),
// while the others who can see the channel get the peer events.
func TestSubscriptionOwnEvents(t *testing.T) {
	e := chatNew(t)
	register := func(user int) string {
		return e.chatOK(user, http.MethodPost, "/register", chatForm("event_types", `["subscription"]`))["queue_id"].(string)
	}
	mine, theirs := register(SeedModeratorID), register(SeedOwnerID)
	e.chatOK(SeedAdminID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "random"}]`, "principals", "[4]"))
	e.chatOK(SeedAdminID, http.MethodDelete, "/users/me/subscriptions", chatForm("subscriptions", `["random"]`, "principals", "[4]"))
	events := func(user int, q string) []any {
		return e.chatOK(user, http.MethodGet, "/events", chatForm("queue_id", q, "last_event_id", "-1", "dont_block", "true"))["events"].([]any)
	}
	got := events(SeedModeratorID, mine)
	var ops []string
	for _, ev := range got {
		ops = append(ops, ev.(map[string]any)["op"].(string))
	}
	if chatJSON(ops) != `["add","peer_add","remove","peer_remove"]` {
		t.Fatalf("the subscriber's events: %s", chatJSON(got))
	}
	sub := got[0].(map[string]any)["subscriptions"].([]any)[0].(map[string]any)
	if sub["stream_id"] != float64(SeedChannelRandom) || sub["color"] == nil || chatJSON(sub["subscribers"]) != "[4,5,6,7,11]" {
		t.Errorf("the added subscription: %s", chatJSON(sub))
	}
	if want := `[{"name":"random","stream_id":7}]`; chatJSON(got[2].(map[string]any)["subscriptions"]) != want {
		t.Errorf("the removed subscription: %s", chatJSON(got[2]))
	}
	ops = nil
	for _, ev := range events(SeedOwnerID, theirs) {
		ops = append(ops, ev.(map[string]any)["op"].(string))
	}
	if chatJSON(ops) != `["peer_add","peer_remove"]` {
		t.Errorf("another user's events: %v", ops)
	}
}

// TestSubscribeCreates: creating through the subscription endpoint follows
// list_to_streams' autocreate rules: a default channel needs an
// administrator and cannot be private, a retention needs an owner.
func TestSubscribeCreates(t *testing.T) {
	e := chatNew(t)
	e.chatFail(SeedMemberID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "d1"}]`, "is_default_stream", "true"),
		400, "BAD_REQUEST", "Insufficient permission")
	e.chatFail(SeedAdminID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "d1"}]`, "is_default_stream", "true",
		"invite_only", "true"), 400, "BAD_REQUEST", "A default channel cannot be private.")
	e.chatFail(SeedAdminID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "d1"}]`,
		"message_retention_days", "30"), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	e.chatOK(SeedAdminID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "d1"}]`, "is_default_stream", "true"))
	var ch *Channel
	e.srv.Do(func(r *Realm) { ch = r.channelByName("d1") })
	if ch == nil || !ch.IsDefault {
		t.Fatalf("d1 = %+v, want a default channel", ch)
	}
}
