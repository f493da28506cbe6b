package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// temporalUIOptions: where the Temporal Web UI listens; which Temporal it
// shows comes from the global --temporal-* flags.
type temporalUIOptions struct {
	io       *cmdutil.IOStreams
	temporal *temporalConfig
	Listen   string
}

func newTemporalUICmd(f *Factory, runF func(context.Context, *temporalUIOptions) error) *cobra.Command {
	opts := &temporalUIOptions{io: f.IOStreams, temporal: f.Temporal}
	cmd := &cobra.Command{
		Use:   "temporal-ui",
		Short: "Serve Temporal's Web UI for the Temporal you point at (a cluster, TLS or not)",
		Long: "Serve Temporal's Web UI on a loopback address for the frontend of --temporal-address,\n" +
			"with the same TLS settings as the worker (--temporal-tls-ca, --temporal-tls-cert, ...).\n" +
			"`autoscheduler dev` serves its own; this is for a Temporal cluster. Stop with Ctrl-C.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if liteBuild {
				return handOff()
			}
			return cmdutil.RunOr(cmd, opts, runF, temporalUIRun)
		},
	}
	cmd.Flags().StringVar(&opts.Listen, "listen", "127.0.0.1:8333", "Web UI address (loopback)")
	return cmd
}
