package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/riskcmd"
)

// newRiskCmd is `autoscheduler risk` (starter/riskcmd) on files and stored
// schedules.
func newRiskCmd(io *streams, stores *config.Stores) *cobra.Command {
	return riskcmd.New(io.Out, io.ErrOut, func(ctx context.Context, id string) (*schedule.Schedule, error) {
		return loadStoredSchedule(ctx, stores, id)
	})
}
