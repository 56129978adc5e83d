package kit

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// PermissionField is one permission of an object with permissions (a
// channel, a user group): where the model M, the server's object O, the
// client's create permissions C and its updates U keep it. The tables are
// generated from internal/realmspec (gen-realm).
type PermissionField[M, O, C, U any] struct {
	PermissionSetting
	Model  func(*M) *types.Object
	API    func(*O) *zulip.GroupSettingValue
	Create func(*C) **zulip.GroupSettingValue
	Update func(*U) **zulip.GroupSettingUpdate
}

// PermissionTable is an object's permissions: the kit's plan checks, schema,
// requests and reads run over it, so that a resource spells none of them.
type PermissionTable[M, O, C, U any] struct {
	Kind   permissionKind
	Fields []PermissionField[M, O, C, U]
}

// Attributes adds each permission's resource attribute to attrs.
func (t PermissionTable[M, O, C, U]) Attributes(attrs map[string]schema.Attribute) {
	for _, f := range t.Fields {
		attrs[f.Name] = ObjectPermissionAttribute(f.PermissionSetting)
	}
}

// Check checks each permission the plan sets: the server's feature level for
// it, then its value (who may hold it, the groups it names).
func (t PermissionTable[M, O, C, U]) Check(ctx context.Context, d *ProviderData, plan *M, diags *diag.Diagnostics) {
	for _, f := range t.Fields {
		v := *f.Model(plan)
		if v.IsNull() || v.IsUnknown() {
			continue
		}
		at := path.Root(f.Name)
		if err := d.RequireFeatureLevel(f.Level, f.Name); err != nil {
			diags.AddAttributeError(at, "Zulip Server Too Old", err.Error())
			continue
		}
		CheckPermissionSetting(ctx, d, at, t.Kind, f.Name, v, diags)
	}
}

// Values fills a create request with the permissions the plan sets.
func (t PermissionTable[M, O, C, U]) Values(ctx context.Context, plan *M, dir GroupDirectory, req *C) error {
	for _, f := range t.Fields {
		v, err := PermissionValue(ctx, *f.Model(plan), dir)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		*f.Create(req) = v
	}
	return nil
}

// Changes fills an update request with the permissions the plan changes.
func (t PermissionTable[M, O, C, U]) Changes(ctx context.Context, plan, prior *M, dir GroupDirectory, req *U) error {
	for _, f := range t.Fields {
		u, err := PermissionChange(ctx, *f.Model(plan), *f.Model(prior), dir)
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
		*f.Update(req) = u
	}
	return nil
}

// Read copies into m the server object's permissions that m holds (those the
// configuration manages), or all of them when the read is an import's
// (ReadAll): a permission left out stays null in state.
func (t PermissionTable[M, O, C, U]) Read(ctx context.Context, m *M, o *O, dir GroupDirectory) {
	all := ReadsAll(ctx)
	for _, f := range t.Fields {
		if v := f.Model(m); all || !v.IsNull() {
			*v = PermissionFromAPI(f.API(o), dir)
		}
	}
}

// FromAPI is all of the server object's permissions, as a data source shows
// them.
func (t PermissionTable[M, O, C, U]) FromAPI(o *O, dir GroupDirectory) M {
	var m M
	for _, f := range t.Fields {
		*f.Model(&m) = PermissionFromAPI(f.API(o), dir)
	}
	return m
}
