package refserver

import (
	"time"
)

// Slow work without the lock. Every handler runs with the server lock held,
// so a handler must not do anything slow itself: one request would stall every
// other, unauthenticated ones too. Work that needs no realm state (matching a
// linkifier's pattern against its example) is handed to offLock instead: the
// handler returns the *waitError offLock gives it, the core releases the lock
// while the work runs (serveLocked), and then runs the handler again, which
// finds the result.

// offLockJob is one piece of work of a request, done without the lock.
type offLockJob struct {
	key    string        // what was computed (the inputs), to match the rerun's
	done   chan struct{} // closed once result is set
	result any
}

// offLockTimeout is how long the core waits for a job before it runs the
// handler again (which then waits once more): there is no deadline.
const offLockTimeout = time.Hour

// offLock returns the result of fn for the request, computed without the
// server lock. The first time a request asks (for a key), it starts fn and
// returns a *waitError for the handler to return as is; when the handler runs
// again with the same key, the result is returned and forgotten. fn must not
// touch the realm: it runs while other requests change it. key names fn's
// inputs: a handler whose inputs changed between its runs (another request
// changed the realm meanwhile) gets its work done again for the new ones.
func (c *call) offLock(key string, fn func() any) (any, error) {
	s := c.s
	if job := s.offLockJobs[c]; job != nil && job.key == key {
		select {
		case <-job.done:
			delete(s.offLockJobs, c)
			return job.result, nil
		default:
			return nil, s.offLockWait(c, job)
		}
	}
	if s.offLockJobs == nil {
		s.offLockJobs = map[*call]*offLockJob{}
	}
	job := &offLockJob{key: key, done: make(chan struct{})}
	s.offLockJobs[c] = job
	started := s.offLockStarted
	go func() {
		if started != nil {
			started()
		}
		job.result = fn()
		close(job.done)
	}()
	return nil, s.offLockWait(c, job)
}

// offLockWait is the waitError that releases the lock until job is done. A
// client that goes away leaves its job to finish unobserved.
func (s *Server) offLockWait(c *call, job *offLockJob) *waitError {
	return &waitError{woken: job.done, timeout: offLockTimeout, s: s,
		onTimeout: func() {},
		onGone:    func() { delete(s.offLockJobs, c) }}
}
