// Package imagetype tells an image's type from its first bytes, for the image
// types Zulip accepts for custom emoji (check_add_realm_emoji: the types both
// THUMBNAIL_ACCEPT_IMAGE_TYPES and INLINE_MIME_TYPES list). The reference
// server uses it where Zulip decodes the image; the provider, to refuse at
// plan a file Zulip would refuse.
package imagetype

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
)

// Sniff returns the content type the data's signature announces: image/png,
// image/gif, image/jpeg, image/webp or image/avif; "" for anything else.
func Sniff(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "image/gif"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "image/jpeg"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "image/webp"
	case len(data) >= 12 && string(data[4:8]) == "ftyp" && (string(data[8:12]) == "avif" || string(data[8:12]) == "avis"):
		return "image/avif"
	}
	return ""
}

// File is an image file read for upload: its bytes, the type its content
// announces, and the hex SHA-256 that the state keeps to see it change.
type File struct {
	Data        []byte
	ContentType string
	SHA256      string
}

// ReadFile reads an image file and tells its type by its content, as
// Zulip's upload views do; what is what the image is for, in the error of a
// file of another type ("emoji").
func ReadFile(name, what string) (*File, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	ct := Sniff(data)
	if ct == "" {
		return nil, fmt.Errorf("%s is not a PNG, GIF, JPEG, WebP or AVIF image, the types Zulip accepts for %s "+
			"(the server would answer \"Invalid image format\")", name, what)
	}
	sum := sha256.Sum256(data)
	return &File{Data: data, ContentType: ct, SHA256: hex.EncodeToString(sum[:])}, nil
}
