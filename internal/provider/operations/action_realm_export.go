package operations

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ action.ActionWithModifyPlan     = (*realmExportAction)(nil)
	_ action.ActionWithValidateConfig = (*realmExportAction)(nil)
)

// NewRealmExportAction returns the zulip_realm_export action.
func NewRealmExportAction() action.Action {
	return &realmExportAction{ActionBase: kit.ActionBase{Name: "realm_export"}}
}

// realmExportAction requests a data export of the organization and waits
// until Zulip has made it.
type realmExportAction struct {
	kit.ActionBase
}

type realmExportActionModel struct {
	ExportType types.String `tfsdk:"export_type"`
	Timeout    types.String `tfsdk:"timeout"`
}

// Feature levels of data exports (API changelog).
const (
	featureRealmExportTypes = zulip.ExportTypeFeatureLevel       // 304: full_with_consent
	featureRealmExportNames = zulip.ExportTypeStringFeatureLevel // 449: full_without_consent
)

// defaultRealmExportTimeout bounds the wait: Zulip's documentation says an
// export takes "anywhere from seconds to an hour" by the organization's size.
const defaultRealmExportTimeout = 30 * time.Minute

// realmExportFirstPoll and realmExportMaxPoll space the polls of GET
// /export/realm: from realmExportFirstPoll, half as long again each time, at most
// realmExportMaxPoll (a package variable so that tests could shorten it).
var (
	realmExportFirstPoll = time.Second
	realmExportMaxPoll   = 5 * time.Second
)

// realmExportProgressEvery spaces the progress messages of a long wait.
const realmExportProgressEvery = 30 * time.Second

// Schema describes the action.
func (a *realmExportAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Requests a [data export](https://zulip.com/help/export-your-organization) of the organization " +
			"each time it is invoked (`terraform apply -invoke=action.zulip_realm_export.<name>`, or an `action_trigger`), " +
			"then waits until Zulip has made it, and ends with a progress message giving the export's download URL " +
			"(`POST /export/realm`, polled through `GET /export/realm`). Needs an organization administrator; a full " +
			"export without member consent needs an owner, an organization where owners have full content access, " +
			"and feature level 449. Zulip allows five exports a week, failed and deleted ones included. " +
			"The download URL is a secret (anyone who has it can download the export): Terraform shows it in its " +
			"output, the provider never logs it. Needs Terraform 1.14 or newer.",
		Attributes: map[string]schema.Attribute{
			"export_type": schema.StringAttribute{Optional: true,
				MarkdownDescription: "`public` (the default): the organization's public data. `full_with_consent` (feature " +
					"level 304): also the private data of the users who consented to it. `full_without_consent` (feature " +
					"level 449): the private data of every user.",
				Validators: []validator.String{stringvalidator.OneOf(zulip.ExportPublic, zulip.ExportFullWithConsent, zulip.ExportFullWithoutConsent)}},
			"timeout": schema.StringAttribute{Optional: true,
				MarkdownDescription: fmt.Sprintf("How long to wait for the export to finish, as a Go duration such as `10m` "+
					"or `1h`. Default `%s`. When it runs out the action fails, and the export goes on on the server.",
					kit.FormatDuration(defaultRealmExportTimeout)),
				Validators: []validator.String{validators.String("must be a duration such as 30s or 2m", kit.CheckDuration)}},
		},
	}
}

// ValidateConfig refuses a zero timeout, which could never see an export end.
func (a *realmExportAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m realmExportActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Timeout.IsNull() || m.Timeout.IsUnknown() {
		return
	}
	if d, err := time.ParseDuration(m.Timeout.ValueString()); err == nil && d == 0 {
		resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid Timeout", "A timeout of zero could never see the export end; leave it out for the default.")
	}
}

// ModifyPlan checks the server's feature level and the provider's account's
// role for the export type.
func (a *realmExportAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var m realmExportActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || a.Data == nil || !a.Data.KnowsServer() || m.ExportType.IsUnknown() {
		return
	}
	exportType := realmExportType(m)
	attr := path.Root("export_type")
	level := map[string]int{zulip.ExportFullWithConsent: featureRealmExportTypes, zulip.ExportFullWithoutConsent: featureRealmExportNames}[exportType]
	if err := a.Data.RequireFeatureLevel(level, "export_type "+exportType); err != nil {
		resp.Diagnostics.AddAttributeError(attr, "Zulip Server Too Old", err.Error())
		return
	}
	if !a.Data.HasCreds {
		return
	}
	if exportType == zulip.ExportFullWithoutConsent {
		// Choice: an owner, as the reference server models it; Zulip's view of
		// feature level 449 was not available, and its documentation ties the
		// type to owner_full_content_access, a power of owners.
		a.Data.RequireRole(ctx, kit.RoleOwner, "A full data export without member consent", attr, &resp.Diagnostics)
		return
	}
	a.Data.RequireRole(ctx, kit.RoleAdministrator, "Exporting the organization's data", path.Empty(), &resp.Diagnostics)
}

// realmExportType is the configured export type, public when unset.
func realmExportType(m realmExportActionModel) string {
	if m.ExportType.IsNull() || m.ExportType.ValueString() == "" {
		return zulip.ExportPublic
	}
	return m.ExportType.ValueString()
}

// Invoke requests the export and waits for its end.
func (a *realmExportAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m realmExportActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !a.Data.Ready(&resp.Diagnostics) {
		return
	}
	timeout := defaultRealmExportTimeout
	if !m.Timeout.IsNull() {
		timeout, _ = time.ParseDuration(m.Timeout.ValueString()) // validated by the schema
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	exportType := realmExportType(m)
	client := a.Data.Client

	// What exists before the request: after an uncertain failure, or an old
	// server that answers no id, the new export is the one that was not there.
	before, err := client.ListRealmExports(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Data Exports", "Reading the organization's data exports (GET /export/realm) "+
			"before requesting a new one failed: "+err.Error())
		return
	}
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Requesting a %s data export of the organization", exportType)})
	id, err := client.CreateRealmExport(ctx, exportType, a.Data.FeatureLevel())
	if err != nil && !kit.IsClientError(err) {
		// Choice: the request may have reached Zulip; adopt the one new export
		// rather than request another (each counts against five a week).
		tflog.Warn(ctx, "the export request's outcome is unknown; looking for the export it may have made", map[string]any{"error": err.Error()})
		id, err = a.findNewExport(ctx, before, err)
	}
	if err != nil {
		addRealmExportError(&resp.Diagnostics, err)
		return
	}
	if id == 0 { // feature level below 182: the answer has no id
		if id, err = a.findNewExport(ctx, before, nil); err != nil {
			addRealmExportError(&resp.Diagnostics, err)
			return
		}
	}
	tflog.Info(ctx, "requested a data export", map[string]any{"export_id": id, "export_type": exportType})
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Data export %d requested; waiting for Zulip to make it (at most %s)", id, kit.FormatDuration(timeout))})

	done, err := a.wait(ctx, id, timeout, resp)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Data Export Not Finished",
				fmt.Sprintf("Data export %d was still pending after %s. Zulip goes on making it: find it in the organization's "+
					"settings (Export organization), or invoke the action with a longer timeout once it is done.", id, kit.FormatDuration(timeout)))
			return
		}
		resp.Diagnostics.AddError("Cannot Read Data Exports", fmt.Sprintf("Waiting for data export %d (GET /export/realm) failed: %s", id, err))
		return
	}
	switch {
	case done.FailedTimestamp != nil:
		resp.Diagnostics.AddError("Data Export Failed", fmt.Sprintf("Zulip could not make data export %d (%s), requested at %s; it failed at %s. "+
			"The server's logs say why. It still counts against Zulip's limit of five exports a week.",
			id, exportType, unixTime(done.ExportTime), unixTime(*done.FailedTimestamp)))
	case done.DeletedTimestamp != nil || done.ExportURL == nil:
		resp.Diagnostics.AddError("Data Export Deleted", fmt.Sprintf("Data export %d was deleted before it could be downloaded.", id))
	default:
		tflog.Info(ctx, "the data export is ready", map[string]any{"export_id": id}) // never the URL: it is the download's secret
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Data export %d (%s) is ready: %s", id, exportType, *done.ExportURL)})
	}
}

// wait polls GET /export/realm, gently, until the export is no longer
// pending, sending a progress message now and then.
func (a *realmExportAction) wait(ctx context.Context, id int64, timeout time.Duration, resp *action.InvokeResponse) (zulip.RealmExport, error) {
	start := time.Now()
	lastProgress := start
	delay := realmExportFirstPoll
	for {
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return zulip.RealmExport{}, ctx.Err()
		case <-t.C:
		}
		list, err := a.Data.Client.ListRealmExports(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return zulip.RealmExport{}, ctx.Err()
			}
			return zulip.RealmExport{}, err
		}
		var found *zulip.RealmExport
		for i := range list {
			if list[i].ID == id {
				found = &list[i]
			}
		}
		if found == nil {
			return zulip.RealmExport{}, fmt.Errorf("data export %d is not in the organization's list of exports", id)
		}
		if !found.Pending {
			return *found, nil
		}
		if time.Since(lastProgress) >= realmExportProgressEvery || delay == realmExportFirstPoll {
			lastProgress = time.Now()
			resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Data export %d is still being made (%s of at most %s)",
				id, time.Since(start).Round(time.Second), kit.FormatDuration(timeout))})
		}
		delay = min(delay*3/2, realmExportMaxPoll)
	}
}

// findNewExport finds the one export that was not in before, after a request
// whose answer was lost (cause) or carried no id.
func (a *realmExportAction) findNewExport(ctx context.Context, before []zulip.RealmExport, cause error) (int64, error) {
	rctx, cancel := context.WithTimeout(ctx, kit.ReconcileTimeout)
	defer cancel()
	after, err := a.Data.Client.ListRealmExports(rctx)
	if err != nil {
		if cause != nil {
			return 0, cause
		}
		return 0, err
	}
	known := map[int64]bool{}
	for _, e := range before {
		known[e.ID] = true
	}
	var found []int64
	for _, e := range after {
		if !known[e.ID] {
			found = append(found, e.ID)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case cause != nil && len(found) == 0:
		return 0, cause
	}
	return 0, fmt.Errorf("%d new data exports appeared while this one was requested (ids %v); check the organization's "+
		"exports in its settings before invoking the action again", len(found), found)
}

// addRealmExportError explains a refused export request.
func addRealmExportError(diags *diag.Diagnostics, err error) {
	detail := "Zulip refused the data export: " + err.Error()
	if apiErr, ok := zulip.AsAPIError(err); ok && apiErr.Msg == "Exceeded rate limit." {
		detail += ". Zulip allows five data exports in seven days, failed and deleted ones included."
	}
	diags.AddError("Data Export Refused", detail)
}

// unixTime formats UNIX seconds for a message.
func unixTime(s float64) string {
	return time.Unix(int64(s), 0).UTC().Format(time.RFC3339)
}
