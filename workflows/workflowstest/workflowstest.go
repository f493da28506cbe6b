// Package workflowstest runs the workflows for tests and benchmarks, as
// net/http/httptest runs an HTTP server: an in-process Temporal dev server,
// an embedded store with schedules imported, a client, and a worker of the
// workflows and activities. Only tests and benchmarks import it.
package workflowstest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/devserver"
	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// Options says what Open starts.
type Options struct {
	// DynamicConfig overrides the dev server's dynamic config.
	DynamicConfig map[string]any
	// ServerOnDisk keeps the server's state in a SQLite file, as
	// `autoscheduler dev` does, instead of in memory.
	ServerOnDisk bool
	// Identity and Logger are the client's; empty, the SDK's defaults. A
	// fixed identity keeps the host name out of recorded histories.
	Identity string
	Logger   sdklog.Logger
	// Import maps schedule ids to schedule files, imported before the
	// worker starts.
	Import map[string]string
	// Planner, when set, starts a worker whose activities plan with it.
	Planner scope.Planner
}

// Env is a running environment. Close stops it; Start closes it when the
// test ends.
type Env struct {
	Server *devserver.Server
	Client client.Client
	Stores *store.Coordinator
	// Worker runs with Options.Planner; nil without one.
	Worker worker.Worker

	closers []func()
}

// Open starts what opts says in a new temporary directory; ctx bounds the
// start and the imports. On error everything started is stopped.
func Open(ctx context.Context, opts Options) (e *Env, err error) {
	e = &Env{}
	defer func() {
		if err != nil {
			e.Close()
			e = nil
		}
	}()
	dir, err := os.MkdirTemp("", "workflowstest")
	if err != nil {
		return nil, err
	}
	e.closers = append(e.closers, func() { _ = os.RemoveAll(dir) })
	so := devserver.Options{Address: "127.0.0.1:0", UIAddress: "-", SearchAttributes: workflows.SearchAttributes(), DynamicConfig: opts.DynamicConfig}
	if opts.ServerOnDisk {
		so.DBPath = filepath.Join(dir, "temporal.db")
	}
	if e.Server, err = devserver.Start(ctx, so); err != nil {
		return nil, err
	}
	e.closers = append(e.closers, func() { _ = e.Server.Stop() })
	st, err := embedded.Open(ctx, filepath.Join(dir, "autoscheduler.db"), embedded.Options{Tokenize: embed.Normalize})
	if err != nil {
		return nil, err
	}
	e.closers = append(e.closers, func() { _ = st.Close(context.Background()) })
	e.Stores = &store.Coordinator{Graph: st.Graph(), Vectors: st.Vectors(), Embedder: embed.NewLocal(0)}
	for id, path := range opts.Import {
		s, err := interchange.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if err := e.Stores.Import(ctx, id, s, false, nil); err != nil {
			return nil, fmt.Errorf("import %s as %s: %w", path, id, err)
		}
	}
	if e.Client, err = client.Dial(client.Options{HostPort: e.Server.FrontendAddress(), Identity: opts.Identity, Logger: opts.Logger}); err != nil {
		return nil, err
	}
	e.closers = append(e.closers, e.Client.Close)
	if opts.Planner != nil {
		if e.Worker, err = StartWorker(e.Client, e.Stores, opts.Planner); err != nil {
			return nil, err
		}
		e.closers = append(e.closers, e.Worker.Stop)
	}
	return e, nil
}

// Start is Open for a test or benchmark: it fails tb on error and closes
// the environment when tb ends.
func Start(tb testing.TB, opts Options) *Env {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e, err := Open(ctx, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(e.Close)
	return e
}

// Close stops what Open started, in reverse order. It is safe to call more
// than once.
func (e *Env) Close() {
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
	e.closers = nil
}

// StartWorker starts a worker of the workflows on c whose activities use
// stores and plan with p.
func StartWorker(c client.Client, stores *store.Coordinator, p scope.Planner) (worker.Worker, error) {
	if p == nil {
		return nil, errors.New("workflowstest: no planner")
	}
	w := worker.New(c, workflows.TaskQueue, worker.Options{})
	workflows.Register(w, &activities.Activities{Stores: stores, Planner: p})
	if err := w.Start(); err != nil {
		return nil, err
	}
	return w, nil
}
