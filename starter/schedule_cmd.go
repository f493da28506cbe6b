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
		Use:   "schedule (--file FILE | --schedule ID) [--format table|json]",
		Short: "Compute the critical path of a schedule (CPM)",
		Long: "Compute early and late dates, total and free float and the critical path of a\n" +
			"schedule with MS Project / Primavera P6 semantics. No server is needed.",
		Example: "  autoscheduler schedule --file examples/building.json\n" +
			"  autoscheduler schedule --file examples/building.json --format json\n" +
			"  autoscheduler schedule --schedule building",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (opts.File == "") == (opts.Schedule == "") {
				return usagef("schedule: give one of --file and --schedule")
			}
			switch opts.Format {
			case "table", "json":
			default:
				return usagef("schedule: --format %q: want table or json", opts.Format)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return scheduleRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "schedule file (.json)")
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	cmd.Flags().StringVar(&opts.Format, "format", "table", "output format: table or json")
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
		c, err := opts.stores.Open(ctx)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		s, err := c.Load(ctx, opts.Schedule)
		if err != nil {
			return err
		}
		if rep, err = render.NewReport(s); err != nil {
			return err
		}
	}
	if opts.Format == "json" {
		return rep.WriteJSON(opts.io.Out)
	}
	return rep.WriteTable(opts.io.Out)
}
