package risk

import (
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// forKernels runs f with the Go loops and, where the CPU has AVX-512, with
// the assembly kernels: the tests that compare the batched code with the
// one-iteration code check both.
func forKernels(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	defer func(was bool) { useAVX512 = was }(useAVX512)
	useAVX512 = false
	t.Run("go", f)
	if !hasAVX512 {
		t.Log("no AVX-512 on this CPU: the assembly kernels are not used here")
		return
	}
	useAVX512 = true
	t.Run("avx512", f)
}

// TestKernelsMatchGo: the AVX-512 sampler and column kernels give the Go
// loops' numbers bit for bit over enough iterations that PERT draws fall
// in the tables' exact cells (left to qtable.at) and in every part of the
// tables, triangular draws on both sides of the mode, and columns whose
// length is not a multiple of lanes.
func TestKernelsMatchGo(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512 on this CPU: the kernels never run here")
	}
	defer func(was bool) { useAVX512 = was }(useAVX512)
	kinds := []string{"uniform(2,9)", "triangular(1,2,9)", "pert(2,5,11)", "normal(10,2)", "pert(1,1.5,9)", "triangular(3,3,8)", "7", "triangular(1,6,6)", "pert(3,9,10)", "normal(1,2)"}
	s := &schedule.Schedule{}
	for i := range 40 {
		s.Activities = append(s.Activities, schedule.Activity{ID: "A" + strconv.Itoa(i), Duration: kinds[i%len(kinds)]})
	}
	m, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	const iters = 20_003
	tabs := m.tables(1_000_000, false, 2)
	plan := m.newPlan(tabs)
	if len(plan.pertTab) == 0 {
		t.Fatal("no tabulated PERT")
	}
	// How many PERT draws fall in exact cells: the fix-up path must run.
	exact := 0
	starts := make([]uint64, iters)
	for i := range starts {
		starts[i] = newRng(5, i).s
	}
	for _, v := range plan.pertTab {
		for _, st := range starts {
			r := rng{st + uint64(plan.at[v])*weyl}
			if u := r.unit(); u < tabExact*tabEdge/tabCells || u >= 1-tabExact*tabEdge/tabCells {
				exact++
			}
		}
	}
	if exact == 0 {
		t.Fatal("no PERT draw in an exact cell: make the test longer")
	}
	run := func(avx bool) ([]float64, [][]uint64) {
		useAVX512 = avx
		ls := m.newLaneSampler(5, tabs)
		b := newBatch(m.Len())
		ls.setFixed(b.dur)
		var all []float64
		for first := 0; first < iters; first += lanes {
			ls.sampleRandom(first, min(lanes, iters-first), b.dur)
			all = append(all, b.dur...)
		}
		var cols [][]uint64
		for v, at := range plan.at {
			if at >= 0 {
				out := make([]uint64, iters)
				m.columnBits(int32(v), plan, tabs, starts, out)
				cols = append(cols, out)
			}
		}
		return all, cols
	}
	wantDur, wantCols := run(false)
	gotDur, gotCols := run(true)
	for i := range wantDur {
		if math.Float64bits(gotDur[i]) != math.Float64bits(wantDur[i]) {
			v, j := i%(m.Len()*lanes)/lanes, i%lanes
			t.Fatalf("batch %d, %s lane %d: kernel %v, Go %v", i/(m.Len()*lanes), kinds[v%len(kinds)], j, gotDur[i], wantDur[i])
		}
	}
	for k := range wantCols {
		if !slices.Equal(gotCols[k], wantCols[k]) {
			t.Fatalf("column %d differs", k)
		}
	}
	t.Logf("%d PERT draws in exact cells", exact)
}
