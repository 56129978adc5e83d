package realm

// The organization's settings and objects: what the area declares.

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Area declares the area's types (kit.Area).
func Area() kit.Area {
	return kit.Area{
		Resources: []kit.TypeEntry{
			{TypeName: "zulip_realm", Contract: kit.ManagedObject, NewResource: NewRealmResource, Identity: &kit.SingletonIdentity,
				Destroy: settingsKept("Organization Settings"),
				Adopt: &kit.ImportSource{Stage: kit.StageOrganization, List: thisOrganization,
					ListDescription: "The organization's settings: one result, imported by the organization's URL."}},
			{TypeName: "zulip_realm_user_defaults", Contract: kit.ManagedObject, NewResource: NewRealmUserDefaultsResource, Identity: &kit.SingletonIdentity,
				Destroy: settingsKept("Default Settings for New Users"),
				Adopt: &kit.ImportSource{Stage: kit.StageOrganization, List: thisOrganization,
					ListDescription: "The organization's defaults for new users: one result, imported by the organization's URL."}},
			{TypeName: "zulip_realm_branding", Contract: kit.ManagedObject, NewResource: NewRealmBrandingResource, Identity: &kit.SingletonIdentity,
				Role: &kit.TypeRole{Need: kit.RoleAdministrator, Of: "the organization's icon and logos"},
				Destroy: &kit.Note{Title: "Images Return to Zulip's Defaults", Detail: "Destroying this resource returns each " +
					"image it manages to Zulip's default: a generated icon, Zulip's logo. Images it does not manage stay."}},
			{TypeName: "zulip_allowed_domain", Contract: kit.CollectionObject, NewResource: NewAllowedDomainResource, Identity: kit.Identity(kit.IdentityOf("domain", "The allowed domain.", false)), Journaled: true,
				Role: &kit.TypeRole{Need: kit.RoleOwner, Of: "the organization's allowed domains"},
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: kit.ImportFrom(kit.RealmDomainCollection, func(v zulip.RealmDomain) (string, string, bool) {
					return v.Domain, v.Domain, true
				}), ListDescription: "The organization's allowed e-mail domains."}},
			{TypeName: "zulip_linkifier", Contract: kit.CollectionObject, NewResource: NewLinkifierResource, Identity: kit.Identity(kit.IdentityOf("pattern", "The linkifier's pattern.", true)), Journaled: true,
				Role: &kit.TypeRole{Need: kit.RoleAdministrator, Of: "linkifiers"},
				AttrLevels: map[string]int{"example_input": featureLinkifierReverse, "reverse_template": featureLinkifierReverse,
					"alternative_url_templates": featureLinkifierAlternatives},
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: kit.ImportFrom(kit.LinkifierCollection, func(v zulip.Linkifier) (string, string, bool) {
					return v.Pattern, strconv.FormatInt(v.ID, 10), true
				}), ListDescription: "The organization's linkifiers, shown by pattern."}},
			{TypeName: "zulip_code_playground", Contract: kit.CollectionObject, NewResource: NewCodePlaygroundResource,
				Role: &kit.TypeRole{Need: kit.RoleAdministrator, Of: "code playgrounds"}, Level: featurePlaygroundTemplate, Identity: kit.Identity(kit.IdentitySpec{Attrs: []kit.IdentityAttr{
					{Name: "pygments_language", Description: "The playground's language, as Pygments names it."},
					{Name: "name", Description: "The playground's name."}}, ImportID: func(v []string) string { return v[0] + "/" + v[1] }}), Journaled: true,
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: kit.ImportFrom(kit.PlaygroundCollection, func(v zulip.Playground) (string, string, bool) {
					return v.PygmentsLanguage + " " + v.Name, v.PygmentsLanguage + "/" + v.Name, true
				}), ListDescription: "The organization's code playgrounds, shown by language and name."}},
			{TypeName: "zulip_custom_profile_field", Contract: kit.CollectionObject, NewResource: NewCustomProfileFieldResource, Identity: kit.Identity(kit.IdentityOf("name", "The field's name.", true)), Journaled: true,
				Role:    &kit.TypeRole{Need: kit.RoleAdministrator, Of: "custom profile fields"},
				Destroy: &kit.Note{Title: "Answers Will Be Deleted", Detail: "Destroying a custom profile field deletes it and every user's answer to it."},
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: kit.ImportFrom(kit.ProfileFieldCollection, func(v zulip.CustomProfileField) (string, string, bool) {
					return v.Name, v.Name, true
				}), ListDescription: "The organization's custom profile fields."}},
			{TypeName: "zulip_linkifier_order", Contract: kit.ManagedObject, NewResource: linkifierOrder.New, Identity: &kit.SingletonIdentity,
				Adopt: &kit.ImportSource{Stage: kit.StageOrders, List: kit.OrderOf(kit.LinkifierCollection, "linkifiers", func(zulip.Linkifier) bool { return true }),
					ListDescription: "The order of the organization's linkifiers: one result when there is a linkifier."}},
			{TypeName: "zulip_custom_profile_field_order", Contract: kit.ManagedObject, NewResource: profileFieldOrder.New, Identity: &kit.SingletonIdentity,
				Adopt: &kit.ImportSource{Stage: kit.StageOrders, List: kit.OrderOf(kit.ProfileFieldCollection, "custom_profile_fields", func(zulip.CustomProfileField) bool { return true }),
					ListDescription: "The order of the organization's custom profile fields: one result when there is a field."}},
			{TypeName: "zulip_user_settings_push", Contract: kit.Invocation, NewResource: NewUserSettingsPushResource, Level: featureUserSettingsOfOthers,
				Role: &kit.TypeRole{Need: kit.RoleAdministrator, Of: "other users' settings"}},
		},
		DataSources: []func() datasource.DataSource{customProfileFieldsData.New, realmData.New, serverData.New, codePlaygroundsData.New},
		State:       []string{zulip.EventTypeRealm, zulip.EventTypeRealmUserSettingsDefaults, zulip.EventTypeRealmPlaygrounds},
		Actions:     []func() action.Action{NewApplyUserSettingsAction},
	}
}

// settingsKept is what destroying a resource of settings says.
func settingsKept(what string) *kit.Note {
	return &kit.Note{Title: what + " Are Kept", Detail: "Destroying this resource only stops managing the settings: Zulip keeps them as they are."}
}

// thisOrganization is the one object of the organization's settings.
func thisOrganization(_ context.Context, d *kit.ProviderData, _ kit.FilterValues) ([]kit.ImportTarget, error) {
	return []kit.ImportTarget{{Name: "this", ID: realmURL(d.Client), Display: realmURL(d.Client)}}, nil
}
