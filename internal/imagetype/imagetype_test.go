package imagetype

import "testing"

func TestSniff(t *testing.T) {
	for data, want := range map[string]string{
		"\x89PNG\r\n\x1a\n....":             "image/png",
		"GIF87a..":                          "image/gif",
		"GIF89a..":                          "image/gif",
		"\xff\xd8\xff\xe0":                  "image/jpeg",
		"RIFF\x00\x00\x00\x00WEBPVP8 ":      "image/webp",
		"\x00\x00\x00\x1cftypavif\x00\x00":  "image/avif",
		"<svg xmlns='http://www.w3.org/'/>": "",
		"":                                  "",
		"RIFF\x00\x00\x00\x00WAVE":          "",
	} {
		if got := Sniff([]byte(data)); got != want {
			t.Errorf("Sniff(%q) = %q, want %q", data, got, want)
		}
	}
}
