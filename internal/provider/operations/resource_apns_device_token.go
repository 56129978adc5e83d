package operations

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*apnsDeviceTokenResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*apnsDeviceTokenResource)(nil)
)

// maxPushTokenLength is the longest push token Zulip accepts (validate_token).
const maxPushTokenLength = 4096

// featureAPNsHexTokens is the feature level from which Zulip requires APNs
// tokens to be hexadecimal (validate_token's bytes.fromhex in
// zerver/lib/push_notifications.py); older servers decoded them as base64.
// Zulip's API changelog does not record the change; it came with the
// end-to-end-encrypted push registration of feature level 406 (Zulip 11.0).
const featureAPNsHexTokens = 406

// reAPNsAppID is the format Zulip requires of an iOS app id (ApnsAppId).
var reAPNsAppID = regexp.MustCompile(`^[.a-zA-Z0-9-]+$`)

// NewAPNsDeviceTokenResource returns the zulip_apns_device_token resource.
func NewAPNsDeviceTokenResource() resource.Resource {
	return &apnsDeviceTokenResource{ResourceBase: kit.ResourceBase{Name: "apns_device_token"}}
}

// apnsDeviceTokenResource registers an iOS push token for the provider's account.
type apnsDeviceTokenResource struct {
	kit.ResourceBase
}

// apnsDeviceTokenResourceModel is the zulip_apns_device_token state.
type apnsDeviceTokenResourceModel struct {
	ID    types.String `tfsdk:"id"`
	Token types.String `tfsdk:"token"`
	AppID types.String `tfsdk:"app_id"`
}

// Schema describes the resource.
func (r *apnsDeviceTokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Registers an Apple Push Notification service (APNs) device token for the account the " +
			"provider is configured with, so that the Zulip server sends that iOS device push notifications " +
			"(`POST /users/me/apns_device_token`). Destroying the resource unregisters the token; a token already " +
			"unregistered is not an error. Bots cannot register tokens.\n\n" +
			"Zulip offers no way to read registered tokens back, so a token removed outside Terraform is not " +
			"detected (the next destroy simply finds it gone), and the resource **cannot be imported**. Changing " +
			"either argument registers the new token and removes the old one.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableString("`sha256:` followed by the SHA-256 of the token as given (Zulip stores tokens as " +
				"given and looks them up exactly): identifies the registration without revealing the token."),
			"token": schema.StringAttribute{
				Required:  true,
				Sensitive: true,
				MarkdownDescription: "The device token the iOS app received from APNs, usually 64 hexadecimal digits. " +
					"Zulip accepts 1 to 4096 characters that are hexadecimal (pairs of hex digits, in either case; " +
					"whitespace between pairs is allowed), and stores the token exactly as given, so `ABCD` and `abcd` " +
					"are two registrations. Servers before feature level 406 decoded the token as base64 instead. The " +
					"provider checks the server's rule at plan time. Registering a token the account has already " +
					"registered changes nothing on the server: it keeps the app id of the first registration.",
				Validators:    []validator.String{validators.String("an APNs device token Zulip accepts", checkAPNsTokenAnyLevel)},
				PlanModifiers: kit.RequiresReplaceString(),
			},
			"app_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The iOS app's bundle id, e.g. `org.zulip.Zulip` for the official app (letters, digits, " +
					"`.` and `-`).",
				Validators: []validator.String{validators.String("an iOS bundle id such as org.zulip.Zulip", func(s string) error {
					if !reAPNsAppID.MatchString(s) {
						return errors.New("must consist of letters, digits, '.' and '-', e.g. org.zulip.Zulip")
					}
					return nil
				})},
				PlanModifiers: kit.RequiresReplaceString(),
			},
		},
	}
}

// ModifyPlan checks the token against the rule of the configured server's
// feature level (hexadecimal since featureAPNsHexTokens, base64 before);
// the attribute validator, which cannot know the server, accepts either.
func (r *apnsDeviceTokenResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.Data.KnowsServer() {
		return
	}
	var plan apnsDeviceTokenResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !kit.Known(plan.Token) {
		return
	}
	if err := checkAPNsToken(plan.Token.ValueString(), r.Data.FeatureLevel()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("token"), "Invalid APNs Device Token",
			fmt.Sprintf("The Zulip server (Zulip %s, feature level %d) would refuse this token: %s.",
				r.Data.ServerVersion(), r.Data.FeatureLevel(), err))
	}
}

// Create registers the token.
func (r *apnsDeviceTokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[apnsDeviceTokenResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	token, appID := apnsDeviceTokenToAPI(plan)
	if err := r.Data.Client.AddAPNsToken(ctx, token, appID); err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Register APNs Device Token", "register the APNs device token", kit.RoleAny, err)
		return
	}
	apnsDeviceTokenFromAPI(token, appID, &plan)
	tflog.Info(ctx, "registered APNs device token", map[string]any{"id": plan.ID.ValueString(), "app_id": appID})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read keeps the state: Zulip has no endpoint that lists registered tokens.
func (r *apnsDeviceTokenResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {
}

// Update is never called: both arguments require replacement.
func (r *apnsDeviceTokenResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	kit.InvocationUpdate(ctx, req, resp)
}

// Delete unregisters the token; one already gone is not an error.
func (r *apnsDeviceTokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[apnsDeviceTokenResourceModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	err := r.Data.Client.RemoveAPNsToken(ctx, state.Token.ValueString())
	switch {
	case zulip.IsNotFound(err):
		tflog.Info(ctx, "APNs device token was already unregistered", map[string]any{"id": state.ID.ValueString()})
	case err != nil:
		kit.AddAPIError(&resp.Diagnostics, "Unable to Unregister APNs Device Token", "unregister the APNs device token", kit.RoleAny, err)
	}
}

// ImportState refuses: the token cannot be read from the server.
func (r *apnsDeviceTokenResource) ImportState(_ context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.AddError("Import Not Supported",
		"A zulip_apns_device_token cannot be imported: Zulip never returns registered tokens, so the provider "+
			"could not know the token it would need to unregister. Declare the resource with the token instead; "+
			"registering a token that is already registered is harmless.")
}

// apnsDeviceTokenToAPI returns the token and app id to send.
func apnsDeviceTokenToAPI(m apnsDeviceTokenResourceModel) (token, appID string) {
	return m.Token.ValueString(), m.AppID.ValueString()
}

// apnsDeviceTokenFromAPI records a registration; the server answers nothing
// beyond success, so the model keeps what was sent and gains its id.
func apnsDeviceTokenFromAPI(token, appID string, m *apnsDeviceTokenResourceModel) {
	m.ID = types.StringValue(apnsTokenID(token))
	m.Token = types.StringValue(token)
	m.AppID = types.StringValue(appID)
}

// apnsTokenID hashes the token as Zulip identifies it: exactly as given.
func apnsTokenID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// checkPushToken is the length rule Zulip applies to every push token.
func checkPushToken(s string) error {
	if s == "" || len(s) > maxPushTokenLength {
		return fmt.Errorf("must be 1 to %d characters long (Zulip: \"Empty or invalid length token\")", maxPushTokenLength)
	}
	return nil
}

// checkAPNsTokenAnyLevel accepts a token that some Zulip server accepts: the
// length rule, and hexadecimal or base64. The server's own rule is checked
// in ModifyPlan, once the server is known.
func checkAPNsTokenAnyLevel(s string) error {
	if err := checkPushToken(s); err != nil {
		return err
	}
	if !isPythonHex(s) && !isLenientBase64(s) {
		return errors.New("is not a valid APNs token: APNs tokens are hexadecimal, normally 64 hexadecimal digits " +
			"(Zulip: \"Invalid APNS token\")")
	}
	return nil
}

// checkAPNsToken is Zulip's validate_token for APNs tokens at a feature
// level: the length rule, then bytes.fromhex (since featureAPNsHexTokens,
// zerver/lib/push_notifications.py) or Python's lenient base64.b64decode
// (before).
func checkAPNsToken(s string, featureLevel int) error {
	if err := checkPushToken(s); err != nil {
		return err
	}
	if featureLevel >= featureAPNsHexTokens {
		if !isPythonHex(s) {
			return errors.New("the token must be hexadecimal (pairs of hex digits, normally 64 digits in all) " +
				"(Zulip: \"Invalid APNS token\")")
		}
		return nil
	}
	if !isLenientBase64(s) {
		return fmt.Errorf("servers before feature level %d require a token that decodes as base64 (Zulip: \"Invalid APNS token\")",
			featureAPNsHexTokens)
	}
	return nil
}

// isPythonHex reports whether Python's bytes.fromhex accepts s: pairs of
// hexadecimal digits, with ASCII whitespace allowed between pairs.
func isPythonHex(s string) bool {
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	for i := 0; i < len(s); {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			i++
			continue
		}
		if i+1 >= len(s) || !isHex(s[i]) || !isHex(s[i+1]) {
			return false
		}
		i += 2
	}
	return true
}

// isLenientBase64 reports whether Python's base64.b64decode (validate=False)
// accepts s: characters outside the alphabet are skipped, and the data
// characters must form whole groups of four or be completed by "=" padding.
func isLenientBase64(s string) bool {
	data, pads := 0, 0
	for _, c := range s {
		switch {
		case c == '=':
			pads++
		case c == '+' || c == '/' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z'):
			data++
		}
	}
	switch data % 4 {
	case 0:
		return true
	case 2:
		return pads >= 2
	case 3:
		return pads >= 1
	default:
		return false
	}
}
