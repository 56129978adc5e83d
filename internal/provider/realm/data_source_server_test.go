package realm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

const serverAddr = "data.zulip_server.this"

// serverValues checks the settings of data.zulip_server.this.
func serverValues(want map[string]knownvalue.Check) []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for attr, v := range want {
		checks = append(checks, acctest.Value(serverAddr, attr, v))
	}
	return checks
}

// foldersNamed checks that the reference server has n folders of a name.
func foldersNamed(srv *acctest.Server, name string, n int) func() error {
	return func() error {
		var got int
		srv.Do(func(r *refserver.Realm) {
			got = acctest.CountIn(r.ChannelFolders, func(f *refserver.ChannelFolder) bool { return f.Name == name })
		})
		if got != n {
			return fmt.Errorf("%d folders named %q on the server, want %d", got, name, n)
		}
		return nil
	}
}

// TestAccServerDataSource_example: the example reads the server's settings
// and declares the folder a new enough server has.
func TestAccServerDataSource_example(t *testing.T) {
	// The seeded announce channel is web-public: with spectators allowed, visitors may read it.
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.WebPublicStreamsEnabled = true })
	srv.Do(func(r *refserver.Realm) { r.SetSetting("enable_spectator_access", true) })
	config := srv.ProviderConfig(t, refserver.SeedAdminID) + acctest.ReadExample(t, "examples/data-sources/zulip_server/data-source.tf")
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(config).Clean().State(serverValues(map[string]knownvalue.Check{
				"zulip_version":                   knownvalue.StringExact(refserver.DefaultVersion),
				"zulip_feature_level":             knownvalue.Int64Exact(refserver.DefaultFeatureLevel),
				"zulip_merge_base":                knownvalue.StringExact(refserver.DefaultVersion),
				"push_notifications_enabled":      knownvalue.Bool(true),
				"email_auth_enabled":              knownvalue.Bool(true),
				"require_email_format_usernames":  knownvalue.Bool(true),
				"authentication_methods":          knownvalue.MapPartial(map[string]knownvalue.Check{"password": knownvalue.Bool(true), "dev": knownvalue.Bool(true), "ldap": knownvalue.Bool(false)}),
				"external_authentication_methods": knownvalue.ListSizeExact(0),
				"realm_url":                       knownvalue.StringExact(srv.URL),
				"realm_name":                      knownvalue.StringExact("Zulip Reference Realm"),
				"realm_web_public_access_enabled": knownvalue.Bool(true),
			})...).State(
				statecheck.ExpectKnownOutputValue("password_login_allowed", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("sso_methods", knownvalue.ListSizeExact(0)),
			).OnServer(foldersNamed(srv, "Engineering", 1)).Step(),
		},
	})
}

// TestAccServerDataSource_oldServerWithoutAccount: a provider with only a URL
// reads an old production server, which lacks the newer keys: the example
// then declares no folder.
func TestAccServerDataSource_oldServerWithoutAccount(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel, o.Version, o.Production = 80, "4.0", true })
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(acctest.URLOnlyProvider(srv) + `data "zulip_server" "this" {}`).Clean().State(serverValues(map[string]knownvalue.Check{
				"zulip_version":                   knownvalue.StringExact("4.0"),
				"zulip_feature_level":             knownvalue.Int64Exact(80),
				"zulip_merge_base":                knownvalue.StringExact(""),
				"authentication_methods":          knownvalue.MapPartial(map[string]knownvalue.Check{"dev": knownvalue.Bool(false)}),
				"realm_url":                       knownvalue.StringExact(srv.URL),
				"realm_web_public_access_enabled": knownvalue.Bool(false),
			})...).Step(),
		},
	})
	if n := srv.Requests("GET", "/api/v1/users/me"); n != 0 {
		t.Errorf("%d GET /users/me requests without credentials", n)
	}
}

// TestAccServerDataSource_oldServerExample: on a server older than channel
// folders the example declares none.
func TestAccServerDataSource_oldServerExample(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 388 })
	config := srv.ProviderConfig(t, refserver.SeedAdminID) + acctest.ReadExample(t, "examples/data-sources/zulip_server/data-source.tf")
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(config).Clean().State(
				acctest.Value(serverAddr, "zulip_feature_level", knownvalue.Int64Exact(388)),
			).OnServer(foldersNamed(srv, "Engineering", 0)).Step(),
		},
	})
}
