package realm_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// profileFieldIDs lists the server's fields by order.
func profileFieldIDs(srv *acctest.Server) []int {
	var out []int
	srv.Do(func(r *refserver.Realm) {
		fields := slices.Clone(r.ProfileFields)
		slices.SortStableFunc(fields, func(a, b *refserver.ProfileField) int { return a.Order - b.Order })
		for _, f := range fields {
			out = append(out, f.ID)
		}
	})
	return out
}

// hclIDs writes ids as an HCL list.
func hclIDs(ids []int) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// TestAccCustomProfileFieldOrder_lifecycle: the fields are put in the
// configured order, imported, and put back after an out-of-band reorder.
func TestAccCustomProfileFieldOrder_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	ids := profileFieldIDs(srv)
	slices.Reverse(ids)
	cfg := srv.ProviderConfig(t, refserver.SeedAdminID) +
		fmt.Sprintf("resource \"zulip_custom_profile_field_order\" \"test\" {\n  fields = %s\n}\n", hclIDs(ids))
	inOrder := func() error {
		if got := profileFieldIDs(srv); !slices.Equal(got, ids) {
			return fmt.Errorf("order on the server %v, want %v", got, ids)
		}
		return nil
	}
	addr := "zulip_custom_profile_field_order.test"
	acctest.ParallelSteps(t,
		acctest.Apply(cfg).OnServer(inOrder).Clean().Step(),
		acctest.ImportVerify(addr, "custom_profile_fields"),
		acctest.Apply(cfg).OutOfBand(srv, func(r *refserver.Realm) {
			for i, f := range r.ProfileFields {
				f.Order = len(r.ProfileFields) - i // reversed
			}
		}).Planned(addr, plancheck.ResourceActionUpdate).OnServer(inOrder).Step(),
	)
}

// TestAccCustomProfileFieldOrder_validation: an incomplete order fails at plan
// naming the missing field; a member is refused.
func TestAccCustomProfileFieldOrder_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	ids := profileFieldIDs(srv)
	step := func(user int, list []int, want ...string) resource.TestStep {
		return acctest.PlanFails(srv.ProviderConfig(t, user)+
			fmt.Sprintf("resource \"zulip_custom_profile_field_order\" \"x\" {\n  fields = %s\n}\n", hclIDs(list)), want...)
	}
	acctest.ParallelSteps(t,
		step(refserver.SeedAdminID, ids[1:], "Incomplete Custom Profile Field Order", fmt.Sprintf("(id %d)", ids[0])),
		step(refserver.SeedMemberID, ids, "Insufficient Role", "administrator"),
	)
}

// TestAccCustomProfileFieldOrder_example applies the documentation's example:
// the fields in alphabetical order, and an empty plan after.
func TestAccCustomProfileFieldOrder_example(t *testing.T) {
	srv := acctest.NewServer(t)
	var want []int
	srv.Do(func(r *refserver.Realm) {
		fields := slices.Clone(r.ProfileFields)
		slices.SortFunc(fields, func(a, b *refserver.ProfileField) int { return strings.Compare(a.Name, b.Name) })
		for _, f := range fields {
			want = append(want, f.ID)
		}
	})
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+acctest.ReadExample(t, "examples/resources/zulip_custom_profile_field_order/resource.tf")).
			Clean().OnServer(func() error {
			if got := profileFieldIDs(srv); !slices.Equal(got, want) {
				return fmt.Errorf("order on the server %v, want %v", got, want)
			}
			return nil
		}).Step(),
	)
}

// TestAccCustomProfileFieldOrder_generatedConfig: the generated configuration
// of the imported order is accepted as it is.
func TestAccCustomProfileFieldOrder_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: acctest.GeneratedConfigSteps(srv.ProviderConfig(t, refserver.SeedAdminID), "", "zulip_custom_profile_field_order.test", "custom_profile_fields"),
	})
}
