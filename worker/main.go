// Command worker runs Autoscheduler's workflows and activities against a
// Temporal server: local, self-hosted or Temporal Cloud (mTLS or API key).
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/pflag"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/workflows"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	stores := config.StoresFromEnv()
	fs := pflag.NewFlagSet("worker", pflag.ContinueOnError)
	temporalCfg := config.TemporalFromEnv()
	temporalCfg.BindFlags(fs)
	queue := fs.String("task-queue", config.EnvOr("TEMPORAL_TASK_QUEUE", workflows.TaskQueue), "task queue (env TEMPORAL_TASK_QUEUE)")
	stores.BindFlags(fs)
	planning := config.PlanningFromEnv()
	planning.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))

	planner, plannerName, err := planning.Planner()
	if err != nil {
		return err
	}
	ctx := context.Background()
	c, err := stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	tc, err := temporalCfg.Dial(sdklog.NewStructuredLogger(logger))
	if err != nil {
		return err
	}
	defer tc.Close()
	// On SIGINT/SIGTERM the worker stops polling and gives running
	// activities this long to finish before it returns.
	w := worker.New(tc, *queue, worker.Options{WorkerStopTimeout: 30 * time.Second})
	workflows.Register(w, &activities.Activities{Stores: c, Planner: planner})
	logger.Info("worker started", "temporal", temporalCfg.String(), "task_queue", *queue, "planner", plannerName)
	return w.Run(worker.InterruptCh())
}
