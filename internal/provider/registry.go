package provider

// The registry: the provider's types are what its areas declare (each area's
// register.go, a kit.Area). The provider's resources, data sources,
// ephemeral resources, actions and functions, the list resources, zulip_import_blocks,
// the journal and the kit's rules all read it; adding a type touches its
// area's package only.

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/bots"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/channels"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/groups"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/messages"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/operations"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/people"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/realm"
)

// areas are the provider's areas. Within a stage of adoption
// (kit.AdoptionStage), zulip_import_blocks writes the types in this order.
var areas = []kit.Area{realm.Area(), people.Area(), bots.Area(), messages.Area(), groups.Area(), channels.Area(), operations.Area()}

// registry are the provider's resource types.
var registry = gather(func(a kit.Area) []kit.TypeEntry { return a.Resources })

// journaledTypes are the registry's journaled types.
var journaledTypes = kit.RegistrySet(registry, func(e kit.TypeEntry) bool { return e.Journaled })

// importSources are the types adopted, in the order zulip_import_blocks
// writes them.
var importSources = kit.AdoptedSources(registry)

// dataSources, ephemeralResources and actions are the areas' other kinds;
// zulip_import_blocks, which reads every area, is the provider's own.
var (
	dataSources = append(gather(func(a kit.Area) []func() datasource.DataSource { return a.DataSources }),
		importBlocksData.New)
	ephemeralResources = gather(func(a kit.Area) []func() ephemeral.EphemeralResource { return a.EphemeralResources })
	actions            = gather(func(a kit.Area) []func() action.Action { return a.Actions })
	functions          = gather(func(a kit.Area) []func() function.Function { return a.Functions })
	stateTypes         = gather(func(a kit.Area) []string { return a.State })
)

// gather concatenates what each area declares of a kind, in the areas' order.
func gather[T any](of func(kit.Area) []T) []T {
	var out []T
	for _, a := range areas {
		out = append(out, of(a)...)
	}
	return slices.Clip(out)
}
