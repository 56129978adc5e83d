package refserver

import (
	"context"
	"sort"
	"time"
)

// The event system: what POST /register's queue receives and GET /events
// returns, modelled on zerver/tornado/event_queue.py and
// zerver/tornado/views.py get_events_backend.
//
//   - A queue holds the events sent to it since the client's last
//     acknowledgement, each with the queue's next id (0, 1, 2, ...: register
//     answers last_event_id -1). GET /events with last_event_id drops the
//     events up to it (EventQueue.prune) and returns the rest.
//   - With nothing to return and dont_block false the request is connected to
//     the queue and waits — without the server lock — until an event arrives,
//     the client goes away, or the heartbeat timer adds a {"type": "heartbeat"}
//     event (ClientDescriptor.connect_handler's timeout callback).
//   - A queue accepts the event types it was registered with (all when
//     event_types was not given); heartbeats always.
//   - A queue idle for queueIdleTimeout is forgotten, but never while a
//     request is connected to it (gcQueuesLocked); later polls are
//     BAD_EVENT_QUEUE_ID.

// defaultHeartbeat is HEARTBEAT_MIN_FREQ_SECS: how long a connected GET /events
// waits before the queue gets a heartbeat event.
const defaultHeartbeat = 45 * time.Second

// waitError is returned by a handler that has nothing to answer yet: the core
// releases the lock, waits, and runs the handler again (see serveLocked).
type waitError struct {
	woken     <-chan struct{} // closed when the awaited change happened
	timeout   time.Duration
	onTimeout func() // runs with the lock held when timeout passes first
	onGone    func() // runs with the lock held when the client went away
	s         *Server
}

// Error implements error.
func (w *waitError) Error() string { return "waiting for events" }

// wait blocks, without the lock, until the awaited change, the timeout (then
// onTimeout runs under the lock) or the end of ctx; false means the client went
// away and nothing is to be answered.
func (w *waitError) wait(ctx context.Context) bool {
	timer := time.NewTimer(w.timeout)
	defer timer.Stop()
	select {
	case <-w.woken:
		return true
	case <-timer.C:
		w.s.mu.Lock()
		w.onTimeout()
		w.s.mu.Unlock()
		return true
	case <-ctx.Done():
		w.s.mu.Lock()
		w.onGone()
		w.s.mu.Unlock()
		return false
	}
}

// heartbeat returns the configured heartbeat interval.
func (s *Server) heartbeat() time.Duration {
	if s.opts.EventHeartbeat > 0 {
		return s.opts.EventHeartbeat
	}
	return defaultHeartbeat
}

// accepts reports whether the queue takes events of the type
// (ClientDescriptor.accepts_event's event_types check).
func (q *Queue) accepts(eventType string) bool {
	if q.EventTypes == nil {
		return true
	}
	for _, t := range q.EventTypes {
		if t == eventType {
			return true
		}
	}
	return false
}

// pushEvent appends a copy of ev with the queue's next id and wakes a request
// waiting on the queue.
func (s *Server) pushEvent(q *Queue, ev obj) {
	e := make(obj, len(ev)+1)
	for k, v := range ev {
		e[k] = v
	}
	e["id"] = q.NextEventID
	q.NextEventID++
	q.Events = append(q.Events, e)
	if ch, ok := s.waiters[q.ID]; ok {
		close(ch)
		delete(s.waiters, q.ID)
	}
}

// emit sends ev to the queues of the active users for whom to returns true
// (every user when to is nil) that accept its type. Handlers call it after a
// change succeeded, with the lock held.
func (s *Server) emit(ev obj, to func(u *User) bool) {
	eventType, _ := ev["type"].(string)
	s.emitEach(eventType, func(_ *Queue, u *User) obj {
		if to != nil && !to(u) {
			return nil
		}
		return ev
	})
}

// emitToUser sends ev to one user's queues.
func (s *Server) emitToUser(userID int, ev obj) {
	s.emit(ev, func(u *User) bool { return u.ID == userID })
}

// getEvents is GET /events (zerver/tornado/views.py get_events_backend and
// zerver/tornado/event_queue.py fetch_events).
func (s *Server) getEvents(c *call) (obj, error) {
	var lastEventID *int
	if _, err := c.optJSON("last_event_id", &lastEventID); err != nil {
		return nil, err
	}
	dontBlock, err := c.optBool("dont_block", false)
	if err != nil {
		return nil, err
	}
	var eventTypes []string
	hasEventTypes, err := c.optJSON("event_types", &eventTypes)
	if err != nil {
		return nil, err
	}
	if _, ok := c.optString("queue_id"); !ok {
		if !dontBlock {
			return nil, errBadRequest("Missing 'queue_id' argument")
		}
		// A non-blocking call without a queue registers one (allocate_client_descriptor).
		if !hasEventTypes {
			eventTypes = nil
		}
		q := s.newQueue(c.user.ID, eventTypes)
		return obj{"events": []obj{}, "queue_id": q.ID}, nil
	}
	if lastEventID == nil {
		return nil, errBadRequest("Missing 'last_event_id' argument")
	}
	q, err := s.callerQueue(c)
	if err != nil {
		return nil, err
	}
	q.LastAccess = s.now().Unix()
	if err := q.acknowledge(*lastEventID); err != nil {
		return nil, err
	}
	if len(q.Events) > 0 || dontBlock {
		return obj{"events": nonNilObjs(q.Events), "queue_id": q.ID}, nil
	}
	ch, ok := s.waiters[q.ID]
	if !ok {
		ch = make(chan struct{})
		s.waiters[q.ID] = ch
	}
	id := q.ID
	return nil, &waitError{woken: ch, timeout: s.heartbeat(), s: s,
		onTimeout: func() {
			if q := s.realm.Queues[id]; q != nil && len(q.Events) == 0 {
				s.pushEvent(q, obj{"type": "heartbeat"})
			}
		},
		onGone: func() {
			// The queue is no longer connected (finish_current_handler): it
			// ages again, and the next poll waits on a fresh channel.
			if s.waiters[id] == ch {
				delete(s.waiters, id)
			}
		}}
}

// acknowledge drops the events up to through, refusing an acknowledgement
// that does not match the queue's history (fetch_events).
func (q *Queue) acknowledge(through int) error {
	if q.NewestPrunedID != nil && through < *q.NewestPrunedID {
		return errBadRequest("An event newer than %d has already been pruned!", through)
	}
	q.prune(through)
	if q.NewestPrunedID != nil && through != *q.NewestPrunedID {
		return errBadRequest("Event %d was not in this queue", through)
	}
	return nil
}

// prune drops the events with ids up to through (EventQueue.prune), noting the
// newest dropped.
func (q *Queue) prune(through int) {
	for len(q.Events) > 0 && eventID(q.Events[0]) <= through {
		id := eventID(q.Events[0])
		q.NewestPrunedID = &id
		q.Events = q.Events[1:]
	}
}

// deleteQueue is DELETE /events.
func (s *Server) deleteQueue(c *call) (obj, error) {
	q, err := s.callerQueue(c)
	if err != nil {
		return nil, err
	}
	s.dropQueue(q.ID)
	return nil, nil
}

// dropQueue forgets a queue and wakes a request waiting on it (which then
// finds the queue gone: BAD_EVENT_QUEUE_ID).
func (s *Server) dropQueue(id string) {
	delete(s.realm.Queues, id)
	if ch, ok := s.waiters[id]; ok {
		close(ch)
		delete(s.waiters, id)
	}
}

// sortedQueueIDs lists queue ids in order, so that events reach queues in a
// stable order.
func sortedQueueIDs(queues map[string]*Queue) []string {
	ids := make([]string, 0, len(queues))
	for id := range queues {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// eventID is an event's id, whether built here (int) or read back from a
// state file (float64).
func eventID(e obj) int {
	switch v := e["id"].(type) {
	case int:
		return v
	case float64:
		return int(v)
	}
	return -1
}

// Queue is a registered event queue.
type Queue struct {
	ID          string   `json:"id"`
	UserID      int      `json:"user_id"`
	EventTypes  []string `json:"event_types"`
	LastEventID int      `json:"last_event_id"`
	Created     int64    `json:"created"`
	// LastAccess is when the queue was last registered or polled (UNIX
	// seconds); queues idle for 10 minutes are garbage-collected, as in Zulip.
	LastAccess int64 `json:"last_access,omitempty"`
	// Events are the events not yet acknowledged, ids ascending; NextEventID
	// is the id the next one gets.
	Events      []obj `json:"events,omitempty"`
	NextEventID int   `json:"next_event_id,omitempty"`
	// NewestPrunedID is the id of the newest acknowledged event, if any.
	NewestPrunedID *int `json:"newest_pruned_id,omitempty"`
	// IdleTimeout is register's idle_queue_timeout in seconds (FL481); 0 is
	// the default, queueIdleTimeout.
	IdleTimeout int64 `json:"idle_timeout,omitempty"`
	// ApplyMarkdown and ClientGravatar are register's apply_markdown and
	// client_gravatar, which decide how message events render for the queue
	// (ClientDescriptor.apply_markdown, client_gravatar).
	ApplyMarkdown  bool `json:"apply_markdown,omitempty"`
	ClientGravatar bool `json:"client_gravatar,omitempty"`
	// IncludeDeactivatedGroups is the include_deactivated_groups client
	// capability (FL294): such a queue hears of a deactivated group as an
	// update, others as its removal.
	IncludeDeactivatedGroups bool `json:"include_deactivated_groups,omitempty"`
	// ArchivedChannels is the archived_channels client capability (FL315):
	// from FL378 such a queue hears of archiving and unarchiving as an
	// is_archived update, others as the channel's delete and create.
	ArchivedChannels bool `json:"archived_channels,omitempty"`
}

// idleTimeout is how long the queue survives without a poll, in seconds.
func (q *Queue) idleTimeout() int64 {
	if q.IdleTimeout > 0 {
		return q.IdleTimeout
	}
	return int64(queueIdleTimeout / time.Second)
}
