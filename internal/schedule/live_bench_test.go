package schedule_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// liveBench reads the progressed programme bench/run.py writes
// (gensched -live) from $AUTOSCHEDULER_LIVE_BENCH; the benchmarks skip
// without it.
func liveBench(b *testing.B) *schedule.Schedule {
	path := os.Getenv("AUTOSCHEDULER_LIVE_BENCH")
	if path == "" {
		b.Skip("AUTOSCHEDULER_LIVE_BENCH names no file (bench/out/live-100k.json, written by bench/run.py)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var s schedule.Schedule
	if err := json.Unmarshal(data, &s); err != nil {
		b.Fatal(err)
	}
	return &s
}

// BenchmarkComputeLive is the live engine's passes on a compiled network.
func BenchmarkComputeLive(b *testing.B) {
	s := liveBench(b)
	net, err := schedule.Compile(s)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		net.Compute()
	}
}

// BenchmarkAnalyzeLive adds compiling (calendars, dates of actuals and
// constraints, durations).
func BenchmarkAnalyzeLive(b *testing.B) {
	s := liveBench(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schedule.Analyze(s); err != nil {
			b.Fatal(err)
		}
	}
}
