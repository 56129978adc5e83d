package acctest

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// ImportFails imports addr by importID, with config (or the last applied
// one when config is empty), and expects the import to fail with an error
// matching expect (ExpectErr).
func ImportFails(config, addr, importID string, expect *regexp.Regexp) resource.TestStep {
	return resource.TestStep{Config: config, ResourceName: addr, ImportState: true, ImportStateId: importID, ExpectError: expect}
}

// ImportChecked imports addr by importID with config (or the last applied
// one when config is empty) and checks the imported state; persist keeps
// it for the next steps, as an adoption by import would.
func ImportChecked(config, addr, importID string, persist bool, check resource.ImportStateCheckFunc) resource.TestStep {
	return resource.TestStep{Config: config, ResourceName: addr, ImportState: true, ImportStateId: importID,
		ImportStatePersist: persist, ImportStateCheck: check}
}
