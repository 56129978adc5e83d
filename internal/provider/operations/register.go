package operations

import (
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

// Operations: what the area declares.

// Area declares the area's types (kit.Area).
func Area() kit.Area {
	return kit.Area{
		Resources: []kit.TypeEntry{
			{TypeName: "zulip_apns_device_token", Contract: kit.ManagedObject, NewResource: NewAPNsDeviceTokenResource},
			{TypeName: "zulip_push_test_notification", Contract: kit.Invocation, NewResource: pushTestNotification.NewResource},
			{TypeName: "zulip_own_account_deactivation", Contract: kit.Invocation, NewResource: ownAccountDeactivation.NewResource},
			{TypeName: "zulip_sms_question", Contract: kit.Invocation, NewResource: NewSMSQuestionResource, NoAccount: true},
		},
		EphemeralResources: []func() ephemeral.EphemeralResource{eventQueue.New},
		Actions:            []func() action.Action{ownAccountDeactivation.NewAction, pushTestNotification.NewAction, NewRealmExportAction},
	}
}
