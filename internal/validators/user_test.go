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
		// zerver/lib/users.py check_full_name: only Cc, Cs and non-characters
		// are refused (zerver/lib/string_validation.py check_string_is_printable).
		"Jane\u200bDoe":                   "",
		"Jane \U0001F469\u200D\U0001F4BB": "",
		"\u200fJane Doe":                  "",
		"Jane \ue000":                     "",
		"Jane\u0007Doe":                   "control character",
		"Jane\u0085Doe":                   "control character",
		"Jane\ufdd0Doe":                   "non-character",
		"Jane\uffffDoe":                   "non-character",
		"Jane\U0010fffe":                  "non-character",
		"Jane\xffDoe":                     "UTF-8",
		"Jane|15":                         "Invalid format!",
		"Jane | the first":                "",
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
