package validators

import (
	"fmt"
	"net"
	"strings"
	"unicode"
	"unicode/utf8"
)

// linkSchemes are the schemes Django's URLValidator accepts by default.
var linkSchemes = map[string]bool{"http": true, "https": true, "ftp": true, "ftps": true}

// CheckLinkURL accepts what Zulip accepts as the value of a Link custom profile
// field, which it checks with Django's URLValidator: an http, https, ftp or
// ftps URL of at most 2048 characters, without whitespace, whose host is a
// domain name with a top-level domain of letters (or punycode), localhost, an
// IPv4 address or a bracketed IPv6 address, with an optional port of at most
// five digits. Unlike CheckHTTPURL it rejects hosts such as "intranet" that
// have no top-level domain, as the server does.
func CheckLinkURL(s string) error {
	bad := func(why string) error {
		return fmt.Errorf("%q is not a URL Zulip accepts for a Link field: %s", s, why)
	}
	if s == "" {
		return bad("it is empty")
	}
	if len(s) > 2048 {
		return bad("it is longer than 2048 characters")
	}
	if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return bad("it contains whitespace")
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || !linkSchemes[strings.ToLower(scheme)] {
		return bad("it must start with http://, https://, ftp:// or ftps://")
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if why := linkAuthorityProblem(authority); why != "" {
		return bad(why)
	}
	return nil
}

// linkAuthorityProblem says what is wrong with a Link URL's authority (the
// part between "://" and the path): its user information, its IPv6
// address, its port or its host; "" when nothing is.
func linkAuthorityProblem(authority string) string {
	if i := strings.Index(authority, "@"); i >= 0 {
		user, password, _ := strings.Cut(authority[:i], ":")
		if user == "" || strings.ContainsAny(user, ":@/") || strings.ContainsAny(password, ":@/") {
			return "the user name or password before '@' is malformed"
		}
		authority = authority[i+1:]
	}
	host, port, why := linkHostPort(authority)
	if why != "" {
		return why
	}
	if port != "" && (len(port) > 5 || strings.Trim(port, "0123456789") != "") {
		return "the port must be at most five digits"
	}
	if host == "" && !strings.HasPrefix(authority, "[") {
		return "it has no host"
	}
	if host != "" && !linkHostOK(strings.ToLower(host)) {
		return "the host must be a domain name such as example.com, localhost, or an IP address"
	}
	return ""
}

// linkHostPort splits an authority without user information into its host
// ("" for a bracketed IPv6 address, which it checks) and its port, or says
// what is malformed.
func linkHostPort(authority string) (host, port, why string) {
	if strings.HasPrefix(authority, "[") {
		end := strings.Index(authority, "]")
		if end < 0 {
			return "", "", "the IPv6 address has no closing ']'"
		}
		ip := net.ParseIP(authority[1:end])
		if ip == nil || !strings.Contains(authority[1:end], ":") {
			return "", "", "the bracketed host is not an IPv6 address"
		}
		port = authority[end+1:]
		if port != "" && !strings.HasPrefix(port, ":") {
			return "", "", "unexpected text after the IPv6 address"
		}
		return "", strings.TrimPrefix(port, ":"), ""
	}
	if h, p, found := strings.Cut(authority, ":"); found {
		if p == "" {
			return "", "", "the port after ':' is empty"
		}
		return h, p, ""
	}
	return authority, "", ""
}

// linkHostOK checks a lower-cased host: localhost, a dotted-quad IPv4 address
// without leading zeros, or labels of letters, digits, '-' and characters
// from U+00A1 to U+FFFF, ending in a top-level domain of at least two letters
// (or a punycode "xn--" label), with an optional trailing dot.
func linkHostOK(host string) bool {
	if host == "localhost" || linkIPv4(host) {
		return true
	}
	if utf8.RuneCountInString(host) > 253 {
		return false
	}
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(labels) < 2 {
		return false
	}
	for i, label := range labels {
		if !linkLabelOK(label, i == len(labels)-1) {
			return false
		}
	}
	return true
}

// linkLabelOK checks a label of a lower-cased host name: 1 to 63 letters,
// digits, '-' (not first or last) and characters from U+00A1 to U+FFFF; the
// top-level domain (tld) is a punycode "xn--" label, or at least two
// characters without digits.
func linkLabelOK(label string, tld bool) bool {
	n := utf8.RuneCountInString(label)
	if n == 0 || n > 63 || label[0] == '-' || label[len(label)-1] == '-' {
		return false
	}
	if tld && strings.HasPrefix(label, "xn--") {
		return len(label) > 4 && strings.Trim(label[4:], "abcdefghijklmnopqrstuvwxyz0123456789") == ""
	}
	if tld && n < 2 {
		return false
	}
	for _, c := range label {
		switch {
		case c == '-', c >= 'a' && c <= 'z', c >= 0xa1 && c <= 0xffff:
		case c >= '0' && c <= '9' && !tld:
		default:
			return false
		}
	}
	return true
}

// linkIPv4 reports whether s is a dotted-quad IPv4 address with octets of at
// most 255 and no leading zeros.
func linkIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 || strings.Trim(p, "0123456789") != "" || (len(p) > 1 && p[0] == '0') {
			return false
		}
		n := 0
		for _, c := range p {
			n = n*10 + int(c-'0')
		}
		if n > 255 {
			return false
		}
	}
	return true
}
