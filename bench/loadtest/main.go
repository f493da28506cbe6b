// Command loadtest runs 1,000 dispatches on 50 schedules (one open per
// schedule) against Temporal, Neo4j and Weaviate, with mixed reviews
// (accept, reject, reject with feedback, a question answered first), and
// checks that nothing was lost, duplicated or left drifting.
//
// It runs two targets in one go and writes the "Scale-out" section of
// BENCHMARKS.md: the dev server (in this process, SQLite) with one worker
// process, then the cluster of scripts/cluster.sh (PostgreSQL, separate
// services, TLS) with -workers worker processes, half on mTLS and half on
// the API key, while faults are injected: a worker killed with SIGKILL,
// the history service restarted, Neo4j stopped for 10 s.
//
//	eval "$(scripts/cluster.sh up)"; scripts/cluster.sh workers 0
//	go run ./bench/loadtest            # what `make loadtest` runs
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

type options struct {
	Dispatches, Schedules, Workers int
	File, Targets, Out, Bench      string
	TLSDir                         string
	Faults                         bool
}

func main() {
	var o options
	flag.IntVar(&o.Dispatches, "dispatches", 1000, "dispatches per target")
	flag.IntVar(&o.Schedules, "schedules", 50, "schedules (one open dispatch each at a time)")
	flag.IntVar(&o.Workers, "workers", 4, "worker processes on the cluster")
	flag.StringVar(&o.File, "file", "examples/building.json", "the schedule each of them starts as")
	flag.StringVar(&o.Targets, "targets", "dev,cluster", "targets to run, in order: dev, cluster")
	flag.StringVar(&o.TLSDir, "tls-dir", ".cluster/tls", "the cluster's CA, client pair and API key")
	flag.BoolVar(&o.Faults, "faults", true, "inject faults during the cluster run")
	flag.StringVar(&o.Out, "out", "bench/out/loadtest.json", "results (JSON)")
	flag.StringVar(&o.Bench, "benchmarks", "BENCHMARKS.md", "file whose Scale-out section is rewritten (\"\" for none)")
	reportOnly := flag.Bool("report-only", false, "rewrite the BENCHMARKS.md section from -out without running")
	flag.Parse()
	if *reportOnly {
		if err := rewriteReport(o); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// result is one target's figures.
type result struct {
	At            string         `json:"at"` // when the run started (UTC)
	Target        string         `json:"target"`
	Workers       int            `json:"workers"`
	Dispatches    int            `json:"dispatches"`
	Seconds       float64        `json:"seconds"`
	PerSecond     float64        `json:"dispatches_per_second"`
	ToProposalP50 float64        `json:"submit_to_proposal_p50_s"`
	ToProposalP95 float64        `json:"submit_to_proposal_p95_s"`
	CommitP50     float64        `json:"accept_to_committed_p50_s"`
	CommitP95     float64        `json:"accept_to_committed_p95_s"`
	Kinds         map[string]int `json:"kinds"`
	Lost          int            `json:"lost_dispatches"`
	LostWrites    int            `json:"lost_writes"`
	Duplicated    int            `json:"duplicated_writes"`
	Unexpected    int            `json:"unexpected_writes"`
	Drift         int            `json:"drift"`
	Problems      []string       `json:"problems,omitempty"`
	Faults        []fault        `json:"faults,omitempty"`
	// CPU seconds per dispatch, by component (cpuByComponent).
	CPUPerDispatch map[string]float64 `json:"cpu_per_dispatch_s"`
}

func (r *result) failed() bool {
	return r.Lost+r.LostWrites+r.Duplicated+r.Unexpected+r.Drift > 0
}

func run(ctx context.Context, o options) error {
	if _, err := os.Stat("bin/worker"); err != nil {
		return errors.New("bin/worker is missing: run make build first")
	}
	// Logs of the workers, the dev server and the faults.
	if err := os.MkdirAll("bench/out", 0o755); err != nil {
		return err
	}
	base, err := interchange.ReadFile(o.File)
	if err != nil {
		return err
	}
	storesCfg := config.StoresFromEnv()
	if storesCfg.Neo4jURI == "" || storesCfg.WeaviateURL == "" {
		return errors.New("NEO4J_URI and WEAVIATE_URL are not set: eval \"$(scripts/services.sh up)\" first")
	}
	stores, err := storesCfg.Open(ctx)
	if err != nil {
		return err
	}
	defer stores.Close(ctx)
	var results []*result
	for _, target := range strings.Split(o.Targets, ",") {
		ids := scheduleIDs(target, o.Schedules)
		if target == "cluster" {
			// Its history persists: dispatches an interrupted run left
			// open on these schedules are cancelled first.
			if err := cancelLeftovers(ctx, ids); err != nil {
				return err
			}
		}
		logf("%s: importing %d schedules", target, o.Schedules)
		if err := importSchedules(ctx, stores, base, ids); err != nil {
			return err
		}
		var r *result
		var outcomes []outcome
		switch target {
		case "dev":
			r, outcomes, err = runDev(ctx, o, ids)
		case "cluster":
			r, outcomes, err = runCluster(ctx, o, ids)
		default:
			return fmt.Errorf("unknown target %q (dev, cluster)", target)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", target, err)
		}
		verify(ctx, stores, base, ids, outcomes, r)
		for _, id := range ids {
			_ = stores.DeleteSchedule(ctx, id)
		}
		logf("%s: %d dispatches in %.1f s (%.2f/s); lost %d, lost writes %d, duplicated %d, unexpected %d, drift %d",
			target, r.Dispatches, r.Seconds, r.PerSecond, r.Lost, r.LostWrites, r.Duplicated, r.Unexpected, r.Drift)
		results = append(results, r)
	}
	if err := os.MkdirAll(filepath.Dir(o.Out), 0o755); err != nil {
		return err
	}
	data, _ := json.MarshalIndent(results, "", "  ")
	if err := os.WriteFile(o.Out, append(data, '\n'), 0o644); err != nil {
		return err
	}
	if o.Bench != "" {
		if err := writeSection(o.Bench, o, results); err != nil {
			return err
		}
	}
	for _, r := range results {
		if r.failed() {
			return fmt.Errorf("%s: lost, duplicated or drifting writes (see %s)", r.Target, o.Out)
		}
	}
	return nil
}

// scheduleIDs are the target's schedules: lt-<target>-01 ...
func scheduleIDs(target string, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("lt-%s-%02d", target, i+1)
	}
	return ids
}

// importSchedules imports the base schedule under each id, replacing any
// left by an interrupted run.
func importSchedules(ctx context.Context, stores *store.Coordinator, base *schedule.Schedule, ids []string) error {
	for _, id := range ids {
		if err := stores.Import(ctx, id, base.Clone(), true, nil); err != nil {
			return fmt.Errorf("import %s: %w", id, err)
		}
	}
	return nil
}

// rewriteReport writes the section from the results of the last run.
func rewriteReport(o options) error {
	data, err := os.ReadFile(o.Out)
	if err != nil {
		return err
	}
	var results []*result
	if err := json.Unmarshal(data, &results); err != nil {
		return fmt.Errorf("%s: %w", o.Out, err)
	}
	return writeSection(o.Bench, o, results)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "loadtest: "+format+"\n", args...)
}

// percentile is the nearest-rank percentile of xs (seconds).
func percentile(xs []time.Duration, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	ys := slices.Clone(xs)
	slices.Sort(ys)
	return ys[min(len(ys)-1, (len(ys)*p+99)/100-1)].Seconds()
}

// load drives n dispatches spread over the schedules, one open per
// schedule, and calls tick after each with the number done.
func load(ctx context.Context, c client.Client, ids []string, n int, tick func(done int)) (*result, []outcome) {
	r := &result{Dispatches: n, Kinds: map[string]int{}, At: time.Now().UTC().Format("2006-01-02 15:04 UTC")}
	var outcomes []outcome
	per := (n + len(ids) - 1) / len(ids)
	var mu sync.Mutex
	var toProposal, toCommit []time.Duration
	done := 0
	cpu := startCPUMeter()
	start := time.Now()
	var wg sync.WaitGroup
	for si, id := range ids {
		count := min(per, n-si*per)
		if count <= 0 {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seq := range count {
				out := drive(ctx, c, planFor(id, si, seq))
				mu.Lock()
				r.Kinds[out.Plan.Kind.String()]++
				if out.Err != nil {
					r.Lost++
					r.Problems = append(r.Problems, fmt.Sprintf("%s #%d (%s): %v", id, seq, out.Plan.Kind, out.Err))
				} else {
					toProposal = append(toProposal, out.ToProposal)
					if out.ToCommitted > 0 {
						toCommit = append(toCommit, out.ToCommitted)
					}
				}
				outcomes = append(outcomes, out)
				done++
				d := done
				mu.Unlock()
				if tick != nil {
					tick(d)
				}
			}
		}()
	}
	wg.Wait()
	r.Seconds = time.Since(start).Seconds()
	r.CPUPerDispatch = cpu.perDispatch(n)
	r.PerSecond = float64(n) / r.Seconds
	r.ToProposalP50, r.ToProposalP95 = percentile(toProposal, 50), percentile(toProposal, 95)
	r.CommitP50, r.CommitP95 = percentile(toCommit, 50), percentile(toCommit, 95)
	return r, outcomes
}
