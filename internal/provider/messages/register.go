package messages

import (
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Messages: what the area declares.

// Area declares the area's types (kit.Area).
func Area() kit.Area {
	return kit.Area{
		Resources: []kit.TypeEntry{
			// A saved snippet has no natural key: titles need not be unique.
			{TypeName: "zulip_saved_snippet", Contract: kit.CollectionObject, NewResource: NewSavedSnippetResource, Level: featureSavedSnippets, Identity: kit.Identity(kit.IdentitySpec{Attrs: []kit.IdentityAttr{{Name: "id", Number: true,
				Description: "The saved snippet's id (titles need not be unique)."}}}), Natural: &kit.KeyRule{}, Journaled: true,
				Adopt: &kit.ImportSource{Stage: kit.StageOwn, List: kit.ImportFrom(kit.SavedSnippetCollection, func(v zulip.SavedSnippet) (string, string, bool) {
					return v.Title, strconv.FormatInt(v.ID, 10), true
				}), ListDescription: "The saved snippets of the provider's own account (snippets are private to their owner), shown " +
					"by title."}},
			{TypeName: "zulip_message_flags", Contract: kit.ManagedObject, NewResource: NewMessageFlagsResource, Identity: kit.Identity(kit.IdentityOf("id", "`<flag>:<message id>,<message id>,...`, as the import id.", true))},
			// A message has no name: it is identified and imported by its id.
			{TypeName: "zulip_message", Contract: kit.ManagedObject, NewResource: NewMessageResource, Identity: kit.Identity(kit.IdentitySpec{Attrs: []kit.IdentityAttr{{Name: "id", Number: true,
				Description: "The message's id (a message has no name)."}}}), Natural: &kit.KeyRule{}, Journaled: true,
				Destroy: &kit.Note{Title: "Message Will Be Deleted", Detail: "Destroying deletes the message for everyone " +
					"(Zulip keeps no copy), as its sender may where the organization allows deleting one's own messages " +
					"(can_delete_own_message_group, within message_content_delete_limit_seconds)."}},
			{TypeName: "zulip_message_report", Contract: kit.Invocation, NewResource: messageReport.NewResource, Level: featureMessageReport},
			{TypeName: "zulip_message_post", Contract: kit.Invocation, NewResource: messagePost.NewResource},
		},
		// The starred messages come with the run's first register (a list of ids);
		// the unread ones are read only by a run that manages the read flag.
		State:       []string{zulip.EventTypeStarredMessages},
		DataSources: []func() datasource.DataSource{messagesMatchingNarrowData.New},
		Actions:     []func() action.Action{messageReport.NewAction, messagePost.NewAction},
	}
}
