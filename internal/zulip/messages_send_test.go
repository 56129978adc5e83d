package zulip

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func TestSendMessage(t *testing.T) {
	cases := []struct {
		name string
		req  SendMessageRequest
		want url.Values
	}{
		{"channel", SendMessageRequest{ChannelID: 7, Topic: "releases", Content: "v1 is out"},
			url.Values{"type": {"stream"}, "to": {"7"}, "topic": {"releases"}, "content": {"v1 is out"}}},
		{"empty topic", SendMessageRequest{ChannelID: 7, Content: "hi"},
			url.Values{"type": {"stream"}, "to": {"7"}, "topic": {""}, "content": {"hi"}}},
		{"user ids", SendMessageRequest{UserIDs: []int64{9, 10}, Content: "hi"},
			url.Values{"type": {"private"}, "to": {"[9,10]"}, "content": {"hi"}}},
		{"emails", SendMessageRequest{Emails: []string{"a@b.c"}, Content: "hi"},
			url.Values{"type": {"private"}, "to": {`["a@b.c"]`}, "content": {"hi"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := setup(t)
			env.handle("/messages", func(w http.ResponseWriter, r *http.Request) {
				testMethod(t, r, http.MethodPost)
				testFormValues(t, r, tc.want)
				success(w, `"id":42,"message_url":"https://z.example/#narrow/channel/7-x/topic/releases/near/42"`)
			})
			got, err := env.client.SendMessage(context.Background(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != 42 || got.MessageURL != "https://z.example/#narrow/channel/7-x/topic/releases/near/42" {
				t.Errorf("got %+v", got)
			}
		})
	}
}

func TestGetMessage(t *testing.T) {
	env := setup(t)
	env.handle("/messages/42", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testQuery(t, r, url.Values{"apply_markdown": {"false"}, "allow_empty_topic_name": {"true"}})
		success(w, `"message":{"id":42,"type":"private","sender_id":9,"content":"**hi**","subject":"","timestamp":1700000000,
			"display_recipient":[{"id":9,"email":"a@b.c","full_name":"A"},{"id":10,"email":"d@e.f","full_name":"D"}]},"raw_content":"**hi**"`)
	})
	got, err := env.client.GetMessage(context.Background(), 42)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != 42 || got.Content != "**hi**" || got.SenderID != 9 || got.Type != MessageTypePrivate || got.Timestamp != 1700000000 {
		t.Errorf("got %+v", got)
	}
	want := []MessageRecipient{{ID: 9, Email: "a@b.c"}, {ID: 10, Email: "d@e.f"}}
	if r := got.Recipients(); !reflect.DeepEqual(r, want) {
		t.Errorf("Recipients() = %+v, want %+v", r, want)
	}
}

func TestGetMessage_channel(t *testing.T) {
	env := setup(t)
	env.handle("/messages/42", func(w http.ResponseWriter, r *http.Request) {
		success(w, `"message":{"id":42,"type":"stream","stream_id":7,"subject":"releases","content":"x","display_recipient":"general"}`)
	})
	got, err := env.client.GetMessage(context.Background(), 42)
	if err != nil {
		t.Fatal(err)
	}
	if got.StreamID != 7 || got.Subject != "releases" || got.Recipients() != nil {
		t.Errorf("got %+v, recipients %+v", got, got.Recipients())
	}
}

func TestGetMessage_gone(t *testing.T) {
	env := setup(t)
	env.handle("/messages/42", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"Invalid message(s)","code":"BAD_REQUEST"}`)
	})
	if _, err := env.client.GetMessage(context.Background(), 42); !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}

func TestNewestMessages(t *testing.T) {
	env := setup(t)
	env.handle("/messages", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testQuery(t, r, url.Values{"anchor": {"newest"}, "num_before": {"5"}, "num_after": {"0"}, "apply_markdown": {"false"},
			"allow_empty_topic_name": {"true"}, "narrow": {`[{"operator":"sender","operand":9}]`}})
		success(w, `"messages":[{"id":41,"type":"stream","stream_id":7,"subject":"t","content":"a"},{"id":42,"type":"stream","stream_id":7,"subject":"t","content":"b"}]`)
	})
	got, err := env.client.NewestMessages(context.Background(), []NarrowTerm{{Operator: "sender", Operand: 9}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != 41 || got[1].Content != "b" {
		t.Errorf("got %+v", got)
	}
}

// TestEditMessage: a content edit sends the content alone; a topic change moves the
// message alone, quietly.
func TestEditMessage(t *testing.T) {
	env := setup(t)
	want := url.Values{"content": {"new"}}
	env.handle("/messages/42", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, want)
		success(w, `"detached_uploads":[]`)
	})
	content, topic := "new", "runbook"
	if err := env.client.EditMessage(context.Background(), 42, EditMessageRequest{Content: &content}); err != nil {
		t.Fatal(err)
	}
	want = url.Values{"topic": {"runbook"}, "propagate_mode": {"change_one"},
		"send_notification_to_old_thread": {"false"}, "send_notification_to_new_thread": {"false"}}
	if err := env.client.EditMessage(context.Background(), 42, EditMessageRequest{Topic: &topic}); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteMessage(t *testing.T) {
	env := setup(t)
	env.handle("/messages/42", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		success(w, "")
	})
	if err := env.client.DeleteMessage(context.Background(), 42); err != nil {
		t.Fatal(err)
	}
}

var _ = methodGroup(methodCasesMessageWrites, "SendMessage")

// methodCasesMessageWrites: sending, reading, editing and deleting a message.
func methodCasesMessageWrites() []methodCase {
	return []methodCase{
		{"SendMessage", "POST", "/messages", func(ctx context.Context, c *Client) error {
			return ignore(c.SendMessage(ctx, SendMessageRequest{ChannelID: 1, Topic: "t", Content: "c"}))
		}},
		{"GetMessage", "GET", "/messages/1", func(ctx context.Context, c *Client) error { return ignore(c.GetMessage(ctx, 1)) }},
		{"NewestMessages", "GET", "/messages", func(ctx context.Context, c *Client) error { return ignore(c.NewestMessages(ctx, nil, 1)) }},
		{"GetMessagesByID", "GET", "/messages", func(ctx context.Context, c *Client) error { return ignore(c.GetMessagesByID(ctx, []int64{1})) }},
		{"EditMessage", "PATCH", "/messages/1", func(ctx context.Context, c *Client) error {
			return c.EditMessage(ctx, 1, EditMessageRequest{Content: ptr("c")})
		}},
		{"DeleteMessage", "DELETE", "/messages/1", func(ctx context.Context, c *Client) error { return c.DeleteMessage(ctx, 1) }},
	}
}

// TestMessages_referenceServer sends, finds, reads, edits and deletes a message against the
// reference server, as a member.
func TestMessages_referenceServer(t *testing.T) {
	srv, err := refserver.New(refserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	member, _ := srv.User(refserver.SeedMemberID)
	c, err := New(Config{SiteURL: hs.URL, Email: member.Email, APIKey: member.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sent, err := c.SendMessage(ctx, SendMessageRequest{ChannelID: refserver.SeedChannelGeneral, Topic: "deploys", Content: "Deploying."})
	if err != nil || sent.ID == 0 {
		t.Fatalf("SendMessage = %+v, %v", sent, err)
	}
	newest, err := c.NewestMessages(ctx, []NarrowTerm{{Operator: "sender", Operand: refserver.SeedMemberID}}, 1)
	if err != nil || len(newest) != 1 || newest[0].ID != sent.ID {
		t.Fatalf("NewestMessages = %+v, %v", newest, err)
	}
	if err := c.EditMessage(ctx, sent.ID, EditMessageRequest{Content: ptr("Deployed.")}); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetMessage(ctx, sent.ID)
	if err != nil || got.Content != "Deployed." || got.Subject != "deploys" || got.StreamID != refserver.SeedChannelGeneral ||
		got.SenderID != refserver.SeedMemberID || got.Type != MessageTypeStream {
		t.Fatalf("GetMessage = %+v, %v", got, err)
	}
	dm, err := c.SendMessage(ctx, SendMessageRequest{UserIDs: []int64{refserver.SeedMember3ID}, Content: "Lunch?"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetMessage(ctx, dm.ID); err != nil || len(got.Recipients()) != 2 {
		t.Fatalf("GetMessage(direct) = %+v, %v", got, err)
	}
	if err := c.DeleteMessage(ctx, sent.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetMessage(ctx, sent.ID); !IsNotFound(err) {
		t.Errorf("GetMessage after delete: IsNotFound(%v) = false", err)
	}
}

// TestMessages_byID reads a channel message and a direct one by id from the
// reference server, as GetMessage reads them; an id that names no message is
// left out.
func TestMessages_byID(t *testing.T) {
	c, _ := refClient(t, refserver.SeedMemberID)
	ctx := context.Background()
	sent, err := c.SendMessage(ctx, SendMessageRequest{ChannelID: refserver.SeedChannelGeneral, Topic: "deploys", Content: "Deployed."})
	if err != nil {
		t.Fatal(err)
	}
	dm, err := c.SendMessage(ctx, SendMessageRequest{UserIDs: []int64{refserver.SeedMember3ID}, Content: "Lunch?"})
	if err != nil {
		t.Fatal(err)
	}
	both, err := c.GetMessagesByID(ctx, []int64{dm.ID, sent.ID, 999999})
	if err != nil || len(both) != 2 || both[0].ID != sent.ID || both[0].Content != "Deployed." || both[0].Subject != "deploys" ||
		both[1].ID != dm.ID || len(both[1].Recipients()) != 2 || both[1].Content != "Lunch?" {
		t.Fatalf("GetMessagesByID = %+v, %v", both, err)
	}
}

// TestMessages_move moves a message to another topic of the reference server,
// twice: the repeat finds it moved already, which is no error.
func TestMessages_move(t *testing.T) {
	c, _ := refClient(t, refserver.SeedMemberID)
	ctx := context.Background()
	sent, err := c.SendMessage(ctx, SendMessageRequest{ChannelID: refserver.SeedChannelGeneral, Topic: "deploys", Content: "Deploying."})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := c.EditMessage(ctx, sent.ID, EditMessageRequest{Topic: ptr("releases")}); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := c.GetMessage(ctx, sent.ID); err != nil || got.Subject != "releases" || got.Content != "Deploying." {
		t.Fatalf("GetMessage = %+v, %v", got, err)
	}
}
