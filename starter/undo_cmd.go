package main

import (
	"context"

	"github.com/spf13/cobra"

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
	scheduleID, ok := workflows.ScheduleOf(id)
	if !ok {
		return usagef("undo: %q is not a dispatch id (dispatch-<schedule>)", id)
	}
	c, err := env.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	stores, err := env.stores.Open(ctx)
	if err != nil {
		return err
	}
	ops, _, err := workflows.UndoOps(ctx, c, stores, id, runID)
	stores.Close(ctx)
	if err != nil {
		return err
	}
	return env.edit(ctx, scheduleID, ops...)
}
