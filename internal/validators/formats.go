package validators

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

var domainLabel = regexp.MustCompile(`^[a-z0-9-]*$`)

// CheckDomain applies Zulip's realm-domain rules (zerver/lib/domains.py) to a
// domain as written in the configuration, which must already be the server's
// normal form (trimmed, lower case) so that the plan never shows a perpetual diff.
func CheckDomain(domain string) error {
	if strings.TrimSpace(domain) != domain {
		return errors.New("must not have leading or trailing whitespace")
	}
	if strings.ToLower(domain) != domain {
		return fmt.Errorf("must be written in lower case (%q): Zulip stores domains in lower case", strings.ToLower(domain))
	}
	switch {
	case domain == "":
		return errors.New("Invalid domain: Domain can't be empty.")
	case !strings.Contains(domain, "."):
		return errors.New("Invalid domain: Domain must have at least one dot (.)")
	case len(domain) > 255:
		return errors.New("Invalid domain: Domain is too long")
	case domain[0] == '.' || domain[len(domain)-1] == '.':
		return errors.New("Invalid domain: Domain cannot start or end with a dot (.)")
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" {
			return errors.New("Invalid domain: Consecutive '.' are not allowed.")
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return errors.New("Invalid domain: Subdomains cannot start or end with a '-'.")
		}
		if !domainLabel.MatchString(label) {
			return errors.New("Invalid domain: Domain can only have letters, numbers, '.' and '-'s.")
		}
	}
	return nil
}

// CheckEmail accepts a bare e-mail address (no display name).
func CheckEmail(s string) error {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return fmt.Errorf("%q is not a valid e-mail address", s)
	}
	return nil
}

var e164 = regexp.MustCompile(`^\+[1-9][0-9]{1,14}$`)

// CheckE164 accepts a phone number in E.164 form: '+', country code, at most 15 digits.
func CheckE164(s string) error {
	if !e164.MatchString(s) {
		return fmt.Errorf("%q is not an E.164 phone number (like +46700000000)", s)
	}
	return nil
}

// CheckHTTPURL accepts an absolute http or https URL with a host.
func CheckHTTPURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http(s) URL", s)
	}
	return nil
}

// CheckDate accepts a strict YYYY-MM-DD date.
func CheckDate(s string) error {
	t, err := time.Parse("2006-01-02", s)
	if err != nil || t.Format("2006-01-02") != s {
		return fmt.Errorf("%q is not a date in YYYY-MM-DD form", s)
	}
	return nil
}

// Domain validates a realm domain.
func Domain() validator.String {
	return String("must be a lower-case domain name that Zulip accepts", CheckDomain)
}

// Email validates an e-mail address.
func Email() validator.String { return String("must be an e-mail address", CheckEmail) }

// E164 validates a phone number in E.164 form.
func E164() validator.String { return String("must be an E.164 phone number", CheckE164) }

// HTTPURL validates an absolute http(s) URL.
func HTTPURL() validator.String { return String("must be an absolute http(s) URL", CheckHTTPURL) }
