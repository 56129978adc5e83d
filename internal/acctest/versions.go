package acctest

import "github.com/hashicorp/terraform-plugin-testing/tfversion"

// EphemeralVersions skips tests of ephemeral resources on Terraform
// older than 1.10, which has none.
var EphemeralVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)}

// ActionVersions skips tests of actions below Terraform 1.14, which added them.
var ActionVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// IdentityVersions skips tests of resource identity below Terraform 1.12,
// which added it.
var IdentityVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)}

// QueryVersions skips tests of list resources below Terraform 1.14, which
// added `terraform query`.
var QueryVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// WriteOnlyVersions skips tests of write-only arguments below Terraform
// 1.11, which added them.
var WriteOnlyVersions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)}
