package realm_test

import (
	"crypto/sha256"
	"encoding/hex"
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

const brandingAddr = "zulip_realm_branding.test"

// brandingFile is the absolute path of an image of testdata/branding.
func brandingFile(name string) string {
	p, err := filepath.Abs(filepath.Join("testdata", "branding", name))
	if err != nil {
		panic(err)
	}
	return p
}

// brandingConfig is a zulip_realm_branding "test" block setting the given
// attributes (attribute, path; in pairs).
func brandingConfig(pairs ...string) string {
	var b strings.Builder
	b.WriteString("resource \"zulip_realm_branding\" \"test\" {\n")
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(&b, "  %s = %q\n", pairs[i], pairs[i+1])
	}
	b.WriteString("}\n")
	return b.String()
}

// fileSHA256 is the SHA-256 of a file, in hex.
func fileSHA256(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// copyBrandingFile copies a test image to dst.
func copyBrandingFile(t *testing.T, name, dst string) {
	t.Helper()
	data, err := os.ReadFile(brandingFile(name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// branding is the server's branding (as seeded when nothing has read it yet).
func branding(srv *acctest.Server) (b refserver.Branding) {
	b = refserver.Branding{IconSource: "G", LogoSource: "D", NightLogoSource: "D"}
	srv.Do(func(r *refserver.Realm) {
		if r.Branding != nil {
			b = *r.Branding
		}
	})
	return b
}

// brandingIs checks the server's branding.
func brandingIs(srv *acctest.Server, what string, ok func(refserver.Branding) bool) func() error {
	return func() error {
		if b := branding(srv); !ok(b) {
			return fmt.Errorf("%s: the server's branding is %+v", what, b)
		}
		return nil
	}
}

// changeBranding changes the server's branding as the web app would, each
// change bumping the image's version.
func changeBranding(srv *acctest.Server, change func(b *refserver.Branding)) func() {
	return func() {
		srv.Do(func(r *refserver.Realm) {
			if r.Branding == nil {
				r.Branding = &refserver.Branding{IconSource: "G", IconVersion: 1, LogoSource: "D", LogoVersion: 1, NightLogoSource: "D", NightLogoVersion: 1}
			}
			change(r.Branding)
		})
	}
}

var sha256Pattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// TestAccRealmBranding_lifecycle: the three images are uploaded (the server
// holds the files' hashes) and imported; a moved file sends nothing, a
// changed one is uploaded again, a removed path returns its image to Zulip's
// default, and destroy returns the others.
func TestAccRealmBranding_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	dir := t.TempDir()
	icon, moved := filepath.Join(dir, "icon.png"), filepath.Join(dir, "moved.png")
	copyBrandingFile(t, "icon.png", icon)
	copyBrandingFile(t, "icon.png", moved)
	all := admin + brandingConfig("icon", icon, "logo", brandingFile("logo.gif"), "night_logo", brandingFile("other.png"))
	iconSum, logoSum, nightSum := fileSHA256(t, icon), fileSHA256(t, brandingFile("logo.gif")), fileSHA256(t, brandingFile("other.png"))
	var iconVersion int
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			return brandingIs(srv, "after destroy", func(b refserver.Branding) bool {
				return b.IconSource == "G" && b.LogoSource == "D" && b.NightLogoSource == "D"
			})()
		},
		Steps: []resource.TestStep{
			acctest.Apply(all).Clean().State(
				acctest.Value(brandingAddr, "id", knownvalue.StringExact(srv.URL)),
				acctest.Value(brandingAddr, "icon_sha256", knownvalue.StringExact(iconSum)),
				acctest.Value(brandingAddr, "logo_sha256", knownvalue.StringRegexp(sha256Pattern)),
				acctest.Value(brandingAddr, "icon_url", knownvalue.StringRegexp(regexp.MustCompile(`/realm/icon\.png\?version=2$`))),
				acctest.Value(brandingAddr, "night_logo_url", knownvalue.StringRegexp(regexp.MustCompile(`/realm/night_logo\.png\?version=2$`))),
			).OnServer(brandingIs(srv, "after the create", func(b refserver.Branding) bool {
				iconVersion = b.IconVersion
				return b.IconSource == "U" && b.IconSHA256 == iconSum && b.LogoSHA256 == logoSum && b.NightLogoSHA256 == nightSum
			})).Step(),
			// Zulip gives no file back: the import adopts the images unmanaged.
			acctest.ImportVerify(brandingAddr, srv.URL, "icon", "logo", "night_logo", "icon_sha256", "logo_sha256", "night_logo_sha256"),
			acctest.Apply(admin+brandingConfig("icon", moved, "logo", brandingFile("logo.gif"), "night_logo", brandingFile("other.png"))).
				Planned(brandingAddr, plancheck.ResourceActionUpdate).Clean().
				OnServer(brandingIs(srv, "a moved file is not sent", func(b refserver.Branding) bool { return b.IconVersion == iconVersion })).Step(),
			acctest.Apply(admin+brandingConfig("icon", moved, "logo", brandingFile("logo.gif"), "night_logo", brandingFile("other.png"))).
				Before(func() { copyBrandingFile(t, "other.png", moved) }).
				Planned(brandingAddr, plancheck.ResourceActionUpdate).Clean().
				OnServer(brandingIs(srv, "a changed file is sent", func(b refserver.Branding) bool {
					return b.IconSHA256 == nightSum && b.IconVersion == iconVersion+1 && b.LogoSHA256 == logoSum
				})).Step(),
			acctest.Apply(admin+brandingConfig("icon", moved, "night_logo", brandingFile("other.png"))).
				Planned(brandingAddr, plancheck.ResourceActionUpdate).Clean().
				State(acctest.Value(brandingAddr, "logo_sha256", knownvalue.Null())).
				OnServer(brandingIs(srv, "a removed path returns to the default", func(b refserver.Branding) bool {
					return b.LogoSource == "D" && b.IconSource == "U" && b.NightLogoSource == "U"
				})).Step(),
		},
	})
}

// TestAccRealmBranding_drift: an icon replaced or removed by hand is
// uploaded again; a change to an image the resource does not manage is only
// read.
func TestAccRealmBranding_drift(t *testing.T) {
	srv := acctest.NewServer(t)
	config := srv.ProviderConfig(t, refserver.SeedAdminID) + brandingConfig("icon", brandingFile("icon.png"))
	sum := fileSHA256(t, brandingFile("icon.png"))
	uploaded := brandingIs(srv, "the file is uploaded again", func(b refserver.Branding) bool { return b.IconSource == "U" && b.IconSHA256 == sum })
	acctest.ParallelSteps(t,
		acctest.Apply(config).Clean().Step(),
		acctest.Apply(config).Before(changeBranding(srv, func(b *refserver.Branding) {
			b.IconSHA256 = "someone else's"
			b.IconVersion++
		})).Planned(brandingAddr, plancheck.ResourceActionUpdate).Clean().OnServer(uploaded).Step(),
		acctest.Apply(config).Before(changeBranding(srv, func(b *refserver.Branding) {
			b.IconSource, b.IconSHA256 = "G", ""
			b.IconVersion++
		})).Planned(brandingAddr, plancheck.ResourceActionUpdate).Clean().OnServer(uploaded).Step(),
		acctest.Apply(config).Before(changeBranding(srv, func(b *refserver.Branding) {
			b.LogoSource = "U"
			b.LogoVersion++
		})).Plan(plancheck.ExpectEmptyPlan()).State(
			acctest.Value(brandingAddr, "logo_url", knownvalue.StringRegexp(regexp.MustCompile(`/realm/logo\.png\?version=`))),
			acctest.Value(brandingAddr, "logo_sha256", knownvalue.Null()),
		).Step(),
	)
}

// TestAccRealmBranding_validation: what Zulip would refuse is refused at
// plan, naming the attribute: a missing file, a file that is no image, a
// member's account, a logo on the free plan.
func TestAccRealmBranding_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	limited := acctest.NewServer(t)
	limited.Do(func(r *refserver.Realm) { r.PlanType = 2 })
	admin := acctest.PlanFailsAs(srv.ProviderConfig(t, refserver.SeedAdminID))
	acctest.ParallelSteps(t,
		admin(brandingConfig("icon", brandingFile("missing.png")), "Unusable Image", "icon =", "missing.png: no such file"),
		admin(brandingConfig("night_logo", brandingFile("notes.txt")), "Unusable Image", "night_logo =", "notes.txt is not a PNG"),
		acctest.PlanFails(srv.ProviderConfig(t, refserver.SeedMemberID)+brandingConfig("icon", brandingFile("icon.png")), "Insufficient Role", "administrator"),
		acctest.PlanFails(limited.ProviderConfig(t, refserver.SeedAdminID)+brandingConfig("icon", brandingFile("icon.png"), "logo", brandingFile("logo.gif")),
			"Not Available on This Plan", "logo =", "Upgrade to access"),
	)
}

// TestAccRealmBranding_largeFile: a file over Zulip's default limit is a
// warning at plan (a server may raise the limit), and the server's refusal
// at apply.
func TestAccRealmBranding_largeFile(t *testing.T) {
	srv := acctest.NewServer(t)
	big := filepath.Join(t.TempDir(), "big.png")
	data, err := os.ReadFile(brandingFile("icon.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, append(data, make([]byte, 5<<20)...), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &acctest.DiagRecorder{}
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID) + brandingConfig("icon", big)).
				Plan(acctest.DiagCheck{Diags: rec, Pattern: `Image Larger Than Zulip's Default Limit: .*big\.png is 5\.0 MiB`}).
				Fails(acctest.ExpectErr("Uploaded file is larger than the allowed limit of 5 MiB")).Step(),
		},
	})
}

// TestAccRealmBranding_generatedConfig: the generated configuration of the
// imported branding is accepted as it is.
func TestAccRealmBranding_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: acctest.GeneratedConfigSteps(srv.ProviderConfig(t, refserver.SeedAdminID), "", brandingAddr, srv.URL),
	})
}

// TestAccRealmBranding_example applies the documentation's example, its
// ${path.module} being the example's directory.
func TestAccRealmBranding_example(t *testing.T) {
	srv := acctest.NewServer(t)
	dir, err := filepath.Abs(acctest.RepoPath("examples/resources/zulip_realm_branding"))
	if err != nil {
		t.Fatal(err)
	}
	example := strings.ReplaceAll(acctest.ReadExample(t, "examples/resources/zulip_realm_branding/resource.tf"), "${path.module}", dir)
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+example).State(
			acctest.Value("zulip_realm_branding.this", "night_logo_sha256", knownvalue.StringExact(fileSHA256(t, filepath.Join(dir, "night-logo.gif")))),
		).Clean().OnServer(brandingIs(srv, "after the example", func(b refserver.Branding) bool {
			return b.IconSource == "U" && b.LogoSource == "U" && b.NightLogoSource == "U"
		})).Step(),
	)
}
