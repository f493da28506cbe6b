package main

import (
	"log/slog"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/autoscheduler/autoscheduler/internal/config"
)

// devOptions are the flags of `autoscheduler dev`.
type devOptions struct {
	io         *streams
	stores     *config.Stores
	planning   *config.Planning // nil: the offline rules planner
	Address    string
	UIAddress  string
	TemporalDB string
	// Web is the review web app's address and token (Listen "" or "-":
	// none).
	Web webOptions
	// ready is told the client, the frontend address and the UI and web
	// app URLs once the server, worker and web app run (tests, demo).
	ready func(c client.Client, frontend, ui, webURL string)
}

func newDevCmd(io *streams, stores *config.Stores, planning *config.Planning) *cobra.Command {
	opts := &devOptions{io: io, stores: stores, planning: planning}
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
			return devRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Address, "address", "127.0.0.1:7233", "Temporal frontend address (loopback)")
	cmd.Flags().StringVar(&opts.UIAddress, "ui-address", "127.0.0.1:8233", `Web UI address (loopback), or "-" for none`)
	cmd.Flags().StringVar(&opts.TemporalDB, "temporal-db", "", "Temporal's SQLite file (default: temporal.db beside the embedded store)")
	opts.Web.bind(cmd, "web-")
	return cmd
}

// quietSDKLogger keeps the SDK's routine chatter (worker start, polls)
// out of the terminal; warnings and errors still show.
func quietSDKLogger(io *streams) sdklog.Logger {
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn})))
}
