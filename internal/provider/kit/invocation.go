package kit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Invocation resources (ARCHITECTURE §2) perform an operation that is an event
// rather than a state: Create performs it and records the answer, Read keeps
// the record, any argument change replaces the resource (performing it again),
// and Delete only forgets. The helpers below give them one shape.

// InvocationDescription completes a resource description with the invocation
// semantics, so that every such resource says the same thing the same way.
// undo says what destroying does not undo, e.g. "the report stays filed".
func InvocationDescription(what, undo string) string {
	return what + "\n\n" +
		"This is an **invocation resource** (see the *Invocation resources* guide): creating it performs the " +
		"operation once and records the server's answer in its computed attributes; a second `terraform apply` " +
		"does nothing; changing any argument, or any value in `triggers`, replaces the resource and so performs " +
		"the operation again. Reading it does not contact the server. **Destroying it only forgets it**: " +
		undo + "."
}

// InvocationTriggersAttribute is the optional `triggers` map of every
// invocation resource: changing it performs the operation again.
func InvocationTriggersAttribute() schema.MapAttribute {
	return schema.MapAttribute{
		ElementType: types.StringType,
		Optional:    true,
		MarkdownDescription: "Arbitrary values; when any of them changes, the resource is replaced and the " +
			"operation is performed again (like `terraform_data`'s `triggers_replace`).",
		PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
	}
}

// InvocationIDAttribute is the computed id of an invocation: random, since an
// event has no identity on the server.
func InvocationIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Computed:            true,
		MarkdownDescription: "A random identifier of this invocation, assigned when it was performed.",
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// InvocationPerformedAtAttribute records when the operation was performed.
func InvocationPerformedAtAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Computed:            true,
		MarkdownDescription: "When the provider performed the operation (RFC 3339, UTC).",
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// NewInvocationID returns a random 128-bit identifier in hex.
func NewInvocationID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// InvocationNow is the performed_at value of an invocation made now.
func InvocationNow() types.String {
	return types.StringValue(time.Now().UTC().Format(time.RFC3339))
}

// InvocationBase is the ResourceBase of an invocation resource, with the
// Read, Update and Delete every invocation has: it keeps what it recorded,
// and destroying it only forgets (what was performed cannot be undone).
type InvocationBase struct {
	ResourceBase
}

// Read keeps the recorded invocation (InvocationRead).
func (InvocationBase) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	InvocationRead(ctx, req, resp)
}

// Update records the plan (InvocationUpdate).
func (InvocationBase) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	InvocationUpdate(ctx, req, resp)
}

// Delete only forgets.
func (InvocationBase) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// InvocationRead keeps the recorded state: an invocation has nothing on the
// server to refresh. The framework pre-fills the response with the prior
// state, so there is nothing to do; the function exists to say so once.
func InvocationRead(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

// InvocationUpdate copies the plan into the state. Every argument of an
// invocation requires replacement, so Terraform plans an update only when no
// argument changed (never in practice); recording the plan is then correct.
func InvocationUpdate(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}
