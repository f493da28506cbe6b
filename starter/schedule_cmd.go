package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/render"
)

// scheduleOptions are the flags of `autoscheduler schedule`.
type scheduleOptions struct {
	io       *streams
	stores   *config.Stores
	File     string
	Schedule string
	Format   string
}

func newScheduleCmd(io *streams, stores *config.Stores, runF func(context.Context, *scheduleOptions) error) *cobra.Command {
	opts := &scheduleOptions{io: io, stores: stores}
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
			switch opts.Format {
			case "table", "json", "gantt-html", "dot":
			default:
				return usagef("schedule: --format %q: want table, json, gantt-html or dot", opts.Format)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return scheduleRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "schedule file (.json, .xml MSPDI, .xer P6)")
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	cmd.Flags().StringVar(&opts.Format, "format", "table", "output format: table, json, gantt-html or dot")
	// The stored schedules themselves: list and delete.
	cmd.AddCommand(newScheduleListCmd(io, stores), newScheduleDeleteCmd(io, stores, nil))
	return cmd
}

func scheduleRun(ctx context.Context, opts *scheduleOptions) error {
	var rep *render.Report
	if opts.File != "" {
		s, net, err := interchange.Load(opts.File)
		if err != nil {
			return err
		}
		if rep, err = render.NewReportOf(s, net); err != nil {
			return err
		}
	} else {
		s, err := loadStoredSchedule(ctx, opts.stores, opts.Schedule)
		if err != nil {
			return err
		}
		if rep, err = render.NewReport(s); err != nil {
			return err
		}
	}
	switch opts.Format {
	case "json":
		return rep.WriteJSON(opts.io.Out)
	case "gantt-html":
		return render.WriteGanttHTML(opts.io.Out, rep)
	case "dot":
		return render.WriteDOT(opts.io.Out, rep)
	}
	return rep.WriteTable(opts.io.Out)
}
