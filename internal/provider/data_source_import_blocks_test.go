package provider_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccImportBlocks_example applies the data source's example: every type,
// and a filter. (TestAdoptWholeOrganization, at the repository's root, runs
// the whole adoption with the real CLI: the blocks, -generate-config-out, the
// import, and an empty plan.)
func TestAccImportBlocks_example(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: srv.ProviderConfig(t, refserver.SeedOwnerID) + acctest.ReadExample(t, "examples/data-sources/zulip_import_blocks/data-source.tf"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.zulip_import_blocks.all", tfjsonpath.New("text"),
					knownvalue.StringRegexp(regexp.MustCompile(`(?s)to = zulip_realm\.this\n.*to = zulip_channel\.general\n.*to = zulip_bot\.build_bot\n`))),
				statecheck.ExpectKnownValue("data.zulip_import_blocks.channels_and_groups", tfjsonpath.New("blocks").AtSliceIndex(0).AtMapKey("to"),
					knownvalue.StringRegexp(regexp.MustCompile(`^zulip_(channel|user_group)\.`))),
				statecheck.ExpectKnownValue("data.zulip_import_blocks.channels_and_groups", tfjsonpath.New("text"),
					knownvalue.StringRegexp(regexp.MustCompile(`^(?s)(import \{\n  to = zulip_(channel|user_group)\.[a-z0-9_]+\n  id = "[^"]+"\n\}\n\n)+$`))),
			},
		}},
	})
}

// TestAccImportBlocks_validation: an unknown type is refused, naming the ones there are.
func TestAccImportBlocks_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:      srv.ProviderConfig(t, refserver.SeedOwnerID) + "data \"zulip_import_blocks\" \"x\" {\n  types = [\"zulip_nothing\"]\n}\n",
			ExpectError: regexp.MustCompile(`(?s)zulip_nothing.*zulip_channel`),
		}},
	})
}
