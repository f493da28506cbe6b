package dispatches

import (
	"context"
	"fmt"
	"strings"

	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// ScheduleOf is the schedule a dispatch id (dispatch-<schedule>) names.
func ScheduleOf(id string) (string, bool) {
	scheduleID, ok := strings.CutPrefix(id, workflows.DispatchWorkflowID(""))
	return scheduleID, ok && scheduleID != ""
}

// UndoOps are the ops that take back an accepted dispatch run (runID ""
// for the latest): the inverses the graph ledger kept for its committed
// ops, in reverse order, with op IDs scoped to this run's undo so a second
// undo of it changes nothing. It also returns the run it read.
func UndoOps(ctx context.Context, c client.Client, graph store.GraphStore, id, runID string) (ops []schedule.Op, run string, err error) {
	scheduleID, ok := ScheduleOf(id)
	if !ok {
		return nil, "", fmt.Errorf("undo: %q is not a dispatch id (dispatch-<schedule>)", id)
	}
	wf := c.GetWorkflow(ctx, id, runID)
	var res workflows.DispatchResult
	if err := wf.Get(ctx, &res); err != nil {
		return nil, "", fmt.Errorf("dispatch %s: %s", id, RootCause(err))
	}
	run = wf.GetRunID()
	if res.Status != workflows.StatusAccepted {
		return nil, run, fmt.Errorf("dispatch %s (run %s) ended %s: only an accepted dispatch has changes to undo", id, run, res.Status)
	}
	var opIDs []string
	for _, ch := range res.Changes {
		if ch.Status == workflows.ChangeCommitted {
			opIDs = append(opIDs, ch.Op.ID)
		}
	}
	inverses, err := ledgerInverses(ctx, graph, scheduleID, opIDs, true)
	if err != nil {
		return nil, run, fmt.Errorf("dispatch %s: %w", id, err)
	}
	if len(inverses) == 0 {
		return nil, run, fmt.Errorf("dispatch %s (run %s) committed no changes", id, run)
	}
	return activities.CompensatingOps("undo/"+id+"/"+run, inverses), run, nil
}

// Before is the schedule as it was before the ops opIDs were applied to
// after: the inverses the graph ledger kept, undone on a copy.
func Before(ctx context.Context, graph store.GraphStore, scheduleID string, after *schedule.Schedule, opIDs []string) (*schedule.Schedule, error) {
	before := after.Clone()
	if len(opIDs) == 0 {
		return before, nil
	}
	inverses, err := ledgerInverses(ctx, graph, scheduleID, opIDs, false)
	if err != nil {
		return nil, err
	}
	if err := schedule.Undo(before, inverses); err != nil {
		return nil, fmt.Errorf("undoing the round on a copy: %w", err)
	}
	return before, nil
}

// ledgerInverses are the inverses the graph ledger kept for opIDs, in
// their order; with committed, each op must be committed too.
func ledgerInverses(ctx context.Context, graph store.GraphStore, scheduleID string, opIDs []string, committed bool) ([]schedule.Op, error) {
	recorded, err := graph.Recorded(ctx, scheduleID, opIDs)
	if err != nil {
		return nil, err
	}
	var inverses []schedule.Op
	for _, op := range opIDs {
		ch, ok := recorded[op]
		switch {
		case !ok:
			return nil, fmt.Errorf("op %s of schedule %q is not in the ledger: its inverse is unknown", op, scheduleID)
		case committed && ch.Committed == nil:
			return nil, fmt.Errorf("op %s is not committed in the ledger of schedule %q", op, scheduleID)
		}
		inverses = append(inverses, ch.Inverse...)
	}
	return inverses, nil
}
