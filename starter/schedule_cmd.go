package main

import (
	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/render"
)

// scheduleOptions are the flags of `autoscheduler schedule`.
type scheduleOptions struct {
	io     *streams
	File   string
	Format string
}

func newScheduleCmd(io *streams, runF func(*scheduleOptions) error) *cobra.Command {
	opts := &scheduleOptions{io: io}
	cmd := &cobra.Command{
		Use:   "schedule --file FILE [--format table|json]",
		Short: "Compute the critical path of a schedule (CPM)",
		Long: "Compute early and late dates, total and free float and the critical path of a\n" +
			"schedule with MS Project / Primavera P6 semantics. No server is needed.",
		Example: "  autoscheduler schedule --file examples/building.json\n" +
			"  autoscheduler schedule --file examples/building.json --format json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.File == "" {
				return usagef("schedule: --file is required")
			}
			switch opts.Format {
			case "table", "json":
			default:
				return usagef("schedule: --format %q: want table or json", opts.Format)
			}
			if runF != nil {
				return runF(opts)
			}
			return scheduleRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "schedule file (.json)")
	cmd.Flags().StringVar(&opts.Format, "format", "table", "output format: table or json")
	return cmd
}

func scheduleRun(opts *scheduleOptions) error {
	s, net, err := interchange.Load(opts.File)
	if err != nil {
		return err
	}
	rep, err := render.NewReportOf(s, net)
	if err != nil {
		return err
	}
	if opts.Format == "json" {
		return rep.WriteJSON(opts.io.Out)
	}
	return rep.WriteTable(opts.io.Out)
}
