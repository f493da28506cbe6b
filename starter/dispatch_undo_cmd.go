package main

import (
	"context"
	"fmt"

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
			"says which). A run is undone once: a second undo of it is refused and changes nothing, and\n" +
			"`dispatch list` shows the run as undone.\n" +
			"Exit status: 0 when the changes were taken back; 1 when the undo was refused (already\n" +
			"undone, not accepted, a conflict); 2 on a usage error.",
		Example: "  autoscheduler dispatch undo dispatch-building",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return cmdutil.RunOr(cmd, opts, runF, dispatchUndoRun)
		},
	}
	cmd.Flags().StringVar(&opts.RunID, "run", "", "the dispatch run to undo (default: the latest)")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print JSON: {"edit", "run_id", "applied": [ops]}`)
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
	by := opts.temporal.who()
	fmt.Fprintf(opts.io.ErrOut, "%s: undoing as %s…\n", term(id), term(by))
	res, err := workflows.Undo(ctx, c, stores, id, opts.RunID, by)
	stores.Close(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, map[string]any{"edit": res.Edit, "run_id": res.RunID, "applied": cmdutil.NonNil(res.Applied)})
	}
	for _, op := range res.Applied {
		fmt.Fprintln(opts.io.Out, term(op.Call))
	}
	fmt.Fprintf(opts.io.ErrOut, "%s (run %s) undone: %d changes taken back (edit %s)\n", term(id), term(res.RunID), len(res.Applied), term(res.Edit))
	return nil
}
