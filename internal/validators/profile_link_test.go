package validators

import "testing"

func TestCheckLinkURL(t *testing.T) {
	good := []string{
		"https://mark.example.org",
		"http://example.com/path?q=1#frag",
		"HTTPS://Example.COM",
		"ftp://files.example.net/pub",
		"ftps://user:secret@files.example.net:2121/",
		"http://localhost:8080/",
		"http://192.168.1.10/admin",
		"http://[::1]:9000/x",
		"https://bücher.example/",
		"https://example.xn--p1ai/",
		"https://example.com./",
		"https://a-b.c-d.example.com",
		"https://256.1.1.1.example/", // digit labels are fine before a letter TLD
	}
	for _, s := range good {
		if err := CheckLinkURL(s); err != nil {
			t.Errorf("CheckLinkURL(%q) = %v, want nil", s, err)
		}
	}
	bad := []string{
		"",
		"example.com",
		"mailto:someone@example.com",
		"javascript://example.com",
		"https://intranet/",
		"https://example.c0m/",
		"https://example.c/",
		"https://-example.com/",
		"https://example-.com/",
		"https://exa mple.com/",
		"https://example.com/a b",
		"https://example.com:123456/",
		"https://example.com:/",
		"https://example.com:port/",
		"http://01.2.3.4/",
		"http://[zz::1]/",
		"http://[::1/",
		"https://@example.com/",
		"https://",
		"https://example..com/",
	}
	for _, s := range bad {
		if err := CheckLinkURL(s); err == nil {
			t.Errorf("CheckLinkURL(%q) = nil, want an error", s)
		}
	}
}
