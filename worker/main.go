// Command worker runs Autoscheduler's workflows and activities against a
// Temporal server: local, self-hosted or Temporal Cloud (mTLS or API key).
package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/pflag"
	"go.temporal.io/sdk/client"
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
	address := fs.String("address", config.EnvOr("TEMPORAL_ADDRESS", "127.0.0.1:7233"), "Temporal frontend host:port (env TEMPORAL_ADDRESS)")
	namespace := fs.String("namespace", config.EnvOr("TEMPORAL_NAMESPACE", "default"), "Temporal namespace (env TEMPORAL_NAMESPACE)")
	queue := fs.String("task-queue", config.EnvOr("TEMPORAL_TASK_QUEUE", workflows.TaskQueue), "task queue (env TEMPORAL_TASK_QUEUE)")
	certFile := fs.String("tls-cert", os.Getenv("TEMPORAL_TLS_CERT"), "client certificate for mTLS, e.g. Temporal Cloud (env TEMPORAL_TLS_CERT)")
	keyFile := fs.String("tls-key", os.Getenv("TEMPORAL_TLS_KEY"), "client key for mTLS (env TEMPORAL_TLS_KEY); an API key comes from TEMPORAL_API_KEY only")
	stores.BindFlags(fs)
	planning := config.PlanningFromEnv()
	planning.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))

	opts := client.Options{HostPort: *address, Namespace: *namespace, Logger: sdklog.NewStructuredLogger(logger)}
	if (*certFile == "") != (*keyFile == "") {
		return fmt.Errorf("--tls-cert and --tls-key go together")
	}
	if *certFile != "" {
		pair, err := tls.LoadX509KeyPair(*certFile, *keyFile)
		if err != nil {
			return fmt.Errorf("loading the TLS client certificate: %w", err)
		}
		opts.ConnectionOptions.TLS = &tls.Config{Certificates: []tls.Certificate{pair}}
	}
	if key := os.Getenv("TEMPORAL_API_KEY"); key != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(key)
		if opts.ConnectionOptions.TLS == nil {
			opts.ConnectionOptions.TLS = &tls.Config{} // API keys travel over TLS only
		}
	}

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
	tc, err := client.Dial(opts)
	if err != nil {
		return fmt.Errorf("connecting to Temporal at %s: %w", *address, err)
	}
	defer tc.Close()
	// On SIGINT/SIGTERM the worker stops polling and gives running
	// activities this long to finish before it returns.
	w := worker.New(tc, *queue, worker.Options{WorkerStopTimeout: 30 * time.Second})
	workflows.Register(w, &activities.Activities{Stores: c, Planner: planner})
	logger.Info("worker started", "address", *address, "namespace", *namespace, "task_queue", *queue, "planner", plannerName)
	return w.Run(worker.InterruptCh())
}
