// Package imagetype tells an image's type from its first bytes, for the image
// types Zulip accepts for custom emoji (check_add_realm_emoji: the types both
// THUMBNAIL_ACCEPT_IMAGE_TYPES and INLINE_MIME_TYPES list). The reference
// server uses it where Zulip decodes the image; the provider, to refuse at
// plan a file Zulip would refuse.
package imagetype

import "bytes"

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
