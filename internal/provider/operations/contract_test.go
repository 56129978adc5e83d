package operations_test

import (
	"fmt"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/operations"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// contract is the area's test contract (acctest.Contract).
var contract = acctest.Contract{Area: operations.Area(), Types: map[string]acctest.TypeContract{
	"zulip_apns_device_token": {Name: "APNsDeviceToken", Scale: &acctest.ScaleCase{User: refserver.SeedMemberID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_apns_device_token\" \"many%d\" {\n  token  = \"c0ffee%02d\"\n  app_id = \"org.zulip.Zulip\"\n}\n", i, i)
	}}, HalfExempt: "one request (POST /users/me/apns_device_token)",
		NotImportable: "the token cannot be read back from the server"},
	"zulip_push_test_notification":   {Name: "PushTestNotification"},
	"zulip_own_account_deactivation": {Name: "OwnAccountDeactivation"},
	"zulip_sms_question":             {Name: "SMSQuestion"},
}}

func TestContract(t *testing.T)              { contract.Check(t) }
func TestAccContract(t *testing.T)           { contract.Run(t) }
func TestAccContract_versioned(t *testing.T) { contract.RunVersioned(t) }
