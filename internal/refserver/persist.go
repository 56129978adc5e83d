package refserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver/smsserver"
)

// The state file holds the whole Realm as JSON (the SMS API's state in
// Realm.SMS). It is rewritten after every change, before the change is
// acknowledged, with the classic atomic-replace sequence: write a temporary file
// in the same directory, fsync it, rename it over the state file, fsync the
// directory. A crash at any moment leaves either the old or the new file, never
// a torn one, and no acknowledged change is lost.

// tempPrefix is the name prefix of the temporary files writeFileAtomic
// creates for path (os.CreateTemp adds a random suffix).
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// removeStaleTemps deletes the temporary files a killed server left beside the
// state file: a kill between CreateTemp and Rename leaves one, and nothing
// else would ever remove it. Only files with the exact prefix writeFileAtomic
// uses are touched. It returns the names removed.
func removeStaleTemps(path string) ([]string, error) {
	dir := filepath.Dir(path)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // the directory's absence is reported when the state is written
	}
	if err != nil {
		return nil, fmt.Errorf("refserver: reading the state file's directory: %w", err)
	}
	prefix := tempPrefix(path)
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("refserver: removing a stale temporary file: %w", err)
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}

// loadState reads the realm from the state file; ok is false when there is no file.
func loadState(path string) (r *Realm, ok bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("refserver: reading state file: %w", err)
	}
	r = &Realm{}
	if err := json.Unmarshal(data, r); err != nil {
		return nil, false, fmt.Errorf("refserver: state file %s is not a realm: %w", path, err)
	}
	r.fillNil()
	return r, true, nil
}

// fillNil gives a decoded realm empty collections where the file had none.
func (r *Realm) fillNil() {
	if r.NextID == nil {
		r.NextID = map[string]int{}
	}
	if r.Users == nil {
		r.Users = map[int]*User{}
	}
	if r.Channels == nil {
		r.Channels = map[int]*Channel{}
	}
	if r.Snippets == nil {
		r.Snippets = map[int]*Snippet{}
	}
	if r.Groups == nil {
		r.Groups = map[int]*UserGroup{}
	}
	if r.Queues == nil {
		r.Queues = map[string]*Queue{}
	}
	for _, u := range r.Users {
		if u.ProfileData == nil {
			u.ProfileData = map[int]string{}
		}
	}
	seedRealmPermissions(r) // state files written before they were modelled
}

// persistLocked writes the state file, if any. The caller holds s.mu.
func (s *Server) persistLocked() error {
	if s.opts.StateFile == "" || s.realm == nil {
		return nil
	}
	if s.ext.sms != nil {
		snap, err := json.Marshal(s.ext.sms.Snapshot())
		if err != nil {
			return fmt.Errorf("refserver: encoding SMS state: %w", err)
		}
		s.realm.SMS = snap
	}
	data, err := json.MarshalIndent(s.realm, "", " ")
	if err != nil {
		return fmt.Errorf("refserver: encoding state: %w", err)
	}
	if err := writeFileAtomic(s.opts.StateFile, data); err != nil {
		return fmt.Errorf("refserver: writing state file: %w", err)
	}
	return nil
}

// restoreSMS loads the SMS API's state from the realm, if it holds any.
func (s *Server) restoreSMS(r *Realm) error {
	if len(r.SMS) == 0 || string(r.SMS) == "null" {
		return nil
	}
	var st smsserver.State
	if err := json.Unmarshal(r.SMS, &st); err != nil {
		return fmt.Errorf("refserver: state file: SMS state: %w", err)
	}
	return s.ext.sms.Restore(st)
}

// writeFileAtomic replaces path with data durably.
func writeFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err = tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), 0o600); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	// The directory is opened only to sync the rename; Sync's error is the one
	// that says whether it is durable.
	defer func() { _ = d.Close() }()
	return d.Sync()
}
