package refserver

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

func init() {
	registerArea("status", area{seed: seedStatuses, seedStep: 20, routes: (*Server).routesStatus, sections: map[string]registerSection{"user_status": (*Server).registerUserStatus}})
}

// maxStatusTextLength is Zulip's UserStatus.MAX_STATUS_TEXT_LENGTH.
const maxStatusTextLength = 60

// chatUnicodeEmoji is a small slice of Zulip's emoji name -> code point table,
// enough to set statuses by name as real clients do.
var chatUnicodeEmoji = map[string]string{
	"calendar":       "1f4c5",
	"car":            "1f697",
	"coffee":         "2615",
	"computer":       "1f4bb",
	"house":          "1f3e0",
	"palm_tree":      "1f334",
	"airplane":       "2708",
	"smile":          "1f604",
	"thumbs_up":      "1f44d",
	"sick":           "1f912",
	"headphones":     "1f3a7",
	"octopus":        "1f419",
	"busy":           "1f6ab",
	"working_on_it":  "1f6e0",
	"umbrella":       "2602",
	"mobile_phone":   "1f4f1",
	"spiral_notepad": "1f5d2",
	"tada":           "1f389",
}

// routesStatus registers the user status endpoints.
func (s *Server) routesStatus() {
	s.handle("GET /users/{user_id}/status", authUser, s.getUserStatus)
	s.handle("POST /users/me/status", authUser, s.updateOwnStatus)
	s.handle("POST /users/{user_id}/status", authUser, s.updateStatusForUser)
}

// getUserStatus serves GET /users/{user_id}/status (FL262, digest §7.4). The
// target is looked up like Zulip's access_user_by_id: bots and unknown ids are
// "No such user", deactivated users "User is deactivated".
func (s *Server) getUserStatus(c *call) (obj, error) {
	id, err := c.pathInt("user_id")
	if err != nil {
		return nil, err
	}
	target, err := accessChatUser(c.realm(), id)
	if err != nil {
		return nil, err
	}
	return obj{"status": s.userStatusWire(target)}, nil
}

// accessChatUser is access_user_by_id for reading a human user's data.
func accessChatUser(r *Realm, id int) (*User, error) {
	u := r.user(id)
	if u == nil || u.IsBot {
		return nil, errBadRequest("No such user")
	}
	if !u.IsActive {
		return nil, errBadRequest("User is deactivated")
	}
	return u, nil
}

// updateOwnStatus serves POST /users/me/status (update-status).
func (s *Server) updateOwnStatus(c *call) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	var away *bool
	var b bool
	ok, err := c.optJSON("away", &b)
	if err != nil {
		return nil, err
	}
	if ok {
		away = &b
	}
	return s.updateStatus(c, c.user, away)
}

// updateStatusForUser serves POST /users/{user_id}/status
// (update-status-for-user): an administrator sets another user's status; away
// is not accepted there.
func (s *Server) updateStatusForUser(c *call) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	id, err := c.pathInt("user_id")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	target := r.user(id)
	if target == nil || target.IsBot {
		return nil, errBadRequest("No such user")
	}
	if !target.IsActive {
		return nil, errBadRequest("User is deactivated")
	}
	if !c.user.IsAdmin() || (target.Role == RoleOwner && c.user.Role != RoleOwner) {
		return nil, errBadRequest("Insufficient permission")
	}
	return s.updateStatus(c, target, nil)
}

// statusUpdate is a status update as read: each field nil when not sent.
type statusUpdate struct {
	away                   *bool
	text, name, code, kind *string
}

// updateStatus applies the common status-update rules of Zulip's
// update_user_status_backend to target.
func (s *Server) updateStatus(c *call, target *User, away *bool) (obj, error) {
	u, err := readStatusUpdate(c, away)
	if err != nil {
		return nil, err
	}
	if err := u.resolveEmoji(); err != nil {
		return nil, err
	}
	u.apply(target)
	// do_update_user_status's event, to everyone: the fields the request set.
	ev := obj{"type": "user_status", "user_id": target.ID}
	if u.away != nil {
		ev["away"] = *u.away
	}
	if u.text != nil {
		ev["status_text"] = *u.text
	}
	if u.name != nil {
		ev["emoji_name"], ev["emoji_code"], ev["reaction_type"] = *u.name, *u.code, *u.kind
	}
	s.emit(ev, nil)
	return nil, nil
}

// readStatusUpdate reads a status update's parameters (away is read by the
// caller), trimming the text and refusing one too long and an update that
// sets nothing.
func readStatusUpdate(c *call, away *bool) (*statusUpdate, error) {
	u := &statusUpdate{away: away}
	for _, p := range []struct {
		key string
		dst **string
	}{{"status_text", &u.text}, {"emoji_name", &u.name}, {"emoji_code", &u.code}, {"reaction_type", &u.kind}} {
		if v, ok := c.optString(p.key); ok {
			v := v
			*p.dst = &v
		}
	}
	if u.text != nil {
		t := strings.TrimSpace(*u.text)
		if utf8.RuneCountInString(t) > maxStatusTextLength {
			return nil, errBadRequest("status_text is too long (limit: %d characters)", maxStatusTextLength)
		}
		u.text = &t
	}
	if u.away == nil && u.text == nil && u.name == nil {
		return nil, errBadRequest("Client did not pass any new values.")
	}
	return u, nil
}

// resolveEmoji completes and checks the update's emoji: an empty name
// clears it; a name alone gets its known code and type; a code or type
// without a name is refused.
func (u *statusUpdate) resolveEmoji() error {
	switch {
	case u.name != nil && *u.name == "":
		empty, unicode := "", "unicode_emoji"
		u.code, u.kind = &empty, &unicode
	case u.name != nil:
		if err := u.defaultEmojiCodeAndType(); err != nil {
			return err
		}
		if err := checkStatusEmoji(*u.name, *u.code, *u.kind); err != nil {
			return err
		}
	case (u.kind != nil && *u.kind != "") || (u.code != nil && *u.code != ""):
		return errBadRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.")
	}
	return nil
}

// defaultEmojiCodeAndType fills in the code and type of a named emoji not
// sent with them: a Unicode emoji's, or Zulip's own; another name is
// refused.
func (u *statusUpdate) defaultEmojiCodeAndType() error {
	if u.code != nil && u.kind != nil {
		return nil
	}
	name := *u.name
	known, ok := chatUnicodeEmoji[name]
	if !ok && name != "zulip" {
		return errBadRequest("Emoji '%s' does not exist", name)
	}
	if name == "zulip" {
		known = "zulip"
	}
	if u.code == nil {
		u.code = &known
	}
	if u.kind == nil {
		k := "unicode_emoji"
		if name == "zulip" {
			k = "zulip_extra_emoji"
		}
		u.kind = &k
	}
	return nil
}

// apply writes a checked update to target's status; a status left empty
// is none.
func (u *statusUpdate) apply(target *User) {
	st := UserStatus{}
	if target.Status != nil {
		st = *target.Status
	}
	if u.away != nil {
		st.Away = *u.away
	}
	if u.text != nil {
		st.StatusText = *u.text
	}
	if u.name != nil {
		st.EmojiName, st.EmojiCode, st.ReactionType = *u.name, *u.code, *u.kind
		if *u.name == "" {
			st.ReactionType = ""
		}
	}
	if st == (UserStatus{}) {
		target.Status = nil
	} else {
		target.Status = &st
	}
}

// checkStatusEmoji is Zulip's check_emoji_request for the emoji this server knows.
func checkStatusEmoji(name, code, kind string) error {
	switch kind {
	case "realm_emoji":
		// The reference realm has no custom emoji.
		return errBadRequest("Invalid custom emoji.")
	case "zulip_extra_emoji":
		if code != "zulip" {
			return errBadRequest("Invalid emoji code.")
		}
		if name != code {
			return errBadRequest("Invalid emoji name.")
		}
	case "unicode_emoji":
		known := false
		for _, c := range chatUnicodeEmoji {
			known = known || c == code
		}
		if !known {
			return errBadRequest("Invalid emoji code.")
		}
		if chatUnicodeEmoji[name] != code {
			return errBadRequest("Invalid emoji name.")
		}
	default:
		return errBadRequest("Invalid emoji type.")
	}
	return nil
}

// userStatusWire renders a user status ({} when none).
func (s *Server) userStatusWire(u *User) obj {
	out := obj{}
	if u == nil || u.Status == nil {
		return out
	}
	st := u.Status
	if st.Away {
		out["away"] = true
	}
	if st.StatusText != "" {
		out["status_text"] = st.StatusText
	}
	if st.EmojiName != "" {
		out["emoji_name"] = st.EmojiName
		out["emoji_code"] = st.EmojiCode
		out["reaction_type"] = st.ReactionType
	}
	return out
}

// registerUserStatus is register's user_status section.
func (s *Server) registerUserStatus(rr *registerRequest, out obj) {
	r := s.realm
	statuses := obj{}
	for _, id := range r.userIDs() {
		u := r.Users[id]
		if u.IsActive && u.Status != nil && *u.Status != (UserStatus{}) {
			w := s.userStatusWire(u)
			if w == nil {
				w = obj{}
			}
			statuses[strconv.Itoa(id)] = w
		}
	}
	out["user_status"] = statuses
}

// seedStatuses gives three seeded users a status.
func seedStatuses(r *Realm, _, _ int64) {
	r.Users[SeedMemberID].Status = &UserStatus{StatusText: "In a meeting", EmojiName: "calendar", EmojiCode: "1f4c5", ReactionType: "unicode_emoji"}
	r.Users[SeedMember3ID].Status = &UserStatus{Away: true}
	r.Users[SeedOwnerID].Status = &UserStatus{StatusText: "Working remotely"}

}

// UserStatus is a user's status; empty fields are omitted on the wire.
type UserStatus struct {
	StatusText   string `json:"status_text,omitempty"`
	EmojiName    string `json:"emoji_name,omitempty"`
	EmojiCode    string `json:"emoji_code,omitempty"`
	ReactionType string `json:"reaction_type,omitempty"`
	Away         bool   `json:"away,omitempty"`
}
