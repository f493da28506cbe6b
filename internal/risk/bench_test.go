package risk

import (
	"os"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// benchSchedule is the risk benchmark's schedule: bench/out/risk-1k.json
// when bench/risk/gen.py has written it (RISK_BENCH_FILE overrides), else
// schedule.Synthetic(1000, 3, 1) with fixed durations.
func benchSchedule(b testing.TB) *schedule.Schedule {
	path := os.Getenv("RISK_BENCH_FILE")
	if path == "" {
		path = "../../bench/out/risk-1k.json"
	}
	if s, _, err := interchange.Load(path); err == nil {
		return s
	}
	return schedule.Synthetic(1000, 3, 1)
}

// BenchmarkCPMPass is one deterministic CPM pass (forward and backward
// over the compiled network, criticality marked): the unit of "one CPM pass
// per iteration" in BENCHMARKS.md.
func BenchmarkCPMPass(b *testing.B) {
	m, err := Compile(benchSchedule(b))
	if err != nil {
		b.Fatal(err)
	}
	n := m.Len()
	dur := m.DeterministicDurations()
	t, u := make([]float64, 2*n), make([]float64, 2*n)
	crit := make([]int32, n)
	for b.Loop() {
		f := m.forward(dur, t)
		m.backward(dur, t, u, f, crit)
	}
}

// BenchmarkEngineCompute is the CPM engine's own full pass (floats too).
func BenchmarkEngineCompute(b *testing.B) {
	n, err := schedule.Compile(benchSchedule(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		n.Compute()
	}
}

// BenchmarkSample draws one iteration's durations.
func BenchmarkSample(b *testing.B) {
	m, err := Compile(benchSchedule(b))
	if err != nil {
		b.Fatal(err)
	}
	s := m.newSampler(&Options{Seed: 1}, 0, m.tables(10000, false, 1))
	dur := make([]float64, m.Len())
	i := 0
	for b.Loop() {
		s.sample(i, dur)
		i++
	}
}

// BenchmarkRun1000 is Run with 1,000 iterations (all cores).
func BenchmarkRun1000(b *testing.B) {
	m, err := Compile(benchSchedule(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := m.Run(Options{Iterations: 1000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRun10000 is Run with 10,000 iterations (all cores); /go is
// the same without the AVX-512 kernels (what a CPU without them runs).
func BenchmarkRun10000(b *testing.B) {
	m, err := Compile(benchSchedule(b))
	if err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B) {
		for b.Loop() {
			if _, err := m.Run(Options{Iterations: 10000, Seed: 1}); err != nil {
				b.Fatal(err)
			}
		}
	}
	defer func(was bool) { useAVX512 = was }(useAVX512)
	if hasAVX512 {
		useAVX512 = true
		b.Run("avx512", run)
	}
	useAVX512 = false
	b.Run("go", run)
}

// BenchmarkBatchedPasses is the passes over one batch of lanes sampled
// iterations (divide by lanes for the cost per iteration).
func BenchmarkBatchedPasses(b *testing.B) {
	m, err := Compile(benchSchedule(b))
	if err != nil {
		b.Fatal(err)
	}
	bt := newBatch(m.Len())
	m.newLaneSampler(1, m.tables(10000, false, 1)).sample(0, lanes, bt.dur)
	crit := make([]int32, m.Len())
	for b.Loop() {
		m.passes(bt, lanes, crit)
	}
}

// BenchmarkBatchedForward is the batched forward pass alone.
func BenchmarkBatchedForward(b *testing.B) {
	m, err := Compile(benchSchedule(b))
	if err != nil {
		b.Fatal(err)
	}
	bt := newBatch(m.Len())
	copy(bt.one, m.DeterministicDurations())
	for j := range lanes {
		bt.set(j)
	}
	for b.Loop() {
		m.forward8(bt)
	}
}

// BenchmarkLaneSample draws one batch of lanes iterations' durations
// (divide by lanes for the cost per iteration).
func BenchmarkLaneSample(b *testing.B) {
	m, err := Compile(benchSchedule(b))
	if err != nil {
		b.Fatal(err)
	}
	s := m.newLaneSampler(1, m.tables(10000, false, 1))
	dur := make([]float64, m.Len()*lanes)
	i := 0
	for b.Loop() {
		s.sample(i, lanes, dur)
		i += lanes
	}
}

// BenchmarkLiveRun is Run on a live programme (gensched -live, named by
// RISK_LIVE_BENCH_FILE; skipped without it), every plain duration d given
// the distribution triangular(0.8d, d, 1.5d): each iteration is one run of
// the live engine. It reports iterations per second on every core.
func BenchmarkLiveRun(b *testing.B) {
	path := os.Getenv("RISK_LIVE_BENCH_FILE")
	if path == "" {
		b.Skip("RISK_LIVE_BENCH_FILE names no file (go run ./bench/gensched -live -n 10000 -links 2 -o /tmp/l10k.json)")
	}
	s, _, err := interchange.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	m, err := Compile(spread(s, 0.8, 1.5))
	if err != nil {
		b.Fatal(err)
	}
	const iters = 64
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Run(Options{Iterations: iters, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(iters*b.N)/b.Elapsed().Seconds(), "iterations/s")
}
