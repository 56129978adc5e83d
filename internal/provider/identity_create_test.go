package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

// TestIdentityAfterHalfCreate runs the kit's check of identities after a
// half-finished create (kit.CheckIdentityAfterHalfCreate) on every type.
func TestIdentityAfterHalfCreate(t *testing.T) {
	ctx := context.Background()
	for _, f := range New("test")().Resources(ctx) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
		t.Run(meta.TypeName, func(t *testing.T) {
			if err := kit.CheckIdentityAfterHalfCreate(ctx, r); err != nil {
				t.Error(err)
			}
		})
	}
}
