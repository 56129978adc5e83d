package zulip

// The message flags POST /register reports whole: the starred messages and the
// unread ones (zerver/lib/events.py fetch_initial_state_data), so that a run
// reads every managed flag once instead of asking per message.

// Fetch types of the flag snapshots. unread_msgs is answered only when both
// EventTypeUpdateMessageFlags and EventTypeMessage are fetched.
const (
	EventTypeStarredMessages    = "starred_messages"
	EventTypeUpdateMessageFlags = "update_message_flags"
	EventTypeMessage            = "message"
)

// Zulip's limits on the flag snapshots: get_starred_message_ids lists at most
// MaxStarredSnapshot messages, and get_raw_unread_data the newest
// MaxUnreadSnapshot unread ones (saying old_unreads_missing when it left some
// out).
const (
	MaxStarredSnapshot = 10000
	MaxUnreadSnapshot  = 50000
)

// UnreadMessages is register's unread_msgs: the account's unread messages by
// conversation. It leaves out channels the account is no longer subscribed to.
type UnreadMessages struct {
	Count   int `json:"count"`
	Streams []struct {
		StreamID         int64   `json:"stream_id"`
		Topic            string  `json:"topic"`
		UnreadMessageIDs []int64 `json:"unread_message_ids"`
	} `json:"streams"`
	Pms []struct {
		UnreadMessageIDs []int64 `json:"unread_message_ids"`
	} `json:"pms"`
	Huddles []struct {
		UnreadMessageIDs []int64 `json:"unread_message_ids"`
	} `json:"huddles"`
	Mentions          []int64 `json:"mentions"`
	OldUnreadsMissing bool    `json:"old_unreads_missing"`
}

// IDs are the unread messages' ids, of every conversation.
func (u *UnreadMessages) IDs() map[int64]bool {
	out := map[int64]bool{}
	for _, s := range u.Streams {
		for _, id := range s.UnreadMessageIDs {
			out[id] = true
		}
	}
	for _, p := range u.Pms {
		for _, id := range p.UnreadMessageIDs {
			out[id] = true
		}
	}
	for _, h := range u.Huddles {
		for _, id := range h.UnreadMessageIDs {
			out[id] = true
		}
	}
	return out
}

// StarredSet is the starred messages; false when the snapshot cannot tell
// (starred_messages was not fetched, or is cut at MaxStarredSnapshot). A
// decoded answer's set is built once; it must not be changed.
func (r *RegisterResponse) StarredSet() (map[int64]bool, bool) {
	if r.StarredMessages == nil || len(r.StarredMessages) >= MaxStarredSnapshot {
		return nil, false
	}
	if r.starred == nil {
		set, _ := r.flagSets()
		return set, true
	}
	return r.starred, true
}

// UnreadSet is the unread messages; false when the snapshot cannot tell
// (unread_msgs was not fetched, or leaves old unread messages out). It leaves
// out the channels the account left. A decoded answer's set is built once; it
// must not be changed.
func (r *RegisterResponse) UnreadSet() (map[int64]bool, bool) {
	if r.UnreadMsgs == nil || r.UnreadMsgs.OldUnreadsMissing {
		return nil, false
	}
	if r.unread == nil {
		_, set := r.flagSets()
		return set, true
	}
	return r.unread, true
}

// flagSets are the starred and the unread messages as sets (nil when the
// snapshot lacks them).
func (r *RegisterResponse) flagSets() (starred, unread map[int64]bool) {
	if r.StarredMessages != nil {
		starred = make(map[int64]bool, len(r.StarredMessages))
		for _, id := range r.StarredMessages {
			starred[id] = true
		}
	}
	if r.UnreadMsgs != nil {
		unread = r.UnreadMsgs.IDs()
	}
	return starred, unread
}
