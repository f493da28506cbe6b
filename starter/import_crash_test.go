package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/config/configtest"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// crashRuns is how many imports each store pair sees killed.
const crashRuns = 20

// An `import --replace` process is SIGKILLed at a random point, 20 times
// per store pair (the first run is a fresh import). The next process that
// touches the schedule (here `verify`) finds it whole: exactly the old
// version or exactly the new one (or, for a fresh import, none), never a
// mix, and the two stores agree.
func TestImportKilledAtRandomPoints(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	bin := filepath.Join(dir, "autoscheduler")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the CLI: %v\n%s", err, out)
	}
	t.Run("embedded", func(t *testing.T) {
		cfg := config.Stores{DBPath: filepath.Join(dir, "store.db")}
		killImports(t, bin, cfg, []string{"--db", cfg.DBPath, "--neo4j-uri=", "--weaviate-url="}, 3000)
	})
	t.Run("neo4j+weaviate", func(t *testing.T) {
		cfg := configtest.Servers(t)
		// Smaller: every run's repair re-reads the documents over HTTP.
		killImports(t, bin, cfg, nil, 800)
	})
}

func killImports(t *testing.T, bin string, cfg config.Stores, storeArgs []string, size int) {
	ctx := context.Background()
	// Two versions that differ in every activity and in the logic, so a
	// mix of the two cannot pass for either.
	v1 := schedule.Synthetic(size, 2, 1)
	v2 := schedule.Synthetic(size, 2, 2)
	for i := range v2.Activities {
		v2.Activities[i].Name += " (rev B)"
	}
	versions := map[int]*schedule.Schedule{1: v1, 2: v2}
	files := map[int]string{}
	for n, s := range versions {
		body, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = filepath.Join(t.TempDir(), fmt.Sprintf("v%d.json", n))
		if err := os.WriteFile(files[n], body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	id := fmt.Sprintf("crash-%d", time.Now().UnixNano())
	run := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, append(args, storeArgs...)...)
		cmd.Env = append(os.Environ(), "OPENAI_API_KEY=")
		return cmd
	}
	open := func() *store.Coordinator {
		c, err := cfg.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	t.Cleanup(func() {
		c := open()
		defer c.Close(ctx)
		_ = c.DeleteSchedule(ctx, id)
	})

	// How long a whole import takes here, to spread the kills over it.
	t0 := time.Now()
	start := time.Now()
	if out, err := run("import", files[1], "--schedule", id+"-timing").CombinedOutput(); err != nil {
		t.Fatalf("timing import: %v\n%s", err, out)
	}
	span := time.Since(start)
	t.Cleanup(func() {
		c := open()
		defer c.Close(ctx)
		_ = c.DeleteSchedule(ctx, id+"-timing")
	})

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("a whole import takes %v; kill points drawn with seed %d", span.Round(time.Millisecond), seed)
	stored := 0 // the version stored before each run; 0: none
	outcomes := map[string]int{}
	for i := range crashRuns {
		next := 1 + i%2
		if stored == next {
			next = 3 - next
		}
		args := []string{"import", files[next], "--schedule", id}
		if stored != 0 {
			args = append(args, "--replace")
		}
		cmd := run(args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// A replace takes longer than the timed fresh import: the window
		// reaches past the end, so some kills find the write done.
		after := time.Duration(rng.Int64N(int64(span) * 3 / 2))
		time.Sleep(after)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()

		// The next process to touch the schedule repairs it and finds no
		// drift.
		// drift (a fresh import that did not land has nothing to verify).
		if out, err := run("verify", "--schedule", id).CombinedOutput(); err != nil && !(stored == 0 && notStored(t, cfg, id)) {
			t.Fatalf("run %d (killed after %v): verify: %v\n%s", i, after, err, out)
		}
		c := open()
		got, err := c.Load(ctx, id)
		c.Close(ctx)
		switch {
		case errors.Is(err, store.ErrNotFound) && stored == 0:
			outcomes["none"]++
		case err != nil:
			t.Fatalf("run %d (killed after %v): loading: %v", i, after, err)
		case same(t, got, versions[next]):
			stored = next
			outcomes["new"]++
		case stored != 0 && same(t, got, versions[stored]):
			outcomes["old"]++
		default:
			t.Fatalf("run %d (killed after %v): the schedule is neither the old version (v%d) nor the new one (v%d): %d activities, first %+v",
				i, after, stored, next, len(got.Activities), got.Activities[0])
		}
	}
	t.Logf("after %d kills: %v (%v in all)", crashRuns, outcomes, time.Since(t0).Round(time.Second))
}

// notStored reports whether the schedule is absent from the graph store.
func notStored(t *testing.T, cfg config.Stores, id string) bool {
	c, err := cfg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	_, err = c.Load(context.Background(), id)
	return errors.Is(err, store.ErrNotFound)
}

func same(t *testing.T, got, want *schedule.Schedule) bool {
	t.Helper()
	w := want.Clone()
	sortSchedule(w)
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(w)
	return string(a) == string(b)
}

// sortSchedule orders a schedule as stores return it: by id.
func sortSchedule(s *schedule.Schedule) {
	schedule.SortByID(s)
}
