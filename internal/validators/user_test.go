package validators

import (
	"strings"
	"testing"
)

func TestCheckFullName(t *testing.T) {
	for name, wantErr := range map[string]string{
		"Jane Doe":               "",
		"李小龍":                    "",
		"Al":                     "",
		"J":                      "Name too short!",
		strings.Repeat("a", 101): "Name too long!",
		strings.Repeat("é", 100): "",
		" Jane":                  "whitespace",
		"Jane\t":                 "whitespace",
		"Jane @Doe":              "Invalid characters",
		"Jane *Doe*":             "Invalid characters",
		`Jane "JD" Doe`:          "Invalid characters",
		"Jane\u200bDoe":          "Invalid characters",
		"Jane|15":                "Invalid format!",
		"Jane | the first":       "",
	} {
		err := CheckFullName(name)
		switch {
		case wantErr == "" && err != nil:
			t.Errorf("CheckFullName(%q) = %v, want nil", name, err)
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("CheckFullName(%q) = %v, want an error containing %q", name, err, wantErr)
		}
	}
}
