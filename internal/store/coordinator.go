package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/versions"
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

// importChunk bounds the puts of one graph change of an import, so the
// ledger entry an import leaves (its last chunk) stays small whatever the
// schedule's size.
const importChunk = 5000

// Import stores a validated schedule under scheduleID. Every call is a new
// request with its own op ID, so importing an earlier version again really
// writes it. With replace, a schedule already stored under that id is
// replaced by the difference (a failure gives the old one back); without,
// it is an error. progress, if set, is told how many documents are
// embedded.
func (c *Coordinator) Import(ctx context.Context, scheduleID string, s *schedule.Schedule, replace bool, progress func(done, total int)) error {
	return c.ImportChecked(ctx, scheduleID, s, nil, replace, progress)
}

// ImportChecked is Import of a schedule the caller may have checked
// already: n is s's network from schedule.Check (interchange's readers
// return it), so a file imported is validated and compiled once; nil
// checks s here.
func (c *Coordinator) ImportChecked(ctx context.Context, scheduleID string, s *schedule.Schedule, n *schedule.Network, replace bool, progress func(done, total int)) error {
	if err := CheckScheduleID(scheduleID); err != nil {
		return err
	}
	if n == nil {
		var err error
		if n, err = schedule.Check(s); err != nil {
			return err
		}
	}
	if err := c.Settle(ctx, scheduleID); err != nil {
		return err
	}
	meta := MetaOf(s)
	change := Change{Meta: meta, PutActivities: s.Activities, PutRelationships: s.Relationships}
	var existing *schedule.Schedule // what a failed replace must give back
	switch old, err := c.Graph.Load(ctx, scheduleID); {
	case err == nil && !replace:
		return fmt.Errorf("%w: %q (import with replace to overwrite it)", ErrExists, scheduleID)
	case err == nil:
		existing = old
		change = diff(old, s)
		change.Meta = meta
	case !errors.Is(err, ErrNotFound):
		return err
	}
	change.OpID = schedule.DerivedID("import", scheduleID, RequestID())
	changes := chunk(change, importChunk)
	if versions.Moved(existing, s) {
		// The update replaced is kept, with the write's last chunk (the
		// one the ledger records), so it lands with the import or not at
		// all.
		w, err := c.keep(ctx, scheduleID, existing, []string{change.OpID}, versions.ImportWhy(existing.DataDate, s.DataDate), false)
		if err != nil {
			return err
		}
		changes[len(changes)-1].Version = w
	}
	states := make([]*schedule.Schedule, len(changes))
	for i := range states {
		states[i] = s
	}
	return c.write(ctx, scheduleID, changes, states, n, existing, progress)
}

// chunk splits a change's puts and deletes into changes of at most n rows
// each, in order; the last one carries the op ID (so the ledger records the
// op once everything before it is written) and the meta.
func chunk(ch Change, n int) []Change {
	rows := len(ch.PutActivities) + len(ch.DeleteActivities) + len(ch.PutRelationships) + len(ch.DeleteRelationships)
	if rows <= n {
		return []Change{ch}
	}
	var out []Change
	cur := Change{}
	size := 0
	flush := func() {
		out = append(out, cur)
		cur, size = Change{}, 0
	}
	counted := func() {
		if size++; size == n {
			flush()
		}
	}
	// Deletes first (relationships before activities), then puts
	// (activities before the relationships that join them).
	chunkRows(ch.DeleteRelationships, &cur, func(c *Change) *[]string { return &c.DeleteRelationships }, counted)
	chunkRows(ch.DeleteActivities, &cur, func(c *Change) *[]string { return &c.DeleteActivities }, counted)
	chunkRows(ch.PutActivities, &cur, func(c *Change) *[]schedule.Activity { return &c.PutActivities }, counted)
	chunkRows(ch.PutRelationships, &cur, func(c *Change) *[]schedule.Relationship { return &c.PutRelationships }, counted)
	if size > 0 || len(out) == 0 {
		flush()
	}
	last := &out[len(out)-1]
	last.OpID, last.Op, last.Inverse, last.Meta, last.Forget, last.Committed = ch.OpID, ch.Op, ch.Inverse, ch.Meta, ch.Forget, ch.Committed
	return out
}

// chunkRows appends rows one at a time to the list of *cur that list
// picks, calling counted after each (which may start a new chunk in *cur).
func chunkRows[T any](rows []T, cur *Change, list func(*Change) *[]T, counted func()) {
	for _, r := range rows {
		l := list(cur)
		*l = append(*l, r)
		counted()
	}
}

// ApplyOps applies ops to a stored schedule, all or nothing, and returns
// them as applied (IDs and call strings filled) with their inverse ops
// (apply those in reverse order to undo). Ops without an ID get one unique
// to this call. Ops the stores already applied (a retry of the same
// request) are not applied again: their recorded result is returned.
func (c *Coordinator) ApplyOps(ctx context.Context, scheduleID string, ops []schedule.Op) (applied, inverses []schedule.Op, err error) {
	if err := c.Settle(ctx, scheduleID); err != nil {
		return nil, nil, err
	}
	ops = slices.Clone(ops)
	ids := make([]string, len(ops))
	request := ""
	for i := range ops {
		if ops[i].ID == "" {
			if request == "" {
				request = scheduleID + "/direct/" + RequestID()
			}
			ops[i] = ops[i].WithScope(fmt.Sprintf("%s/%d", request, i))
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
	if err := c.write(ctx, scheduleID, changes, states, nil, original, nil); err != nil {
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
	if err := c.Settle(ctx, scheduleID); err != nil {
		return err
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
		// Under an intent: documents half refreshed by a process that died
		// are finished by the next one.
		err := c.withIntent(ctx, Intent{ScheduleID: scheduleID, Kind: IntentWrite, OpIDs: opIDs}, func() (bool, error) {
			err := c.streamDocuments(ctx, []Change{refresh}, []*schedule.Schedule{current}, current, nil, func(vcs []VectorChange) error {
				_, err := c.Vectors.Apply(ctx, scheduleID, vcs)
				return err
			})
			return err != nil, err
		})
		if err != nil {
			return fmt.Errorf("committing schedule %q: refreshing documents: %w", scheduleID, err)
		}
	}
	// Ops that moved the data date keep the schedule as it stood before
	// them; the version stands once the graph ledger says committed.
	if err := c.keepCommitted(ctx, scheduleID, current, recorded, opIDs, rec); err != nil {
		return fmt.Errorf("committing schedule %q: keeping the version before it: %w", scheduleID, err)
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

// write applies changes to both stores so that no crash or failure leaves
// them on different versions. states[i] is the schedule after changes[i]
// (it supplies relationship ends to the documents) and final, if the
// caller has it, the last state's network (nil: compiled for the
// summary); original is the
// schedule before all of them, for compensation, or nil for an import of a
// new schedule (compensating that deletes it).
//
// A store holding both sides (Atomic) writes everything in one
// transaction. Otherwise the write is two-phase under a durable intent:
// the graph in one transaction, then the documents in batches; if those
// fail, the graph write is compensated before the error is returned, and a
// process that dies midway leaves the intent for the next one to repair.
func (c *Coordinator) write(ctx context.Context, scheduleID string, changes []Change, states []*schedule.Schedule, final *schedule.Network, original *schedule.Schedule, progress func(done, total int)) error {
	before := original
	if before == nil {
		before = &schedule.Schedule{}
	}
	// The graph side ends with the summary of the schedule as written, in
	// the same transaction (an unledgered change: always applied, so a
	// retry whose changes the ledger skips still leaves it right).
	graphChanges := changes
	if len(states) > 0 {
		sum := summarize(states[len(states)-1], final, time.Now())
		graphChanges = append(slices.Clip(changes), Change{Summary: &sum})
	}
	if a, ok := c.atomic(); ok {
		// The documents are built beside the graph's writes: one writer
		// takes the store, the builder has the other core.
		st := c.startDocuments(ctx, changes, states, before, progress, docsBesideGraph)
		defer st.stop()
		return a.ApplyAtomic(ctx, scheduleID, graphChanges, st.drain)
	}
	opIDs := make([]string, 0, len(changes))
	for _, ch := range changes {
		if ch.OpID != "" {
			opIDs = append(opIDs, ch.OpID)
		}
	}
	in := Intent{ScheduleID: scheduleID, Kind: IntentWrite, OpIDs: opIDs, Fresh: original == nil}
	return c.withIntent(ctx, in, func() (bool, error) {
		if _, err := c.Graph.Apply(ctx, scheduleID, graphChanges); err != nil {
			return false, fmt.Errorf("graph store: %w", err)
		}
		err := c.streamDocuments(ctx, changes, states, before, progress, func(vcs []VectorChange) error {
			_, err := c.Vectors.Apply(ctx, scheduleID, vcs)
			return err
		})
		if err == nil {
			return false, nil
		}
		return c.compensate(ctx, scheduleID, opIDs, states[len(states)-1], original, err)
	})
}

// compensate undoes a graph write whose documents failed (cause), and puts
// back the documents the vector store may have written. keep says the
// stores may still disagree (the intent must stay for a repair).
func (c *Coordinator) compensate(ctx context.Context, scheduleID string, opIDs []string, final, original *schedule.Schedule, cause error) (keep bool, err error) {
	// On a context that outlives cancellation: a half-written pair of
	// stores is worse than a late return.
	undoCtx := context.WithoutCancel(ctx)
	var graphErr, vundoErr error
	if original == nil {
		// An import: there was no schedule to go back to.
		graphErr = c.deleteBoth(undoCtx, scheduleID)
	} else {
		undo := diff(final, original)
		undo.Forget = opIDs
		sum := Summarize(original, time.Now())
		undo.Summary = &sum
		_, graphErr = c.Graph.Apply(undoCtx, scheduleID, []Change{undo})
		// The vector store may have written part of the batch (it is not
		// transactional everywhere): put back what it held before.
		vundoErr = c.streamDocuments(undoCtx, []Change{undo}, []*schedule.Schedule{original}, final, nil, func(vcs []VectorChange) error {
			_, err := c.Vectors.Apply(undoCtx, scheduleID, vcs)
			return err
		})
	}
	if graphErr != nil || vundoErr != nil {
		return true, fmt.Errorf("vector store: %w; compensating failed too, run `autoscheduler verify --repair`: %w", cause, errors.Join(graphErr, vundoErr))
	}
	return false, fmt.Errorf("vector store: %w (the graph write was undone)", cause)
}

// docBatch bounds the documents embedded and written at a time, so a write
// of any size holds only one batch of vectors in memory.
const docBatch = 512

// streamDocuments builds the vector side of changes and hands it to put in
// batches of at most docBatch documents: documents for what the changes
// put, and fresh documents for relationships whose ends changed text. The
// batch carrying a change's op ID (with its deletes and Forget) comes after
// all of that change's documents, so a vector ledger never records an op
// whose documents are not all written.
//
// Building and embedding the next batch runs beside put writing the last
// one (embedding is CPU-bound, writing mostly waits on the store), at
// most docsAhead batches ahead, so a large import costs about the longer
// of the two rather than their sum, with a bounded number of vectors in
// memory. put is called from the caller's goroutine, in order.
func (c *Coordinator) streamDocuments(ctx context.Context, changes []Change, states []*schedule.Schedule, before *schedule.Schedule, progress func(done, total int), put func([]VectorChange) error) error {
	st := c.startDocuments(ctx, changes, states, before, progress, docsAhead)
	defer st.stop()
	return st.drain(put)
}

// docsAhead is how many batches the builder may embed before put has
// written them; docsBesideGraph is how many while an atomic store writes
// the graph first (the builder has a core of its own then: about a fifth
// of a 50,000-activity import's documents, some 60 MB).
const (
	docsAhead       = 2
	docsBesideGraph = 64
)

// docStream is a builder of documents running ahead of their writer.
type docStream struct {
	batches chan []VectorChange
	built   chan error
	cancel  context.CancelFunc
	drained bool
}

func (c *Coordinator) startDocuments(ctx context.Context, changes []Change, states []*schedule.Schedule, before *schedule.Schedule, progress func(done, total int), ahead int) *docStream {
	ctx, cancel := context.WithCancel(ctx)
	st := &docStream{batches: make(chan []VectorChange, ahead), built: make(chan error, 1), cancel: cancel}
	go func() {
		defer close(st.batches)
		st.built <- c.buildDocuments(ctx, changes, states, before, progress, func(batch []VectorChange) error {
			select {
			case st.batches <- batch:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	return st
}

// drain hands every batch, in order, to put, from the caller's goroutine.
func (st *docStream) drain(put func([]VectorChange) error) error {
	st.drained = true
	for batch := range st.batches {
		if err := put(batch); err != nil {
			st.cancel()
			for range st.batches {
				// Drain so the builder sees the cancel and ends.
			}
			<-st.built
			return err
		}
	}
	return <-st.built
}

// stop ends a stream that was not drained (its writer failed first) and
// waits for the builder.
func (st *docStream) stop() {
	st.cancel()
	if !st.drained {
		for range st.batches {
		}
		<-st.built
	}
}

// buildDocuments is streamDocuments' producer: it builds and embeds the
// documents and hands each batch, in order, to emit.
func (c *Coordinator) buildDocuments(ctx context.Context, changes []Change, states []*schedule.Schedule, before *schedule.Schedule, progress func(done, total int), emit func([]VectorChange) error) error {
	total := 0
	for _, ch := range changes {
		total += len(ch.PutActivities) + len(ch.PutRelationships)
	}
	done := 0
	var (
		pending []*VectorChange
		open    *VectorChange // the entry taking documents, if any
		texts   []string
		fill    []func([]float32)
		prev    = activityMap(before)
		acts    map[string]schedule.Activity
		last    *schedule.Schedule
	)
	flush := func() error {
		if len(texts) > 0 {
			vectors, err := c.embed(ctx, texts)
			if err != nil {
				return err
			}
			for i, v := range vectors {
				fill[i](v)
			}
			if p, ok := c.Vectors.(DocumentPreparer); ok {
				for _, vc := range pending {
					p.PrepareDocuments(vc)
				}
			}
			done += len(texts)
			if progress != nil {
				progress(done, total)
			}
		}
		if len(pending) > 0 {
			batch := make([]VectorChange, len(pending))
			for i, vc := range pending {
				batch[i] = *vc
			}
			if err := emit(batch); err != nil {
				return err
			}
		}
		pending, open, texts, fill = nil, nil, nil, nil
		return nil
	}
	// current is the entry documents go to: never one carrying an op ID,
	// which must come after every document of its change.
	current := func() *VectorChange {
		if open == nil {
			open = &VectorChange{}
			pending = append(pending, open)
		}
		return open
	}
	addActivity := func(a schedule.Activity) error {
		vc := current()
		doc := DocOf(a)
		vc.PutActivities = append(vc.PutActivities, doc)
		k := len(vc.PutActivities) - 1
		texts = append(texts, doc.Text())
		fill = append(fill, func(v []float32) { vc.PutActivities[k].Vector = v })
		if len(texts) == docBatch {
			return flush()
		}
		return nil
	}
	addRelationship := func(r schedule.Relationship) error {
		doc := RelationshipDoc{ID: r.ID, Type: r.Type, Lag: r.Lag, Predecessor: end(acts, r.Predecessor), Successor: end(acts, r.Successor)}
		vc := current()
		vc.PutRelationships = append(vc.PutRelationships, doc)
		k := len(vc.PutRelationships) - 1
		texts = append(texts, embed.RelationshipText(string(r.Type), r.Lag,
			doc.Predecessor.Name, doc.Predecessor.Description, doc.Predecessor.Duration,
			doc.Successor.Name, doc.Successor.Description, doc.Successor.Duration))
		fill = append(fill, func(v []float32) { vc.PutRelationships[k].Vector = v })
		if len(texts) == docBatch {
			return flush()
		}
		return nil
	}
	for i, ch := range changes {
		if states[i] != last {
			last, acts = states[i], activityMap(states[i])
		}
		changed := map[string]bool{}
		for _, a := range ch.PutActivities {
			if err := addActivity(a); err != nil {
				return err
			}
			if old, ok := prev[a.ID]; ok && !old.Equal(a) {
				changed[a.ID] = true
			}
		}
		putRels := make(map[string]bool, len(ch.PutRelationships))
		for _, r := range ch.PutRelationships {
			putRels[r.ID] = true
			if err := addRelationship(r); err != nil {
				return err
			}
		}
		if len(changed) > 0 {
			for _, r := range last.Relationships {
				if !putRels[r.ID] && (changed[r.Predecessor] || changed[r.Successor]) {
					if err := addRelationship(r); err != nil {
						return err
					}
				}
			}
		}
		// The change's own entry: its deletes, Forget and op ID, after its
		// documents.
		pending = append(pending, &VectorChange{OpID: ch.OpID, Forget: ch.Forget, DeleteActivities: ch.DeleteActivities, DeleteRelationships: ch.DeleteRelationships})
		open = nil
		// Chunks of one change share its state: each is compared with the
		// state before all of them.
		if i+1 == len(changes) || states[i+1] != states[i] {
			prev = acts
		}
	}
	return flush()
}

// embedBatch bounds one embedding request.
const embedBatch = 256

func (c *Coordinator) embed(ctx context.Context, texts []string) ([][]float32, error) {
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
	if metaKey(before) != metaKey(after) {
		ch.Meta = MetaOf(after)
	}
	oldActs := activityMap(before)
	newActs := activityMap(after)
	for _, a := range after.Activities {
		if old, ok := oldActs[a.ID]; !ok || !old.Equal(a) {
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

// metaKey is a schedule's meta as comparable text: every field (name,
// dates, each calendar's workdays, hours, holidays and exceptions,
// options) counts.
func metaKey(s *schedule.Schedule) string {
	b, err := json.Marshal(MetaOf(s))
	if err != nil {
		return fmt.Sprint(MetaOf(s)) // not reached: a Meta marshals
	}
	return string(b)
}

// NotRecordedError is an op the graph ledger does not hold, so its inverse
// is unknown; it is ErrNotRecorded (errors.Is).
type NotRecordedError struct{ ScheduleID, OpID string }

func (e *NotRecordedError) Error() string {
	return fmt.Sprintf("op %s of schedule %q is not in the ledger: its inverse is unknown", e.OpID, e.ScheduleID)
}

func (e *NotRecordedError) Unwrap() error { return ErrNotRecorded }

// Inverses reads the inverses the graph ledger kept for the applied ops
// opIDs, in the order of opIDs (each op's own inverses in their order):
// what ApplyOps returned for them. An op the ledger does not hold is a
// *NotRecordedError; with committed, an op not yet committed is refused
// too. The ledger keeps compensated ops, so a retried compensation reads
// the same list.
func (c *Coordinator) Inverses(ctx context.Context, scheduleID string, opIDs []string, committed bool) ([]schedule.Op, error) {
	recorded, err := c.Graph.Recorded(ctx, scheduleID, opIDs)
	if err != nil {
		return nil, err
	}
	var inverses []schedule.Op
	for _, op := range opIDs {
		ch, ok := recorded[op]
		switch {
		case !ok:
			return nil, &NotRecordedError{ScheduleID: scheduleID, OpID: op}
		case committed && ch.Committed == nil:
			return nil, fmt.Errorf("op %s is not committed in the ledger of schedule %q", op, scheduleID)
		}
		inverses = append(inverses, ch.Inverse...)
	}
	return inverses, nil
}

// Before is the schedule as it was before the ops opIDs were applied to
// after: the inverses the graph ledger kept (Inverses), undone on a copy
// (schedule.Before). No ops: a copy of after.
func (c *Coordinator) Before(ctx context.Context, scheduleID string, after *schedule.Schedule, opIDs []string) (*schedule.Schedule, error) {
	if len(opIDs) == 0 {
		return after.Clone(), nil
	}
	inverses, err := c.Inverses(ctx, scheduleID, opIDs, false)
	if err != nil {
		return nil, err
	}
	return schedule.Before(after, inverses)
}

// Load reads a stored schedule; ErrBusy while another process is writing
// it (a half-written schedule is never served).
func (c *Coordinator) Load(ctx context.Context, scheduleID string) (*schedule.Schedule, error) {
	if err := c.Settle(ctx, scheduleID); err != nil {
		return nil, err
	}
	return c.Graph.Load(ctx, scheduleID)
}

// DeleteSchedule removes a schedule from both stores (under an intent, so
// a delete cut short is finished by the next process). Deleting a
// schedule that is not stored is no error.
func (c *Coordinator) DeleteSchedule(ctx context.Context, scheduleID string) error {
	_, err := c.Delete(ctx, scheduleID)
	return err
}

// Delete is DeleteSchedule that also says whether the graph store held the
// schedule. Any id is accepted, so a schedule stored under an id
// CheckScheduleID now refuses can still go. A write another live process
// has under way is ErrBusy; one left half done by a process that is gone
// is not repaired first when it cannot be: the delete takes its place.
func (c *Coordinator) Delete(ctx context.Context, scheduleID string) (existed bool, err error) {
	existed, err = c.Graph.Has(ctx, scheduleID)
	if err != nil {
		return false, err
	}
	stale := false
	if err := c.Settle(ctx, scheduleID); err != nil {
		if errors.Is(err, ErrBusy) {
			return existed, err
		}
		stale = true
	}
	err = c.withIntent(ctx, Intent{ScheduleID: scheduleID, Kind: IntentDelete}, func() (bool, error) {
		err := c.deleteBoth(ctx, scheduleID)
		return err != nil, err
	})
	if err != nil || !stale {
		return existed, err
	}
	// The intents of the writes that could not be repaired: their
	// schedule is gone.
	if log, ok := c.intentLog(); ok {
		intents, err := log.Intents(ctx, scheduleID)
		if err != nil {
			return existed, err
		}
		for _, in := range intents {
			if in.Owner != Self() {
				if err := log.DeleteIntent(ctx, scheduleID, in.ID); err != nil {
					return existed, err
				}
			}
		}
	}
	return existed, nil
}

func (c *Coordinator) deleteBoth(ctx context.Context, scheduleID string) error {
	return errors.Join(c.Graph.DeleteSchedule(ctx, scheduleID), c.Vectors.DeleteSchedule(ctx, scheduleID))
}

// Verify compares the two stores for a schedule and lists every
// disagreement: documents missing, extra, or with text that differs from
// the graph. No lines means no drift. An interrupted write is repaired
// first (ErrBusy if its writer is still at work).
func (c *Coordinator) Verify(ctx context.Context, scheduleID string) ([]string, error) {
	if err := c.Settle(ctx, scheduleID); err != nil {
		return nil, err
	}
	s, err := c.Graph.Load(ctx, scheduleID)
	if err != nil {
		return nil, err
	}
	docs, err := c.Vectors.Dump(ctx, scheduleID)
	if err != nil {
		return nil, err
	}
	drift, _ := compare(s, docs)
	d, err := c.preferencesDrift(ctx, scheduleID)
	if err != nil {
		return nil, err
	}
	return append(drift, d...), nil
}

// compare lists how a schedule's documents differ from its graph, and
// returns the change (puts and deletes, no op) that would make them agree.
func compare(s *schedule.Schedule, docs *VectorDump) (drift []string, fix Change) {
	acts := activityMap(s)
	seen := map[string]bool{}
	for _, d := range docs.Activities {
		seen[d.ID] = true
		a, ok := acts[d.ID]
		switch {
		case !ok:
			drift = append(drift, fmt.Sprintf("activity %s: in the vector store only", d.ID))
			fix.DeleteActivities = append(fix.DeleteActivities, d.ID)
		case !DocOf(a).SameText(d):
			drift = append(drift, fmt.Sprintf("activity %s: graph has %q (%s), vector store %q (%s)", d.ID, a.Name, a.Duration, d.Name, d.Duration))
			fix.PutActivities = append(fix.PutActivities, a)
		}
	}
	for _, a := range s.Activities {
		if !seen[a.ID] {
			drift = append(drift, fmt.Sprintf("activity %s (%q): in the graph only", a.ID, a.Name))
			fix.PutActivities = append(fix.PutActivities, a)
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
			fix.DeleteRelationships = append(fix.DeleteRelationships, d.ID)
		case r.Type != d.Type || r.Lag != d.Lag || end(acts, r.Predecessor) != d.Predecessor || end(acts, r.Successor) != d.Successor:
			drift = append(drift, fmt.Sprintf("relationship %s: the vector store's copy differs from the graph's", d.ID))
			fix.PutRelationships = append(fix.PutRelationships, r)
		}
	}
	for _, r := range s.Relationships {
		if !seen[r.ID] {
			drift = append(drift, fmt.Sprintf("relationship %s: in the graph only", r.ID))
			fix.PutRelationships = append(fix.PutRelationships, r)
		}
	}
	return drift, fix
}
