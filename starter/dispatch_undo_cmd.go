package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// dispatchUndoOptions are `dispatch undo`: an accepted dispatch's changes, taken
// back through an EditWorkflow with the inverses the graph ledger kept.
type dispatchUndoOptions struct {
	editEnv
	ID    string
	RunID string
}

func newDispatchUndoCmd(f *Factory, runF func(context.Context, *dispatchUndoOptions) error) *cobra.Command {
	opts := &dispatchUndoOptions{editEnv: newEditEnv(f)}
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
			opts.ID = args[0]
			return cmdutil.RunOr(cmd, opts, runF, dispatchUndoRun)
		},
	}
	cmd.Flags().StringVar(&opts.RunID, "run", "", "the dispatch run to undo (default: the latest)")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print JSON: {"edit", "applied": [ops]}`)
	return cmd
}

func dispatchUndoRun(ctx context.Context, opts *dispatchUndoOptions) error {
	id := opts.ID
	scheduleID, ok := workflows.ScheduleOf(id)
	if !ok {
		return usagef("undo: %q is not a dispatch id (dispatch-<schedule>)", id)
	}
	opts.Schedule = scheduleID
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	stores, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	ops, _, err := workflows.UndoOps(ctx, c, stores, id, opts.RunID)
	stores.Close(ctx)
	if err != nil {
		return err
	}
	return opts.edit(ctx, ops...)
}
