package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/starter/schedulecmd"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// newScheduleCmd is `autoscheduler schedule` (starter/schedulecmd) on files
// and stored schedules, with `schedule list` and `schedule delete`.
func newScheduleCmd(f *Factory, runF func(context.Context, *schedulecmd.Options) error) *cobra.Command {
	cmd := schedulecmd.New(f.IOStreams.Out, f.IOStreams.ErrOut, storedLoader(f.Stores), runF)
	// The stored schedules themselves: list and delete.
	cmd.AddCommand(newScheduleListCmd(f, nil), newScheduleDeleteCmd(f, nil))
	return cmd
}

// storedLoader reads stored schedules from stores, for the commands that
// take --schedule.
func storedLoader(stores *config.Stores) func(ctx context.Context, id string) (*schedule.Schedule, error) {
	return func(ctx context.Context, id string) (*schedule.Schedule, error) {
		return loadStoredSchedule(ctx, stores, id)
	}
}

// scheduleTable prints a stored schedule's CPM table to out.
func scheduleTable(ctx context.Context, out io.Writer, stores *config.Stores, id string) error {
	return schedulecmd.Run(ctx, &schedulecmd.Options{Out: out, LoadStored: storedLoader(stores), Schedule: id, Format: "table"})
}

// openDispatchFunc says which dispatch is open on a schedule ("" for
// none).
type openDispatchFunc func(ctx context.Context, scheduleID string) (string, error)

// deleteOptions are the flags of `autoscheduler schedule delete`.
type deleteOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	Schedule string
	Force    bool
	// openDispatch finds the schedule's open dispatch (Temporal, as the
	// global flags say; tests answer it themselves).
	openDispatch openDispatchFunc
}

// newScheduleDeleteCmd is `schedule delete`.
func newScheduleDeleteCmd(f *Factory, runF func(context.Context, *deleteOptions) error) *cobra.Command {
	opts := &deleteOptions{io: f.IOStreams, stores: f.Stores, openDispatch: temporalOpenDispatch(f.Temporal)}
	cmd := &cobra.Command{
		Use:   "delete SCHEDULE [--force]",
		Short: "Delete a stored schedule from the graph and vector stores",
		Long: "Delete a stored schedule: its graph, ledgers, documents and preferences, from both stores.\n" +
			"Deleting a schedule that is not stored does nothing. A schedule with an open dispatch is not\n" +
			"deleted: review, reject or cancel the dispatch first. --force deletes without asking Temporal\n" +
			"(when it cannot be reached and no dispatch can be open). Any stored id can be deleted, even one\n" +
			"import would now refuse.",
		Example: "  autoscheduler schedule delete building",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if opts.Schedule != "" && opts.Schedule != args[0] {
					return usagef("schedule delete: give the schedule once, as an argument or with --schedule")
				}
				opts.Schedule = args[0]
			}
			if !cmd.Flags().Changed("schedule") && len(args) == 0 {
				return usagef("schedule delete: which schedule? give its id")
			}
			return cmdutil.RunOr(cmd, opts, runF, deleteRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (or give it as the argument)")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "delete without checking Temporal for an open dispatch")
	return cmd
}

func deleteRun(ctx context.Context, opts *deleteOptions) error {
	id := opts.Schedule
	shown := usertext.Terminal(fmt.Sprintf("%q", id))
	if !opts.Force {
		d, err := opts.openDispatch(ctx, id)
		if err != nil {
			return fmt.Errorf("schedule %s was not deleted: cannot check it for an open dispatch: %w\n(if no dispatch can be open on it, delete it with --force)", shown, err)
		}
		if d != "" {
			return fmt.Errorf("schedule %s was not deleted: dispatch %s is open on it; review, reject or cancel it first (autoscheduler review %s cancel)", shown, d, d)
		}
	}
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	existed, err := c.Delete(ctx, id)
	if err != nil {
		return fmt.Errorf("deleting schedule %s: %w", shown, err)
	}
	if !existed {
		fmt.Fprintf(opts.io.ErrOut, "schedule %s is not stored: nothing to delete\n", shown)
		return nil
	}
	fmt.Fprintf(opts.io.ErrOut, "deleted schedule %s from both stores\n", shown)
	return nil
}

// temporalOpenDispatch asks Temporal for a schedule's open dispatch.
func temporalOpenDispatch(t *temporalConfig) openDispatchFunc {
	return func(ctx context.Context, scheduleID string) (string, error) {
		tc, err := t.client()
		if err != nil {
			return "", err
		}
		defer tc.Close()
		return openDispatchOf(ctx, tc, scheduleID)
	}
}

// openDispatchOf is the id of the dispatch open on a schedule, "" if none.
func openDispatchOf(ctx context.Context, tc client.Client, scheduleID string) (string, error) {
	id := workflows.DispatchWorkflowID(scheduleID)
	desc, err := tc.DescribeWorkflowExecution(ctx, id, "")
	var missing *serviceerror.NotFound
	switch {
	case errors.As(err, &missing):
		return "", nil
	case err != nil:
		return "", err
	case desc.GetWorkflowExecutionInfo().GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_RUNNING:
		return id, nil
	}
	return "", nil
}

// listOptions are the flags of `autoscheduler schedule list`.
type listOptions struct {
	io     *cmdutil.IOStreams
	stores *config.Stores
	JSON   bool
}

// scheduleListItem is one schedule of `schedule list --json`: its id and
// stored summary, with Updated in RFC 3339 and left out when unknown (the
// field hides the summary's time, in Go and in JSON).
type scheduleListItem struct {
	ID string `json:"id"`
	store.Summary
	Updated string `json:"updated,omitempty"`
}

func newScheduleListCmd(f *Factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{io: f.IOStreams, stores: f.Stores}
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the stored schedules: name, size, finish, last written",
		Long: "List the stored schedules with the summary each keeps (name, activities, relationships, CPM\n" +
			"finish, when last written): no schedule is loaded or computed, whatever their size.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmdutil.RunOr(cmd, opts, runF, listRun)
		},
	}
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print {"schedules": [{"id", "name", "activities", "relationships", "finish", "finish_date", "updated"}]}`)
	return cmd
}

func listRun(ctx context.Context, opts *listOptions) error {
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	list, err := c.Schedules(ctx)
	if err != nil {
		return err
	}
	items := make([]scheduleListItem, 0, len(list))
	for _, info := range list {
		item := scheduleListItem{ID: info.ID, Summary: store.Summary{Name: info.Name, Activities: info.Activities, Relationships: info.Relationships}}
		if sum := info.Summary; sum != nil {
			item.Finish, item.FinishDate, item.FinishError = sum.Finish, sum.FinishDate, sum.FinishError
			if !sum.Updated.IsZero() {
				item.Updated = sum.Updated.Format(time.RFC3339)
			}
		}
		items = append(items, item)
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, map[string][]scheduleListItem{"schedules": items})
	}
	if len(items) == 0 {
		fmt.Fprintln(opts.io.ErrOut, "no schedules stored (autoscheduler import FILE --schedule ID stores one)")
		return nil
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tACTIVITIES\tRELATIONSHIPS\tFINISH\tUPDATED")
	for _, it := range items {
		finish := strconv.FormatFloat(it.Finish, 'f', -1, 64) + " days"
		switch {
		case it.FinishError != "" && it.FinishDate == "":
			finish = "(cannot be computed)"
			if it.Finish > 0 {
				finish = strconv.FormatFloat(it.Finish, 'f', -1, 64) + " days"
			}
		case it.FinishDate != "":
			finish = it.FinishDate[:min(len(it.FinishDate), 10)] + " (" + finish + ")"
		}
		name, _ := schedule.Truncate(it.Name, 60)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", usertext.Terminal(it.ID), usertext.Terminal(name), it.Activities, it.Relationships, finish, it.Updated)
	}
	return tw.Flush()
}
