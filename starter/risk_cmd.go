package main

import (
	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/starter/riskcmd"
)

// newRiskCmd is `autoscheduler risk` (starter/riskcmd) on files and stored
// schedules.
func newRiskCmd(f *Factory) *cobra.Command {
	return riskcmd.New(f.IOStreams.Out, f.IOStreams.ErrOut, storedLoader(f.Stores), nil)
}
