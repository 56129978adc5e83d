package provider

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

// registeredKinds are the provider's type names by the kind README.md's table
// of types gives them ("resource", "invocation", "data source", "ephemeral",
// "action", "function").
func registeredKinds() map[string][]string {
	ctx := context.Background()
	kinds := map[string][]string{}
	for _, e := range registry {
		kind := "resource"
		if e.Contract == kit.Invocation {
			kind = "invocation"
		}
		kinds[kind] = append(kinds[kind], e.TypeName)
	}
	for _, f := range dataSources {
		var m datasource.MetadataResponse
		f().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "zulip"}, &m)
		kinds["data source"] = append(kinds["data source"], m.TypeName)
	}
	for _, f := range ephemeralResources {
		var m ephemeral.MetadataResponse
		f().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: "zulip"}, &m)
		kinds["ephemeral"] = append(kinds["ephemeral"], m.TypeName)
	}
	for _, f := range actions {
		var m action.MetadataResponse
		f().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "zulip"}, &m)
		kinds["action"] = append(kinds["action"], m.TypeName)
	}
	for _, f := range functions {
		var m function.MetadataResponse
		f().Metadata(ctx, function.MetadataRequest{}, &m)
		kinds["function"] = append(kinds["function"], m.Name)
	}
	return kinds
}

// readmeRow is a row of README.md's table of types: `| kind | [`name`](page), ... | what |`.
var (
	readmeRow  = regexp.MustCompile(`^\| (resource|invocation|data source|ephemeral|action|function|list) \| (.+?) \| .+ \|$`)
	readmeLink = regexp.MustCompile("\\[`([a-z_]+)`\\]\\(([^)]+)\\)")
)

// TestReadmeListsEveryType: README.md's table of types names every type the
// registry declares, under its kind, with a link to its generated page, and
// no type the provider does not have.
func TestReadmeListsEveryType(t *testing.T) {
	root := filepath.Join("..", "..")
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string][]string{}
	for _, line := range strings.Split(string(text), "\n") {
		m := readmeRow.FindStringSubmatch(line)
		if m == nil || m[1] == "list" {
			continue
		}
		for _, l := range readmeLink.FindAllStringSubmatch(m[2], -1) {
			listed[m[1]] = append(listed[m[1]], l[1])
			if _, err := os.Stat(filepath.Join(root, l[2])); err != nil {
				t.Errorf("README.md links %s %s to %s, which does not exist", m[1], l[1], l[2])
			}
		}
	}
	for kind, names := range registeredKinds() {
		for _, n := range names {
			if !slices.Contains(listed[kind], n) {
				t.Errorf("README.md's table of types has no %s row for %s", kind, n)
			}
		}
		for _, n := range listed[kind] {
			if !slices.Contains(names, n) {
				t.Errorf("README.md's table of types lists %s %s, which the provider does not have", kind, n)
			}
		}
	}
}
