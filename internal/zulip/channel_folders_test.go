package zulip

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

func TestListChannelFolders(t *testing.T) {
	env := setup(t)
	env.handle("/channel_folders", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testAuth(t, r)
		testQuery(t, r, url.Values{"include_archived": {"true"}})
		success(w, `"channel_folders":[
			{"id":2,"name":"Backend","description":"Channels for **backend** discussions",
			 "rendered_description":"<p>Channels for <strong>backend</strong> discussions</p>",
			 "order":0,"date_created":1791057093,"creator_id":1,"is_archived":false},
			{"id":1,"name":"Old","description":"","rendered_description":"","order":1,"date_created":null,"creator_id":null,
			 "is_archived":true,"a_newer_field":1}]`)
	})
	got, err := env.client.ListChannelFolders(context.Background(), ListChannelFoldersOptions{IncludeArchived: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	want := []ChannelFolder{
		{ID: 2, Name: "Backend", Description: "Channels for **backend** discussions",
			RenderedDescription: "<p>Channels for <strong>backend</strong> discussions</p>",
			Order:               ptr(int64(0)), DateCreated: ptr(int64(1791057093)), CreatorID: ptr(int64(1))},
		{ID: 1, Name: "Old", Order: ptr(int64(1)), IsArchived: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestListChannelFolders_defaults(t *testing.T) {
	env := setup(t)
	env.handle("/channel_folders", func(w http.ResponseWriter, r *http.Request) {
		testQuery(t, r, nil)
		success(w, `"channel_folders":[]`)
	})
	if got, err := env.client.ListChannelFolders(context.Background(), ListChannelFoldersOptions{}); err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestCreateChannelFolder(t *testing.T) {
	env := setup(t)
	env.handle("/channel_folders/create", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		// description travels even when empty: the server requires it.
		testFormValues(t, r, url.Values{"name": {"Engineering"}, "description": {""}})
		success(w, `"channel_folder_id":12`)
	})
	id, err := env.client.CreateChannelFolder(context.Background(), CreateChannelFolderRequest{Name: "Engineering"})
	if err != nil || id != 12 {
		t.Fatalf("CreateChannelFolder = %d, %v", id, err)
	}
}

func TestUpdateChannelFolder(t *testing.T) {
	env := setup(t)
	env.handle("/channel_folders/12", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, url.Values{"name": {"Eng"}, "description": {"All **engineering**"}, "is_archived": {"false"}})
		success(w, "")
	})
	err := env.client.UpdateChannelFolder(context.Background(), 12, UpdateChannelFolderRequest{
		Name: ptr("Eng"), Description: ptr("All **engineering**"), IsArchived: ptr(false),
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestUpdateChannelFolder_archiveInUse(t *testing.T) {
	env := setup(t)
	env.handle("/channel_folders/12", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"is_archived": {"true"}})
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"You need to remove all the channels from this folder to archive it.","code":"BAD_REQUEST"}`)
	})
	err := env.client.UpdateChannelFolder(context.Background(), 12, UpdateChannelFolderRequest{IsArchived: ptr(true)})
	wantAPIError(t, err, http.StatusBadRequest, CodeBadRequest)
	if IsNotFound(err) {
		t.Errorf("a folder in use is not-found: %v", err)
	}
}

func TestReorderChannelFolders(t *testing.T) {
	env := setup(t)
	env.handle("/channel_folders", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, url.Values{"order": {"[2,1,3]"}})
		success(w, "")
	})
	if err := env.client.ReorderChannelFolders(context.Background(), []int64{2, 1, 3}); err != nil {
		t.Fatal(err)
	}
}
