package provider

import "testing"

// TestIsDestroyCommand: the command lines that destroy, after global flags.
func TestIsDestroyCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"terraform", "destroy"}, true},
		{[]string{"/usr/bin/terraform", "-chdir=infra", "destroy", "-auto-approve"}, true},
		{[]string{"tofu", "apply", "-auto-approve", "-destroy"}, true},
		{[]string{"terraform", "plan", "-destroy=true", "-out=x"}, true},
		{[]string{"terraform", "apply", "-auto-approve"}, false},
		{[]string{"terraform", "plan", "-var=mode=destroy"}, false},
		{[]string{"terraform", "-chdir=destroy", "plan"}, false},
		{[]string{"terraform"}, false},
		{nil, false},
	} {
		if got := isDestroyCommand(c.args); got != c.want {
			t.Errorf("isDestroyCommand(%q) = %t, want %t", c.args, got, c.want)
		}
	}
}
