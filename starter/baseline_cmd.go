package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// newBaselineCmd is `autoscheduler baseline`: set, show and clear the
// baseline a stored schedule's progress is measured against.
func newBaselineCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "baseline",
		Short: "Set, show or clear the baseline progress is measured against",
		Long: "A baseline is each activity's planned start, finish and duration. Files bring theirs (MS\n" +
			"Project's Baseline, P6's planned dates); `baseline set` makes the schedule as now computed\n" +
			"the baseline; `baseline show` lists each activity's variance from it. The DCMA missed\n" +
			"activities and BEI checks and `ask \"what is behind baseline\"` read it.",
	}
	cmd.AddCommand(
		newBaselineWriteCmd(f, "set", "Make the schedule as now computed its baseline", setBaseline, nil),
		newBaselineWriteCmd(f, "clear", "Remove the schedule's baseline", clearBaseline, nil),
		newBaselineShowCmd(f, nil),
	)
	return cmd
}

// baselineWriteOptions are set and clear: a change to a stored
// schedule's baselines.
type baselineWriteOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	Schedule string
	JSON     bool
	// Change changes the baselines of s, computed as r.
	Change func(s *schedule.Schedule, r *schedule.Result) error
	// Verb is what the change did, for the report ("set", "cleared").
	Verb string
}

// baselineWritten is `baseline set|clear --json`.
type baselineWritten struct {
	Schedule   string `json:"schedule"`
	Baseline   string `json:"baseline"` // set or cleared
	Activities int    `json:"activities"`
	Start      string `json:"start,omitempty"`
	Finish     string `json:"finish,omitempty"`
}

func setBaseline(s *schedule.Schedule, r *schedule.Result) error {
	if err := schedule.SetBaseline(s, r); err != nil {
		return fmt.Errorf("baseline set: %w", err)
	}
	return nil
}

func clearBaseline(s *schedule.Schedule, _ *schedule.Result) error {
	schedule.ClearBaseline(s)
	return nil
}

func newBaselineWriteCmd(f *Factory, use, short string, change func(*schedule.Schedule, *schedule.Result) error, runF func(context.Context, *baselineWriteOptions) error) *cobra.Command {
	opts := &baselineWriteOptions{io: f.IOStreams, stores: f.Stores, Change: change, Verb: map[string]string{"set": "set", "clear": "cleared"}[use]}
	long := "Copies every activity's computed start and finish (actual dates where reported, early dates\n" +
		"otherwise) and the working days between them into its baseline, replacing any baseline it had.\n"
	if use == "clear" {
		long = "Removes every activity's baseline start, finish and duration.\n"
	}
	long += "The stored schedule is rewritten as a replace-import would (both stores, one ledgered write),\n" +
		"not as ops: a baseline is not a change to the plan, so it is not undone with a dispatch. Run\n" +
		"it when no dispatch is awaiting review, or its proposed changes are baselined with the rest."
	cmd := &cobra.Command{
		Use:     use + " SCHEDULE",
		Short:   short,
		Long:    long,
		Example: "  autoscheduler baseline " + use + " building",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Schedule = args[0]
			return cmdutil.RunOr(cmd, opts, runF, baselineWriteRun)
		},
	}
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print {"schedule", "baseline", "activities", "start", "finish"}`)
	return cmd
}

// baselineWriteRun loads the stored schedule, changes its baselines and
// writes it back in one replace-import. Why not ops: an UpdateActivity
// per activity clones the schedule per op in the stores (quadratic in the
// activities) and would put every activity twice in an EditWorkflow's
// history, past Temporal's payload limits on a real programme; the
// import writes only the activities that changed, in chunks, under the
// stores' intent and ledger like any write.
func baselineWriteRun(ctx context.Context, opts *baselineWriteOptions) error {
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	s, err := c.Load(ctx, opts.Schedule)
	if err != nil {
		return err
	}
	r, err := schedule.Analyze(s)
	if err != nil {
		return err
	}
	if err := opts.Change(s, r); err != nil {
		return err
	}
	if err := c.Import(ctx, opts.Schedule, s, true, nil); err != nil {
		return err
	}
	out := baselineWritten{Schedule: opts.Schedule, Baseline: opts.Verb, Activities: len(s.Activities)}
	for k := range s.Activities {
		a := &s.Activities[k]
		if a.BaselineStart != "" && (out.Start == "" || a.BaselineStart < out.Start) { // one layout: text order is time order
			out.Start = a.BaselineStart
		}
		out.Finish = max(out.Finish, a.BaselineFinish)
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, out)
	}
	if out.Start == "" {
		fmt.Fprintf(opts.io.Out, "baseline %s on %q: %d activities\n", out.Baseline, out.Schedule, out.Activities)
		return nil
	}
	fmt.Fprintf(opts.io.Out, "baseline %s on %q: %d activities, %s to %s\n", out.Baseline, out.Schedule, out.Activities, out.Start, out.Finish)
	return nil
}

// baselineShowOptions are `baseline show`.
type baselineShowOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	File     string
	Schedule string
	JSON     bool
	// Behind lists only the activities finishing after their baseline
	// finish, the latest first.
	Behind bool
}

// varianceRow is one activity of `baseline show --json`: dates as local
// date-times, variances in working days of the activity's calendar,
// positive when later or longer than the baseline; a field the baseline
// lacks is left out.
type varianceRow struct {
	ID               string   `json:"id"`
	Name             string   `json:"name"`
	BaselineStart    string   `json:"baseline_start,omitempty"`
	Start            string   `json:"start"`
	StartVariance    *float64 `json:"start_variance,omitempty"`
	BaselineFinish   string   `json:"baseline_finish,omitempty"`
	Finish           string   `json:"finish"`
	FinishVariance   *float64 `json:"finish_variance,omitempty"`
	BaselineDuration *float64 `json:"baseline_duration,omitempty"`
	Duration         float64  `json:"duration"`
	DurationVariance *float64 `json:"duration_variance,omitempty"`
}

func newBaselineShowCmd(f *Factory, runF func(context.Context, *baselineShowOptions) error) *cobra.Command {
	opts := &baselineShowOptions{io: f.IOStreams, stores: f.Stores}
	cmd := &cobra.Command{
		Use:   "show [SCHEDULE | --file FILE] [--behind] [--json]",
		Short: "List each activity's variance from its baseline (start, finish, duration)",
		Long: "Lists, for each activity with a baseline, its baseline and forecast start, finish and duration\n" +
			"(the forecast: actual dates where reported, early dates otherwise) and the variances, forecast\n" +
			"minus baseline in working days of the activity's calendar: positive is later or longer.",
		Example: "  autoscheduler baseline show building --behind\n  autoscheduler baseline show --file update.xer --json",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Schedule = args[0]
			}
			if (opts.File == "") == (opts.Schedule == "") {
				return usagef("baseline show: give a stored schedule or --file")
			}
			return cmdutil.RunOr(cmd, opts, runF, baselineShowRun)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "schedule file (.json, .xml MSPDI, .xer P6)")
	cmd.Flags().BoolVar(&opts.Behind, "behind", false, "only activities finishing after their baseline finish, the latest first")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print {"variances": [{"id", "name", "baseline_start", "start", "start_variance", "baseline_finish", "finish", "finish_variance", "baseline_duration", "duration", "duration_variance"}]}`)
	return cmd
}

// errNoBaseline is a schedule without any baseline to compare with.
var errNoBaseline = errors.New("no activity has a baseline: set one with `autoscheduler baseline set`, or import a file that carries one")

func baselineShowRun(ctx context.Context, opts *baselineShowOptions) error {
	v, err := loadView(ctx, opts.stores, opts.io.ErrOut, opts.File, opts.Schedule)
	if err != nil {
		return err
	}
	vs, err := schedule.Variances(v.S, v.R)
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		return errNoBaseline
	}
	if opts.Behind {
		vs = slices.DeleteFunc(vs, func(x schedule.Variance) bool { return x.FinishDays == nil || *x.FinishDays <= 0 })
		slices.SortStableFunc(vs, func(a, b schedule.Variance) int { return cmp.Compare(*b.FinishDays, *a.FinishDays) })
	}
	rows := make([]varianceRow, len(vs))
	for k, x := range vs {
		rows[k] = varianceRow{ID: x.ID, Name: x.Name, BaselineStart: dateOrNone(x.BaselineStart), Start: dateOrNone(x.Start),
			StartVariance: x.StartDays, BaselineFinish: dateOrNone(x.BaselineFinish), Finish: dateOrNone(x.Finish),
			FinishVariance: x.FinishDays, Duration: x.Duration, DurationVariance: x.DurationDays}
		if x.BaselineDuration >= 0 {
			d := x.BaselineDuration
			rows[k].BaselineDuration = &d
		}
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, map[string][]varianceRow{"variances": rows})
	}
	if len(rows) == 0 {
		fmt.Fprintln(opts.io.Out, "nothing finishes after its baseline finish")
		return nil
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tBL START\tSTART\tVAR\tBL FINISH\tFINISH\tVAR\tBL DUR\tDUR\tVAR")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name,
			orDash(r.BaselineStart), r.Start, signedDays(r.StartVariance),
			orDash(r.BaselineFinish), r.Finish, signedDays(r.FinishVariance),
			days(r.BaselineDuration), days(&r.Duration), signedDays(r.DurationVariance))
	}
	return tw.Flush()
}

// dateOrNone writes a date-time as reports do; "" for none.
func dateOrNone(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(schedule.DateTimeLayout)
}

func orDash(s string) string { return cmp.Or(s, "-") }

// days writes working days to two decimals at most; "-" for none.
func days(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(math.Round(*v*100)/100+0, 'f', -1, 64) // +0: no "-0"
}

// signedDays is days with a + on a positive variance.
func signedDays(v *float64) string {
	s := days(v)
	if v != nil && math.Round(*v*100) > 0 {
		return "+" + s
	}
	return s
}
