package schedule

import (
	"cmp"
	"slices"
)

// Epsilon is the tolerance, in working days, below which a float counts as
// zero: decimal durations and lags accumulate binary rounding error.
const Epsilon = 1e-6

// Result holds the CPM times of every activity, indexed like the Network.
// Times are working-day offsets from the project start (day 0).
type Result struct {
	Net             *Network
	ProjectDuration float64
	ES, EF, LS, LF  []float64
	TotalFloat      []float64
	FreeFloat       []float64
	// Times are the dates of a live programme (see live_cpm.go); nil for
	// a plain network, whose dates a Clock gives from the offsets.
	Times *Times
}

// Analyze compiles s and computes its CPM times.
func Analyze(s *Schedule) (*Result, error) {
	n, err := Compile(s)
	if err != nil {
		return nil, err
	}
	return n.Compute(), nil
}

// Compute runs the forward and backward passes with MS Project / P6
// semantics: activities keep their durations (they do not stretch), no
// activity starts before day 0, every activity finishes by the project finish.
func (n *Network) Compute() *Result {
	if n.live != nil {
		return n.computeLive()
	}
	nAct := len(n.ids)
	r := &Result{
		Net:        n,
		ES:         make([]float64, nAct),
		EF:         make([]float64, nAct),
		LS:         make([]float64, nAct),
		LF:         make([]float64, nAct),
		TotalFloat: make([]float64, nAct),
		FreeFloat:  make([]float64, nAct),
	}
	es, ef, ls, lf := r.ES, r.EF, r.LS, r.LF

	var finish float64
	for _, v := range n.order {
		d := n.dur[v]
		start := 0.0
		for _, l := range n.in[n.inStart[v]:n.inStart[v+1]] {
			var c float64
			switch l.typ {
			case linkFS:
				c = ef[l.other] + l.lag
			case linkSS:
				c = es[l.other] + l.lag
			case linkFF:
				c = ef[l.other] + l.lag - d
			default: // SF
				c = es[l.other] + l.lag - d
			}
			start = max(start, c)
		}
		es[v], ef[v] = start, start+d
		finish = max(finish, start+d)
	}
	r.ProjectDuration = finish

	for k := len(n.order) - 1; k >= 0; k-- {
		v := n.order[k]
		d := n.dur[v]
		late := finish
		free := finish - ef[v]
		for _, l := range n.out[n.outStart[v]:n.outStart[v+1]] {
			s := l.other
			var c, slack float64
			switch l.typ {
			case linkFS:
				c, slack = ls[s]-l.lag, es[s]-l.lag-ef[v]
			case linkSS:
				c, slack = ls[s]-l.lag+d, es[s]-l.lag-es[v]
			case linkFF:
				c, slack = lf[s]-l.lag, ef[s]-l.lag-ef[v]
			default: // SF
				c, slack = lf[s]-l.lag+d, ef[s]-l.lag-es[v]
			}
			late = min(late, c)
			free = min(free, slack)
		}
		lf[v], ls[v] = late, late-d
		r.TotalFloat[v] = nonNegative(late - d - es[v])
		r.FreeFloat[v] = nonNegative(free)
	}
	return r
}

// nonNegative clears rounding noise: the early schedule satisfies every
// constraint the backward pass uses, so floats are >= 0 in exact arithmetic.
func nonNegative(x float64) float64 {
	if x < Epsilon {
		return 0
	}
	return x
}

// Critical reports whether activity i has no total float.
// A finished activity of a live programme is never critical.
func (r *Result) Critical(i int) bool {
	return r.TotalFloat[i] <= Epsilon && (r.Times == nil || !r.Times.Done[i])
}

// CriticalPath lists every critical activity id by early start, ties in
// topological order. With several critical paths, all their activities appear.
func (r *Result) CriticalPath() []string {
	var crit []int32
	for _, v := range r.Net.order {
		if r.Critical(int(v)) {
			crit = append(crit, v)
		}
	}
	slices.SortStableFunc(crit, func(a, b int32) int { return cmp.Compare(r.ES[a], r.ES[b]) })
	ids := make([]string, len(crit))
	for i, v := range crit {
		ids[i] = r.Net.ids[v]
	}
	return ids
}

// linkSlack is how far the link's constraint is from binding.
func (r *Result) linkSlack(pred int32, l link) float64 {
	s := l.other
	switch l.typ {
	case linkFS:
		return r.ES[s] - l.lag - r.EF[pred]
	case linkSS:
		return r.ES[s] - l.lag - r.ES[pred]
	case linkFF:
		return r.EF[s] - l.lag - r.EF[pred]
	default:
		return r.EF[s] - l.lag - r.ES[pred]
	}
}

// DrivingPaths lists up to limit critical chains: each starts at an activity
// no link drives, follows driving links (zero slack) between critical
// activities, and ends at an activity that finishes at the project finish.
func (r *Result) DrivingPaths(limit int) [][]string {
	n := r.Net
	drives := func(v int32) []int32 {
		var next []int32
		for _, l := range n.out[n.outStart[v]:n.outStart[v+1]] {
			if r.Critical(int(l.other)) && r.linkSlack(v, l) <= Epsilon {
				next = append(next, l.other)
			}
		}
		return next
	}
	// reachesFinish prunes the search so every branch taken yields a path.
	reachesFinish := make(map[int32]bool)
	drivenBy := make(map[int32]bool)
	for k := len(n.order) - 1; k >= 0; k-- {
		v := n.order[k]
		if !r.Critical(int(v)) {
			continue
		}
		ok := r.EF[v] >= r.ProjectDuration-Epsilon
		for _, s := range drives(v) {
			drivenBy[s] = true
			ok = ok || reachesFinish[s]
		}
		reachesFinish[v] = ok
	}
	var paths [][]string
	var path []int32
	var visit func(v int32)
	visit = func(v int32) {
		path = append(path, v)
		defer func() { path = path[:len(path)-1] }()
		if r.EF[v] >= r.ProjectDuration-Epsilon && len(paths) < limit {
			ids := make([]string, len(path))
			for i, p := range path {
				ids[i] = n.ids[p]
			}
			paths = append(paths, ids)
		}
		for _, s := range drives(v) {
			if len(paths) < limit && reachesFinish[s] {
				visit(s)
			}
		}
	}
	for _, v := range n.order {
		if len(paths) < limit && reachesFinish[v] && !drivenBy[v] {
			visit(v)
		}
	}
	return paths
}
