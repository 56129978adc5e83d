package realm_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// seedPlaygrounds adds three playgrounds in the web app, the last made kept
// first on the server, to see that the list is by id.
func seedPlaygrounds(r *refserver.Realm) {
	acctest.AddPlayground(r, "Python playground", "Python", "https://python.example/run?code={code}")
	acctest.AddPlayground(r, "Rust playground", "Rust", "https://play.rust-lang.org/?code={code}")
	acctest.AddPlayground(r, "Python notebook", "Python", "https://notebook.example/#{code}")
	r.Playgrounds = []*refserver.Playground{r.Playgrounds[2], r.Playgrounds[0], r.Playgrounds[1]}
}

// playgroundRow is the data source's element for a playground.
func playgroundRow(id int64, name, language, template string) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"id": knownvalue.Int64Exact(id), "name": knownvalue.StringExact(name),
		"pygments_language": knownvalue.StringExact(language), "url_template": knownvalue.StringExact(template),
	})
}

// TestAccCodePlaygroundsDataSource_example: a member lists the playgrounds
// made in the web app, by id, and the example groups them by language.
func TestAccCodePlaygroundsDataSource_example(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(seedPlaygrounds)
	config := srv.ProviderConfig(t, refserver.SeedMemberID) + acctest.ReadExample(t, "examples/data-sources/zulip_code_playgrounds/data-source.tf")
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(config).Clean().State(
				acctest.Value("data.zulip_code_playgrounds.all", "playgrounds", knownvalue.ListExact([]knownvalue.Check{
					playgroundRow(1, "Python playground", "Python", "https://python.example/run?code={code}"),
					playgroundRow(2, "Rust playground", "Rust", "https://play.rust-lang.org/?code={code}"),
					playgroundRow(3, "Python notebook", "Python", "https://notebook.example/#{code}"),
				})),
				statecheck.ExpectKnownOutputValue("python_playgrounds", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("Python playground"), knownvalue.StringExact("Python notebook"),
				})),
			).Step(),
			// The newest playground, removed in the web app, leaves the list at the next read.
			acctest.Apply(config).OutOfBand(srv, func(r *refserver.Realm) { r.Playgrounds = r.Playgrounds[1:] }).Clean().State(
				acctest.Value("data.zulip_code_playgrounds.all", "playgrounds", knownvalue.ListExact([]knownvalue.Check{
					playgroundRow(1, "Python playground", "Python", "https://python.example/run?code={code}"),
					playgroundRow(2, "Rust playground", "Rust", "https://play.rust-lang.org/?code={code}"),
				})),
				statecheck.ExpectKnownOutputValue("python_playgrounds", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("Python playground"),
				})),
			).Step(),
		},
	})
}

// TestAccCodePlaygroundsDataSource_readOnce: three data sources read the
// playgrounds with one register request.
func TestAccCodePlaygroundsDataSource_readOnce(t *testing.T) {
	acctest.ReadOnce(t, seedPlaygrounds, "zulip_code_playgrounds", []string{"", "", ""}, "POST", "/api/v1/register")
}

// TestAccCodePlaygroundsDataSource_serverTooOld: before feature level 196 the
// data source is refused, naming the level.
func TestAccCodePlaygroundsDataSource_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 195 })
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedMemberID) + `data "zulip_code_playgrounds" "all" {}`).
				Fails(acctest.ExpectErr("zulip_code_playgrounds needs Zulip feature level 196 or newer", "has feature level 195")).Step(),
		},
	})
}
