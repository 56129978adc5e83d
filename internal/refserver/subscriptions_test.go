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
		400, "BAD_REQUEST", "Channel 'old-projects' is archived.")
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
