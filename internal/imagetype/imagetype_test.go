package imagetype

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "a.png")
	if err := os.WriteFile(png, []byte("\x89PNG\r\n\x1a\nrest"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(png, "emoji")
	if err != nil || f.ContentType != "image/png" || len(f.SHA256) != 64 || string(f.Data[1:4]) != "PNG" {
		t.Fatalf("ReadFile(png) = %+v, %v", f, err)
	}
	txt := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(txt, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(txt, "emoji"); err == nil || !strings.Contains(err.Error(), "notes.txt is not a PNG") ||
		!strings.Contains(err.Error(), "accepts for emoji") {
		t.Fatalf("ReadFile(txt) error = %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.png"), "emoji"); !os.IsNotExist(err) {
		t.Fatalf("ReadFile(missing) error = %v, want not exist", err)
	}
}
