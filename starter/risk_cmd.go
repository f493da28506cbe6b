package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/riskcmd"
)

// newRiskCmd is `autoscheduler risk` (starter/riskcmd) on files and stored
// schedules.
func newRiskCmd(f *Factory) *cobra.Command {
	return riskcmd.New(f.IOStreams.Out, f.IOStreams.ErrOut, func(ctx context.Context, id string) (*schedule.Schedule, error) {
		return loadStoredSchedule(ctx, f.Stores, id)
	}, nil)
}
