package refserver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"sort"
	"time"
)

func init() {
	registerArea("events", area{routes: (*Server).routesEvents, sections: map[string]registerSection{"realm": (*Server).registerRealm}})
}

// POST /register, GET /events and DELETE /events (digest §8). The queues and
// their events are in event_queue.go.

// queueIdleTimeout is how long an unused queue survives, as in Zulip.
const queueIdleTimeout = 10 * time.Minute

// longpollTimeoutSeconds is event_queue_longpoll_timeout_seconds.
const longpollTimeoutSeconds = 90

// routesEvents registers /register and /events.
func (s *Server) routesEvents() {
	s.handle("POST /register", authUser, s.register)
	s.handle("GET /events", authUser, s.getEvents)
	s.handle("DELETE /events", authUser, s.deleteQueue)
}

// derivedKey is a 32-character alphanumeric secret derived from the server's
// seed, a kind and a number: unpredictable enough for a test server, and
// stable, so a given server hands out the same keys every run.
func (s *Server) derivedKey(kind string, n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	sum := sha256.Sum256([]byte(fmt.Sprintf("refserver/%d/%s/%d", s.opts.Seed, kind, n)))
	out := make([]byte, 32)
	for i := range out {
		out[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return string(out)
}

// newQueueID returns a fresh queue id in the UUID form of Zulip's examples,
// derived from the seed and a persisted counter (so ids never repeat across
// restarts from a state file).
func (s *Server) newQueueID() string {
	n := s.realm.newID("queue")
	sum := sha256.Sum256([]byte(fmt.Sprintf("refserver/%d/queue/%d", s.opts.Seed, n)))
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// gcQueuesLocked forgets queues idle for longer than their timeout
// (queueIdleTimeout unless register's idle_queue_timeout set one); a queue with
// a request connected to it is in use, however long it waits.
func (s *Server) gcQueuesLocked() {
	now := s.now().Unix()
	for id, q := range s.realm.Queues {
		if _, connected := s.waiters[id]; connected {
			continue
		}
		cutoff := now - q.idleTimeout()
		last := q.LastAccess
		if last == 0 {
			last = q.Created
		}
		if last < cutoff {
			s.dropQueue(id)
		}
	}
}

// dropQueuesOf deletes a user's queues (on deactivation, as Zulip does).
func (s *Server) dropQueuesOf(userID int) {
	for id, q := range s.realm.Queues {
		if q.UserID == userID {
			s.dropQueue(id)
		}
	}
}

// errBadQueue is BadEventQueueIdError.
func errBadQueue(id string) *apiError {
	return errCode(http.StatusBadRequest, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+id, obj{"queue_id": id})
}

// callerQueue finds the caller's queue by id; another user's queue is as
// unknown as a missing one (Zulip's access_client_descriptor).
func (s *Server) callerQueue(c *call) (*Queue, error) {
	id, err := c.reqString("queue_id")
	if err != nil {
		return nil, err
	}
	s.gcQueuesLocked()
	q := c.realm().Queues[id]
	if q == nil || q.UserID != c.user.ID {
		return nil, errBadQueue(id)
	}
	return q, nil
}

// Idle queue timeouts (FL481): the default, the "mobile" value and the maximum.
const (
	idleQueueTimeoutFL      = 481
	idleQueueTimeoutMobile  = 12 * 60 * 60
	idleQueueTimeoutMaximum = 7 * 24 * 60 * 60
)

// idleQueueTimeout reads register's idle_queue_timeout (FL481): a positive
// number of seconds or "mobile", capped at 7 days; 0 means the default.
func (s *Server) idleQueueTimeout(c *call) (int64, error) {
	if s.opts.FeatureLevel < idleQueueTimeoutFL {
		return 0, nil
	}
	var v any
	if ok, err := c.optJSON("idle_queue_timeout", &v); err != nil || !ok {
		return 0, err
	}
	switch x := v.(type) {
	case string:
		if x == "mobile" {
			return idleQueueTimeoutMobile, nil
		}
	case float64:
		if x >= 1 && x == float64(int64(x)) {
			return min(int64(x), idleQueueTimeoutMaximum), nil
		}
	}
	return 0, errInvalid("Invalid idle_queue_timeout")
}

// newQueue registers an event queue for the user; nil eventTypes takes every type.
func (s *Server) newQueue(userID int, eventTypes []string) *Queue {
	s.gcQueuesLocked()
	now := s.now().Unix()
	q := &Queue{ID: s.newQueueID(), UserID: userID, EventTypes: eventTypes, LastEventID: -1,
		Created: now, LastAccess: now}
	s.realm.Queues[q.ID] = q
	return q
}

// registerParams is a POST /register request as read: the event types the
// queue receives and the ones whose state is fetched (each with whether it
// was sent), the client's capabilities and client_gravatar.
type registerParams struct {
	eventTypes, fetchTypes []string
	hasEvents, hasFetch    bool
	caps                   map[string]any
	clientGravatar         bool
}

// capability reports whether the client declared the named capability true.
func (p *registerParams) capability(name string) bool { b, _ := p.caps[name].(bool); return b }

// register is POST /register.
func (s *Server) register(c *call) (obj, error) {
	p, err := readRegisterParams(c)
	if err != nil {
		return nil, err
	}
	want := p.wantedFetchTypes()
	idle, err := s.idleQueueTimeout(c)
	if err != nil {
		return nil, err
	}
	eventTypes := p.eventTypes
	if !p.hasEvents {
		eventTypes = nil // every event type
	}
	q := s.newQueue(c.user.ID, eventTypes)
	q.IdleTimeout = idle
	q.ApplyMarkdown, _ = c.optBool("apply_markdown", false)
	q.ClientGravatar = p.clientGravatar
	q.IncludeDeactivatedGroups = s.opts.FeatureLevel >= 294 && p.capability("include_deactivated_groups")
	q.ArchivedChannels = s.opts.FeatureLevel >= archivedChannelsFL && p.capability("archived_channels")

	fl := s.opts.FeatureLevel
	out := obj{
		"queue_id":            q.ID,
		"last_event_id":       -1,
		"zulip_feature_level": fl,
		"zulip_version":       s.opts.Version,
		"zulip_merge_base":    s.opts.Version,
	}
	if fl >= idleQueueTimeoutFL {
		out["idle_queue_timeout_secs"] = q.idleTimeout()
	}
	rr := &registerRequest{c: c, fl: fl, capability: p.capability, clientGravatar: p.clientGravatar}
	for _, sec := range registerSections() {
		if want[sec.fetchType] {
			sec.fill(s, rr, out)
		}
	}
	return out, nil
}

// readRegisterParams reads POST /register's parameters in Zulip's order,
// refusing a malformed one; some are validated without effect on what this
// server returns.
func readRegisterParams(c *call) (*registerParams, error) {
	p := &registerParams{}
	var err error
	if p.hasEvents, err = c.optJSON("event_types", &p.eventTypes); err != nil {
		return nil, err
	}
	if p.hasFetch, err = c.optJSON("fetch_event_types", &p.fetchTypes); err != nil {
		return nil, err
	}
	if _, err := c.optJSON("client_capabilities", &p.caps); err != nil {
		return nil, err
	}
	if p.clientGravatar, err = c.optBool("client_gravatar", true); err != nil {
		return nil, err
	}
	// Accepted and validated, without effect on what this server returns.
	for _, name := range []string{"apply_markdown", "slim_presence", "all_public_streams"} {
		if _, err := c.optBool(name, false); err != nil {
			return nil, err
		}
	}
	var narrow []any
	if _, err := c.optJSON("narrow", &narrow); err != nil {
		return nil, err
	}
	var days int
	if _, err := c.optJSON("presence_history_limit_days", &days); err != nil {
		return nil, err
	}
	if v, ok := c.optString("include_subscribers"); ok && v != "true" && v != "false" && v != "partial" {
		return nil, errInvalid("Invalid include_subscribers")
	}
	return p, nil
}

// wantedFetchTypes is the set of state types the answer carries:
// fetch_event_types when sent, else event_types when sent, else every type.
func (p *registerParams) wantedFetchTypes() map[string]bool {
	types := registerFetchTypes()
	switch {
	case p.hasFetch:
		types = p.fetchTypes
	case p.hasEvents:
		types = p.eventTypes
	}
	want := map[string]bool{}
	for _, t := range types {
		want[t] = true
	}
	return want
}

// registerCanSeeChannel decides which channels register's `streams` lists:
// those whose metadata the user may access. Members see public channels and
// the private ones they are subscribed to, administrators every channel,
// guests their subscriptions and web-public channels.
func registerCanSeeChannel(u *User, ch *Channel) bool {
	_, subscribed := ch.Subscribers[u.ID]
	switch {
	case subscribed, u.IsAdmin():
		return true
	case u.IsGuest():
		return ch.IsWebPublic
	default:
		return !ch.InviteOnly
	}
}

// nonNilObjs turns a nil list into an empty one, so JSON carries [] not null.
func nonNilObjs(l []obj) []obj {
	if l == nil {
		return []obj{}
	}
	return l
}

// avatarSource is Zulip's avatar_source letter.
func avatarSource(u *User) string {
	if u.AvatarSource == "U" {
		return "U"
	}
	return "G"
}

// profileFieldTypesWire is register's custom_profile_field_types.
func profileFieldTypesWire(fl int) obj {
	types := []struct {
		key  string
		id   int
		name string
	}{
		{"SHORT_TEXT", FieldShortText, "Short text"},
		{"LONG_TEXT", FieldLongText, "Paragraph"},
		{"SELECT", FieldSelect, "Dropdown"},
		{"DATE", FieldDate, "Date"},
		{"URL", FieldURL, "Link"},
		{"USER", FieldUser, "Users"},
		{"EXTERNAL_ACCOUNT", FieldExternalAccount, "External account"},
		{"PRONOUNS", FieldPronouns, "Pronouns"},
	}
	out := obj{}
	for _, t := range types {
		if t.id == FieldPronouns && fl < 151 {
			continue
		}
		out[t.key] = obj{"id": t.id, "name": t.name}
	}
	return out
}

// QueueIDs lists the ids of the event queues a user holds, sorted (for tests).
func (s *Server) QueueIDs(userID int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gcQueuesLocked()
	var ids []string
	for id, q := range s.realm.Queues {
		if q.UserID == userID {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// registerRealm is register's realm section.
func (s *Server) registerRealm(rr *registerRequest, out obj) {
	r := s.realm
	fl := rr.fl
	maxTopic := r.Settings.MaxTopicLength
	if maxTopic <= 0 {
		maxTopic = 60
	}
	url := realmURL(rr.c.r)
	out["realm_uri"] = url
	if fl >= 257 {
		out["realm_url"] = url
	}
	out["max_topic_length"] = maxTopic
	out["max_stream_name_length"] = 60
	out["max_stream_description_length"] = 1024
	out["max_message_length"] = r.maxMessageLength()
	out["realm_email_auth_enabled"] = r.authMethodEnabled("Email")
	out["realm_password_auth_enabled"] = r.authMethodEnabled("Email")
	out["realm_push_notifications_enabled"] = true
	out["realm_plan_type"] = r.planType()
	if fl >= 74 {
		out["event_queue_longpoll_timeout_seconds"] = longpollTimeoutSeconds
	}
	if fl >= 334 {
		out["realm_empty_topic_display_name"] = r.Settings.EmptyTopicDisplayName
	}
	if fl >= 435 {
		types := make([]obj, 0, len(r.ReportTypes))
		for _, t := range r.ReportTypes {
			types = append(types, obj{"key": t.Key, "name": t.Name})
		}
		out["server_report_message_types"] = types
	}
	s.registerRealmSettings(fl, out)
	s.registerRealmPermissions(fl, out)
}
