package web

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"
)

// snapshots hold Gantt pages drawn while their schedule page was built,
// for that page's frame to fetch: the frame shows exactly the schedule
// the page shows (not a later version), and the schedule is loaded and
// computed once per page view instead of twice. A frame reloaded after
// snapshotTTL, or with an unknown token, draws the stored schedule afresh.
type snapshots struct {
	mu    sync.Mutex
	byKey map[string]*snapshot
	keys  []string // oldest first
}

type snapshot struct {
	scheduleID string
	made       time.Time
	done       chan struct{}
	page       []byte
	err        error
}

const (
	snapshotTTL = time.Minute
	// maxSnapshots bounds the memory: a 5,000-activity Gantt is about 4 MB.
	maxSnapshots = 8
)

// put draws a page in the background and returns the token that fetches it.
func (s *snapshots) put(scheduleID string, draw func() ([]byte, error)) string {
	b := make([]byte, 12)
	rand.Read(b) //nolint:errcheck // crypto/rand does not fail on Linux
	key := base64.RawURLEncoding.EncodeToString(b)
	snap := &snapshot{scheduleID: scheduleID, made: time.Now(), done: make(chan struct{})}
	go func() {
		defer close(snap.done)
		snap.page, snap.err = draw()
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byKey == nil {
		s.byKey = map[string]*snapshot{}
	}
	s.byKey[key] = snap
	s.keys = append(s.keys, key)
	for len(s.keys) > maxSnapshots {
		delete(s.byKey, s.keys[0])
		s.keys = s.keys[1:]
	}
	return key
}

// get waits for the page drawn under key for scheduleID; false when there
// is none (unknown, expired, another schedule's) or ctx ends first.
func (s *snapshots) get(ctx context.Context, scheduleID, key string) ([]byte, error, bool) {
	s.mu.Lock()
	snap := s.byKey[key]
	s.mu.Unlock()
	if snap == nil || snap.scheduleID != scheduleID || time.Since(snap.made) > snapshotTTL {
		return nil, nil, false
	}
	select {
	case <-snap.done:
		return snap.page, snap.err, true
	case <-ctx.Done():
		return nil, ctx.Err(), true
	}
}
