package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestJournaledTypesHaveIDs: the journal recognises an object by the first
// of the keys a state holds, its id (an allowed domain has none: its domain is
// all there is to it); every journaled type has one and an identity to import
// it by.
func TestJournaledTypesHaveIDs(t *testing.T) {
	for _, e := range registry {
		if !e.Journaled {
			continue
		}
		var sch resource.SchemaResponse
		e.NewResource().Schema(context.Background(), resource.SchemaRequest{}, &sch)
		if _, hasID := sch.Schema.Attributes["id"]; !hasID && e.TypeName != "zulip_allowed_domain" || e.Identity == nil {
			t.Errorf("%s is journaled but has no id attribute or no identity", e.TypeName)
		}
	}
	if len(journaledTypes) == 0 {
		t.Error("no type is journaled")
	}
}
