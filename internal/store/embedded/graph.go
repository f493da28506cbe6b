package embedded

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/parallel"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// applyGraph writes changes to the node and edge tables in one transaction.
func (s *Store) applyGraph(ctx context.Context, scheduleID string, changes []store.Change) ([]string, error) {
	return s.applyLedgered(ctx, "graph_ledger", scheduleID, len(changes),
		func(i int) string { return changes[i].OpID },
		func(tx *preparedTx, i int) error { return applyGraphChange(tx, scheduleID, changes[i]) },
		func(i int) (string, error) { return graphRecord(changes[i]) })
}

// graphRecord is a change as the graph ledger keeps it: whole, op,
// inverse and all.
func graphRecord(c store.Change) (string, error) {
	record, err := json.Marshal(c)
	return string(record), err
}

func applyGraphChange(tx *preparedTx, scheduleID string, c store.Change) error {
	exec := tx.exec
	if c.Meta != nil {
		cal, err := jsonText(c.Meta.Calendar)
		if err != nil {
			return err
		}
		cals, err := jsonText(c.Meta.Calendars)
		if err != nil {
			return err
		}
		opts, err := jsonText(c.Meta.Options)
		if err != nil {
			return err
		}
		src, err := jsonText(c.Meta.Source)
		if err != nil {
			return err
		}
		if err := exec(`INSERT INTO schedules (id, name, start_date, calendar, data_date, calendars, options, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, start_date = excluded.start_date, calendar = excluded.calendar,
				data_date = excluded.data_date, calendars = excluded.calendars, options = excluded.options, source = excluded.source`,
			scheduleID, c.Meta.Name, c.Meta.StartDate, cal, c.Meta.DataDate, cals, opts, src); err != nil {
			return err
		}
	} else if err := exec(`INSERT INTO schedules (id) VALUES (?) ON CONFLICT (id) DO NOTHING`, scheduleID); err != nil {
		return err
	}
	switch {
	case c.Summary != nil:
		text, err := json.Marshal(c.Summary)
		if err != nil {
			return err
		}
		if err := exec(`UPDATE schedules SET summary = ? WHERE id = ?`, string(text), scheduleID); err != nil {
			return err
		}
	case c.Touches():
		if err := exec(`UPDATE schedules SET summary = '' WHERE id = ?`, scheduleID); err != nil {
			return err
		}
	}
	for _, id := range c.DeleteRelationships {
		if err := deleteNode(exec, scheduleID, id); err != nil {
			return err
		}
	}
	for _, id := range c.DeleteActivities {
		for _, node := range []string{schedule.StartNodeID(id), schedule.IntraNodeID(id), schedule.EndNodeID(id)} {
			if err := deleteNode(exec, scheduleID, node); err != nil {
				return err
			}
		}
	}
	// Whether the schedule has nodes is noted before this change's puts
	// add some: a relationship in a schedule that had none, not written
	// since, has no old edges to delete.
	if _, err := tx.absent("nodes", scheduleID, nil); err != nil {
		return err
	}
	// Puts are written many rows per statement (rows.go): an activity's
	// nodes and edges touch nothing a relationship's do.
	nodes := make([]any, 0, 3*nodeWidth*min(len(c.PutActivities), rowBatch))
	edges := make([]any, 0, 2*edgeWidth*min(len(c.PutActivities), rowBatch))
	// The nodes (each with its live fields as JSON) are built on all cores
	// beside the one writer.
	type activityRows struct {
		nodes [3]schedule.Node
		edges [2]schedule.Edge
	}
	built := make([]activityRows, len(c.PutActivities))
	parallel.For(len(built), 256, func(i int) {
		built[i].nodes, built[i].edges = schedule.ActivityNodes(c.PutActivities[i])
	})
	for i, b := range built {
		ns, es := b.nodes, b.edges
		for _, n := range ns {
			nodes = appendNode(nodes, scheduleID, n)
		}
		for _, e := range es {
			edges = append(edges, scheduleID, e.From, e.To)
		}
		if len(nodes) >= 3*nodeWidth*rowBatch || i == len(c.PutActivities)-1 {
			if err := tx.execValues(putNodeHead, putNodeTail, nodeWidth, nodes); err != nil {
				return err
			}
			if err := tx.execValues(putEdgeHead, "", edgeWidth, edges); err != nil {
				return err
			}
			nodes, edges = nodes[:0], edges[:0]
		}
	}
	// A changed relationship may now join other ends: its old edges go
	// before its new ones are written. Runs hold each id once, so a run's
	// deletes cannot take an edge the same run writes.
	rels := c.PutRelationships
	for _, run := range distinctRuns(len(rels), func(i int) string { return rels[i].ID }) {
		keys := make([]string, 0, run[1]-run[0])
		for _, r := range rels[run[0]:run[1]] {
			keys = append(keys, r.ID)
		}
		absent, err := tx.absent("nodes", scheduleID, keys)
		if err != nil {
			return err
		}
		ids := make([]any, 0, 1+len(keys))
		ids = append(ids, scheduleID)
		nodes, edges = nodes[:0], edges[:0]
		for i, r := range rels[run[0]:run[1]] {
			if !absent[i] {
				ids = append(ids, r.ID)
			}
			n, es := schedule.RelationshipNodes(r)
			nodes = appendNode(nodes, scheduleID, n)
			for _, e := range es {
				edges = append(edges, scheduleID, e.From, e.To)
			}
		}
		if len(ids) > 1 {
			in := inList(len(ids) - 1)
			// Two statements, not one with OR: each uses its index.
			if err := exec(`DELETE FROM edges WHERE schedule_id = ? AND src IN `+in, ids...); err != nil {
				return err
			}
			if err := exec(`DELETE FROM edges WHERE schedule_id = ? AND dst IN `+in, ids...); err != nil {
				return err
			}
		}
		if err := tx.execValues(putNodeHead, putNodeTail, nodeWidth, nodes); err != nil {
			return err
		}
		if err := tx.execValues(putEdgeHead, "", edgeWidth, edges); err != nil {
			return err
		}
	}
	if len(c.Forget) > 0 {
		for _, op := range c.Forget {
			if err := exec(`DELETE FROM graph_ledger WHERE schedule_id = ? AND op_id = ?`, scheduleID, op); err != nil {
				return err
			}
			// A version kept by an op undone stands for a state that no
			// longer follows from any write.
			if err := exec(`DELETE FROM versions WHERE schedule_id = ? AND EXISTS (SELECT 1 FROM json_each(versions.info, '$.op_ids') WHERE value = ?)`, scheduleID, op); err != nil {
				return err
			}
		}
	}
	if c.Version != nil {
		return keepVersion(exec, scheduleID, c.Version)
	}
	return nil
}

// jsonText is a meta value as its column holds it: JSON, or empty for nil
// (an empty map or options stay "{}", so they read back as they were).
func jsonText[T any](v T) (string, error) {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" {
		return "", err
	}
	return string(b), nil
}

// readJSON reads a meta column into *v; an empty column leaves it unset.
func readJSON[T any](column, text string, v *T) error {
	if text == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return fmt.Errorf("schedule column %s: %w", column, err)
	}
	return nil
}

// The multi-row upsert of nodes and insert of edges (execValues).
const (
	putNodeHead = `INSERT INTO nodes (schedule_id, id, kind, weight, activity_id, name, description, live)`
	putNodeTail = `ON CONFLICT (schedule_id, id) DO UPDATE SET kind = excluded.kind, weight = excluded.weight,
		activity_id = excluded.activity_id, name = excluded.name, description = excluded.description, live = excluded.live`
	nodeWidth   = 8
	putEdgeHead = `INSERT OR IGNORE INTO edges (schedule_id, src, dst)`
	edgeWidth   = 3
)

// appendNode appends n's row of putNodeHead's columns to args.
func appendNode(args []any, scheduleID string, n schedule.Node) []any {
	return append(args, scheduleID, n.ID, string(n.Kind), n.Weight, n.ActivityID, n.Name, n.Description, n.Live)
}

func deleteNode(exec func(string, ...any) error, scheduleID, id string) error {
	if err := deleteEdges(exec, scheduleID, id); err != nil {
		return err
	}
	return exec(`DELETE FROM nodes WHERE schedule_id = ? AND id = ?`, scheduleID, id)
}

// deleteEdges drops a node's edges. Two statements, not one with OR: each
// uses its index, where the OR made SQLite scan the schedule's edges.
func deleteEdges(exec func(string, ...any) error, scheduleID, id string) error {
	if err := exec(`DELETE FROM edges WHERE schedule_id = ? AND src = ?`, scheduleID, id); err != nil {
		return err
	}
	return exec(`DELETE FROM edges WHERE schedule_id = ? AND dst = ?`, scheduleID, id)
}

// Recorded returns the ledger's changes for those of opIDs it holds.
func (s *Store) Recorded(ctx context.Context, scheduleID string, opIDs []string) (map[string]store.Change, error) {
	out := map[string]store.Change{}
	for _, op := range opIDs {
		var record string
		var committed sql.NullString
		err := s.db.QueryRowContext(ctx, `SELECT change, committed FROM graph_ledger WHERE schedule_id = ? AND op_id = ?`, scheduleID, op).Scan(&record, &committed)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var c store.Change
		if err := json.Unmarshal([]byte(record), &c); err != nil {
			return nil, fmt.Errorf("ledger entry %s: %w", op, err)
		}
		if committed.Valid {
			c.Committed = new(store.CommitRecord)
			if err := json.Unmarshal([]byte(committed.String), c.Committed); err != nil {
				return nil, fmt.Errorf("ledger entry %s: commit record: %w", op, err)
			}
		}
		out[op] = c
	}
	return out, nil
}

// Load reads a schedule back from its nodes and edges.
func (s *Store) Load(ctx context.Context, scheduleID string) (*schedule.Schedule, error) {
	d, err := s.dumpGraph(ctx, scheduleID)
	if err != nil {
		return nil, err
	}
	sched, err := store.ScheduleFromDump(d)
	if err != nil {
		return nil, fmt.Errorf("schedule %s: %w", scheduleID, err)
	}
	return sched, nil
}

// dumpGraph returns the canonical graph dump.
func (s *Store) dumpGraph(ctx context.Context, scheduleID string) (*store.GraphDump, error) {
	// One read transaction: a snapshot, so a write committed between the
	// node and the edge queries cannot tear the dump.
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep
	d := &store.GraphDump{}
	var cal, cals, opts, src string
	err = tx.QueryRowContext(ctx, `SELECT name, start_date, calendar, data_date, calendars, options, source FROM schedules WHERE id = ?`, scheduleID).
		Scan(&d.Meta.Name, &d.Meta.StartDate, &cal, &d.Meta.DataDate, &cals, &opts, &src)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %q", store.ErrNotFound, scheduleID)
	}
	if err != nil {
		return nil, err
	}
	if err := errors.Join(readJSON("calendar", cal, &d.Meta.Calendar), readJSON("calendars", cals, &d.Meta.Calendars),
		readJSON("options", opts, &d.Meta.Options), readJSON("source", src, &d.Meta.Source)); err != nil {
		return nil, fmt.Errorf("schedule %s: %w", scheduleID, err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, kind, weight, activity_id, name, description, live FROM nodes WHERE schedule_id = ?`, scheduleID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var n schedule.Node
		var kind string
		if err := rows.Scan(&n.ID, &kind, &n.Weight, &n.ActivityID, &n.Name, &n.Description, &n.Live); err != nil {
			rows.Close()
			return nil, err
		}
		n.Kind = schedule.NodeKind(kind)
		d.Nodes = append(d.Nodes, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = tx.QueryContext(ctx, `SELECT src, dst FROM edges WHERE schedule_id = ?`, scheduleID)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var e schedule.Edge
		if err := rows.Scan(&e.From, &e.To); err != nil {
			rows.Close()
			return nil, err
		}
		d.Edges = append(d.Edges, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	store.SortDump(d)
	return d, nil
}
