package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/devserver"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// runDev: the dev server in this process (SQLite, one history shard) and
// one worker process, no faults.
func runDev(ctx context.Context, o options, ids []string) (*result, []outcome, error) {
	dir, err := os.MkdirTemp("", "loadtest-dev")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	// The server's own warnings (slow long-poll Updates under load) go to
	// a file, as the cluster's go to .cluster/log.
	serverLog, err := os.Create("bench/out/loadtest-devserver.log")
	if err != nil {
		return nil, nil, err
	}
	defer serverLog.Close()
	var srv *devserver.Server
	// The dev server picks free ports by listening and closing; on a busy
	// machine another process can take one first: try again.
	for attempt := 1; ; attempt++ {
		srv, err = devserver.Start(ctx, devserver.Options{
			DBPath: filepath.Join(dir, fmt.Sprintf("temporal-%d.db", attempt)), Address: "127.0.0.1:0", UIAddress: "-",
			SearchAttributes: workflows.SearchAttributes(),
			Logger:           slog.New(slog.NewTextHandler(serverLog, &slog.HandlerOptions{Level: slog.LevelWarn})),
		})
		if err == nil || attempt == 3 || !strings.Contains(err.Error(), "address already in use") {
			break
		}
	}
	if err != nil {
		return nil, nil, err
	}
	defer srv.Stop()
	env := workerEnv(map[string]string{"TEMPORAL_ADDRESS": srv.FrontendAddress(), "TEMPORAL_NAMESPACE": "default"})
	w, err := startWorker("dev-worker-1", env)
	if err != nil {
		return nil, nil, err
	}
	defer w.stop()
	c, err := client.Dial(client.Options{HostPort: srv.FrontendAddress(), Logger: quietLogger()})
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	r, outcomes := load(ctx, c, ids, o.Dispatches, nil)
	r.Target, r.Workers = "dev", 1
	return r, outcomes, nil
}

// runCluster: the cluster of scripts/cluster.sh (its env: TEMPORAL_ADDRESS
// and the TLS files), o.Workers worker processes — odd ones on mTLS, even
// ones on the API key — and the faults.
func runCluster(ctx context.Context, o options, ids []string) (*result, []outcome, error) {
	tc := config.TemporalFromEnv()
	if tc.Address == config.DefaultTemporalAddress || tc.CACert == "" {
		return nil, nil, fmt.Errorf("TEMPORAL_ADDRESS and TEMPORAL_TLS_CA are not the cluster's: eval \"$(scripts/cluster.sh up)\" first")
	}
	key, err := os.ReadFile(filepath.Join(o.TLSDir, "api-key"))
	if err != nil {
		return nil, nil, err
	}
	workers := make([]*process, o.Workers)
	defer func() {
		for _, w := range workers {
			if w != nil {
				w.stop()
			}
		}
	}()
	workerEnvN := func(i int) []string {
		set := map[string]string{"TEMPORAL_ADDRESS": tc.Address, "TEMPORAL_NAMESPACE": tc.Namespace, "TEMPORAL_TLS_CA": tc.CACert}
		if i%2 == 0 {
			set["TEMPORAL_TLS_CERT"], set["TEMPORAL_TLS_KEY"] = tc.ClientCert, tc.ClientKey
		} else {
			set["TEMPORAL_API_KEY"] = strings.TrimSpace(string(key))
		}
		return workerEnv(set)
	}
	for i := range workers {
		if workers[i], err = startWorker(fmt.Sprintf("cluster-worker-%d", i+1), workerEnvN(i)); err != nil {
			return nil, nil, err
		}
	}
	c, err := tc.Dial(quietLogger())
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()

	var faults faultLog
	var wg sync.WaitGroup
	tick := func(int) {}
	if o.Faults {
		// Each fault fires once, when its share of the dispatches is done.
		steps := []struct {
			at   float64
			name string
			do   func() error
		}{
			{0.2, "kill -9 worker 2, restarted 5 s later", func() error {
				workers[1].kill()
				time.Sleep(5 * time.Second)
				var err error
				workers[1], err = startWorker("cluster-worker-2", workerEnvN(1))
				return err
			}},
			{0.45, "restart the history service (scripts/cluster.sh restart history)", func() error {
				return script("scripts/cluster.sh", "restart", "history")
			}},
			{0.7, "stop Neo4j for 10 s (scripts/services.sh down neo4j; sleep 10; up neo4j)", func() error {
				if err := script("scripts/services.sh", "down", "neo4j"); err != nil {
					return err
				}
				time.Sleep(10 * time.Second)
				return script("scripts/services.sh", "up", "neo4j")
			}},
		}
		fired := make([]sync.Once, len(steps))
		tick = func(done int) {
			for i, s := range steps {
				if float64(done) >= s.at*float64(o.Dispatches) {
					fired[i].Do(func() {
						wg.Add(1)
						go func() {
							defer wg.Done()
							faults.run(s.name, s.do)
						}()
					})
				}
			}
		}
	}
	r, outcomes := load(ctx, c, ids, o.Dispatches, tick)
	wg.Wait()
	r.Target, r.Workers, r.Faults = "cluster", o.Workers, faults.list
	return r, outcomes, nil
}

// cancelLeftovers cancels the dispatches left open on ids by an earlier,
// interrupted run on the cluster.
func cancelLeftovers(ctx context.Context, ids []string) error {
	tc := config.TemporalFromEnv()
	c, err := tc.Dial(quietLogger())
	if err != nil {
		return err
	}
	defer c.Close()
	for _, id := range ids {
		open, err := workflows.List(ctx, c, id)
		if err != nil {
			return err
		}
		for _, d := range open {
			if d.Open {
				logf("cancelling %s, left open by an earlier run", d.ID)
				abandon(ctx, c, d.ID)
			}
		}
	}
	return nil
}

// fault is one injected fault: when (seconds into the run) and how long
// the injection took (a restart waits for the service to listen again).
type fault struct {
	Name    string  `json:"name"`
	At      string  `json:"at"`
	Seconds float64 `json:"seconds"`
	Error   string  `json:"error,omitempty"`
}

type faultLog struct {
	mu   sync.Mutex
	list []fault
}

func (l *faultLog) run(name string, do func() error) {
	start := time.Now()
	logf("fault: %s", name)
	err := do()
	f := fault{Name: name, At: start.UTC().Format(time.TimeOnly), Seconds: time.Since(start).Seconds()}
	if err != nil {
		f.Error = err.Error()
		logf("fault %s: %v", name, err)
	}
	l.mu.Lock()
	l.list = append(l.list, f)
	l.mu.Unlock()
}

func script(path string, args ...string) error {
	cmd := exec.Command(path, args...)
	cmd.Stdout = nil
	out, err := os.OpenFile("bench/out/loadtest-faults.log", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err == nil {
		defer out.Close()
		cmd.Stderr = out
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", path, strings.Join(args, " "), err)
	}
	return nil
}

// process is a worker process.
type process struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
}

// workerEnv is this process's environment (the stores' settings) with
// every Temporal setting replaced by set.
func workerEnv(set map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TEMPORAL_") {
			env = append(env, kv)
		}
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

func startWorker(name string, env []string) (*process, error) {
	if err := os.MkdirAll("bench/out", 0o755); err != nil {
		return nil, err
	}
	logFile, err := os.OpenFile(filepath.Join("bench/out", name+".log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("bin/worker")
	cmd.Env, cmd.Stdout, cmd.Stderr = env, logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, err
	}
	p := &process{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	return p, nil
}

// kill is kill -9.
func (p *process) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop asks the worker to stop (it finishes running activities first).
func (p *process) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(40 * time.Second):
		p.kill()
	}
}

func quietLogger() sdklog.Logger {
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})))
}
