package sms

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Lifetime bounds documented for a conversation, in hours.
const (
	// MinLifetimeHours is the shortest lifetime the API accepts.
	MinLifetimeHours = 1
	// MaxLifetimeHours is the longest lifetime the API accepts.
	MaxLifetimeHours = 72
	// DefaultLifetimeHours is what the server uses when no lifetime is sent.
	DefaultLifetimeHours = 16
)

// e164Pattern is the strict ITU-T E.164 shape: "+", a non-zero country code
// digit, at most 15 digits in all. 46elks only documents "E.164 format".
var e164Pattern = regexp.MustCompile(`^\+[1-9][0-9]{1,14}$`)

// ValidationError reports a request that was refused before anything was
// sent. Field names the API parameter, so the provider can point at the
// matching attribute.
type ValidationError struct {
	// Field is the API parameter name ("to", "message", "reply_url", ...).
	Field string
	// Reason says what is wrong, as a sentence fragment.
	Reason string
}

// Error implements error.
func (e *ValidationError) Error() string {
	return fmt.Sprintf("sms: invalid %s: %s", e.Field, e.Reason)
}

// wrapField attaches a parameter name to an error from a Validate* helper.
func wrapField(field string, err error) error {
	return &ValidationError{Field: field, Reason: err.Error()}
}

// ValidateE164 checks that s is a phone number in E.164 form, such as
// "+46700000000". Exported so the provider can check it at plan time.
func ValidateE164(s string) error {
	if s == "" {
		return errors.New("must not be empty")
	}
	if !e164Pattern.MatchString(s) {
		return fmt.Errorf("%q is not an E.164 phone number (a \"+\", the country code and the number, at most 15 digits, e.g. +46700000000)", s)
	}
	return nil
}

// ValidateLifetimeHours checks that hours is within the documented 1 to 72
// hours. It does not accept 0: "use the server default" is expressed by not
// setting a lifetime at all, which callers decide before validating.
func ValidateLifetimeHours(hours int) error {
	if hours < MinLifetimeHours || hours > MaxLifetimeHours {
		return fmt.Errorf("%d hours is outside the allowed range of %d to %d hours", hours, MinLifetimeHours, MaxLifetimeHours)
	}
	return nil
}

// ValidateReplyURL checks that s is an absolute http or https URL with a
// host: 46elks must be able to POST replies to it from the internet.
func ValidateReplyURL(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("must not be empty")
	}
	if s != strings.TrimSpace(s) {
		return errors.New("must not have leading or trailing spaces")
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%q is not a valid URL", s)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%q must be an absolute http:// or https:// URL", s)
	}
	if u.Host == "" || u.Hostname() == "" {
		return fmt.Errorf("%q has no host", s)
	}
	return nil
}
