package people_test

import (
	"fmt"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/people"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// contract is the area's test contract (acctest.Contract).
var contract = acctest.Contract{Area: people.Area(), Types: map[string]acctest.TypeContract{
	"zulip_user": {Name: "User", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_user\" \"many%d\" {\n  email     = \"many%d@zulip.example.com\"\n  full_name = \"Many %d\"\n  password  = \"correct-horse-battery\"\n}\n", i, i, i)
	}, Versions: acctest.WriteOnlyVersions}, Half: &acctest.HalfCase{
		User: refserver.SeedAdminID, Create: "POST /api/v1/users",
		// The password is write-only, which needs Terraform 1.11.
		Versions: acctest.WriteOnlyVersions,
		Config: `
resource "zulip_user" "test" {
  email     = "jane.doe@zulip.example.com"
  full_name = "Half Made"
  password  = "correct-horse-battery"
  role      = "moderator"
  profile_data = {
    "1" = { value = "+1-555-0101" }
  }
}
`,
	}, RenameExempt: "resources refer to users by id; an address changed out of band is the user's own drift",
		Import: &acctest.ImportCase{User: refserver.SeedOwnerID, Config: `
resource "zulip_user" "jane" {
  email     = "jane.doe@zulip.example.com"
  full_name = "Jane Doe"
}`, Setup: func(r *refserver.Realm) {
			r.NextID["user"]++
			id := r.NextID["user"]
			r.Users[id] = &refserver.User{ID: id, Email: "jane.doe@zulip.example.com", FullName: "Jane Doe",
				Role: refserver.RoleMember, IsActive: true, Timezone: "Europe/Berlin", EmailVisibility: 1}
		}}},
	"zulip_profile_data": {Name: "ProfileData", ScaleExempt: acctest.SingletonScale, HalfExempt: "one request (PATCH /users/me/profile_data)"},
	"zulip_invite_link": {Name: "InviteLink", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_invite_link\" \"many%d\" {\n  welcome_message_custom_text = \"Welcome, number %d!\"\n}\n", i, i)
	}}, Half: &acctest.HalfCase{
		// One write: a lost answer adopts the one new link that matches, and a failed read
		// of its id is completed by the next refresh (TestAccInviteLink_lostAnswer).
		User: refserver.SeedAdminID, Create: "POST /api/v1/invites/multiuse", SingleRequest: true, Config: `
resource "zulip_invite_link" "test" {
  role = "moderator"
  channel_ids = [7]
  group_ids = []
  include_realm_default_subscriptions = true
  welcome_message_custom_text = "Welcome!"
}
`}, NotImportable: "Zulip does not return a link's channels and groups", Example: &acctest.ExampleCase{User: refserver.SeedAdminID}},
}, DataSources: map[string]acctest.DataContract{
	"zulip_user": {Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("data \"zulip_user\" \"many%d\" {\n  user_id = %d\n}\n", i, i+1)
	}}},
	"zulip_user_status": {Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("data \"zulip_user_status\" \"many%d\" {\n  user_id = %d\n}\n", i, i+1) // users 1 to 5: active humans
	}}},
	"zulip_invitations": {Scale: acctest.DataBlocks(refserver.SeedAdminID, "zulip_invitations", "")},
}}

func TestContract(t *testing.T)              { contract.Check(t) }
func TestAccContract(t *testing.T)           { contract.Run(t) }
func TestAccContract_versioned(t *testing.T) { contract.RunVersioned(t) }
