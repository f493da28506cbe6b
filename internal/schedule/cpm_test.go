package schedule_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// times is one activity's expected CPM values: ES, EF, LS, LF, TF, FF.
type times [6]float64

func got(r *schedule.Result, i int) times {
	return times{r.ES[i], r.EF[i], r.LS[i], r.LF[i], r.TotalFloat[i], r.FreeFloat[i]}
}

func twoActivities(durA, durB string, t schedule.RelType, lag float64) *schedule.Schedule {
	return &schedule.Schedule{
		Activities: []schedule.Activity{
			{ID: "A", Name: "Excavate Level 1", Duration: durA},
			{ID: "B", Name: "Pour slab Level 1", Duration: durB},
		},
		Relationships: []schedule.Relationship{{ID: "R", Type: t, Predecessor: "A", Successor: "B", Lag: lag}},
	}
}

// Hand-computed: A lasts 5 days, B 3 days, one link A -> B.
func TestCPMTwoActivities(t *testing.T) {
	tests := []struct {
		typ    schedule.RelType
		lag    float64
		durA   string
		durB   string
		finish float64
		a, b   times
		critA  bool
		critB  bool
	}{
		{schedule.FS, 0, "5", "3", 8, times{0, 5, 0, 5, 0, 0}, times{5, 8, 5, 8, 0, 0}, true, true},
		{schedule.FS, 2, "5", "3", 10, times{0, 5, 0, 5, 0, 0}, times{7, 10, 7, 10, 0, 0}, true, true},
		{schedule.FS, -2, "5", "3", 6, times{0, 5, 0, 5, 0, 0}, times{3, 6, 3, 6, 0, 0}, true, true},
		{schedule.SS, 0, "5", "3", 5, times{0, 5, 0, 5, 0, 0}, times{0, 3, 2, 5, 2, 2}, true, false},
		{schedule.SS, 2, "5", "3", 5, times{0, 5, 0, 5, 0, 0}, times{2, 5, 2, 5, 0, 0}, true, true},
		{schedule.SS, 4, "5", "3", 7, times{0, 5, 0, 5, 0, 0}, times{4, 7, 4, 7, 0, 0}, true, true},
		{schedule.SS, -2, "5", "3", 5, times{0, 5, 0, 5, 0, 0}, times{0, 3, 2, 5, 2, 2}, true, false},
		{schedule.FF, 0, "5", "3", 5, times{0, 5, 0, 5, 0, 0}, times{2, 5, 2, 5, 0, 0}, true, true},
		{schedule.FF, 2, "5", "3", 7, times{0, 5, 0, 5, 0, 0}, times{4, 7, 4, 7, 0, 0}, true, true},
		{schedule.FF, -2, "5", "3", 5, times{0, 5, 0, 5, 0, 0}, times{0, 3, 2, 5, 2, 2}, true, false},
		{schedule.SF, 0, "5", "3", 5, times{0, 5, 0, 5, 0, 0}, times{0, 3, 2, 5, 2, 2}, true, false},
		{schedule.SF, 5, "5", "3", 5, times{0, 5, 0, 5, 0, 0}, times{2, 5, 2, 5, 0, 0}, true, true},
		{schedule.SF, 8, "5", "3", 8, times{0, 5, 0, 5, 0, 0}, times{5, 8, 5, 8, 0, 0}, true, true},
		{schedule.SF, -2, "5", "3", 5, times{0, 5, 0, 5, 0, 0}, times{0, 3, 2, 5, 2, 2}, true, false},
		// A short predecessor finishing with a long successor floats.
		{schedule.FF, 0, "2", "5", 5, times{0, 2, 3, 5, 3, 3}, times{0, 5, 0, 5, 0, 0}, false, true},
		{schedule.SS, 1, "2", "5", 6, times{0, 2, 0, 2, 0, 0}, times{1, 6, 1, 6, 0, 0}, true, true},
		// Decimal durations and lags (half days).
		{schedule.FS, 0.5, "1.5", "2.5", 4.5, times{0, 1.5, 0, 1.5, 0, 0}, times{2, 4.5, 2, 4.5, 0, 0}, true, true},
		// Distributions: triangular uses its mode, uniform its mean.
		{schedule.FS, 0, "triangular(3,5,9)", "uniform(2,4)", 8, times{0, 5, 0, 5, 0, 0}, times{5, 8, 5, 8, 0, 0}, true, true},
		// Milestone successor.
		{schedule.FS, 0, "5", "0", 5, times{0, 5, 0, 5, 0, 0}, times{5, 5, 5, 5, 0, 0}, true, true},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("%s%+g/%s-%s", tc.typ, tc.lag, tc.durA, tc.durB)
		t.Run(name, func(t *testing.T) {
			r, err := schedule.Analyze(twoActivities(tc.durA, tc.durB, tc.typ, tc.lag))
			if err != nil {
				t.Fatal(err)
			}
			if r.ProjectDuration != tc.finish {
				t.Errorf("project duration = %g, want %g", r.ProjectDuration, tc.finish)
			}
			if g := got(r, 0); g != tc.a {
				t.Errorf("A (ES EF LS LF TF FF) = %v, want %v", g, tc.a)
			}
			if g := got(r, 1); g != tc.b {
				t.Errorf("B (ES EF LS LF TF FF) = %v, want %v", g, tc.b)
			}
			if r.Critical(0) != tc.critA || r.Critical(1) != tc.critB {
				t.Errorf("critical = %v,%v, want %v,%v", r.Critical(0), r.Critical(1), tc.critA, tc.critB)
			}
		})
	}
}

// A small network with two starts, two ends, a milestone, parallel paths and
// an SS+FF ladder, computed by hand.
//
//	S1(3) -FS-> M(0) -FS+1-> C(4) -FS-> E1(2)
//	S2(2) -FS-> C;  C -SS+1-> L(6);  C -FF+2-> L;  L -FS-> E2(1)
func TestCPMNetwork(t *testing.T) {
	s := &schedule.Schedule{
		Activities: []schedule.Activity{
			{ID: "S1", Name: "Survey", Duration: "3"},
			{ID: "S2", Name: "Permits", Duration: "2"},
			{ID: "M", Name: "Ready", Duration: "0"},
			{ID: "C", Name: "Concrete", Duration: "4"},
			{ID: "L", Name: "Lay", Duration: "6"},
			{ID: "E1", Name: "Cure", Duration: "2"},
			{ID: "E2", Name: "Handover", Duration: "1"},
		},
		Relationships: []schedule.Relationship{
			{ID: "r1", Type: schedule.FS, Predecessor: "S1", Successor: "M"},
			{ID: "r2", Type: schedule.FS, Predecessor: "M", Successor: "C", Lag: 1},
			{ID: "r3", Type: schedule.FS, Predecessor: "S2", Successor: "C"},
			{ID: "r4", Type: schedule.FS, Predecessor: "C", Successor: "E1"},
			{ID: "r5", Type: schedule.SS, Predecessor: "C", Successor: "L", Lag: 1},
			{ID: "r6", Type: schedule.FF, Predecessor: "C", Successor: "L", Lag: 2},
			{ID: "r7", Type: schedule.FS, Predecessor: "L", Successor: "E2"},
		},
	}
	// Forward: S1 0-3, S2 0-2, M 3-3, C 4-8, E1 8-10,
	// L: max(SS 4+1=5, FF 8+2-6=4) = 5-11, E2 11-12. T = 12.
	// Backward: E2 11-12, E1 10-12, L LF=min(12, LS_E2=11)=11 LS=5,
	// C LF=min(12, LS_E1=10, SS: LS_L-1+4=8, FF: LF_L-2=9)=8 LS=4,
	// M LF=min(12, LS_C-1=3)=3, S1 LF=3 LS=0, S2 LF=min(12, 4)=4 LS=2.
	want := map[string]times{
		"S1": {0, 3, 0, 3, 0, 0},
		"S2": {0, 2, 2, 4, 2, 2},
		"M":  {3, 3, 3, 3, 0, 0},
		"C":  {4, 8, 4, 8, 0, 0},
		"L":  {5, 11, 5, 11, 0, 0},
		"E1": {8, 10, 10, 12, 2, 2},
		"E2": {11, 12, 11, 12, 0, 0},
	}
	r, err := schedule.Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.ProjectDuration != 12 {
		t.Errorf("project duration = %g, want 12", r.ProjectDuration)
	}
	for i, a := range s.Activities {
		if g := got(r, i); g != want[a.ID] {
			t.Errorf("%s (ES EF LS LF TF FF) = %v, want %v", a.ID, g, want[a.ID])
		}
	}
	if cp, want := r.CriticalPath(), []string{"S1", "M", "C", "L", "E2"}; !slices.Equal(cp, want) {
		t.Errorf("critical path = %v, want %v", cp, want)
	}
	if paths := r.DrivingPaths(10); len(paths) != 1 || !slices.Equal(paths[0], []string{"S1", "M", "C", "L", "E2"}) {
		t.Errorf("driving paths = %v", paths)
	}
}

func TestCPMNegativeLagNeverStartsBeforeDayZero(t *testing.T) {
	r, err := schedule.Analyze(twoActivities("1", "4", schedule.FS, -10))
	if err != nil {
		t.Fatal(err)
	}
	if r.ES[1] != 0 || r.ProjectDuration != 4 {
		t.Errorf("ES(B) = %g, T = %g; want 0 and 4", r.ES[1], r.ProjectDuration)
	}
}

func TestCPMRefusesCyclesAndSelfLinks(t *testing.T) {
	cyclic := &schedule.Schedule{
		Activities: []schedule.Activity{
			{ID: "A", Name: "Formwork", Duration: "1"}, {ID: "B", Name: "Rebar", Duration: "1"},
			{ID: "C", Name: "Pour", Duration: "1"}, {ID: "D", Name: "Strip", Duration: "1"},
		},
		Relationships: []schedule.Relationship{
			{ID: "1", Type: schedule.FS, Predecessor: "D", Successor: "A"},
			{ID: "2", Type: schedule.SS, Predecessor: "A", Successor: "B"},
			{ID: "3", Type: schedule.FF, Predecessor: "B", Successor: "C"},
			{ID: "4", Type: schedule.SF, Predecessor: "C", Successor: "A"},
		},
	}
	_, err := schedule.Analyze(cyclic)
	var cycle *schedule.CycleError
	if !errors.As(err, &cycle) {
		t.Fatalf("err = %v, want a CycleError", err)
	}
	if want := []string{"A", "B", "C", "A"}; !slices.Equal(cycle.IDs, want) {
		t.Errorf("cycle = %v, want %v", cycle.IDs, want)
	}
	if msg := err.Error(); !strings.Contains(msg, `"Formwork" (A) -> "Rebar" (B) -> "Pour" (C) -> "Formwork" (A)`) {
		t.Errorf("message %q does not name the cycle", msg)
	}

	self := twoActivities("1", "1", schedule.FS, 0)
	self.Relationships[0].Successor = "A"
	if _, err := schedule.Analyze(self); err == nil || !strings.Contains(err.Error(), "self-link") {
		t.Errorf("self-link: err = %v", err)
	}
}

// randomSchedule builds a random DAG: links only go from lower to higher
// indices (so there are no cycles), all four types, lags in -3..5 days,
// some fractional and some milestone durations.
func randomSchedule(rng *rand.Rand, nAct, linksPer int) *schedule.Schedule {
	s := &schedule.Schedule{Name: "random"}
	for i := 0; i < nAct; i++ {
		d := fmt.Sprint(rng.IntN(10))
		switch rng.IntN(8) {
		case 0:
			d = fmt.Sprintf("%g", float64(rng.IntN(20))/4)
		case 1:
			a := rng.IntN(5)
			d = fmt.Sprintf("pert(%d,%d,%d)", a, a+rng.IntN(3), a+5)
		}
		s.Activities = append(s.Activities, schedule.Activity{ID: fmt.Sprintf("A%d", i), Name: fmt.Sprintf("Task %d", i), Duration: d})
	}
	types := []schedule.RelType{schedule.FS, schedule.SS, schedule.FF, schedule.SF}
	seen := map[string]bool{}
	for i := 1; i < nAct; i++ {
		for k := 0; k < rng.IntN(linksPer+1); k++ {
			p := max(0, i-1-rng.IntN(min(i, 12)))
			t := types[rng.IntN(4)]
			key := fmt.Sprint(p, i, t)
			if seen[key] {
				continue
			}
			seen[key] = true
			lag := float64(rng.IntN(9) - 3)
			if rng.IntN(5) == 0 {
				lag += 0.5
			}
			s.Relationships = append(s.Relationships, schedule.Relationship{
				ID: fmt.Sprintf("R%d", len(s.Relationships)), Type: t,
				Predecessor: fmt.Sprintf("A%d", p), Successor: fmt.Sprintf("A%d", i), Lag: lag,
			})
		}
	}
	// Shuffle so the file order is not a topological order.
	rng.Shuffle(len(s.Activities), func(i, j int) { s.Activities[i], s.Activities[j] = s.Activities[j], s.Activities[i] })
	rng.Shuffle(len(s.Relationships), func(i, j int) { s.Relationships[i], s.Relationships[j] = s.Relationships[j], s.Relationships[i] })
	return s
}

// oracle computes early and late times by relaxing every constraint until
// nothing changes (Bellman-Ford style): slow, but independent of the
// engine's topological order and CSR layout.
func oracle(s *schedule.Schedule) (es, ls []float64, finish float64) {
	idx := map[string]int{}
	dur := make([]float64, len(s.Activities))
	for i, a := range s.Activities {
		idx[a.ID] = i
		dur[i], _ = schedule.DurationDays(a.Duration)
	}
	es = make([]float64, len(dur))
	for changed := true; changed; {
		changed = false
		for _, r := range s.Relationships {
			p, q := idx[r.Predecessor], idx[r.Successor]
			var c float64
			switch r.Type {
			case schedule.FS:
				c = es[p] + dur[p] + r.Lag
			case schedule.SS:
				c = es[p] + r.Lag
			case schedule.FF:
				c = es[p] + dur[p] + r.Lag - dur[q]
			case schedule.SF:
				c = es[p] + r.Lag - dur[q]
			}
			if c > es[q]+1e-12 {
				es[q], changed = c, true
			}
		}
	}
	for i := range es {
		finish = max(finish, es[i]+dur[i])
	}
	ls = make([]float64, len(dur))
	for i := range ls {
		ls[i] = finish - dur[i]
	}
	for changed := true; changed; {
		changed = false
		for _, r := range s.Relationships {
			p, q := idx[r.Predecessor], idx[r.Successor]
			var c float64 // latest start of p allowed by the link
			switch r.Type {
			case schedule.FS:
				c = ls[q] - r.Lag - dur[p]
			case schedule.SS:
				c = ls[q] - r.Lag
			case schedule.FF:
				c = ls[q] + dur[q] - r.Lag - dur[p]
			case schedule.SF:
				c = ls[q] + dur[q] - r.Lag
			}
			if c < ls[p]-1e-12 {
				ls[p], changed = c, true
			}
		}
	}
	return es, ls, finish
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6 }

func TestCPMPropertiesOnRandomSchedules(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := randomSchedule(rng, 2+rng.IntN(60), 4)
		r, err := schedule.Analyze(s)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		es, ls, finish := oracle(s)
		if !near(r.ProjectDuration, finish) {
			t.Fatalf("seed %d: T = %g, oracle %g", seed, r.ProjectDuration, finish)
		}
		idx := map[string]int{}
		maxEF := 0.0
		for i, a := range s.Activities {
			idx[a.ID] = i
			d, _ := schedule.DurationDays(a.Duration)
			switch {
			case !near(r.ES[i], es[i]) || !near(r.LS[i], ls[i]):
				t.Fatalf("seed %d %s: ES %g LS %g, oracle ES %g LS %g", seed, a.ID, r.ES[i], r.LS[i], es[i], ls[i])
			case r.ES[i] < 0 || !near(r.EF[i], r.ES[i]+d) || !near(r.LF[i], r.LS[i]+d):
				t.Fatalf("seed %d %s: durations not kept", seed, a.ID)
			case r.LF[i] > r.ProjectDuration+1e-9:
				t.Fatalf("seed %d %s: LF %g after T %g", seed, a.ID, r.LF[i], r.ProjectDuration)
			case r.TotalFloat[i] < 0 || r.FreeFloat[i] < 0 || r.FreeFloat[i] > r.TotalFloat[i]+1e-9:
				t.Fatalf("seed %d %s: TF %g FF %g", seed, a.ID, r.TotalFloat[i], r.FreeFloat[i])
			case !near(r.TotalFloat[i], r.LS[i]-r.ES[i]):
				t.Fatalf("seed %d %s: TF %g != LS-ES", seed, a.ID, r.TotalFloat[i])
			}
			maxEF = max(maxEF, r.EF[i])
		}
		if !near(maxEF, r.ProjectDuration) {
			t.Fatalf("seed %d: max EF %g != T %g", seed, maxEF, r.ProjectDuration)
		}
		// Every link holds in the early and in the late schedule.
		for _, l := range s.Relationships {
			p, q := idx[l.Predecessor], idx[l.Successor]
			holds := func(sp, fp, sq, fq float64) bool {
				switch l.Type {
				case schedule.FS:
					return sq >= fp+l.Lag-1e-9
				case schedule.SS:
					return sq >= sp+l.Lag-1e-9
				case schedule.FF:
					return fq >= fp+l.Lag-1e-9
				}
				return fq >= sp+l.Lag-1e-9
			}
			if !holds(r.ES[p], r.EF[p], r.ES[q], r.EF[q]) || !holds(r.LS[p], r.LF[p], r.LS[q], r.LF[q]) {
				t.Fatalf("seed %d: link %+v broken", seed, l)
			}
		}
		// A critical chain joins a start (ES = 0) to the project finish.
		paths := r.DrivingPaths(3)
		if len(paths) == 0 {
			t.Fatalf("seed %d: no driving path", seed)
		}
		for _, path := range paths {
			first, last := idx[path[0]], idx[path[len(path)-1]]
			if r.ES[first] > 1e-9 || !near(r.EF[last], r.ProjectDuration) {
				t.Fatalf("seed %d: path %v runs %g..%g, want 0..%g", seed, path, r.ES[first], r.EF[last], r.ProjectDuration)
			}
			for _, id := range path {
				if !r.Critical(idx[id]) {
					t.Fatalf("seed %d: path %v has non-critical %s", seed, path, id)
				}
			}
		}
	}
}
