package kit

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type refreshedModel struct {
	ID   types.Int64  `tfsdk:"id"`
	Name types.String `tfsdk:"name"`
	Tags types.List   `tfsdk:"tags"`
}

// TestStoreRefreshed: an unchanged refresh leaves the response's state as the
// framework filled it in (the stored one); a changed one sets it; a model
// with a Go slice is always set.
func TestStoreRefreshed(t *testing.T) {
	ctx := context.Background()
	s := schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.Int64Attribute{Computed: true},
		"name": schema.StringAttribute{Required: true},
		"tags": schema.ListAttribute{ElementType: types.StringType, Optional: true},
	}}
	stored := func() tfsdk.State {
		st := tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)}
		tags, _ := types.ListValueFrom(ctx, types.StringType, []string{"a"})
		if d := st.Set(ctx, &refreshedModel{ID: types.Int64Value(1), Name: types.StringValue("one"), Tags: tags}); d.HasError() {
			t.Fatal(d)
		}
		return st
	}
	read := func(st tfsdk.State) refreshedModel {
		var m refreshedModel
		if d := st.Get(ctx, &m); d.HasError() {
			t.Fatal(d)
		}
		return m
	}

	// Unchanged: Set is not called, so a marker in the response stays.
	st := stored()
	was := read(st)
	now := was
	marker := tftypes.NewValue(s.Type().TerraformType(ctx), nil)
	st.Raw = marker
	var diags diag.Diagnostics
	StoreRefreshed(ctx, &st, was, &now, &diags)
	if diags.HasError() || !st.Raw.Equal(marker) {
		t.Errorf("an unchanged refresh set the state (%v): %v", diags, st.Raw)
	}

	// Changed, in a nested list too: set.
	for name, change := range map[string]func(*refreshedModel){
		"name": func(m *refreshedModel) { m.Name = types.StringValue("two") },
		"tags": func(m *refreshedModel) { m.Tags, _ = types.ListValueFrom(ctx, types.StringType, []string{"a", "b"}) },
	} {
		st := stored()
		was := read(st)
		now := was
		change(&now)
		StoreRefreshed(ctx, &st, was, &now, &diags)
		if got := read(st); diags.HasError() || !reflect.DeepEqual(got, now) {
			t.Errorf("a refresh that changed %s left the state %+v, want %+v (%v)", name, got, now, diags)
		}
	}

	if !valuesOnly(reflect.TypeFor[refreshedModel]()) {
		t.Error("a model of framework values is not seen as one")
	}
	type withSlice struct {
		ID   types.Int64 `tfsdk:"id"`
		Rows []string    `tfsdk:"rows"`
	}
	if valuesOnly(reflect.TypeFor[withSlice]()) {
		t.Error("a model with a Go slice is seen as framework values only")
	}
}
