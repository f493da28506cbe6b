package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/spf13/cobra"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/devserver"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// devOptions are the flags of `autoscheduler dev`.
type devOptions struct {
	io         *streams
	stores     *config.Stores
	planning   *config.Planning // nil: the offline rules planner
	Address    string
	UIAddress  string
	TemporalDB string
	// ready is told the client and frontend address once the server and
	// worker run (tests).
	ready func(c client.Client, frontend, ui string)
}

func newDevCmd(io *streams, stores *config.Stores, planning *config.Planning) *cobra.Command {
	opts := &devOptions{io: io, stores: stores, planning: planning}
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Run a Temporal dev server with the Web UI and a worker, in this process",
		Long: "Start a Temporal server (SQLite file, search attributes ScheduleID and DispatchStage),\n" +
			"its Web UI and an Autoscheduler worker on the configured stores. Stop with Ctrl-C.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return devRun(cmd.Context(), opts) },
	}
	cmd.Flags().StringVar(&opts.Address, "address", "127.0.0.1:7233", "Temporal frontend address (loopback)")
	cmd.Flags().StringVar(&opts.UIAddress, "ui-address", "127.0.0.1:8233", `Web UI address (loopback), or "-" for none`)
	cmd.Flags().StringVar(&opts.TemporalDB, "temporal-db", "", "Temporal's SQLite file (default: temporal.db beside the embedded store)")
	return cmd
}

func devRun(ctx context.Context, opts *devOptions) error {
	if opts.TemporalDB == "" {
		data, err := opts.stores.DataPath()
		if err != nil {
			return err
		}
		opts.TemporalDB = filepath.Join(filepath.Dir(data), "temporal.db")
	}
	srv, err := devserver.Start(ctx, devserver.Options{
		DBPath:    opts.TemporalDB,
		Address:   opts.Address,
		UIAddress: opts.UIAddress,
		SearchAttributes: map[string]enums.IndexedValueType{
			workflows.ScheduleIDAttribute.GetName():    enums.INDEXED_VALUE_TYPE_KEYWORD,
			workflows.DispatchStageAttribute.GetName(): enums.INDEXED_VALUE_TYPE_KEYWORD,
		},
	})
	if err != nil {
		return fmt.Errorf("temporal dev server: %w", err)
	}
	defer srv.Stop()
	planner, plannerName := scope.Planner(scope.Rules{}), "offline rules planner"
	if opts.planning != nil {
		if planner, plannerName, err = opts.planning.Planner(); err != nil {
			return err
		}
	}
	stores, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer stores.Close(context.Background())
	tc, err := client.Dial(client.Options{HostPort: srv.FrontendAddress(), Logger: quietSDKLogger(opts.io)})
	if err != nil {
		return fmt.Errorf("connecting to the dev server: %w", err)
	}
	defer tc.Close()
	w := worker.New(tc, workflows.TaskQueue, worker.Options{})
	workflows.Register(w, &activities.Activities{Stores: stores, Planner: planner})
	if err := w.Start(); err != nil {
		return fmt.Errorf("starting the worker: %w", err)
	}
	defer w.Stop()
	fmt.Fprintf(opts.io.ErrOut, "Temporal dev server on %s (history in %s), worker on task queue %q, planning with the %s.\n", srv.FrontendAddress(), opts.TemporalDB, workflows.TaskQueue, plannerName)
	if ui := srv.UIURL(); ui != "" {
		fmt.Fprintf(opts.io.ErrOut, "Web UI: %s\n", ui)
	}
	fmt.Fprintln(opts.io.ErrOut, "Press Ctrl-C to stop.")
	if opts.ready != nil {
		opts.ready(tc, srv.FrontendAddress(), srv.UIURL())
	}
	<-ctx.Done()
	return nil
}

// quietSDKLogger keeps the SDK's routine chatter (worker start, polls)
// out of the terminal; warnings and errors still show.
func quietSDKLogger(io *streams) sdklog.Logger {
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn})))
}
