//go:build !lite

package main

import (
	"context"
	"fmt"
	"path/filepath"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/devserver"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// liteBuild is false: this binary holds the Temporal server and runs
// `dev` and `demo` itself (the lite build hands them to this one).
const liteBuild = false

func handOff() error { return nil }

func devRun(ctx context.Context, opts *devOptions) error {
	if opts.TemporalDB == "" {
		data, err := opts.stores.DataPath()
		if err != nil {
			return err
		}
		opts.TemporalDB = filepath.Join(filepath.Dir(data), "temporal.db")
	}
	srv, err := devserver.Start(ctx, devserver.Options{
		DBPath:           opts.TemporalDB,
		Address:          opts.Listen,
		UIAddress:        opts.UIAddress,
		SearchAttributes: workflows.SearchAttributes(),
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
	webURL := ""
	webDone := make(chan error, 1)
	if opts.Web.Listen != "" && opts.Web.Listen != "-" {
		listening := make(chan string, 1)
		go func() {
			webDone <- serveWeb(ctx, opts.io, &opts.Web, stores, tc, srv.UIURL(), config.DefaultTemporalNamespace, "",
				func(url string) { listening <- url })
		}()
		// Fail now rather than later when the web app cannot listen.
		select {
		case webURL = <-listening:
		case err := <-webDone:
			return err
		}
	}
	fmt.Fprintln(opts.io.ErrOut, "Press Ctrl-C to stop.")
	if opts.ready != nil {
		opts.ready(tc, srv.FrontendAddress(), srv.UIURL(), webURL)
	}
	<-ctx.Done()
	if webURL != "" {
		return <-webDone
	}
	return nil
}

// temporalUIRun serves the Web UI for the configured Temporal until ctx
// ends (Ctrl-C).
func temporalUIRun(ctx context.Context, opts *temporalUIOptions) error {
	t := opts.temporal.Temporal
	ui, err := devserver.ServeUI(ctx, devserver.UIOptions{
		Listen: opts.Listen, Frontend: t.Address, Namespace: t.Namespace,
		CAFile: t.CACert, CertFile: t.ClientCert, KeyFile: t.ClientKey, ServerName: t.ServerName,
	}, nil)
	if err != nil {
		return err
	}
	defer ui.Stop()
	fmt.Fprintf(opts.io.Out, "Temporal Web UI for %s: %s\n", t.String(), ui.URL)
	<-ctx.Done()
	return nil
}
