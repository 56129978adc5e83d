package refserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"regexp"
	"strconv"
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/imagetype"
)

// Custom emoji (GET /realm/emoji, POST and DELETE /realm/emoji/{emoji_name},
// register's realm_emoji and the realm_emoji event), after newest Zulip's
// zerver/views/realm_emoji.py (upload_emoji, delete_emoji),
// zerver/lib/emoji.py (check_valid_emoji_name, check_remove_custom_emoji) and
// zerver/actions/realm_emoji.py (check_add_realm_emoji: the content type must
// be an image type both THUMBNAIL_ACCEPT_IMAGE_TYPES and INLINE_MIME_TYPES
// list, BadImageError "Invalid image format"). Choices:
//   - the image is "decoded" by its signature (PNG, GIF, JPEG, WebP, AVIF);
//     anything else is libvips_check_image's "Could not decode image; did you
//     upload an image file?";
//   - a GIF is animated when it carries the NETSCAPE2.0 looping extension,
//     which every animated GIF tool writes (Zulip counts frames);
//   - the built-in emoji names an administrator alone may override are the
//     small table of status.go, not Zulip's full name_to_codepoint;
//   - MAX_EMOJI_FILE_SIZE_MIB is Zulip's default, 5.

func init() {
	registerArea("emoji", area{seed: seedEmoji, seedStep: 60, routes: (*Server).routesEmoji,
		sections: map[string]registerSection{"realm_emoji": (*Server).registerEmoji}})
}

// CustomEmoji is a custom emoji; a deactivated one keeps its id, and its name
// may be used again by a new emoji.
type CustomEmoji struct {
	ID          int    `json:"id"`
	Name        string `json:"name"`
	AuthorID    int    `json:"author_id"`
	Deactivated bool   `json:"deactivated"`
	// File is the stored file's name; Animated says a still image exists.
	File     string `json:"file"`
	Animated bool   `json:"animated,omitempty"`
}

// realmID is the organization's id in its upload paths (one organization).
const realmID = 2

// maxEmojiFileSizeMiB is Zulip's default MAX_EMOJI_FILE_SIZE_MIB.
const maxEmojiFileSizeMiB = 5

// emojiImageTypes are the content types check_add_realm_emoji accepts.
var emojiImageTypes = map[string]string{
	"image/png": ".png", "image/gif": ".gif", "image/jpeg": ".jpeg", "image/webp": ".webp", "image/avif": ".avif",
}

var (
	emojiNameOK      = regexp.MustCompile(`^[0-9a-z\-_]+$`)
	emojiNameTrailer = regexp.MustCompile(`[\-_]$`)
)

// seedEmoji gives the organization an active emoji and a deactivated one.
func seedEmoji(r *Realm, _, _ int64) {
	r.Emoji = []*CustomEmoji{
		{ID: 1, Name: "green_tick", AuthorID: SeedOwnerID, File: "e3b0c442.png"},
		{ID: 2, Name: "old_logo", AuthorID: SeedMemberID, File: "5feceb66.png", Deactivated: true},
	}
	r.NextID["emoji"] = 2
}

// routesEmoji registers the endpoints.
func (s *Server) routesEmoji() {
	s.handle("GET /realm/emoji", authUser, s.listEmoji)
	s.handle("POST /realm/emoji/{emoji_name}", authUser, s.withEmojiEvents(s.uploadEmoji))
	s.handle("DELETE /realm/emoji/{emoji_name}", authUser, s.withEmojiEvents(s.deleteEmoji))
}

// emojiWire is every custom emoji, deactivated ones included, by id.
func (r *Realm) emojiWire() obj {
	out := obj{}
	for _, e := range r.Emoji {
		id := strconv.Itoa(e.ID)
		var still any
		if e.Animated {
			still = "/user_avatars/" + strconv.Itoa(realmID) + "/emoji/images/still/" + strings.TrimSuffix(e.File, ".gif") + ".png"
		}
		out[id] = obj{"id": id, "name": e.Name, "source_url": "/user_avatars/" + strconv.Itoa(realmID) + "/emoji/images/" + e.File,
			"still_url": still, "deactivated": e.Deactivated, "author_id": e.AuthorID}
	}
	return out
}

// activeEmoji is the active custom emoji of a name, or nil.
func (r *Realm) activeEmoji(name string) *CustomEmoji {
	for _, e := range r.Emoji {
		if e.Name == name && !e.Deactivated {
			return e
		}
	}
	return nil
}

// registerEmoji is register's realm_emoji section.
func (s *Server) registerEmoji(_ *registerRequest, out obj) {
	out["realm_emoji"] = s.realm.emojiWire()
}

// listEmoji is list_emoji: the list is public to the organization.
func (s *Server) listEmoji(c *call) (obj, error) {
	return obj{"emoji": c.realm().emojiWire()}, nil
}

// uploadEmoji is upload_emoji with check_add_realm_emoji, its checks in
// their order.
func (s *Server) uploadEmoji(c *call) (obj, error) {
	if c.user.IsGuest() {
		return nil, errBadRequest("Not allowed for guest users")
	}
	name := strings.ReplaceAll(strings.TrimSpace(c.r.PathValue("emoji_name")), " ", "_")
	if err := checkValidEmojiName(name); err != nil {
		return nil, err
	}
	r := c.realm()
	if !r.hasRealmPermission("can_add_custom_emoji_group", c.user) {
		return nil, errBadRequest("Insufficient permission")
	}
	if r.activeEmoji(name) != nil {
		return nil, errBadRequest("A custom emoji with this name already exists.")
	}
	if len(c.files) != 1 {
		return nil, errBadRequest("You must upload exactly one file.")
	}
	if _, builtIn := chatUnicodeEmoji[name]; builtIn && !c.user.IsAdmin() {
		return nil, errBadRequest("Only administrators can override built-in emoji.")
	}
	f := c.files[0]
	if len(f.Data) > maxEmojiFileSizeMiB<<20 {
		return nil, errBadRequest("Uploaded file is larger than the allowed limit of %d MiB", maxEmojiFileSizeMiB)
	}
	ct, _, _ := mime.ParseMediaType(f.ContentType)
	ext, ok := emojiImageTypes[ct]
	if !ok {
		return nil, errCode(400, "BAD_IMAGE", "Invalid image format", nil)
	}
	if imagetype.Sniff(f.Data) != ct {
		return nil, errCode(400, "BAD_IMAGE", "Could not decode image; did you upload an image file?", nil)
	}
	id := r.newID("emoji")
	key := sha256.Sum256([]byte("salt:" + strconv.Itoa(id)))
	r.Emoji = append(r.Emoji, &CustomEmoji{ID: id, Name: name, AuthorID: c.user.ID, File: hex.EncodeToString(key[:])[:8] + ext,
		Animated: ct == "image/gif" && bytes.Contains(f.Data, []byte("NETSCAPE2.0"))})
	return obj{}, nil
}

// checkValidEmojiName is check_valid_emoji_name.
func checkValidEmojiName(name string) error {
	switch {
	case name == "":
		return errBadRequest("Emoji name is missing")
	case emojiNameOK.MatchString(name) && !emojiNameTrailer.MatchString(name):
		return nil
	case emojiNameOK.MatchString(name):
		return errBadRequest("Emoji names must end with either a letter or digit.")
	}
	return errBadRequest("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.")
}

// deleteEmoji is delete_emoji: the author or an administrator deactivates it.
func (s *Server) deleteEmoji(c *call) (obj, error) {
	name := c.r.PathValue("emoji_name")
	e := c.realm().activeEmoji(name)
	if e == nil {
		return nil, errNotFound("Emoji '" + name + "' does not exist")
	}
	if !c.user.IsAdmin() && e.AuthorID != c.user.ID {
		return nil, errBadRequest("Must be an organization administrator or emoji author")
	}
	e.Deactivated = true
	return obj{}, nil
}

// withEmojiEvents sends realm_emoji update, with every emoji, after a change.
func (s *Server) withEmojiEvents(h handlerFunc) handlerFunc {
	return withEvents(h, func(*call, obj) {
		s.emit(obj{"type": "realm_emoji", "op": "update", "realm_emoji": s.realm.emojiWire()}, nil)
	})
}
