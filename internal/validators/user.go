package validators

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Zulip's limits on a user's full name (UserProfile.MIN_NAME_LENGTH, MAX_NAME_LENGTH).
const (
	minFullNameLength = 2
	maxFullNameLength = 100
)

// fullNameInvalidChars are the characters Zulip refuses in names
// (UserProfile.NAME_INVALID_CHARS): they would break mention syntax.
const fullNameInvalidChars = "*`\\>\"@"

// fullNameMentionSuffix matches names ending like "|15", which Zulip bans
// because they read as an unambiguous mention of user 15.
var fullNameMentionSuffix = regexp.MustCompile(`\|[0-9]+$`)

// CheckFullName applies Zulip's check_full_name to a name as written in the
// configuration. Zulip strips surrounding whitespace, so a name with any would
// never match the server's copy; it is refused rather than silently changed.
func CheckFullName(s string) error {
	if strings.TrimSpace(s) != s {
		return errors.New("must not start or end with whitespace: Zulip strips it, so the plan would never settle")
	}
	n := utf8.RuneCountInString(s)
	switch {
	case n > maxFullNameLength:
		return fmt.Errorf("Name too long! (at most %d characters, got %d)", maxFullNameLength, n)
	case n < minFullNameLength:
		return fmt.Errorf("Name too short! (at least %d characters)", minFullNameLength)
	case strings.ContainsAny(s, fullNameInvalidChars):
		return fmt.Errorf("Invalid characters in name! (none of %s)", fullNameInvalidChars)
	case fullNameMentionSuffix.MatchString(s):
		return errors.New("Invalid format! (a name must not end with | followed by digits)")
	}
	for _, r := range s {
		if unicode.In(r, unicode.C) {
			return fmt.Errorf("Invalid characters in name! (%U is a control or format character)", r)
		}
	}
	return nil
}

// FullName validates a Zulip user's full name.
func FullName() validator.String {
	return String("must be a name Zulip accepts (2 to 100 characters, none of *`\\>\"@, no surrounding whitespace)", CheckFullName)
}
