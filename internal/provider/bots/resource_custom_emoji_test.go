package bots_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// testAccEmojiFile is the absolute path of an image of testdata/emoji.
func testAccEmojiFile(name string) string {
	p, err := filepath.Abs(filepath.Join("testdata", "emoji", name))
	if err != nil {
		panic(err)
	}
	return p
}

func testAccEmojiConfig(name, source string) string {
	return fmt.Sprintf("resource \"zulip_custom_emoji\" \"test\" {\n  name   = %q\n  source = %q\n}\n", name, source)
}

// testAccEmoji is the server's emoji of a name (the active one when there is one).
func testAccEmoji(srv *acctest.Server, name string) (found refserver.CustomEmoji, ok bool) {
	srv.Do(func(r *refserver.Realm) {
		for _, e := range r.Emoji {
			if e.Name == name && (!ok || !e.Deactivated) {
				found, ok = *e, true
			}
		}
	})
	return found, ok
}

// copyFile copies a test image to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAccCustomEmoji_lifecycle: upload, import by name, a moved file (nothing
// sent), a new image (replaced: the old one deactivated, a new id), an
// animated one, and destroy (deactivated).
func TestAccCustomEmoji_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	provider := srv.ProviderConfig(t, refserver.SeedMemberID)
	dir := t.TempDir()
	first, moved := filepath.Join(dir, "ship.png"), filepath.Join(dir, "moved.png")
	copyFile(t, testAccEmojiFile("green.png"), first)
	copyFile(t, testAccEmojiFile("green.png"), moved)
	var firstID string
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if e, ok := testAccEmoji(srv, "ship_it"); !ok || !e.Deactivated {
				return fmt.Errorf("after destroy: %+v", e)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: provider + testAccEmojiConfig("ship_it", first),
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrSet("zulip_custom_emoji.test", "id"),
					resource.TestCheckResourceAttr("zulip_custom_emoji.test", "author_id", fmt.Sprint(refserver.SeedMemberID)),
					resource.TestMatchResourceAttr("zulip_custom_emoji.test", "source_url", regexp.MustCompile(`^/user_avatars/.*\.png$`)),
					resource.TestCheckNoResourceAttr("zulip_custom_emoji.test", "still_url"),
					resource.TestMatchResourceAttr("zulip_custom_emoji.test", "source_sha256", regexp.MustCompile(`^[0-9a-f]{64}$`)),
					func(s *terraform.State) error {
						firstID = s.RootModule().Resources["zulip_custom_emoji.test"].Primary.ID
						return nil
					},
				),
			},
			// The image cannot be read back: an import adopts the emoji as it is.
			acctest.ImportVerifyBy("zulip_custom_emoji.test", "ship_it", "name", "source", "source_sha256"),
			{
				Config: provider + testAccEmojiConfig("ship_it", moved),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("zulip_custom_emoji.test", plancheck.ResourceActionUpdate)}},
				Check: resource.TestCheckResourceAttrPtr("zulip_custom_emoji.test", "id", &firstID),
			},
			{
				PreConfig: func() { copyFile(t, testAccEmojiFile("red.png"), moved) },
				Config:    provider + testAccEmojiConfig("ship_it", moved),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("zulip_custom_emoji.test", plancheck.ResourceActionDestroyBeforeCreate)}},
				Check: func(s *terraform.State) error {
					if id := s.RootModule().Resources["zulip_custom_emoji.test"].Primary.ID; id == firstID {
						return fmt.Errorf("a new image kept the id %s", id)
					}
					return nil
				},
			},
			{
				Config: provider + testAccEmojiConfig("ship_it", testAccEmojiFile("blink.gif")),
				Check:  resource.TestMatchResourceAttr("zulip_custom_emoji.test", "still_url", regexp.MustCompile(`/still/`)),
			},
		},
	})
}

// TestAccCustomEmoji_drift: an emoji deactivated out of band is uploaded
// again; one whose name someone else then took is refused at plan with an
// import block.
func TestAccCustomEmoji_drift(t *testing.T) {
	srv := acctest.NewServer(t)
	config := srv.ProviderConfig(t, refserver.SeedAdminID) + testAccEmojiConfig("drifty", testAccEmojiFile("green.png"))
	deactivate := func() {
		srv.Do(func(r *refserver.Realm) {
			for _, e := range r.Emoji {
				if e.Name == "drifty" {
					e.Deactivated = true
				}
			}
		})
	}
	acctest.ParallelSteps(t,
		resource.TestStep{Config: config},
		acctest.Apply(config).Before(deactivate).Planned("zulip_custom_emoji.test", plancheck.ResourceActionCreate).Step(),
		acctest.Apply(config).Before(func() {
			deactivate()
			srv.Do(func(r *refserver.Realm) { acctest.AddEmoji(r, "drifty", refserver.SeedMemberID) })
		}).Fails(acctest.ExpectErrRE(`Custom Emoji Already Exists.*import \{`)).Step(),
	)
}

// TestAccCustomEmoji_validation: what Zulip would refuse is refused at plan,
// naming the attribute.
func TestAccCustomEmoji_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	provider := srv.ProviderConfig(t, refserver.SeedMemberID)
	step := func(hcl, want string) resource.TestStep { return acctest.PlanFailsRE(provider+hcl, want) }
	acctest.ParallelSteps(t,
		step(testAccEmojiConfig("Ship", testAccEmojiFile("green.png")), `name.*lowercase English letters`),
		step(testAccEmojiConfig("ship-", testAccEmojiFile("green.png")), `end with a letter or digit`),
		step(testAccEmojiConfig("ship", testAccEmojiFile("missing.png")), `Unusable Emoji Image.*missing.png`),
		step(testAccEmojiConfig("ship", testAccEmojiFile("notes.txt")), `Unusable Emoji Image.*notes.txt is not a PNG`),
		step("resource \"zulip_custom_emoji\" \"test\" {\n  name = \"ship\"\n}\n", `Missing Image`),
		step(testAccEmojiConfig("green_tick", testAccEmojiFile("green.png")), `green_tick.*import \{`),
	)
}

// TestAccCustomEmoji_permission: who may add emoji is checked at plan.
func TestAccCustomEmoji_permission(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) {
		r.Settings.GroupSettings["can_add_custom_emoji_group"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
	})
	acctest.ParallelSteps(t,
		acctest.PlanFailsRE(srv.ProviderConfig(t, refserver.SeedMemberID)+testAccEmojiConfig("ship", testAccEmojiFile("green.png")), `can_add_custom_emoji_group`),
		acctest.PlanFailsRE(srv.ProviderConfig(t, refserver.SeedGuestID)+testAccEmojiConfig("ship", testAccEmojiFile("green.png")), `Guests Cannot Add Custom Emoji`),
	)
}

// TestAccCustomEmoji_example applies the documentation's example, its
// ${path.module} being the example's directory.
func TestAccCustomEmoji_example(t *testing.T) {
	srv := acctest.NewServer(t)
	dir, err := filepath.Abs(acctest.RepoPath("examples/resources/zulip_custom_emoji"))
	if err != nil {
		t.Fatal(err)
	}
	example := strings.ReplaceAll(acctest.ReadExample(t, "examples/resources/zulip_custom_emoji/resource.tf"), "${path.module}", dir)
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedMemberID)+example).State(
			acctest.Value("zulip_custom_emoji.shipit", "still_url", knownvalue.Null()),
			acctest.Value("zulip_custom_emoji.party", "still_url", knownvalue.NotNull()),
		).Clean().Step(),
	)
}
