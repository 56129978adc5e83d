package realm_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccRealmDataSource_example: a member reads the organization's settings
// as zulip_realm spells them, a change made outside Terraform included.
func TestAccRealmDataSource_example(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) { r.SetSetting("digest_weekday", 5) })
	value := func(attr string, v knownvalue.Check) statecheck.StateCheck {
		return acctest.Value("data.zulip_realm.this", attr, v)
	}
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedMemberID)+acctest.ReadExample(t, "examples/data-sources/zulip_realm/data-source.tf")).State(
			value("id", knownvalue.StringExact(srv.URL)),
			value("name", knownvalue.StringExact("Zulip Reference Realm")),
			value("digest_weekday", knownvalue.StringExact("saturday")),
			value("message_content_edit_limit_seconds", knownvalue.StringExact("600")),
			value("can_create_public_channel_group", acctest.PermissionOf([]string{"role:members"})),
		).Step(),
	)
}
