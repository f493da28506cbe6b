package neo4j

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// batchSize bounds the rows one UNWIND statement carries: a 5,000-activity
// import is a handful of statements, and no statement's parameters grow
// without bound.
const batchSize = 5000

// nodeUUID is a node's key in the database: unique across schedules, the
// same for the same schedule and node id every time.
func nodeUUID(scheduleID, nodeID string) string {
	return schedule.DerivedID("node", scheduleID, nodeID)
}

// Apply applies changes in order in one transaction, skipping those the
// ledger holds and recording the others (with the whole change) in it.
func (s *Store) Apply(ctx context.Context, scheduleID string, changes []store.Change) ([]string, error) {
	if err := store.CheckScheduleID(scheduleID); err != nil {
		return nil, err
	}
	if len(changes) == 0 {
		return nil, nil
	}
	records := make([]string, len(changes))
	var ops []any
	for i, c := range changes {
		if c.OpID == "" {
			continue
		}
		b, err := json.Marshal(c)
		if err != nil {
			return nil, fmt.Errorf("neo4j: schedule %q: op %s: %w", scheduleID, c.OpID, err)
		}
		records[i] = string(b)
		ops = append(ops, c.OpID)
	}
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	// The work function may be retried on a transient error: it starts
	// from the ledger afresh every time.
	applied, err := neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) ([]string, error) {
		ledger, err := ledgerHolds(ctx, tx, scheduleID, ops)
		if err != nil {
			return nil, err
		}
		var applied []string
		for i, c := range changes {
			if c.OpID != "" && ledger[c.OpID] {
				continue // already applied
			}
			if err := applyChange(ctx, tx, scheduleID, c); err != nil {
				return nil, fmt.Errorf("op %s: %w", c.OpID, err)
			}
			for _, op := range c.Forget {
				delete(ledger, op)
			}
			if c.OpID == "" {
				continue
			}
			if err := exec(ctx, tx, cypherRecord, map[string]any{"schedule": scheduleID, "op": c.OpID, "change": records[i]}); err != nil {
				return nil, fmt.Errorf("op %s: recording it: %w", c.OpID, err)
			}
			ledger[c.OpID] = true
			applied = append(applied, c.OpID)
		}
		return applied, nil
	})
	if err != nil {
		return nil, fmt.Errorf("neo4j: applying changes to schedule %q: %w", scheduleID, err)
	}
	return applied, nil
}

// ledgerHolds returns which of ops the ledger holds.
func ledgerHolds(ctx context.Context, tx neo4j.ManagedTransaction, scheduleID string, ops []any) (map[string]bool, error) {
	held := map[string]bool{}
	if len(ops) == 0 {
		return held, nil
	}
	result, err := tx.Run(ctx, cypherLedgerHas, map[string]any{"schedule": scheduleID, "ops": ops})
	if err != nil {
		return nil, fmt.Errorf("reading the ledger: %w", err)
	}
	for result.Next(ctx) {
		var op string
		if err := scan(result.Record(), &op); err != nil {
			return nil, err
		}
		held[op] = true
	}
	if err := result.Err(); err != nil {
		return nil, fmt.Errorf("reading the ledger: %w", err)
	}
	return held, nil
}

// applyChange writes one change: a statement per kind of write, each an
// UNWIND over the change's rows (in batches of batchSize).
func applyChange(ctx context.Context, tx neo4j.ManagedTransaction, scheduleID string, c store.Change) error {
	if c.Meta != nil {
		calendar, err := jsonProperty(c.Meta.Calendar)
		if err != nil {
			return err
		}
		calendars, err := jsonProperty(c.Meta.Calendars)
		if err != nil {
			return err
		}
		options, err := jsonProperty(c.Meta.Options)
		if err != nil {
			return err
		}
		source, err := jsonProperty(c.Meta.Source)
		if err != nil {
			return err
		}
		if err := exec(ctx, tx, cypherScheduleMeta, map[string]any{
			"schedule": scheduleID, "name": c.Meta.Name, "start_date": c.Meta.StartDate, "calendar": calendar,
			"data_date": nonEmpty(c.Meta.DataDate), "calendars": calendars, "options": options, "source": source,
		}); err != nil {
			return fmt.Errorf("writing the schedule node: %w", err)
		}
	} else if err := exec(ctx, tx, cypherScheduleEnsure, map[string]any{"schedule": scheduleID}); err != nil {
		return fmt.Errorf("writing the schedule node: %w", err)
	}
	if c.Summary != nil || c.Touches() {
		var summary any // nil removes the property: the schedule changed without one
		if c.Summary != nil {
			b, err := json.Marshal(c.Summary)
			if err != nil {
				return err
			}
			summary = string(b)
		}
		if err := exec(ctx, tx, cypherScheduleSummary, map[string]any{"schedule": scheduleID, "summary": summary}); err != nil {
			return fmt.Errorf("writing the schedule's summary: %w", err)
		}
	}

	deletes := make([]any, 0, len(c.DeleteRelationships)+3*len(c.DeleteActivities))
	for _, id := range c.DeleteRelationships {
		deletes = append(deletes, nodeUUID(scheduleID, id))
	}
	for _, id := range c.DeleteActivities {
		for _, node := range []string{schedule.StartNodeID(id), schedule.IntraNodeID(id), schedule.EndNodeID(id)} {
			deletes = append(deletes, nodeUUID(scheduleID, node))
		}
	}
	if err := unwind(ctx, tx, cypherDeleteNodes, scheduleID, "uuids", deletes); err != nil {
		return fmt.Errorf("deleting nodes: %w", err)
	}

	activities := make([]any, len(c.PutActivities))
	for i, a := range c.PutActivities {
		// The nodes as the domain defines them; cypherPutActivities links
		// start -> intra -> end, as ActivityNodes' edges do.
		ns, _ := schedule.ActivityNodes(a)
		start, intra, end := ns[0], ns[1], ns[2]
		activities[i] = map[string]any{
			"id": a.ID, "name": a.Name, "description": intra.Description,
			"start_id": start.ID, "intra_id": intra.ID, "end_id": end.ID,
			"start_uuid": nodeUUID(scheduleID, start.ID), "intra_uuid": nodeUUID(scheduleID, intra.ID), "end_uuid": nodeUUID(scheduleID, end.ID),
			"start_weight": start.Weight, "intra_weight": intra.Weight, "end_weight": end.Weight,
		}
		if err := writeLive(activities[i].(map[string]any), a, intra.Live); err != nil {
			return err
		}
	}
	if err := unwind(ctx, tx, cypherPutActivities, scheduleID, "rows", activities); err != nil {
		return fmt.Errorf("writing activities: %w", err)
	}
	relationships := make([]any, len(c.PutRelationships))
	for i, r := range c.PutRelationships {
		n, _ := schedule.RelationshipNodes(r)
		from, to := schedule.RelationshipEnds(r)
		relationships[i] = map[string]any{
			"id": n.ID, "weight": n.Weight, "uuid": nodeUUID(scheduleID, n.ID),
			"from_uuid": nodeUUID(scheduleID, from), "to_uuid": nodeUUID(scheduleID, to),
		}
	}
	if err := unwind(ctx, tx, cypherPutRelationships, scheduleID, "rows", relationships); err != nil {
		return fmt.Errorf("writing relationships: %w", err)
	}

	forget := make([]any, len(c.Forget))
	for i, op := range c.Forget {
		forget[i] = op
	}
	if err := unwind(ctx, tx, cypherForget, scheduleID, "ops", forget); err != nil {
		return fmt.Errorf("forgetting ops: %w", err)
	}
	return writeVersions(ctx, tx, scheduleID, c)
}

// jsonProperty is a meta value as the schedule node holds it: JSON text,
// or nil (no property) for a nil value. An empty map or options stay "{}",
// so they read back as they were.
func jsonProperty[T any](v T) (any, error) {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return nil, err
	}
	return string(b), nil
}

// readJSON reads a JSON property into *v; "" (no property) leaves it unset.
func readJSON[T any](property, text string, v *T) error {
	if text == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return fmt.Errorf("%s: %w", property, err)
	}
	return nil
}

// nonEmpty is s as a property value: nil for "", so a plain schedule or
// activity has no property at all rather than an empty one.
func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// unwind runs an UNWIND statement over rows (passed as $key) in batches;
// nothing at all for no rows.
func unwind(ctx context.Context, tx neo4j.ManagedTransaction, cypher, scheduleID, key string, rows []any) error {
	for start := 0; start < len(rows); start += batchSize {
		params := map[string]any{"schedule": scheduleID, key: rows[start:min(start+batchSize, len(rows))]}
		if err := exec(ctx, tx, cypher, params); err != nil {
			return err
		}
	}
	return nil
}

// exec runs a statement that returns nothing, to completion.
func exec(ctx context.Context, tx neo4j.ManagedTransaction, cypher string, params map[string]any) error {
	result, err := tx.Run(ctx, cypher, params)
	if err != nil {
		return err
	}
	_, err = result.Consume(ctx)
	return err
}

// scan reads a record's string columns, in RETURN order.
func scan(rec *neo4j.Record, dst ...*string) error {
	if len(rec.Values) < len(dst) {
		return fmt.Errorf("%d columns, want %d", len(rec.Values), len(dst))
	}
	for i, p := range dst {
		v, ok := rec.Values[i].(string)
		if !ok {
			return fmt.Errorf("column %s is %T, want a string", rec.Keys[i], rec.Values[i])
		}
		*p = v
	}
	return nil
}

// Recorded returns the ledger's changes for those of opIDs it holds.
func (s *Store) Recorded(ctx context.Context, scheduleID string, opIDs []string) (map[string]store.Change, error) {
	out := map[string]store.Change{}
	if len(opIDs) == 0 {
		return out, nil
	}
	ops := make([]any, len(opIDs))
	for i, op := range opIDs {
		ops[i] = op
	}
	session := s.session(ctx, neo4j.AccessModeRead)
	defer session.Close(ctx)
	records, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) (map[string][2]string, error) {
		result, err := tx.Run(ctx, cypherRecorded, map[string]any{"schedule": scheduleID, "ops": ops})
		if err != nil {
			return nil, err
		}
		records := map[string][2]string{}
		for result.Next(ctx) {
			var op, change, committed string
			if err := scan(result.Record(), &op, &change, &committed); err != nil {
				return nil, err
			}
			records[op] = [2]string{change, committed}
		}
		return records, result.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("neo4j: reading the ledger of schedule %q: %w", scheduleID, err)
	}
	for op, record := range records {
		var c store.Change
		if err := json.Unmarshal([]byte(record[0]), &c); err != nil {
			return nil, fmt.Errorf("neo4j: schedule %q: ledger entry %s: %w", scheduleID, op, err)
		}
		if record[1] != "" {
			c.Committed = new(store.CommitRecord)
			if err := json.Unmarshal([]byte(record[1]), c.Committed); err != nil {
				return nil, fmt.Errorf("neo4j: schedule %q: ledger entry %s: commit record: %w", scheduleID, op, err)
			}
		}
		out[op] = c
	}
	return out, nil
}

// Commit marks the ledger entries of opIDs committed in one transaction;
// if one is missing nothing is marked.
func (s *Store) Commit(ctx context.Context, scheduleID string, opIDs []string, rec store.CommitRecord) error {
	if len(opIDs) == 0 {
		return nil
	}
	text, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	ops := make([]any, len(opIDs))
	for i, op := range opIDs {
		ops[i] = op
	}
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	_, err = neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (int, error) {
		result, err := tx.Run(ctx, cypherCommit, map[string]any{"schedule": scheduleID, "ops": ops, "record": string(text)})
		if err != nil {
			return 0, err
		}
		found := map[string]bool{}
		for result.Next(ctx) {
			var op string
			if err := scan(result.Record(), &op); err != nil {
				return 0, err
			}
			found[op] = true
		}
		if err := result.Err(); err != nil {
			return 0, err
		}
		for _, op := range opIDs {
			if !found[op] {
				// Returning an error rolls the transaction back.
				return 0, fmt.Errorf("%w: %s", store.ErrNotRecorded, op)
			}
		}
		return len(found), nil
	})
	if err != nil {
		return fmt.Errorf("neo4j: committing ops of schedule %q: %w", scheduleID, err)
	}
	return nil
}

// Load reads a schedule back from its nodes and edges.
func (s *Store) Load(ctx context.Context, scheduleID string) (*schedule.Schedule, error) {
	d, err := s.Dump(ctx, scheduleID)
	if err != nil {
		return nil, err
	}
	sched, err := store.ScheduleFromDump(d)
	if err != nil {
		return nil, fmt.Errorf("neo4j: schedule %q: %w", scheduleID, err)
	}
	return sched, nil
}

// Dump returns the canonical view of a schedule's graph, read in one
// transaction.
func (s *Store) Dump(ctx context.Context, scheduleID string) (*store.GraphDump, error) {
	session := s.session(ctx, neo4j.AccessModeRead)
	defer session.Close(ctx)
	d, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) (*store.GraphDump, error) {
		return dump(ctx, tx, scheduleID)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("neo4j: reading schedule %q: %w", scheduleID, err)
	}
	store.SortDump(d)
	return d, nil
}

func dump(ctx context.Context, tx neo4j.ManagedTransaction, scheduleID string) (*store.GraphDump, error) {
	params := map[string]any{"schedule": scheduleID}
	d := &store.GraphDump{}
	result, err := tx.Run(ctx, cypherMeta, params)
	if err != nil {
		return nil, err
	}
	if !result.Next(ctx) {
		if err := result.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %q", store.ErrNotFound, scheduleID)
	}
	var calendar, calendars, options, source string
	if err := scan(result.Record(), &d.Meta.Name, &d.Meta.StartDate, &calendar, &d.Meta.DataDate, &calendars, &options, &source); err != nil {
		return nil, err
	}
	if err := errors.Join(readJSON("calendar", calendar, &d.Meta.Calendar), readJSON("calendars", calendars, &d.Meta.Calendars),
		readJSON("options", options, &d.Meta.Options), readJSON("source", source, &d.Meta.Source)); err != nil {
		return nil, err
	}

	result, err = tx.Run(ctx, cypherNodes, params)
	if err != nil {
		return nil, err
	}
	for result.Next(ctx) {
		var n schedule.Node
		var kind string
		if err := scan(result.Record(), &n.ID, &kind, &n.Weight, &n.ActivityID, &n.Name, &n.Description); err != nil {
			return nil, err
		}
		n.Kind = schedule.NodeKind(kind)
		if n.Kind == schedule.IntraNode {
			props, ok := result.Record().Values[7].(map[string]any)
			if !ok {
				return nil, fmt.Errorf("node %q: column live is %T, want a map", n.ID, result.Record().Values[7])
			}
			var err error
			if n.Live, err = readLive(n.ActivityID, props); err != nil {
				return nil, err
			}
		}
		d.Nodes = append(d.Nodes, n)
		next, ok := result.Record().Values[6].([]any)
		if !ok {
			return nil, fmt.Errorf("node %q: column next is %T, want a list", n.ID, result.Record().Values[6])
		}
		for _, to := range next {
			to, ok := to.(string)
			if !ok {
				return nil, fmt.Errorf("node %q: an edge leads to a node without an id", n.ID)
			}
			d.Edges = append(d.Edges, schedule.Edge{From: n.ID, To: to})
		}
	}
	return d, result.Err()
}

// Schedules lists the stored schedules with their sizes, by id.
func (s *Store) Schedules(ctx context.Context) ([]store.ScheduleInfo, error) {
	session := s.session(ctx, neo4j.AccessModeRead)
	defer session.Close(ctx)
	list, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) ([]store.ScheduleInfo, error) {
		result, err := tx.Run(ctx, cypherSchedules, nil)
		if err != nil {
			return nil, err
		}
		var out []store.ScheduleInfo
		for result.Next(ctx) {
			rec := result.Record()
			var info store.ScheduleInfo
			var summary string
			if err := scan(rec, &info.ID, &info.Name, &summary); err != nil {
				return nil, err
			}
			for key, dst := range map[string]*int{"activities": &info.Activities, "relationships": &info.Relationships} {
				n, _, err := neo4j.GetRecordValue[int64](rec, key)
				if err != nil {
					return nil, fmt.Errorf("column %s: %w", key, err)
				}
				*dst = int(n)
			}
			if summary != "" {
				sum := &store.Summary{}
				if err := json.Unmarshal([]byte(summary), sum); err == nil { // unreadable: summarised again
					info.Summary = sum
					info.Name, info.Activities, info.Relationships = sum.Name, sum.Activities, sum.Relationships
				}
			}
			out = append(out, info)
		}
		return out, result.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("neo4j: listing schedules: %w", err)
	}
	return list, nil
}

// PutSummary stores the summary of a schedule that has none.
func (s *Store) PutSummary(ctx context.Context, scheduleID string, sum store.Summary) error {
	b, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	_, err = neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (struct{}, error) {
		return struct{}{}, exec(ctx, tx, cypherScheduleSummaryIfMissing, map[string]any{"schedule": scheduleID, "summary": string(b)})
	})
	if err != nil {
		return fmt.Errorf("neo4j: storing the summary of schedule %q: %w", scheduleID, err)
	}
	return nil
}

// DeleteSchedule removes a schedule's ledger, nodes and schedule node, a
// batch per transaction so that a schedule of any size fits the server's
// transaction memory. The ledger goes first, so that a delete cut short
// never leaves ops recorded whose nodes are gone; the schedule node goes
// last, so that such a schedule is still listed and can be deleted again.
func (s *Store) DeleteSchedule(ctx context.Context, scheduleID string) error {
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	err := deleteInBatches(ctx, session, cypherDeleteLedgerBatch, scheduleID)
	if err == nil {
		err = deleteInBatches(ctx, session, cypherDeleteNodeBatch, scheduleID)
	}
	if err == nil {
		err = deleteInBatches(ctx, session, cypherDeleteVersionBatch, scheduleID)
	}
	if err == nil {
		// (A typed result: ExecuteWrite[any] panics on a nil one.)
		_, err = neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (struct{}, error) {
			return struct{}{}, exec(ctx, tx, cypherDeleteSchedule, map[string]any{"schedule": scheduleID})
		})
	}
	if err != nil {
		return fmt.Errorf("neo4j: deleting schedule %q: %w", scheduleID, err)
	}
	return nil
}

// deleteInBatches runs a delete statement that takes $limit and returns
// how many it deleted, until a batch comes back short.
func deleteInBatches(ctx context.Context, session neo4j.SessionWithContext, cypher, scheduleID string) error {
	for {
		deleted, err := neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (int64, error) {
			result, err := tx.Run(ctx, cypher, map[string]any{"schedule": scheduleID, "limit": batchSize})
			if err != nil {
				return 0, err
			}
			rec, err := result.Single(ctx)
			if err != nil {
				return 0, err
			}
			n, _, err := neo4j.GetRecordValue[int64](rec, "deleted")
			return n, err
		})
		if err != nil || deleted < batchSize {
			return err
		}
	}
}
