package refserver

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

// permissionEntry is one group-setting permission of either table (the
// server's, or internal/realmspec's), in the terms the description can
// check: its scope, feature level (0: the table does not say) and the system
// groups it refuses.
type permissionEntry struct {
	scope   realmspec.Scope
	name    string
	fl      int
	refuses []string
}

// serverPermissionEntries turns the server's tables into entries: the rules
// of each scope's permissionConfig, and the feature levels of the channel's
// and group's settings (the organization's are in realmSettings, which
// TestRealmTables_documented checks).
func serverPermissionEntries() []permissionEntry {
	levels := map[string]int{}
	for _, s := range channelGroupSettings {
		levels[string(realmspec.ScopeChannel)+"/"+s.name] = s.fl
	}
	for _, s := range userGroupSettings {
		levels[string(realmspec.ScopeGroup)+"/"+s.name] = s.fl
	}
	var out []permissionEntry
	for _, scope := range []struct {
		scope   realmspec.Scope
		configs map[string]permissionConfig
	}{
		{realmspec.ScopeRealm, realmPermissionConfigs},
		{realmspec.ScopeChannel, channelPermissionConfigs},
		{realmspec.ScopeGroup, groupPermissionConfigs},
	} {
		for name, cfg := range scope.configs {
			var refuses []string
			for _, g := range []struct {
				name    string
				allowed bool
			}{{sysInternet, cfg.allowInternetGroup}, {sysEveryone, cfg.allowEveryoneGroup}, {sysNobody, cfg.allowNobodyGroup}} {
				if !g.allowed {
					refuses = append(refuses, g.name)
				}
			}
			out = append(out, permissionEntry{scope: scope.scope, name: name, refuses: refuses,
				fl: levels[string(scope.scope)+"/"+name]})
		}
	}
	return out
}

// specPermissionEntries turns internal/realmspec's permissions into entries.
func specPermissionEntries() []permissionEntry {
	var out []permissionEntry
	for _, p := range realmspec.Permissions() {
		out = append(out, permissionEntry{scope: p.Scope, name: p.Name, fl: p.FL, refuses: p.Holders.Refuses()})
	}
	return out
}

// permissionQuirks are refusals the description names that newest Zulip no
// longer makes, by scope/name/group, and why.
var permissionQuirks = map[string]string{
	"group/can_mention_group/role:owners": "the description still says role:owners is refused; newest " +
		"zerver/models/groups.py dropped allow_owners_group, and the setting accepts it",
}

// permissionsNotModelled are documented permissions neither table has yet,
// by scope/name, and why.
var permissionsNotModelled = map[string]string{
	"realm/workplace_users_group": "new in Zulip 12.0 (FL477), who counts as a workplace user for billing; " +
		"neither the server's realm settings nor internal/realmspec model it yet",
}

// TestPermissionTables_documented checks both tables of the group-setting
// permissions against Zulip's raw newest description, not against each
// other: each scope's permissions are exactly the documented ones (the
// register answer's realm_* group settings, the group settings of POST
// /channels/create and of POST /user_groups/create), each with the
// documented feature level, and each refuses the system groups its
// description says it cannot be set to.
func TestPermissionTables_documented(t *testing.T) {
	doc := loadNewestDescription(t)
	documented := documentedPermissions(t, doc)
	for scope, perms := range documented {
		t.Logf("%s: %d documented permissions", scope, len(perms))
	}
	for _, table := range []struct {
		name    string
		entries []permissionEntry
	}{
		{"the server's tables", serverPermissionEntries()},
		{"internal/realmspec", specPermissionEntries()},
	} {
		seen := map[string]bool{}
		for _, e := range table.entries {
			key := string(e.scope) + "/" + e.name
			seen[key] = true
			desc, ok := documented[e.scope][e.name]
			if !ok {
				t.Errorf("%s: %s: not a documented %s permission", table.name, e.name, e.scope)
				continue
			}
			if level, found := newInLevel(desc); e.fl != 0 && (!found || level != e.fl) {
				t.Errorf("%s: %s: feature level %d, documented %d", table.name, key, e.fl, level)
			}
			for _, g := range documentedRefusals(desc) {
				if !slices.Contains(e.refuses, g) && permissionQuirks[key+"/"+g] == "" {
					t.Errorf("%s: %s: the description says it cannot be %s, which the table allows", table.name, key, g)
				}
			}
		}
		for scope, perms := range documented {
			for name := range perms {
				if key := string(scope) + "/" + name; !seen[key] && permissionsNotModelled[key] == "" {
					t.Errorf("%s: the documented %s permission %s is missing", table.name, scope, name)
				}
			}
		}
	}
}

// documentedPermissions are the documented group-setting permissions by
// scope, each with its description.
func documentedPermissions(t *testing.T, doc *openapi3.T) map[realmspec.Scope]map[string]string {
	t.Helper()
	out := map[realmspec.Scope]map[string]string{realmspec.ScopeRealm: {}}
	for key, s := range registerRealmKeys(t, doc) {
		if flat := flattenAllOf(s); documentsGroupSetting(flat) {
			out[realmspec.ScopeRealm][strings.TrimPrefix(key, "realm_")] = flat.Description
		}
	}
	out[realmspec.ScopeChannel] = groupSettingParams(t, doc, "/channels/create")
	out[realmspec.ScopeGroup] = groupSettingParams(t, doc, "/user_groups/create")
	return out
}

// groupSettingParams are the group-setting parameters of a POST endpoint's
// form body, with their descriptions.
func groupSettingParams(t *testing.T, doc *openapi3.T, path string) map[string]string {
	t.Helper()
	item := doc.Paths.Find(path)
	if item == nil || item.Post == nil || item.Post.RequestBody == nil || item.Post.RequestBody.Value == nil {
		t.Fatalf("the description has no POST %s with a body", path)
	}
	out := map[string]string{}
	for _, media := range item.Post.RequestBody.Value.Content {
		if media.Schema == nil || media.Schema.Value == nil {
			continue
		}
		names := make([]string, 0, len(media.Schema.Value.Properties))
		for name := range media.Schema.Value.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			ref := media.Schema.Value.Properties[name]
			if ref == nil || ref.Value == nil {
				continue
			}
			if flat := flattenAllOf(ref.Value); documentsGroupSetting(flat) {
				out[name] = flat.Description
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("POST %s documents no group-setting parameter", path)
	}
	return out
}

// refusalNote is a description's "cannot be set to `"role:a"` and
// `"role:b"` system groups".
var refusalNote = regexp.MustCompile(`(?s)cannot be set to (.*?)\s*\[?system groups`)

// systemGroupName is a system group's name in a description.
var systemGroupName = regexp.MustCompile(`role:[a-z]+`)

// documentedRefusals are the system groups a description says the setting
// cannot be set to.
func documentedRefusals(description string) []string {
	var out []string
	for _, m := range refusalNote.FindAllStringSubmatch(description, -1) {
		out = append(out, systemGroupName.FindAllString(m[1], -1)...)
	}
	return out
}
