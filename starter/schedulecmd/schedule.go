// Package schedulecmd is `autoscheduler schedule`, CPM on a schedule. Both
// CLI binaries build it: the full CLI (starter), which reads stored
// schedules and adds `schedule list` and `schedule delete`, and the fast
// front (starter/front), which runs it on files.
package schedulecmd

import (
	"context"
	"io"
	"slices"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// Options are the flags of `autoscheduler schedule` and what it needs.
type Options struct {
	Out, ErrOut io.Writer
	// LoadStored reads a stored schedule (--schedule).
	LoadStored func(ctx context.Context, id string) (*schedule.Schedule, error)
	File       string
	Schedule   string
	Format     string
	// Rules overrides whose scheduling rules apply (msproject or p6);
	// "" keeps the schedule's own (a P6 file's are P6's).
	Rules string
}

// New builds the command; it writes to out and errOut and reads stored
// schedules with loadStored. runF, when set, runs instead of Run once the
// flags are checked (tests).
func New(out, errOut io.Writer, loadStored func(ctx context.Context, id string) (*schedule.Schedule, error), runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Out: out, ErrOut: errOut, LoadStored: loadStored}
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
				return cmdutil.Usagef("schedule: give one of --file and --schedule")
			}
			if err := cmdutil.CheckFormat(cmd, "schedule"); err != nil {
				return err
			}
			if opts.Rules != "" && opts.Rules != schedule.MSProject && opts.Rules != schedule.P6 {
				return cmdutil.Usagef("schedule: --rules %q: want msproject or p6", opts.Rules)
			}
			return cmdutil.RunOr(cmd, opts, runF, Run)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "schedule file (.json, .xml MSPDI, .xer P6)")
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	cmd.Flags().StringVar(&opts.Rules, "rules", "", "schedule with msproject or p6 rules where the tools differ (default: the schedule's own; a P6 file's are P6's)")
	cmdutil.AddFormatFlags(cmd, &opts.Format, "table", []string{"table", "json", "gantt-html", "dot"}, "output format: table, json, gantt-html or dot", "print the CPM report as JSON (--format json)", false)
	return cmd
}

// Run computes the schedule and writes the report in opts.Format.
func Run(ctx context.Context, opts *Options) error {
	var rep *render.Report
	if opts.File != "" {
		s, net, err := cmdutil.LoadFile(opts.ErrOut, opts.File)
		if err != nil {
			return err
		}
		if opts.Rules != "" {
			WithRules(s, opts.Rules)
			rep, err = render.NewReport(s) // compiled again under the rules asked for
		} else {
			rep, err = render.NewReportOf(s, net)
		}
		if err != nil {
			return err
		}
	} else {
		s, err := opts.LoadStored(ctx, opts.Schedule)
		if err != nil {
			return err
		}
		if opts.Rules != "" {
			WithRules(s, opts.Rules)
		}
		if rep, err = render.NewReport(s); err != nil {
			return err
		}
	}
	switch opts.Format {
	case "json":
		return rep.WriteJSON(opts.Out)
	case "gantt-html":
		acts := rep.Schedule.Activities
		if slices.ContainsFunc(acts, func(a schedule.Activity) bool { return a.WBS != "" }) {
			// A programme with a WBS reads in its bands, as in P6.
			return render.WriteGanttHTMLGrouped(opts.Out, rep, nil, func(i int) []string { return render.WBSLevels(acts[i].WBS) })
		}
		return render.WriteGanttHTML(opts.Out, rep)
	case "dot":
		return render.WriteDOT(opts.Out, rep)
	}
	return rep.WriteTable(opts.Out)
}

// WithRules makes s scheduled by tool's rules (its other options kept).
func WithRules(s *schedule.Schedule, tool string) {
	o := schedule.Options{}
	if s.Options != nil {
		o = *s.Options
	}
	o.Tool = tool
	s.Options = &o
}
