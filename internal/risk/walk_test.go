package risk

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// randNet is a random network of n activities: each gets up to linksPer
// links from the previous span activities, of every type, with lags drawn
// by lag (negative ones included). Durations: a third fixed (an integer
// 0-6, zero included), the others uniform(a,b) on a grid of quarters.
func randNet(n, linksPer, span int, seed uint64, lag func(*rand.Rand) float64) *schedule.Schedule {
	rng := rand.New(rand.NewPCG(seed, 7))
	s := &schedule.Schedule{}
	for i := range n {
		d := strconv.Itoa(rng.IntN(7))
		if rng.IntN(3) > 0 {
			a := float64(rng.IntN(21)) / 4
			d = "uniform(" + strconv.FormatFloat(a, 'g', -1, 64) + "," + strconv.FormatFloat(a+float64(rng.IntN(21))/4, 'g', -1, 64) + ")"
		}
		s.Activities = append(s.Activities, schedule.Activity{ID: "A" + strconv.Itoa(i), Duration: d})
	}
	types := []schedule.RelType{schedule.FS, schedule.SS, schedule.FF, schedule.SF}
	for i := 1; i < n; i++ {
		seen := map[[2]int]bool{}
		for range rng.IntN(linksPer + 1) {
			p, ty := i-1-rng.IntN(min(i, span)), rng.IntN(4)
			if seen[[2]int{p, ty}] {
				continue
			}
			seen[[2]int{p, ty}] = true
			s.Relationships = append(s.Relationships, schedule.Relationship{
				ID: "R" + strconv.Itoa(len(s.Relationships)), Type: types[ty],
				Predecessor: "A" + strconv.Itoa(p), Successor: "A" + strconv.Itoa(i), Lag: lag(rng),
			})
		}
	}
	return s
}

// TestWalkMatchesBackward: the batched forward pass and the criticality
// walk (no backward pass) give every lane exactly the finish and the
// critical activities of the full forward and backward pass (Pass), on
// random networks with every link type, negative lags, ties (durations
// and lags on a grid of quarters: many paths of equal length), zero
// durations, durations at the ends of their ranges (which decide which
// activities may end the project), continuous durations, and in partial
// batches.
func TestWalkMatchesBackward(t *testing.T) { forKernels(t, testWalkMatchesBackward) }

func testWalkMatchesBackward(t *testing.T) {
	intLag := func(r *rand.Rand) float64 { return float64(r.IntN(9) - 3) }
	quarterLag := func(r *rand.Rand) float64 { return float64(r.IntN(33)-12) / 4 }
	realLag := func(r *rand.Rand) float64 { return r.Float64()*8 - 3 }
	zeroLag := func(*rand.Rand) float64 { return 0 }
	// Durations within [lo, hi]:
	quarters := func(r *rand.Rand, lo, hi float64) float64 {
		return lo + float64(r.IntN(int((hi-lo)*4)+1))/4
	}
	ends := func(r *rand.Rand, lo, hi float64) float64 { return [2]float64{lo, hi}[r.IntN(2)] }
	continuous := func(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	mixed := func(r *rand.Rand, lo, hi float64) float64 {
		if r.IntN(3) == 0 {
			return ends(r, lo, hi)
		}
		return continuous(r, lo, hi)
	}
	cases := []struct {
		name              string
		n, linksPer, span int
		lag               func(*rand.Rand) float64
		dur               func(r *rand.Rand, lo, hi float64) float64
		rounds            int
	}{
		{"chainlike quarters", 300, 2, 3, quarterLag, quarters, 30},
		{"dense ends", 200, 6, 20, intLag, ends, 30},
		{"wide zero lags", 400, 3, 100, zeroLag, quarters, 30},
		{"continuous", 500, 4, 50, realLag, continuous, 30},
		{"mixed", 500, 3, 50, intLag, mixed, 30},
		{"tiny", 5, 3, 4, intLag, quarters, 200},
		{"no links", 20, 0, 1, intLag, continuous, 20},
	}
	for _, c := range cases {
		for seed := range uint64(3) {
			s := randNet(c.n, c.linksPer, c.span, seed, c.lag)
			m, err := Compile(s)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			checkBatched(t, c.name+" seed "+strconv.Itoa(int(seed)), m, rand.New(rand.NewPCG(seed, 9)), c.dur, c.rounds)
		}
	}
	for name, s := range engineCases(t) {
		m, err := Compile(s)
		if err != nil {
			t.Fatal(err)
		}
		checkBatched(t, name, m, rand.New(rand.NewPCG(1, 1)), mixed, 10)
	}
}

// checkBatched runs rounds batches of durations drawn by dur within each
// activity's range (a normal's up to 3 times its mean) through the
// batched passes and compares them with Pass lane by lane.
func checkBatched(t *testing.T, name string, m *Model, rng *rand.Rand, dur func(r *rand.Rand, lo, hi float64) float64, rounds int) {
	t.Helper()
	n := m.Len()
	b := newBatch(n)
	want := make([]int32, n)
	got := make([]int32, n)
	for round := range rounds {
		nb := 1 + round%lanes
		var fins []float64
		for j := range lanes {
			for v := range b.one {
				lo, hi := m.dists[v].bounds()
				b.one[v] = dur(rng, lo, min(hi, 3*m.dists[v].a))
			}
			b.set(j)
			if j < nb {
				f, crit := m.Pass(b.one)
				fins = append(fins, f)
				for v, c := range crit {
					if c {
						want[v]++
					}
				}
			}
		}
		m.passes(b, nb, got)
		for j := range nb {
			if b.fin[j] != fins[j] {
				t.Fatalf("%s round %d lane %d: finish %v, single pass %v", name, round, j, b.fin[j], fins[j])
			}
		}
		for v := range want {
			if got[v] != want[v] {
				t.Fatalf("%s round %d: activity %s critical %d times batched, %d by the backward pass", name, round, m.IDs[v], got[v], want[v])
			}
		}
	}
	for _, w := range b.mark {
		if w != 0 {
			t.Fatalf("%s: walk left marks", name)
		}
	}
}

// TestLaneSamplerMatches: the lane sampler draws, lane by lane, exactly
// what the one-iteration sampler draws (the --dump-samples numbers), for
// every distribution kind, with and without PERT tables (and with some),
// in partial batches too.
func TestLaneSamplerMatches(t *testing.T) { forKernels(t, testLaneSamplerMatches) }

func testLaneSamplerMatches(t *testing.T) {
	kinds := []string{"uniform(2,9)", "triangular(1,2,9)", "triangular(3,3,8)", "triangular(1,6,6)", "pert(2,5,11)", "pert(1,1.5,9)", "normal(10,2)", "normal(1,2)", "7", "pert(4,4,4)"}
	s := &schedule.Schedule{}
	for i := range 200 {
		s.Activities = append(s.Activities, schedule.Activity{ID: "A" + strconv.Itoa(i), Duration: kinds[(i*7)%len(kinds)]})
		if i == 100 {
			s.Activities = append(s.Activities, schedule.Activity{ID: "B", Duration: "pert(2,3,12)"})
		}
	}
	m, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, iters := range []int{100, 25_000, 1_000_000} { // no tables, some, all
		tabs := m.tables(iters, false, 1)
		one := m.newSampler(&Options{Seed: 11}, 0, tabs)
		ls := m.newLaneSampler(11, tabs)
		dur := make([]float64, m.Len()*lanes)
		want := make([]float64, m.Len())
		for first := 0; first < 200; first += 5 {
			nb := 1 + first%lanes
			ls.sample(first, nb, dur)
			for j := range nb {
				one.sample(first+j, want)
				for v := range want {
					if got := dur[v*lanes+j]; got != want[v] {
						t.Fatalf("iters %d, iteration %d, %s: lane sampler %v, sampler %v", iters, first+j, s.Activities[v].Duration, got, want[v])
					}
				}
			}
		}
	}
}

// TestZiggurat: the ziggurat's standard normal draws follow Φ: the
// Kolmogorov-Smirnov distance of 400,000 draws is below 1.63/√n (a 1%
// test), and the share beyond the base strip (|z| > zigR) and beyond 2
// are right within 4 SE.
func TestZiggurat(t *testing.T) {
	const n = 400_000
	r := newRng(5, 0)
	z := make([]float64, n)
	var tail, two int
	for i := range z {
		z[i] = r.norm()
		if math.Abs(z[i]) > zigR {
			tail++
		}
		if math.Abs(z[i]) > 2 {
			two++
		}
	}
	slices.Sort(z)
	var ks float64
	for i, x := range z {
		f := normCDF(x)
		ks = max(ks, math.Abs(f-float64(i)/n), math.Abs(f-float64(i+1)/n))
	}
	if ks > 1.63/math.Sqrt(n) {
		t.Errorf("KS distance %.2g, above %.2g", ks, 1.63/math.Sqrt(n))
	}
	for _, c := range []struct {
		beyond float64
		got    int
	}{{zigR, tail}, {2, two}} {
		p := 2 * normCDF(-c.beyond)
		se := math.Sqrt(p * (1 - p) / n)
		if got := float64(c.got) / n; math.Abs(got-p) > 4*se {
			t.Errorf("share beyond %g: %.5f, want %.5f", c.beyond, got, p)
		}
	}
}

// TestSpearmanSums: the radix ranks' sums equal those of ranks by a plain
// sort (ties averaged) on columns of every span: one value, ties, a
// narrow and a wide range, negative values, several binades.
func TestSpearmanSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cols := map[string]func(int) float32{
		"constant":  func(int) float32 { return 4 },
		"ties":      func(int) float32 { return float32(rng.IntN(7)) },
		"narrow":    func(int) float32 { return 10 + float32(rng.Float64())*1e-4 },
		"pert-like": func(int) float32 { return 7.5 + 7.5*float32(rng.Float64()) },
		"signed":    func(int) float32 { return float32(rng.NormFloat64()) },
		"wide":      func(int) float32 { return float32(math.Exp(rng.Float64() * 40)) },
	}
	for name, gen := range cols {
		for _, n := range []int{1, 2, 17, 5000} {
			col := make([]float32, n)
			g := make([]int32, n)
			for i := range col {
				col[i] = gen(i)
				g[i] = int32(rng.IntN(2*n-1) - (n - 1))
			}
			idx := make([]int, n)
			for i := range idx {
				idx[i] = i
			}
			slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(col[a], col[b]) })
			// R = 2·rank - (n+1), ties averaged; integer sums, exact
			// in float64 at these sizes.
			var wdd, wdg float64
			for i := 0; i < n; {
				j := i + 1
				for j < n && col[idx[j]] == col[idx[i]] {
					j++
				}
				r := float64(i + j - n)
				for k := i; k < j; k++ {
					wdd += r * r
					wdg += r * float64(g[idx[k]])
				}
				i = j
			}
			sdd, sdg := newRanker(n).spearmanSums(col, g)
			if sdd != wdd || sdg != wdg {
				t.Errorf("%s n=%d: sums %v %v, want %v %v", name, n, sdd, sdg, wdd, wdg)
			}
		}
	}
}

// TestColumnRegenerates: a column regenerated from the streams' starts
// (Model.column) is, iteration by iteration, the float32 of what the lane
// sampler drew, for every activity drawn at a fixed stream position (the
// others, normal and untabulated PERT, have none), and ranking the keys
// made while regenerating (Model.columnKeys) gives the same sums.
func TestColumnRegenerates(t *testing.T) { forKernels(t, testColumnRegenerates) }

func testColumnRegenerates(t *testing.T) {
	kinds := []string{"normal(10,2)", "uniform(2,9)", "pert(1,1.5,9)", "triangular(1,2,9)", "pert(2,5,11)", "7", "triangular(3,3,8)", "pert(2,3,11)"}
	s := &schedule.Schedule{}
	for i := range 64 {
		s.Activities = append(s.Activities, schedule.Activity{ID: "A" + strconv.Itoa(i), Duration: kinds[(i*5)%len(kinds)]})
		if i == 30 {
			s.Activities = append(s.Activities, schedule.Activity{ID: "B", Duration: "pert(2,3,12)"})
		}
	}
	m, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	const iters = 37
	// 25,000 iterations' worth of tables: the PERTs used 8 times get one,
	// pert(2,3,12) (once, among them) not.
	tabs := m.tables(25_000, false, 2)
	plan := m.newPlan(tabs)
	if len(plan.pertTab) == 0 || len(plan.pertGamma) == 0 {
		t.Fatalf("want tabulated and untabulated PERTs, got %d and %d", len(plan.pertTab), len(plan.pertGamma))
	}
	ls := m.newLaneSampler(21, tabs)
	dur := make([]float64, m.Len()*lanes)
	want := make([][]float32, m.Len())
	for first := 0; first < iters; first += lanes {
		nb := min(lanes, iters-first)
		ls.sample(first, nb, dur)
		for v := range want {
			for j := range nb {
				want[v] = append(want[v], float32(dur[v*lanes+j]))
			}
		}
	}
	starts := make([]uint64, iters)
	for i := range starts {
		starts[i] = newRng(21, i).s
	}
	got := make([]float32, iters)
	g := make([]int32, iters)
	for i := range g {
		g[i] = int32((i*7)%iters - iters/2)
	}
	regenerated := 0
	for v, at := range plan.at {
		k := m.dists[v].kind
		fixedPos := k == kUniform || k == kTriangular || (k == kPERT && tabs[v] != nil)
		if (at >= 0) != fixedPos {
			t.Fatalf("%s: position %d", s.Activities[v].Duration, at)
		}
		if at < 0 {
			continue
		}
		m.column(int32(v), plan, tabs, starts, got)
		if !slices.Equal(got, want[v]) {
			t.Fatalf("%s: regenerated %v, drawn %v", s.Activities[v].Duration, got[:3], want[v][:3])
		}
		// The keys made as the column is regenerated rank it the same.
		rk := newRanker(iters)
		wdd, wdf := rk.spearmanSums(got, g)
		if !m.columnKeys(int32(v), plan, tabs, starts, rk) {
			t.Fatalf("%s: a value outside its bounds", s.Activities[v].Duration)
		}
		if sdd, sdf := rk.sums(iters, g); sdd != wdd || sdf != wdf {
			t.Fatalf("%s: sums from the regenerated keys %v %v, from the column %v %v", s.Activities[v].Duration, sdd, sdf, wdd, wdf)
		}
		regenerated++
	}
	if regenerated == 0 {
		t.Fatal("nothing regenerated")
	}
}

// TestWalkPairs: one link v→s of every type and lag between activities of
// fixed and ranged durations, with durations at and inside the ends of
// their ranges: whether v may end the project by itself (Model.ends) must
// be decided right, or the walk misses v critical through T - EF_v.
func TestWalkPairs(t *testing.T) { forKernels(t, testWalkPairs) }

func testWalkPairs(t *testing.T) {
	durs := []string{"0", "1", "3", "uniform(1,3)", "uniform(0,2)", "uniform(1,4)", "triangular(0.5,1,6)"}
	quarters := func(r *rand.Rand, lo, hi float64) float64 {
		if r.IntN(2) == 0 {
			return [2]float64{lo, hi}[r.IntN(2)]
		}
		return lo + float64(r.IntN(int((hi-lo)*4)+1))/4
	}
	for _, typ := range []schedule.RelType{schedule.FS, schedule.SS, schedule.FF, schedule.SF} {
		for q := -12; q <= 12; q++ {
			lag := float64(q) / 4
			for _, dv := range durs {
				for _, ds := range durs {
					s := &schedule.Schedule{
						Activities: []schedule.Activity{{ID: "V", Duration: dv}, {ID: "S", Duration: ds}},
						Relationships: []schedule.Relationship{
							{ID: "R", Type: typ, Predecessor: "V", Successor: "S", Lag: lag},
						},
					}
					m, err := Compile(s)
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("V %s -%s %g-> S %s", dv, typ, lag, ds)
					checkBatched(t, name, m, rand.New(rand.NewPCG(uint64(q+12), 1)), quarters, 6)
				}
			}
		}
	}
}
