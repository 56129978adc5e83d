package zulip

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

func TestListDefaultChannelGroups(t *testing.T) {
	for _, tt := range []struct{ name, streams string }{
		{"ids (feature level 330)", `[3,7]`},
		{"channels (before)", `[{"stream_id":3,"name":"design"},{"stream_id":7,"name":"random"}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := setup(t)
			env.handle("/register", func(w http.ResponseWriter, r *http.Request) {
				testMethod(t, r, http.MethodPost)
				if got := r.FormValue("fetch_event_types"); got != `["default_stream_groups"]` {
					t.Errorf("fetch_event_types = %s", got)
				}
				success(w, `"queue_id":"q","realm_default_stream_groups":[
					{"id":1,"name":"Engineering","description":"For engineers.","streams":`+tt.streams+`},
					{"id":2,"name":"Empty","description":"","streams":[]}]`)
			})
			env.handle("/events", func(w http.ResponseWriter, r *http.Request) { success(w, "") })
			got, err := env.client.ListDefaultChannelGroups(context.Background())
			want := []DefaultChannelGroup{
				{ID: 1, Name: "Engineering", Description: "For engineers.", ChannelIDs: []int64{3, 7}},
				{ID: 2, Name: "Empty", Description: "", ChannelIDs: []int64{}},
			}
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("ListDefaultChannelGroups = %+v, %v; want %+v", got, err, want)
			}
		})
	}
}

func TestListDefaultChannelGroups_noneSent(t *testing.T) {
	env := setup(t)
	env.handle("/register", func(w http.ResponseWriter, r *http.Request) { success(w, `"queue_id":"q"`) })
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) { success(w, "") })
	got, err := env.client.ListDefaultChannelGroups(context.Background())
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("ListDefaultChannelGroups = %#v, %v; want an empty list", got, err)
	}
}

func TestCreateDefaultChannelGroup(t *testing.T) {
	env := setup(t)
	env.handle("/default_stream_groups/create", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{"group_name": {"Design"}, "description": {""}, "stream_names": {`[]`}})
		success(w, "")
	})
	if err := env.client.CreateDefaultChannelGroup(context.Background(), CreateDefaultChannelGroupRequest{Name: "Design"}); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateDefaultChannelGroup(t *testing.T) {
	env := setup(t)
	env.handle("/default_stream_groups/4", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, url.Values{"new_description": {"Renamed."}})
		success(w, "")
	})
	if err := env.client.UpdateDefaultChannelGroup(context.Background(), 4, UpdateDefaultChannelGroupRequest{Description: ptr("Renamed.")}); err != nil {
		t.Fatal(err)
	}
}

func TestDefaultChannelGroupChannels(t *testing.T) {
	for _, tt := range []struct {
		op   string
		call func(c *Client) error
	}{
		{"add", func(c *Client) error {
			return c.AddDefaultChannelGroupChannels(context.Background(), 4, []string{"design", "ops"})
		}},
		{"remove", func(c *Client) error {
			return c.RemoveDefaultChannelGroupChannels(context.Background(), 4, []string{"design", "ops"})
		}},
	} {
		env := setup(t)
		env.handle("/default_stream_groups/4/streams", func(w http.ResponseWriter, r *http.Request) {
			testMethod(t, r, http.MethodPatch)
			testFormValues(t, r, url.Values{"op": {tt.op}, "stream_names": {`["design","ops"]`}})
			success(w, "")
		})
		if err := tt.call(env.client); err != nil {
			t.Errorf("%s: %v", tt.op, err)
		}
	}
}

// TestDefaultChannelGroup_gone: Zulip's answer for an unknown group is
// IsNotFound and still the server's error; other refusals are not.
func TestDefaultChannelGroup_gone(t *testing.T) {
	env := setup(t)
	env.handle("/default_stream_groups/9", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusBadRequest, `{"result":"error","code":"BAD_REQUEST","msg":"Default channel group with id '9' does not exist."}`)
	})
	env.handle("/default_stream_groups/9/streams", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusBadRequest, `{"result":"error","code":"BAD_REQUEST","msg":"Channel 'x' is not present in default channel group 'G'"}`)
	})
	err := env.client.DeleteDefaultChannelGroup(context.Background(), 9)
	if !IsNotFound(err) || err.Error() == "" {
		t.Errorf("DeleteDefaultChannelGroup = %v, want not found", err)
	}
	if apiErr := mustAPIError(t, err, http.StatusBadRequest, CodeBadRequest); apiErr.Msg != "Default channel group with id '9' does not exist." {
		t.Errorf("message = %q", apiErr.Msg)
	}
	if err := env.client.UpdateDefaultChannelGroup(context.Background(), 9, UpdateDefaultChannelGroupRequest{Name: ptr("x")}); !IsNotFound(err) {
		t.Errorf("UpdateDefaultChannelGroup = %v, want not found", err)
	}
	if err := env.client.RemoveDefaultChannelGroupChannels(context.Background(), 9, []string{"x"}); err == nil || IsNotFound(err) {
		t.Errorf("RemoveDefaultChannelGroupChannels = %v, want a refusal that is not 'not found'", err)
	}
}
