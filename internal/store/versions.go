package store

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/versions"
)

// Version is a kept version of a schedule as a graph store holds it
// (internal/versions says which are kept and why).
type Version struct {
	versions.Info
	// OpIDs are the ops of the write that moved the data date on: a
	// compensated write forgets them, and the store drops the version
	// with them. A version kept at a commit (AwaitsCommit) is written
	// just before the ledger marks the ops committed, and stands only
	// once it has: a failed write never leaves a version standing.
	OpIDs        []string `json:"op_ids"`
	AwaitsCommit bool     `json:"awaits_commit,omitempty"`
}

// VersionWrite rides on a Change (Change.Version): the graph store keeps
// the version, with Body (EncodeVersion), and drops the versions Drop
// names, in the same transaction as the change. Keeping a version id
// already kept changes nothing.
type VersionWrite struct {
	Keep Version
	Body []byte
	Drop []string
}

// VersionStore is a graph store that keeps versions (both adapters do).
// Versions are written only through Change.Version, so they land with the
// write that moved the data date or not at all; DeleteSchedule deletes
// them; a change whose Forget names a version's op drops it.
type VersionStore interface {
	// Versions lists a schedule's versions without their bodies, in no
	// particular order (none for a schedule that is not stored).
	Versions(ctx context.Context, scheduleID string) ([]Version, error)
	// VersionBody is a version's encoded schedule; ErrNotFound if none.
	VersionBody(ctx context.Context, scheduleID, versionID string) ([]byte, error)
}

// ErrNoVersions is returned when the graph store keeps no versions (a
// test double).
var ErrNoVersions = errors.New("this store does not keep versions")

// EncodeVersion is a schedule as a version's body: gzipped JSON at the
// fastest level (a 100,000-activity schedule is about 3 MB, written in
// 0.4 s), so Max versions of a large programme stay small and keeping one
// adds little to the write that moves the data date.
func EncodeVersion(s *schedule.Schedule) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed) // a valid level: no error
	if err := json.NewEncoder(zw).Encode(s); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// DecodeVersion reads a version's body back.
func DecodeVersion(body []byte) (*schedule.Schedule, error) {
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("version body: %w", err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("version body: %w", err)
	}
	var s schedule.Schedule
	if err := json.Unmarshal(text, &s); err != nil {
		return nil, fmt.Errorf("version body: %w", err)
	}
	return &s, nil
}

// versionStore is the graph store's versions, or ok false.
func (c *Coordinator) versionStore() (VersionStore, bool) {
	v, ok := c.Graph.(VersionStore)
	return v, ok
}

// keep is the VersionWrite that keeps before (the schedule a write moves
// the data date away from) for the write's ops, dropping the oldest
// versions past versions.Max; nil when the store keeps none.
func (c *Coordinator) keep(ctx context.Context, scheduleID string, before *schedule.Schedule, opIDs []string, why string, awaitsCommit bool) (*VersionWrite, error) {
	vs, ok := c.versionStore()
	if !ok {
		return nil, nil
	}
	kept, err := vs.Versions(ctx, scheduleID)
	if err != nil {
		return nil, fmt.Errorf("versions of schedule %q: %w", scheduleID, err)
	}
	id := versions.ID(scheduleID, opIDs)
	infos := make([]versions.Info, len(kept))
	for i, v := range kept {
		if v.ID == id {
			return nil, nil // kept by an earlier try of the same write
		}
		infos[i] = v.Info
	}
	body, err := EncodeVersion(before)
	if err != nil {
		return nil, err
	}
	info := versions.Of(id, before, time.Now(), why)
	return &VersionWrite{Keep: Version{Info: info, OpIDs: slices.Clone(opIDs), AwaitsCommit: awaitsCommit},
		Body: body, Drop: versions.Prune(infos, versions.Max)}, nil
}

// keepCommitted keeps the schedule as it was before the ops opIDs when
// they moved its data date (a set_data_date, or an undo of one): after is
// the schedule now. The version awaits the commit that follows.
func (c *Coordinator) keepCommitted(ctx context.Context, scheduleID string, after *schedule.Schedule, recorded map[string]Change, opIDs []string, rec CommitRecord) error {
	if _, ok := c.versionStore(); !ok {
		return nil
	}
	metaChanged := false
	for _, ch := range recorded {
		metaChanged = metaChanged || ch.Meta != nil
	}
	if !metaChanged {
		return nil // no op of these wrote the meta: the data date stayed
	}
	before, err := c.Before(ctx, scheduleID, after, opIDs)
	if err != nil {
		return fmt.Errorf("the schedule before the ops: %w", err)
	}
	if !versions.Moved(before, after) {
		return nil
	}
	w, err := c.keep(ctx, scheduleID, before, opIDs, versions.CommitWhy(rec.Dispatch, rec.Reviewer, before.DataDate, after.DataDate), true)
	if err != nil || w == nil {
		return err
	}
	_, err = c.Graph.Apply(ctx, scheduleID, []Change{{Version: w}})
	return err
}

// Versions lists a schedule's versions that stand (their write landed,
// and was committed where it must be), by data date. ErrNoVersions when
// the store keeps none.
func (c *Coordinator) Versions(ctx context.Context, scheduleID string) ([]versions.Info, error) {
	vs, ok := c.versionStore()
	if !ok {
		return nil, fmt.Errorf("graph store: %w", ErrNoVersions)
	}
	if err := c.Settle(ctx, scheduleID); err != nil {
		return nil, err
	}
	kept, err := vs.Versions(ctx, scheduleID)
	if err != nil {
		return nil, fmt.Errorf("versions of schedule %q: %w", scheduleID, err)
	}
	// Only versions kept at a commit need the ledger's word (an import's
	// version lands in the import's own transaction); their changes are a
	// dispatch's few ops, cheap to read.
	var ops []string
	for _, v := range kept {
		if v.AwaitsCommit {
			ops = append(ops, v.OpIDs...)
		}
	}
	recorded, err := c.Graph.Recorded(ctx, scheduleID, ops)
	if err != nil {
		return nil, err
	}
	out := []versions.Info{}
	for _, v := range kept {
		if stands(v, recorded) {
			out = append(out, v.Info)
		}
	}
	return versions.Sorted(out), nil
}

// stands reports whether a version kept at a commit has its ops
// committed in the ledger; any other version stands.
func stands(v Version, recorded map[string]Change) bool {
	if !v.AwaitsCommit {
		return true
	}
	for _, op := range v.OpIDs {
		ch, ok := recorded[op]
		if !ok || ch.Committed == nil {
			return false
		}
	}
	return true
}

// LoadVersion reads a kept version of a schedule; ErrNotFound if the
// store has none by that id.
func (c *Coordinator) LoadVersion(ctx context.Context, scheduleID, versionID string) (*schedule.Schedule, error) {
	vs, ok := c.versionStore()
	if !ok {
		return nil, fmt.Errorf("graph store: %w", ErrNoVersions)
	}
	body, err := vs.VersionBody(ctx, scheduleID, versionID)
	if err != nil {
		return nil, fmt.Errorf("version %s of schedule %q: %w", versionID, scheduleID, err)
	}
	s, err := DecodeVersion(body)
	if err != nil {
		return nil, fmt.Errorf("version %s of schedule %q: %w", versionID, scheduleID, err)
	}
	return s, nil
}

// ErrNoPrevious is returned when a schedule has no version before its
// data date.
var ErrNoPrevious = errors.New("no previous version")

// Kept is a stored schedule now with its versions (Versions), to pick
// the ones a planner names from.
type Kept struct {
	ID   string
	Now  *schedule.Schedule
	List []versions.Info
	c    *Coordinator
}

// Kept reads a stored schedule and its versions.
func (c *Coordinator) Kept(ctx context.Context, scheduleID string) (*Kept, error) {
	now, err := c.Load(ctx, scheduleID)
	if err != nil {
		return nil, fmt.Errorf("stored schedule %q: %w", scheduleID, err)
	}
	list, err := c.Versions(ctx, scheduleID)
	if err != nil {
		return nil, err
	}
	return &Kept{ID: scheduleID, Now: now, List: list, c: c}, nil
}

// At is the schedule at data date d (versions.CheckDate): the schedule
// now when d is its data date (the last state at that date), else the
// version kept at it; label names it.
func (k *Kept) At(ctx context.Context, d string) (s *schedule.Schedule, label string, err error) {
	if k.Now.DataDate != "" && versions.Matches(k.Now.DataDate, d) {
		return k.Now, k.ID + " now", nil
	}
	if v, ok := versions.At(k.List, d); ok {
		s, err := k.c.LoadVersion(ctx, k.ID, v.ID)
		return s, versions.Label(k.ID, v), err
	}
	return nil, "", &NoVersionError{ScheduleID: k.ID, DataDate: d, Kept: versions.Dates(k.List), Now: versions.DateText(k.Now.DataDate)}
}

// NoVersionError is a data date a schedule has no version at, with the
// dates it has; it is ErrNotFound (errors.Is).
type NoVersionError struct{ ScheduleID, DataDate, Kept, Now string }

func (e *NoVersionError) Error() string {
	return fmt.Sprintf("schedule %q has no version at data date %s: versions are at %s, and the schedule now at %s",
		e.ScheduleID, e.DataDate, e.Kept, e.Now)
}

func (e *NoVersionError) Unwrap() error { return ErrNotFound }

// Previous is the last update before the current data date
// (versions.Previous); ErrNoPrevious, in words a planner reads, when
// there is none.
func (k *Kept) Previous(ctx context.Context) (s *schedule.Schedule, label string, err error) {
	v, ok := versions.Previous(k.List, k.Now.DataDate)
	if !ok {
		return nil, "", fmt.Errorf("schedule %q has %w: %s", k.ID, ErrNoPrevious, versions.NoneBefore(k.Now.DataDate))
	}
	s, err = k.c.LoadVersion(ctx, k.ID, v.ID)
	return s, versions.Label(k.ID, v), err
}

// Current is a stored schedule as a list of its versions shows it now.
type Current struct {
	DataDate   string `json:"data_date"`
	Activities int    `json:"activities"`
}

// VersionsNow lists a schedule's versions (Versions) with its data date
// and activities now, read from its stored summary when that carries a
// data date, so a large programme is not loaded to be listed.
func (c *Coordinator) VersionsNow(ctx context.Context, scheduleID string) (Current, []versions.Info, error) {
	list, err := c.Versions(ctx, scheduleID)
	if err != nil {
		return Current{}, nil, err
	}
	infos, err := c.Graph.Schedules(ctx)
	if err != nil {
		return Current{}, nil, err
	}
	for _, info := range infos {
		if info.ID == scheduleID && info.Summary != nil && info.Summary.DataDate != "" {
			return Current{DataDate: info.Summary.DataDate, Activities: info.Summary.Activities}, list, nil
		}
	}
	// No summary, or one without a data date (none, or written before
	// summaries kept it): the schedule says.
	s, err := c.Load(ctx, scheduleID)
	if err != nil {
		return Current{}, nil, fmt.Errorf("stored schedule %q: %w", scheduleID, err)
	}
	return Current{DataDate: s.DataDate, Activities: len(s.Activities)}, list, nil
}
