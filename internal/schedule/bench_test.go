package schedule_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

var benchSizes = []int{10_000, 100_000, 1_000_000}

// Seed 1 and 3 links per activity: bench/run.py writes the same 100k
// schedule to a file for the NetworkX peer.
func synthetic(n int) *schedule.Schedule { return schedule.Synthetic(n, 3, 1) }

// reportPerItem adds bytes allocated per activity+relationship.
func reportPerItem(b *testing.B, s *schedule.Schedule, before runtime.MemStats) {
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	items := float64(len(s.Activities) + len(s.Relationships))
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/items, "B/item")
}

// BenchmarkCompute is the full CPM (forward pass, backward pass, total and
// free float) on a compiled network.
func BenchmarkCompute(b *testing.B) {
	for _, n := range benchSizes {
		s := synthetic(n)
		net, err := schedule.Compile(s)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("activities=%d/relationships=%d", n, len(s.Relationships)), func(b *testing.B) {
			b.ReportAllocs()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				net.Compute()
			}
			reportPerItem(b, s, before)
		})
	}
}

// BenchmarkAnalyze adds compiling: resolving string ids, parsing durations,
// building the link arrays and the topological sort.
func BenchmarkAnalyze(b *testing.B) {
	for _, n := range benchSizes {
		s := synthetic(n)
		b.Run(fmt.Sprintf("activities=%d/relationships=%d", n, len(s.Relationships)), func(b *testing.B) {
			b.ReportAllocs()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				if _, err := schedule.Analyze(s); err != nil {
					b.Fatal(err)
				}
			}
			reportPerItem(b, s, before)
		})
	}
}
