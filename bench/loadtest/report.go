package main

import (
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// sectionHeader starts the section this command owns in BENCHMARKS.md.
const sectionHeader = "## Scale-out: a Temporal cluster under load"

// writeSection replaces (or appends) the Scale-out section of path.
func writeSection(path string, o options, results []*result) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	section := render(o, results)
	text := string(old)
	if at := strings.Index(text, sectionHeader); at >= 0 {
		rest := text[at+len(sectionHeader):]
		end := len(text)
		if nxt := strings.Index(rest, "\n## "); nxt >= 0 {
			end = at + len(sectionHeader) + nxt + 1
		}
		text = text[:at] + section + text[end:]
	} else {
		text = strings.TrimRight(text, "\n") + "\n\n" + section
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

func render(o options, results []*result) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("%s", sectionHeader)
	p("")
	at := time.Now().UTC().Format("2006-01-02 15:04 UTC")
	if len(results) > 0 && results[0].At != "" {
		at = results[0].At
	}
	p("Written by `make loadtest` (bench/loadtest) on %s: %d cores, %s. Each target: %d dispatches on %d schedules (copies of %s, one open dispatch per schedule, so at most %d at once), each adding one activity through the offline planner on Neo4j and Weaviate; reviews mixed 2 in 5 accepted, 1 in 5 rejected, 1 in 5 rejected with feedback (\"3 days, not 2\") then accepted, 1 in 5 answering the planner's question first. Every call goes through the worker processes; the driver retries a call that fails for up to %s.",
		at, runtime.NumCPU(), runtime.Version(), o.Dispatches, o.Schedules, o.File, o.Schedules, patience)
	p("")
	p("- **dev**: the in-process dev server (`autoscheduler dev`'s: SQLite, 1 history shard), 1 worker process, no faults.")
	p("- **cluster**: `make cluster` — PostgreSQL 15, frontend, history, matching and worker as 4 processes, 16 history shards, TLS on the frontend; %d worker processes (half on mTLS, half on the API key).", o.Workers)
	p("")
	var head, sep strings.Builder
	head.WriteString("| measure |")
	sep.WriteString("|---|")
	for _, r := range results {
		fmt.Fprintf(&head, " %s (%d worker%s) |", r.Target, r.Workers, plural(r.Workers))
		sep.WriteString("---:|")
	}
	p("%s", head.String())
	p("%s", sep.String())
	row := func(name string, f func(*result) string) {
		var line strings.Builder
		fmt.Fprintf(&line, "| %s |", name)
		for _, r := range results {
			fmt.Fprintf(&line, " %s |", f(r))
		}
		p("%s", line.String())
	}
	row("wall time", func(r *result) string { return fmt.Sprintf("%.1f s", r.Seconds) })
	row("dispatches per second", func(r *result) string { return fmt.Sprintf("**%.2f**", r.PerSecond) })
	row("submit -> proposal (or question), p50 / p95", func(r *result) string {
		return fmt.Sprintf("%s / %s", ms(r.ToProposalP50), ms(r.ToProposalP95))
	})
	row("accept -> committed, p50 / p95", func(r *result) string {
		return fmt.Sprintf("%s / %s", ms(r.CommitP50), ms(r.CommitP95))
	})
	names := map[string]bool{}
	for _, r := range results {
		for name := range r.CPUPerDispatch {
			names[name] = true
		}
	}
	sorted := slices.Sorted(maps.Keys(names))
	row("CPU per dispatch, all processes", func(r *result) string {
		return ms(r.cpuPerDispatch())
	})
	for _, name := range sorted {
		row("&nbsp;&nbsp;"+name, func(r *result) string {
			if v, ok := r.CPUPerDispatch[name]; ok {
				return ms(v)
			}
			return "—"
		})
	}
	row("lost dispatches", func(r *result) string { return fmt.Sprint(r.Lost) })
	row("lost writes", func(r *result) string { return fmt.Sprint(r.LostWrites) })
	row("duplicated writes", func(r *result) string { return fmt.Sprint(r.Duplicated) })
	row("writes that should not be there", func(r *result) string { return fmt.Sprint(r.Unexpected) })
	row("drift (`verify`, every schedule)", func(r *result) string { return fmt.Sprint(r.Drift) })
	p("")
	for _, r := range results {
		if total := r.cpuPerDispatch(); total > 0 {
			p("- %s: %d cores / %.0f ms of CPU per dispatch = a ceiling of %.2f dispatches/s; measured %.2f (%.0f%% of it).",
				r.Target, runtime.NumCPU(), total*1000, float64(runtime.NumCPU())/total, r.PerSecond, 100*r.PerSecond*total/float64(runtime.NumCPU()))
		}
	}
	p("")
	p("Both targets are CPU-bound on this machine, so the figures compare CPU per dispatch as much as latency. The cluster spends more CPU per dispatch than the dev server: its Temporal state goes through PostgreSQL and gRPC between four services (the dev server keeps it in one process on SQLite), and its run includes the faults (a Neo4j restart costs a JVM start; CPU of processes counted while they run, sampled every second). What the cluster buys is not speed on one machine but that each part can move to its own machines and survive the others' failures; the per-dispatch CPU above is the sizing basis (README, \"What changes at larger scale\").")
	p("")
	for _, r := range results {
		if len(r.Faults) > 0 {
			p("Faults injected into the %s run (in order; the time is how long the injection took — a restart waits until the service answers again):", r.Target)
			p("")
			for _, f := range r.Faults {
				status := ""
				if f.Error != "" {
					status = " — failed: " + f.Error
				}
				p("- %s at %s: %.1f s%s", f.Name, f.At, f.Seconds, status)
			}
			p("")
		}
		for i, prob := range r.Problems {
			if i == 10 {
				p("- … %d more in bench/out/loadtest.json", len(r.Problems)-10)
				break
			}
			if i == 0 {
				p("Problems in the %s run:", r.Target)
				p("")
			}
			p("- %s", prob)
		}
	}
	return b.String()
}

func ms(s float64) string {
	if s >= 10 {
		return fmt.Sprintf("%.1f s", s)
	}
	return fmt.Sprintf("%.0f ms", s*1000)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// cpuPerDispatch is the CPU seconds per dispatch of all components.
func (r *result) cpuPerDispatch() float64 {
	total := 0.0
	for _, v := range r.CPUPerDispatch {
		total += v
	}
	return total
}
