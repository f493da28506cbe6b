package schedule

import (
	"math/rand/v2"
	"strconv"
)

// Synthetic generates a reproducible schedule for benchmarks and load tests:
// n activities (integer and half-day durations, some milestones) and about
// linksPer relationships per activity, each from one of the previous 50
// activities (schedules are local: a trade follows the trades just before
// it), mostly FS with SS, FF and SF mixed in and lags from -2 to 5 days.
// The same arguments always give the same schedule.
func Synthetic(n, linksPer int, seed uint64) *Schedule {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	s := &Schedule{
		Name:          "Synthetic " + strconv.Itoa(n),
		Activities:    make([]Activity, n),
		Relationships: make([]Relationship, 0, n*linksPer),
	}
	for i := range s.Activities {
		d := strconv.Itoa(rng.IntN(20))
		if rng.IntN(10) == 0 {
			d += ".5"
		}
		id := "A" + strconv.Itoa(i)
		s.Activities[i] = Activity{ID: id, Name: "Task " + strconv.Itoa(i), Duration: d}
	}
	types := [...]RelType{FS, FS, FS, FS, FS, FS, SS, SS, FF, SF}
	type key struct {
		pred int
		typ  RelType
	}
	for i := 1; i < n; i++ {
		seen := map[key]bool{}
		for k := 0; k < linksPer; k++ {
			pred := i - 1 - rng.IntN(min(i, 50))
			t := types[rng.IntN(len(types))]
			if seen[key{pred, t}] {
				continue
			}
			seen[key{pred, t}] = true
			s.Relationships = append(s.Relationships, Relationship{
				ID:          "R" + strconv.Itoa(len(s.Relationships)),
				Type:        t,
				Predecessor: s.Activities[pred].ID,
				Successor:   s.Activities[i].ID,
				Lag:         float64(rng.IntN(8) - 2),
			})
		}
	}
	return s
}
