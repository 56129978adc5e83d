package zulip

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

func TestUpdateMessageFlags(t *testing.T) {
	env := setup(t)
	env.handle("/messages/flags", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{"messages": {"[4,8,15]"}, "op": {"remove"}, "flag": {"read"}})
		// Zulip echoes the request's list (update_message_flags in zerver/views/message_flags.py).
		success(w, `"messages":[4,8,15],"ignored_because_not_subscribed_channels":[12]`)
	})
	got, err := env.client.UpdateMessageFlags(context.Background(), UpdateMessageFlagsRequest{Messages: []int64{4, 8, 15}, Op: FlagOpRemove, Flag: FlagRead})
	if err != nil {
		t.Fatal(err)
	}
	want := &UpdateMessageFlagsResponse{Messages: []int64{4, 8, 15}, IgnoredBecauseNotSubscribedChannels: []int64{12}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
}

func TestMatchesNarrow(t *testing.T) {
	env := setup(t)
	env.handle("/messages/matches_narrow", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testQuery(t, r, url.Values{
			"msg_ids": {"[31,32]"},
			"narrow":  {`[{"operator":"channel","operand":7},{"operator":"search","operand":"a & <b>"},{"operator":"has","operand":"link","negated":true}]`},
		})
		success(w, `"messages":{"31":{"match_content":"<p><span class=\"highlight\">a</span></p>","match_subject":"test_topic"}}`)
	})
	got, err := env.client.MatchesNarrow(context.Background(), []int64{31, 32}, []NarrowTerm{
		{Operator: "channel", Operand: 7},
		{Operator: "search", Operand: "a & <b>"},
		{Operator: "has", Operand: "link", Negated: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]NarrowMatch{31: {MatchContent: `<p><span class="highlight">a</span></p>`, MatchSubject: "test_topic"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
}

func TestMatchesNarrow_noMatch(t *testing.T) {
	env := setup(t)
	env.handle("/messages/matches_narrow", func(w http.ResponseWriter, r *http.Request) {
		success(w, `"messages":{}`)
	})
	got, err := env.client.MatchesNarrow(context.Background(), []int64{1}, nil)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("got %#v, %v", got, err)
	}
}

func TestReportMessage(t *testing.T) {
	env := setup(t)
	env.handle("/messages/43/report", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{"report_type": {"other"}, "description": {"Off-topic, and rude."}})
		success(w, "")
	})
	if err := env.client.ReportMessage(context.Background(), 43, ReportMessageRequest{ReportType: ReportTypeOther, Description: "Off-topic, and rude."}); err != nil {
		t.Fatal(err)
	}
}

func TestReportMessage_withoutDescription(t *testing.T) {
	env := setup(t)
	env.handle("/messages/43/report", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"report_type": {"spam"}})
		success(w, "")
	})
	if err := env.client.ReportMessage(context.Background(), 43, ReportMessageRequest{ReportType: ReportTypeSpam}); err != nil {
		t.Fatal(err)
	}
}
