package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// checkOptions are the flags of `autoscheduler check`.
type checkOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	File     string
	Schedule string
	JSON     bool
	Limits   insight.Thresholds
}

// checkOutput is `check --json`.
type checkOutput struct {
	Checks []insight.CheckResult `json:"checks"`
}

// checkShownOffenders is how many offenders a row of the table lists.
const checkShownOffenders = 5

func newCheckCmd(f *Factory, runF func(context.Context, *checkOptions) error) *cobra.Command {
	opts := &checkOptions{io: f.IOStreams, stores: f.Stores, Limits: insight.DefaultThresholds()}
	var notApplicable strings.Builder
	for _, p := range insight.NotApplicable {
		fmt.Fprintf(&notApplicable, "  %2d %s: %s.\n", p.Point, p.Name, p.Reason)
	}
	cmd := &cobra.Command{
		Use:   "check (--file FILE | --schedule ID) [--json] [thresholds]",
		Short: "Check schedule quality (DCMA 14-point where it applies); exit 1 when a check fails",
		Long: "Check the quality of a schedule's logic: the points of the DCMA 14-point assessment that\n" +
			"apply to a logic network, plus redundant links and dangling ends. Each check passes or\n" +
			"fails and lists its offenders: activity ids, or relationship ids for leads, lags,\n" +
			"relationship_types and redundant_links. Exit status 0 when every check passes, 1 when\n" +
			"any fails (for CI pipelines), 2 on a usage error. No server is needed for --file.\n\n" +
			"Checks (percentages are of all activities or all relationships):\n" +
			"  missing_logic       activities without a predecessor or a successor, <= 5% (DCMA 1).\n" +
			"                      The project start (the only activity without a predecessor, or else\n" +
			"                      the first such milestone) and finish (the only activity without a\n" +
			"                      successor if it finishes at the project finish, or else the last such\n" +
			"                      milestone finishing there) are excused.\n" +
			"  leads               relationships with a negative lag, none (DCMA 2)\n" +
			"  lags                relationships with a positive lag, <= 5% (DCMA 3)\n" +
			"  relationship_types  relationships not FS; FS >= 90% (DCMA 4)\n" +
			"  high_float          total float over 44 working days, <= 5% (DCMA 6)\n" +
			"  negative_float      total float below zero, none (DCMA 7; never without constraints)\n" +
			"  high_duration       duration over 44 working days, <= 5% (DCMA 8)\n" +
			"  critical_path_test  the first task on the critical path made 10 days longer must move\n" +
			"                      the project finish 10 days (DCMA 12); the offender is that task\n" +
			"  redundant_links     FS links that a chain of two or more FS links with lags >= 0, whose\n" +
			"                      lags add up to at least the link's, already implies; none\n" +
			"  dangling_starts     activities whose predecessors are all FF or SF, <= 5%\n" +
			"  dangling_finishes   activities whose successors are all SS or SF, <= 5%\n" +
			"                      (both leave out milestones and the project start and finish)\n" +
			"A live programme is also checked, where it has what each needs:\n" +
			"  hard_constraints    must start/finish on, mandatory, start/finish on or before, <= 5% (DCMA 5)\n" +
			"  invalid_dates       actual dates after the data date, forecasts of unfinished work\n" +
			"                      before it, none (DCMA 9)\n" +
			"  resources           incomplete tasks with a duration and no assignment, 0% (DCMA 10)\n" +
			"  missed_activities   tasks due by the baseline not finished by their baseline finish, <= 5% (DCMA 11)\n" +
			"  cpli                (critical path length + finish float) / length from the data date >= 0.95 (DCMA 13)\n" +
			"  bei                 tasks finished / tasks due by the data date by the baseline >= 0.95 (DCMA 14)\n" +
			"High float, negative float and high duration then count incomplete tasks, and the critical\n" +
			"path test lengthens the incomplete critical task nearest the data date (its remaining work).\n\n" +
			"The DCMA points checked only when the schedule has what they need:\n" + notApplicable.String(),
		Example: "  autoscheduler check --file examples/building.json\n" +
			"  autoscheduler check --file plan.xml --json\n" +
			"  autoscheduler check --schedule building --min-fs 60 --max-lags 45",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (opts.File == "") == (opts.Schedule == "") {
				return usagef("check: give one of --file and --schedule")
			}
			if err := opts.Limits.Validate(); err != nil {
				return usagef("check: %v", err)
			}
			return cmdutil.RunOr(cmd, opts, runF, checkRun)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&opts.File, "file", "f", "", "schedule file (.json, .xml MSPDI, .xer P6)")
	fs.StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	cmdutil.AddJSONFlag(fs, &opts.JSON, `print {"checks": [{"id", "name", "passed", "count", "threshold", "offenders", "offender_names"}]}`)
	l := &opts.Limits
	fs.Float64Var(&l.MissingLogicPct, "max-missing-logic", l.MissingLogicPct, "most activities missing a predecessor or successor, in %")
	fs.IntVar(&l.MaxLeads, "max-leads", l.MaxLeads, "most relationships with a negative lag")
	fs.Float64Var(&l.LagsPct, "max-lags", l.LagsPct, "most relationships with a positive lag, in %")
	fs.Float64Var(&l.MinFSPct, "min-fs", l.MinFSPct, "least share of finish-to-start relationships, in %")
	fs.Float64Var(&l.HighFloatDays, "high-float", l.HighFloatDays, "total float over this many working days is high")
	fs.Float64Var(&l.HighFloatPct, "max-high-float", l.HighFloatPct, "most activities with high float, in %")
	fs.IntVar(&l.MaxNegativeFloat, "max-negative-float", l.MaxNegativeFloat, "most activities with negative float")
	fs.Float64Var(&l.HighDurationDays, "high-duration", l.HighDurationDays, "a duration over this many working days is high")
	fs.Float64Var(&l.HighDurationPct, "max-high-duration", l.HighDurationPct, "most activities with a high duration, in %")
	fs.Float64Var(&l.CriticalPathDelay, "critical-path-delay", l.CriticalPathDelay, "working days the critical path test adds to a critical task")
	fs.IntVar(&l.MaxRedundantLinks, "max-redundant", l.MaxRedundantLinks, "most redundant links")
	fs.Float64Var(&l.MaxDanglingPct, "max-dangling", l.MaxDanglingPct, "most activities with a dangling start (and, apart, finish), in %")
	fs.Float64Var(&l.NoResourcesPct, "max-no-resources", l.NoResourcesPct, "most incomplete tasks without a resource assignment, in %")
	fs.Float64Var(&l.MissedPct, "max-missed", l.MissedPct, "most tasks due by the baseline that missed their baseline finish, in %")
	fs.Float64Var(&l.MinCPLI, "min-cpli", l.MinCPLI, "least critical path length index")
	fs.Float64Var(&l.MinBEI, "min-bei", l.MinBEI, "least baseline execution index")
	return cmd
}

// errChecksFailed makes check exit 1 once it has printed its report.
type errChecksFailed struct{ failed, total int }

func (e *errChecksFailed) Error() string {
	return fmt.Sprintf("check: %d of %d checks failed", e.failed, e.total)
}

func checkRun(ctx context.Context, opts *checkOptions) error {
	v, err := loadView(ctx, opts.stores, opts.io.ErrOut, opts.File, opts.Schedule)
	if err != nil {
		return err
	}
	results, err := insight.RunChecks(v, opts.Limits)
	if err != nil {
		return err
	}
	if opts.JSON {
		err = cmdutil.WriteJSON(opts.io.Out, checkOutput{Checks: results})
	} else {
		err = writeCheckTable(opts.io, v, results)
	}
	if err != nil {
		return err
	}
	if n := insight.Failed(results); n > 0 {
		return &errChecksFailed{failed: n, total: len(results)}
	}
	return nil
}

// writeCheckTable prints the readable report: one row per check with
// PASS/FAIL, the count, the threshold and the first offenders.
func writeCheckTable(io *cmdutil.IOStreams, v *insight.View, results []insight.CheckResult) error {
	w := io.Out
	title := "the schedule"
	if v.S.Name != "" {
		title = fmt.Sprintf("%q", v.S.Name)
	}
	start, finish := insight.ProjectEnds(v)
	fmt.Fprintf(w, "Checks of %s: %d activities, %d relationships; project start %s, finish %s\n\n",
		title, len(v.S.Activities), len(v.S.Relationships), checkOrNone(start), checkOrNone(finish))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CHECK\tRESULT\tCOUNT\tTHRESHOLD\tOFFENDERS")
	var details []string
	for _, r := range results {
		result := "PASS"
		if !r.Passed {
			result = "FAIL"
		}
		count := fmt.Sprint(r.Count)
		if r.Of > 0 && r.ID != insight.CheckCriticalPathTest {
			count = fmt.Sprintf("%d of %d (%.1f%%)", r.Count, r.Of, 100*float64(r.Count)/float64(r.Of))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", checkShortName(r.Name), result, count, r.Threshold, checkFirstOffenders(r.Offenders))
		if r.Detail != "" {
			details = append(details, checkShortName(r.Name)+": "+r.Detail)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, d := range details {
		fmt.Fprintln(w, d)
	}
	failed := insight.Failed(results)
	fmt.Fprintf(w, "%d of %d checks passed", len(results)-failed, len(results))
	if failed > 0 {
		fmt.Fprintf(w, ", %d failed", failed)
	}
	fmt.Fprintln(w, ".")
	var na []string
	for _, p := range insight.NotApplicableTo(v) {
		na = append(na, fmt.Sprintf("%d %s (%s)", p.Point, p.Name, p.Reason))
	}
	if len(na) == 0 {
		return nil
	}
	_, err := fmt.Fprintf(w, "Not applicable (see check --help): DCMA %s.\n", strings.Join(na, "; "))
	return err
}

// checkShortName is a check's name up to its colon: "Missing logic".
func checkShortName(name string) string {
	short, _, _ := strings.Cut(name, ":")
	return short
}

// checkFirstOffenders lists up to checkShownOffenders ids, then how many more.
func checkFirstOffenders(ids []string) string {
	if len(ids) <= checkShownOffenders {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:checkShownOffenders], ", "), len(ids)-checkShownOffenders)
}

func checkOrNone(id string) string {
	if id == "" {
		return "none recognised"
	}
	return id
}
