package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// scheduleOptions are the flags of `autoscheduler schedule`.
type scheduleOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	File     string
	Schedule string
	Format   string
	// Rules overrides whose scheduling rules apply (msproject or p6);
	// "" keeps the schedule's own (a P6 file's are P6's).
	Rules string
}

func newScheduleCmd(f *Factory, runF func(context.Context, *scheduleOptions) error) *cobra.Command {
	opts := &scheduleOptions{io: f.IOStreams, stores: f.Stores}
	cmd := &cobra.Command{
		Use:   "schedule (--file FILE | --schedule ID) [--format table|json|gantt-html|dot]",
		Short: "Compute the critical path of a schedule (CPM)",
		Long: "Compute early and late dates, total and free float and the critical path of a\n" +
			"schedule with MS Project / Primavera P6 semantics. No server is needed.\n\n" +
			"Formats: table (default), json (the CPM report), gantt-html (one self-contained\n" +
			"HTML page with a zoomable Gantt chart; it loads nothing from the network) and\n" +
			"dot (a Graphviz digraph of the logic: dot -Tsvg -o logic.svg).",
		Example: "  autoscheduler schedule --file examples/building.json\n" +
			"  autoscheduler schedule --file examples/building.json --format json\n" +
			"  autoscheduler schedule --file examples/building.json --format gantt-html > gantt.html\n" +
			"  autoscheduler schedule --file examples/building.json --format dot | dot -Tsvg -o logic.svg\n" +
			"  autoscheduler schedule --schedule building",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (opts.File == "") == (opts.Schedule == "") {
				return usagef("schedule: give one of --file and --schedule")
			}
			if err := cmdutil.CheckFormat(cmd, "schedule"); err != nil {
				return err
			}
			if opts.Rules != "" && opts.Rules != schedule.MSProject && opts.Rules != schedule.P6 {
				return usagef("schedule: --rules %q: want msproject or p6", opts.Rules)
			}
			return cmdutil.RunOr(cmd, opts, runF, scheduleRun)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "schedule file (.json, .xml MSPDI, .xer P6)")
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	cmd.Flags().StringVar(&opts.Rules, "rules", "", "schedule with msproject or p6 rules where the tools differ (default: the schedule's own; a P6 file's are P6's)")
	cmdutil.AddFormatFlags(cmd, &opts.Format, "table", []string{"table", "json", "gantt-html", "dot"}, "output format: table, json, gantt-html or dot", "print the CPM report as JSON (--format json)", false)
	// The stored schedules themselves: list and delete.
	cmd.AddCommand(newScheduleListCmd(f, nil), newScheduleDeleteCmd(f, nil))
	return cmd
}

func scheduleRun(ctx context.Context, opts *scheduleOptions) error {
	var rep *render.Report
	if opts.File != "" {
		s, net, err := cmdutil.LoadFile(opts.io.ErrOut, opts.File)
		if err != nil {
			return err
		}
		if opts.Rules != "" {
			withRules(s, opts.Rules)
			rep, err = render.NewReport(s) // compiled again under the rules asked for
		} else {
			rep, err = render.NewReportOf(s, net)
		}
		if err != nil {
			return err
		}
	} else {
		s, err := loadStoredSchedule(ctx, opts.stores, opts.Schedule)
		if err != nil {
			return err
		}
		if opts.Rules != "" {
			withRules(s, opts.Rules)
		}
		if rep, err = render.NewReport(s); err != nil {
			return err
		}
	}
	switch opts.Format {
	case "json":
		return rep.WriteJSON(opts.io.Out)
	case "gantt-html":
		acts := rep.Schedule.Activities
		if slices.ContainsFunc(acts, func(a schedule.Activity) bool { return a.WBS != "" }) {
			// A programme with a WBS reads in its bands, as in P6.
			return render.WriteGanttHTMLGrouped(opts.io.Out, rep, nil, func(i int) []string { return render.WBSLevels(acts[i].WBS) })
		}
		return render.WriteGanttHTML(opts.io.Out, rep)
	case "dot":
		return render.WriteDOT(opts.io.Out, rep)
	}
	return rep.WriteTable(opts.io.Out)
}

// withRules makes s scheduled by tool's rules (its other options kept).
func withRules(s *schedule.Schedule, tool string) {
	o := schedule.Options{}
	if s.Options != nil {
		o = *s.Options
	}
	o.Tool = tool
	s.Options = &o
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
