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
	// zerver/lib/users.py check_full_name refuses what
	// zerver/lib/string_validation.py check_string_is_printable does: Unicode
	// categories Cc and Cs and the non-characters. Format characters (emoji
	// zero-width joiners, bidi marks) and private-use characters are accepted.
	if !utf8.ValidString(s) {
		return errors.New("Invalid characters in name! (not valid UTF-8)")
	}
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cs, r):
			return fmt.Errorf("Invalid characters in name! (%U is a control character)", r)
		case (r >= 0xFDD0 && r <= 0xFDEF) || r&0xFFFE == 0xFFFE:
			return fmt.Errorf("Invalid characters in name! (%U is a Unicode non-character)", r)
		}
	}
	return nil
}

// FullName validates a Zulip user's full name.
func FullName() validator.String {
	return String("must be a name Zulip accepts (2 to 100 characters, none of *`\\>\"@, no surrounding whitespace)", CheckFullName)
}
