package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// devOptions are the flags of `autoscheduler dev`.
type devOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	planning *config.Planning // nil: the offline rules planner
	// Listen is --listen: the address the dev server's Temporal frontend
	// binds (the clients' --temporal-address is where they dial).
	Listen     string
	UIAddress  string
	TemporalDB string
	// Web is the review web app's address and token (Listen "" or "-":
	// none).
	Web webOptions
	// ready is told the client, the frontend address and the UI and web
	// app URLs once the server, worker and web app run (tests, demo).
	ready func(c client.Client, frontend, ui, webURL string)
}

func newDevCmd(f *Factory, runF func(context.Context, *devOptions) error) *cobra.Command {
	opts := &devOptions{io: f.IOStreams, stores: f.Stores, planning: f.Planning}
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Run a Temporal dev server with the Web UI and a worker, in this process",
		Long: "Start a Temporal server (SQLite file, search attributes ScheduleID and DispatchStage),\n" +
			"its Web UI, an Autoscheduler worker on the configured stores and the review web app\n" +
			"(--web-listen, \"-\" for none). Stop with Ctrl-C.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if liteBuild {
				return handOff()
			}
			warnOldAddress(cmd, opts.io)
			return cmdutil.RunOr(cmd, opts, runF, devRun)
		},
	}
	bindServerFlags(cmd, opts)
	cmd.Flags().StringVar(&opts.TemporalDB, "temporal-db", "", "Temporal's SQLite file (default: temporal.db beside the embedded store)")
	return cmd
}

// bindServerFlags binds what dev and demo serve on: --listen (with the
// old --address, hidden and deprecated, so scripts keep working: see
// warnOldAddress),
// --ui-address and the web app's --web-* flags.
func bindServerFlags(cmd *cobra.Command, opts *devOptions) {
	fs := cmd.Flags()
	fs.StringVar(&opts.Listen, "listen", config.DefaultTemporalAddress, "address the dev server's Temporal frontend listens on (loopback); clients reach it with --temporal-address")
	fs.StringVar(&opts.Listen, "address", config.DefaultTemporalAddress, "old name of --listen")
	_ = fs.MarkHidden("address")
	fs.StringVar(&opts.UIAddress, "ui-address", "127.0.0.1:8233", `Web UI address (loopback), or "-" for none`)
	opts.Web.bind(cmd, "web-")
}

// warnOldAddress says on stderr that --address is now --listen (cobra's
// own deprecation notice would go to stdout).
func warnOldAddress(cmd *cobra.Command, io *cmdutil.IOStreams) {
	if cmd.Flags().Changed("address") {
		fmt.Fprintln(io.ErrOut, "warning: --address is deprecated: use --listen (--temporal-address is where clients connect)")
	}
}
