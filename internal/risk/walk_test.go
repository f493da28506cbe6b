package risk

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// randNet is a random network of n activities: each gets up to linksPer
// links from the previous span activities, of every type, with lags drawn
// by lag (negative ones included).
func randNet(n, linksPer, span int, seed uint64, lag func(*rand.Rand) float64) *schedule.Schedule {
	rng := rand.New(rand.NewPCG(seed, 7))
	s := &schedule.Schedule{}
	for i := range n {
		s.Activities = append(s.Activities, schedule.Activity{ID: "A" + strconv.Itoa(i), Duration: "1"})
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
// durations, continuous durations, and in partial batches.
func TestWalkMatchesBackward(t *testing.T) {
	intLag := func(r *rand.Rand) float64 { return float64(r.IntN(9) - 3) }
	quarterLag := func(r *rand.Rand) float64 { return float64(r.IntN(33)-12) / 4 }
	realLag := func(r *rand.Rand) float64 { return r.Float64()*8 - 3 }
	zeroLag := func(*rand.Rand) float64 { return 0 }
	quarters := func(r *rand.Rand) float64 { return float64(r.IntN(40)) / 4 }
	integers := func(r *rand.Rand) float64 { return float64(r.IntN(4)) } // many zeros and ties
	continuous := func(r *rand.Rand) float64 { return r.Float64() * 20 }
	mixed := func(r *rand.Rand) float64 {
		if r.IntN(3) == 0 {
			return float64(r.IntN(10))
		}
		return r.Float64() * 10
	}
	cases := []struct {
		name              string
		n, linksPer, span int
		lag               func(*rand.Rand) float64
		dur               func(*rand.Rand) float64
		rounds            int
	}{
		{"chainlike quarters", 300, 2, 3, quarterLag, quarters, 30},
		{"dense integers", 200, 6, 20, intLag, integers, 30},
		{"wide zero lags", 400, 3, 100, zeroLag, integers, 30},
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
		det := m.DeterministicDurations()
		// The deterministic durations, then each scaled by 0.5-1.5.
		i := -1
		checkBatched(t, name, m, rand.New(rand.NewPCG(1, 1)), func(r *rand.Rand) float64 {
			i = (i + 1) % len(det)
			if r.IntN(4) == 0 {
				return det[i]
			}
			return det[i] * (0.5 + r.Float64())
		}, 10)
	}
}

func checkBatched(t *testing.T, name string, m *Model, rng *rand.Rand, dur func(*rand.Rand) float64, rounds int) {
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
				b.one[v] = dur(rng)
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
// every distribution kind, with and without PERT tables, in partial
// batches too.
func TestLaneSamplerMatches(t *testing.T) {
	kinds := []string{"uniform(2,9)", "triangular(1,2,9)", "triangular(3,3,8)", "triangular(1,6,6)", "pert(2,5,11)", "pert(1,1.5,9)", "normal(10,2)", "normal(1,2)", "7", "pert(4,4,4)"}
	s := &schedule.Schedule{}
	for i := range 200 {
		s.Activities = append(s.Activities, schedule.Activity{ID: "A" + strconv.Itoa(i), Duration: kinds[(i*7)%len(kinds)]})
	}
	m, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, iters := range []int{100, 1_000_000} { // without and with tables
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
