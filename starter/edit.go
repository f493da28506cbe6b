package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// editEnv is what the direct edits (activity, relationship, dispatch
// undo, menu) share, embedded in their options: the stores to read the
// schedule from and Temporal to run the EditWorkflow on, so every change
// is an execution in the Web UI and lands in both stores' ledgers.
type editEnv struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	temporal *temporalConfig
	// Schedule is --schedule: the stored schedule edited.
	Schedule string
	// JSON is --json: print JSON instead of text.
	JSON bool
}

func newEditEnv(f *Factory) editEnv {
	return editEnv{io: f.IOStreams, stores: f.Stores, temporal: f.Temporal}
}

// editFlags are the flags activity and relationship bind once for all
// their subcommands (persistent): --schedule and --json.
type editFlags struct {
	noun     string
	Schedule string
	JSON     bool
}

func bindEditFlags(cmd *cobra.Command, jsonUsage string) *editFlags {
	fl := &editFlags{noun: cmd.Name()}
	cmd.PersistentFlags().StringVarP(&fl.Schedule, "schedule", "s", "", "stored schedule id")
	cmdutil.AddJSONFlag(cmd.PersistentFlags(), &fl.JSON, jsonUsage)
	return fl
}

// into copies the parsed flags into a subcommand's editEnv; --schedule is
// required.
func (fl *editFlags) into(env *editEnv) error {
	env.Schedule, env.JSON = fl.Schedule, fl.JSON
	if fl.Schedule == "" {
		return usagef("%s: --schedule is required", fl.noun)
	}
	return nil
}

// load reads the stored schedule.
func (e *editEnv) load(ctx context.Context) (*schedule.Schedule, error) {
	return loadStoredSchedule(ctx, e.stores, e.Schedule)
}

// edit runs ops through an EditWorkflow and prints what was applied.
func (e *editEnv) edit(ctx context.Context, ops ...schedule.Op) error {
	c, err := e.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	id, res, err := workflows.Edit(ctx, c, e.Schedule, e.temporal.who(), ops)
	if err != nil {
		return err
	}
	if e.JSON {
		return cmdutil.WriteJSON(e.io.Out, map[string]any{"edit": id, "applied": cmdutil.NonNil(res.Applied)})
	}
	for _, op := range res.Applied {
		fmt.Fprintln(e.io.Out, op.Call)
	}
	return nil
}

// editRef runs op on the activity ref names (an id or a name).
func (e *editEnv) editRef(ctx context.Context, ref string, op func(id string) schedule.Op) error {
	s, err := e.load(ctx)
	if err != nil {
		return err
	}
	target, err := cmdutil.ResolveActivity(s, ref)
	if err != nil {
		return err
	}
	return e.edit(ctx, op(target.ID))
}
