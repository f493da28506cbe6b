package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// newUndoCmd is `dispatch undo`: an accepted dispatch's changes, taken
// back through an EditWorkflow with the inverses the graph ledger kept.
func newUndoCmd(env *editEnv) *cobra.Command {
	var runID string
	cmd := &cobra.Command{
		Use:   "undo DISPATCH-ID [--run RUN-ID]",
		Short: "Take back an accepted dispatch's changes (its latest run, or --run)",
		Long: "Undo applies the inverses of an accepted dispatch's committed ops, in reverse order, as one\n" +
			"direct edit (an EditWorkflow). The inverses come from the graph store's ledger, which keeps\n" +
			"each committed change with them. It is refused if later changes conflict (the ops engine\n" +
			"says which); undoing the same run twice changes nothing the second time.",
		Example: "  autoscheduler dispatch undo dispatch-building",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return undoRun(cmd.Context(), env, args[0], runID)
		},
	}
	cmd.Flags().StringVar(&runID, "run", "", "the dispatch run to undo (default: the latest)")
	cmd.Flags().BoolVar(&env.JSON, "json", false, `print JSON: {"edit", "applied": [ops]}`)
	return cmd
}

func undoRun(ctx context.Context, env *editEnv, id, runID string) error {
	scheduleID, ok := strings.CutPrefix(id, workflows.DispatchWorkflowID(""))
	if !ok || scheduleID == "" {
		return usagef("undo: %q is not a dispatch id (dispatch-<schedule>)", id)
	}
	c, err := env.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	run := c.GetWorkflow(ctx, id, runID)
	var res workflows.DispatchResult
	if err := run.Get(ctx, &res); err != nil {
		return fmt.Errorf("dispatch %s: %s", id, rootCause(err))
	}
	if res.Status != workflows.StatusAccepted {
		return fmt.Errorf("dispatch %s (run %s) ended %s: only an accepted dispatch has changes to undo", id, run.GetRunID(), res.Status)
	}
	var opIDs []string
	for _, ch := range res.Changes {
		if ch.Status == workflows.ChangeCommitted {
			opIDs = append(opIDs, ch.Op.ID)
		}
	}
	stores, err := env.stores.Open(ctx)
	if err != nil {
		return err
	}
	recorded, err := stores.Graph.Recorded(ctx, scheduleID, opIDs)
	stores.Close(ctx)
	if err != nil {
		return err
	}
	var inverses []schedule.Op
	for _, op := range opIDs {
		ch, ok := recorded[op]
		if !ok || ch.Committed == nil {
			return fmt.Errorf("dispatch %s: op %s is not committed in the ledger of schedule %q", id, op, scheduleID)
		}
		inverses = append(inverses, ch.Inverse...)
	}
	if len(inverses) == 0 {
		return fmt.Errorf("dispatch %s (run %s) committed no changes", id, run.GetRunID())
	}
	// Op IDs scoped to this run's undo: a second undo of it is a no-op.
	return env.edit(ctx, scheduleID, activities.CompensatingOps("undo/"+id+"/"+run.GetRunID(), inverses)...)
}
