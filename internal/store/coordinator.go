package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Coordinator writes both stores: the graph first, then the vectors. If the
// vector write fails, the graph write is compensated before the error is
// returned, so the stores never disagree. Every write carries op IDs that
// both stores keep in ledgers, so a retried call never applies anything
// twice and finishes what a crashed call left half done.
type Coordinator struct {
	Graph    GraphStore
	Vectors  VectorStore
	Embedder embed.Embedder
	// SearchAlpha blends vector (1) and keyword (0) search; 0.5 by default.
	SearchAlpha float64
}

// Close closes both stores.
func (c *Coordinator) Close(ctx context.Context) error {
	return errors.Join(c.Graph.Close(ctx), c.Vectors.Close(ctx))
}

// ErrExists is returned when importing over a stored schedule.
var ErrExists = errors.New("schedule already exists")

// Import stores a validated schedule under scheduleID as one op whose ID is
// a hash of the content, so a retried import is a no-op. With replace, a
// schedule already stored under that id is deleted first; without, it is
// an error. progress, if set, is told how many documents are embedded.
func (c *Coordinator) Import(ctx context.Context, scheduleID string, s *schedule.Schedule, replace bool, progress func(done, total int)) error {
	if err := schedule.Validate(s); err != nil {
		return err
	}
	body, err := json.Marshal(s)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	opID := schedule.DerivedID("import", scheduleID, hex.EncodeToString(sum[:]))
	recorded, err := c.Graph.Recorded(ctx, scheduleID, []string{opID})
	if err != nil {
		return err
	}
	change := Change{
		OpID:             opID,
		Meta:             &Meta{Name: s.Name, StartDate: s.StartDate, Calendar: s.Calendar},
		PutActivities:    s.Activities,
		PutRelationships: s.Relationships,
	}
	var existing *schedule.Schedule // what a failed replace must give back
	if _, done := recorded[opID]; !done {
		switch old, err := c.Graph.Load(ctx, scheduleID); {
		case err == nil && !replace:
			return fmt.Errorf("%w: %q (import with replace to overwrite it)", ErrExists, scheduleID)
		case err == nil:
			// Replace as a difference, so a failure can restore the old one.
			existing = old
			change = diff(old, s)
			change.OpID = opID
			change.Meta = &Meta{Name: s.Name, StartDate: s.StartDate, Calendar: s.Calendar}
		case !errors.Is(err, ErrNotFound):
			return err
		}
	}
	return c.write(ctx, scheduleID, []Change{change}, []*schedule.Schedule{s}, existing, progress)
}

// ApplyOps applies ops to a stored schedule, all or nothing, and returns
// them as applied (IDs and call strings filled) with their inverse ops
// (apply those in reverse order to undo). Ops without an ID get one from
// their content. Ops the stores already applied (a retry) are not applied
// again: their recorded result is returned.
func (c *Coordinator) ApplyOps(ctx context.Context, scheduleID string, ops []schedule.Op) (applied, inverses []schedule.Op, err error) {
	ops = slices.Clone(ops)
	ids := make([]string, len(ops))
	for i := range ops {
		if ops[i].ID == "" {
			ops[i] = ops[i].WithScope(scheduleID)
		}
		ids[i] = ops[i].ID
	}
	recorded, err := c.Graph.Recorded(ctx, scheduleID, ids)
	if err != nil {
		return nil, nil, err
	}
	current, err := c.Graph.Load(ctx, scheduleID)
	if err != nil {
		return nil, nil, err
	}
	original := current.Clone()
	changes := make([]Change, 0, len(ops))
	states := make([]*schedule.Schedule, 0, len(ops))
	for _, op := range ops {
		if rec, ok := recorded[op.ID]; ok {
			// Applied before: the graph already shows it; finish the rest.
			changes = append(changes, rec)
			states = append(states, current)
			applied = append(applied, *rec.Op)
			inverses = append(inverses, rec.Inverse...)
			continue
		}
		before := current.Clone()
		inv, err := schedule.Apply(current, &op)
		if err != nil {
			return nil, nil, err
		}
		change := diff(before, current)
		change.OpID, change.Op, change.Inverse = op.ID, &op, inv
		changes = append(changes, change)
		states = append(states, current.Clone())
		applied = append(applied, op)
		inverses = append(inverses, inv...)
	}
	if err := c.write(ctx, scheduleID, changes, states, original, nil); err != nil {
		return nil, nil, err
	}
	return applied, inverses, nil
}

// Commit makes applied ops final: the documents of everything their
// changes touched are embedded again from the schedule as it now stands
// (so no vector reflects a provisional state a later op or compensation
// overwrote), then both ledgers mark the ops committed with rec — the
// vector store first, so the graph ledger, which holds each change with its
// inverse for a later undo, is the last word. Every step is idempotent; an
// op neither ledger holds is ErrNotRecorded and nothing is marked.
func (c *Coordinator) Commit(ctx context.Context, scheduleID string, opIDs []string, rec CommitRecord) error {
	if len(opIDs) == 0 {
		return nil
	}
	recorded, err := c.Graph.Recorded(ctx, scheduleID, opIDs)
	if err != nil {
		return err
	}
	for _, op := range opIDs {
		if _, ok := recorded[op]; !ok {
			return fmt.Errorf("committing schedule %q: %w: %s", scheduleID, ErrNotRecorded, op)
		}
	}
	current, err := c.Graph.Load(ctx, scheduleID)
	if err != nil {
		return err
	}
	refresh := touched(current, recorded)
	if !refresh.Empty() {
		docs, err := c.documents(ctx, []Change{refresh}, []*schedule.Schedule{current}, current, nil)
		if err != nil {
			return err
		}
		if _, err := c.Vectors.Apply(ctx, scheduleID, docs); err != nil {
			return fmt.Errorf("committing schedule %q: refreshing documents: %w", scheduleID, err)
		}
	}
	if err := c.Vectors.Commit(ctx, scheduleID, opIDs, rec); err != nil {
		return err
	}
	return c.Graph.Commit(ctx, scheduleID, opIDs, rec)
}

// touched is an unledgered change that puts, as they now are, the
// activities and relationships the recorded changes put, and the
// relationships of those activities (their documents carry the ends' text).
func touched(current *schedule.Schedule, recorded map[string]Change) Change {
	acts, rels := map[string]bool{}, map[string]bool{}
	for _, ch := range recorded {
		for _, a := range ch.PutActivities {
			acts[a.ID] = true
		}
		for _, r := range ch.PutRelationships {
			rels[r.ID] = true
		}
	}
	var out Change
	for _, a := range current.Activities {
		if acts[a.ID] {
			out.PutActivities = append(out.PutActivities, a)
		}
	}
	for _, r := range current.Relationships {
		if rels[r.ID] || acts[r.Predecessor] || acts[r.Successor] {
			out.PutRelationships = append(out.PutRelationships, r)
		}
	}
	return out
}

// write is the two-phase write. states[i] is the schedule after changes[i]
// (it supplies relationship ends to the documents); original is the
// schedule before all of them, for compensation, or nil for an import
// (compensating that deletes the schedule).
func (c *Coordinator) write(ctx context.Context, scheduleID string, changes []Change, states []*schedule.Schedule, original *schedule.Schedule, progress func(done, total int)) error {
	if _, err := c.Graph.Apply(ctx, scheduleID, changes); err != nil {
		return fmt.Errorf("graph store: %w", err)
	}
	before := original
	if before == nil {
		before = &schedule.Schedule{}
	}
	vchanges, err := c.documents(ctx, changes, states, before, progress)
	if err == nil {
		_, err = c.Vectors.Apply(ctx, scheduleID, vchanges)
	}
	if err == nil {
		return nil
	}
	// Compensate on a context that outlives cancellation: a half-written
	// pair of stores is worse than a late return.
	undoCtx := context.WithoutCancel(ctx)
	final := states[len(states)-1]
	opIDs := make([]string, 0, len(changes))
	for _, ch := range changes {
		if ch.OpID != "" {
			opIDs = append(opIDs, ch.OpID)
		}
	}
	var graphErr, vundoErr error
	if original == nil {
		// An import: there was no schedule to go back to.
		graphErr = c.DeleteSchedule(undoCtx, scheduleID)
	} else {
		undo := diff(final, original)
		undo.Forget = opIDs
		_, graphErr = c.Graph.Apply(undoCtx, scheduleID, []Change{undo})
		// The vector store may have written part of the batch (it is not
		// transactional everywhere): put back what it held before.
		var vundo []VectorChange
		vundo, vundoErr = c.documents(undoCtx, []Change{undo}, []*schedule.Schedule{original}, final, nil)
		if vundoErr == nil {
			_, vundoErr = c.Vectors.Apply(undoCtx, scheduleID, vundo)
		}
	}
	if graphErr != nil || vundoErr != nil {
		return fmt.Errorf("vector store: %w; compensating failed too, run `autoscheduler verify`: %w", err, errors.Join(graphErr, vundoErr))
	}
	return fmt.Errorf("vector store: %w (the graph write was undone)", err)
}

// documents builds the vector side of changes: documents for what they
// put, and fresh documents for relationships whose ends changed text.
func (c *Coordinator) documents(ctx context.Context, changes []Change, states []*schedule.Schedule, before *schedule.Schedule, progress func(done, total int)) ([]VectorChange, error) {
	out := make([]VectorChange, len(changes))
	var texts []string
	type target struct {
		change int
		rel    bool
		index  int
	}
	var targets []target
	prev := activityMap(before)
	for i, ch := range changes {
		state := states[i]
		acts := activityMap(state)
		vc := VectorChange{OpID: ch.OpID, Forget: ch.Forget, DeleteActivities: ch.DeleteActivities, DeleteRelationships: ch.DeleteRelationships}
		changed := map[string]bool{}
		for _, a := range ch.PutActivities {
			vc.PutActivities = append(vc.PutActivities, ActivityDoc{ID: a.ID, Name: a.Name, Description: a.Description, Duration: a.Duration})
			texts = append(texts, embed.ActivityText(a.Name, a.Description, a.Duration))
			targets = append(targets, target{i, false, len(vc.PutActivities) - 1})
			if old, ok := prev[a.ID]; ok && old != a {
				changed[a.ID] = true
			}
		}
		rels := slices.Clone(ch.PutRelationships)
		if len(changed) > 0 {
			put := map[string]bool{}
			for _, r := range rels {
				put[r.ID] = true
			}
			for _, r := range state.Relationships {
				if !put[r.ID] && (changed[r.Predecessor] || changed[r.Successor]) {
					rels = append(rels, r)
				}
			}
		}
		for _, r := range rels {
			doc := RelationshipDoc{ID: r.ID, Type: r.Type, Lag: r.Lag, Predecessor: end(acts, r.Predecessor), Successor: end(acts, r.Successor)}
			vc.PutRelationships = append(vc.PutRelationships, doc)
			texts = append(texts, embed.RelationshipText(string(r.Type), r.Lag,
				doc.Predecessor.Name, doc.Predecessor.Description, doc.Predecessor.Duration,
				doc.Successor.Name, doc.Successor.Description, doc.Successor.Duration))
			targets = append(targets, target{i, true, len(vc.PutRelationships) - 1})
		}
		out[i] = vc
		prev = acts
	}
	vectors, err := c.embed(ctx, texts, progress)
	if err != nil {
		return nil, err
	}
	for k, t := range targets {
		if t.rel {
			out[t.change].PutRelationships[t.index].Vector = vectors[k]
		} else {
			out[t.change].PutActivities[t.index].Vector = vectors[k]
		}
	}
	return out, nil
}

// embedBatch bounds one embedding request; progress is reported per batch.
const embedBatch = 256

func (c *Coordinator) embed(ctx context.Context, texts []string, progress func(done, total int)) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += embedBatch {
		batch := texts[start:min(start+embedBatch, len(texts))]
		vs, err := c.Embedder.Embed(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("embedding: %w", err)
		}
		if len(vs) != len(batch) {
			return nil, fmt.Errorf("embedding: %d vectors for %d texts", len(vs), len(batch))
		}
		out = append(out, vs...)
		if progress != nil {
			progress(len(out), len(texts))
		}
	}
	return out, nil
}

func activityMap(s *schedule.Schedule) map[string]schedule.Activity {
	m := make(map[string]schedule.Activity, len(s.Activities))
	for _, a := range s.Activities {
		m[a.ID] = a
	}
	return m
}

func end(acts map[string]schedule.Activity, id string) End {
	a := acts[id]
	return End{ActivityID: id, Name: a.Name, Description: a.Description, Duration: a.Duration}
}

// diff is the change that turns before into after: puts for what is new or
// different, deletes for what is gone, in schedule order.
func diff(before, after *schedule.Schedule) Change {
	var ch Change
	if before.Name != after.Name || before.StartDate != after.StartDate || calendarKey(before) != calendarKey(after) {
		ch.Meta = &Meta{Name: after.Name, StartDate: after.StartDate, Calendar: after.Calendar}
	}
	oldActs := activityMap(before)
	newActs := activityMap(after)
	for _, a := range after.Activities {
		if old, ok := oldActs[a.ID]; !ok || old != a {
			ch.PutActivities = append(ch.PutActivities, a)
		}
	}
	for _, a := range before.Activities {
		if _, ok := newActs[a.ID]; !ok {
			ch.DeleteActivities = append(ch.DeleteActivities, a.ID)
		}
	}
	oldRels := make(map[string]schedule.Relationship, len(before.Relationships))
	for _, r := range before.Relationships {
		oldRels[r.ID] = r
	}
	newRels := make(map[string]bool, len(after.Relationships))
	for _, r := range after.Relationships {
		newRels[r.ID] = true
		if old, ok := oldRels[r.ID]; !ok || old != r {
			ch.PutRelationships = append(ch.PutRelationships, r)
		}
	}
	for _, r := range before.Relationships {
		if !newRels[r.ID] {
			ch.DeleteRelationships = append(ch.DeleteRelationships, r.ID)
		}
	}
	return ch
}

// calendarKey is a schedule's calendar as comparable text: every field
// (workdays, hours, holidays, exceptions) counts.
func calendarKey(s *schedule.Schedule) string {
	if s.Calendar == nil {
		return ""
	}
	b, err := json.Marshal(s.Calendar)
	if err != nil {
		return fmt.Sprint(s.Calendar) // not reached: a Calendar marshals
	}
	return string(b)
}

// Load reads a stored schedule.
func (c *Coordinator) Load(ctx context.Context, scheduleID string) (*schedule.Schedule, error) {
	return c.Graph.Load(ctx, scheduleID)
}

// DeleteSchedule removes a schedule from both stores.
func (c *Coordinator) DeleteSchedule(ctx context.Context, scheduleID string) error {
	return errors.Join(c.Graph.DeleteSchedule(ctx, scheduleID), c.Vectors.DeleteSchedule(ctx, scheduleID))
}

// Verify compares the two stores for a schedule and lists every
// disagreement: documents missing, extra, or with text that differs from
// the graph. No lines means no drift.
func (c *Coordinator) Verify(ctx context.Context, scheduleID string) ([]string, error) {
	s, err := c.Graph.Load(ctx, scheduleID)
	if err != nil {
		return nil, err
	}
	docs, err := c.Vectors.Dump(ctx, scheduleID)
	if err != nil {
		return nil, err
	}
	var drift []string
	acts := activityMap(s)
	seen := map[string]bool{}
	for _, d := range docs.Activities {
		seen[d.ID] = true
		a, ok := acts[d.ID]
		switch {
		case !ok:
			drift = append(drift, fmt.Sprintf("activity %s: in the vector store only", d.ID))
		case a.Name != d.Name || a.Description != d.Description || a.Duration != d.Duration:
			drift = append(drift, fmt.Sprintf("activity %s: graph has %q (%s), vector store %q (%s)", d.ID, a.Name, a.Duration, d.Name, d.Duration))
		}
	}
	for _, a := range s.Activities {
		if !seen[a.ID] {
			drift = append(drift, fmt.Sprintf("activity %s (%q): in the graph only", a.ID, a.Name))
		}
	}
	rels := map[string]schedule.Relationship{}
	for _, r := range s.Relationships {
		rels[r.ID] = r
	}
	seen = map[string]bool{}
	for _, d := range docs.Relationships {
		seen[d.ID] = true
		r, ok := rels[d.ID]
		switch {
		case !ok:
			drift = append(drift, fmt.Sprintf("relationship %s: in the vector store only", d.ID))
		case r.Type != d.Type || r.Lag != d.Lag || end(acts, r.Predecessor) != d.Predecessor || end(acts, r.Successor) != d.Successor:
			drift = append(drift, fmt.Sprintf("relationship %s: the vector store's copy differs from the graph's", d.ID))
		}
	}
	for _, r := range s.Relationships {
		if !seen[r.ID] {
			drift = append(drift, fmt.Sprintf("relationship %s: in the graph only", r.ID))
		}
	}
	return drift, nil
}
