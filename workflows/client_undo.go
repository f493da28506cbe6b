package workflows

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// UndoOps are the ops that take back an accepted dispatch run (runID ""
// for the latest): the inverses the graph ledger kept for its committed
// ops (store.Coordinator.Inverses), in reverse order, with op IDs scoped to
// this run's undo so a second undo of it changes nothing (schedule.UndoOps).
// It also returns the run it read.
func UndoOps(ctx context.Context, c client.Client, stores *store.Coordinator, id, runID string) (ops []schedule.Op, run string, err error) {
	scheduleID, ok := ScheduleOf(id)
	if !ok {
		return nil, "", fmt.Errorf("undo: %q is not a dispatch id (dispatch-<schedule>)", id)
	}
	wf := c.GetWorkflow(ctx, id, runID)
	var res DispatchResult
	if err := wf.Get(ctx, &res); err != nil {
		return nil, "", fmt.Errorf("dispatch %s: %s", id, RootCause(err))
	}
	run = wf.GetRunID()
	if res.Status != StatusAccepted {
		return nil, run, fmt.Errorf("dispatch %s (run %s) ended %s: only an accepted dispatch has changes to undo", id, run, res.Status)
	}
	var opIDs []string
	for _, ch := range res.Changes {
		if ch.Status == ChangeCommitted {
			opIDs = append(opIDs, ch.Op.ID)
		}
	}
	inverses, err := stores.Inverses(ctx, scheduleID, opIDs, true)
	if err != nil {
		return nil, run, fmt.Errorf("dispatch %s: %w", id, err)
	}
	if len(inverses) == 0 {
		return nil, run, fmt.Errorf("dispatch %s (run %s) committed no changes", id, run)
	}
	return schedule.UndoOps(id, run, inverses), run, nil
}
