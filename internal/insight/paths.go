package insight

import (
	"cmp"
	"container/heap"
	"fmt"
	"slices"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// PathLink is a driving link on a path.
type PathLink struct {
	RelationshipID string           `json:"relationship_id"`
	Type           schedule.RelType `json:"type"`
	Lag            float64          `json:"lag"`
	Predecessor    string           `json:"predecessor"`
	Successor      string           `json:"successor"`
}

// Path is a driving path: the activities that drive a target through links
// with no relationship free float (View.Drives), and those links.
//
// The rule, with ties (an activity two links drive at once, say an FS
// from each of two predecessors finishing together): the path holds every
// activity reachable backwards from the target through driving links, so
// both branches are on it. Activities are in path order: a topological
// order of the driving links among them (a predecessor always before its
// successor) that takes the earliest early start first among those ready,
// then the schedule's order. A single chain is simply its order. Links are
// ordered by their successor's place on the path, then their
// predecessor's, then the schedule's relationship order.
type Path struct {
	// Target is the activity the path leads to; "" for the project finish.
	Target     string     `json:"target,omitempty"`
	Activities []Row      `json:"activities"`
	Links      []PathLink `json:"links"`
	// Starts are the activities on the path no link drives: where it
	// begins (day 0, or an activity whose every predecessor link has
	// slack — its start is then held by nothing in the logic).
	Starts []string `json:"starts"`
}

// IDs lists the path's activity ids in path order.
func (p *Path) IDs() []string { return IDs(p.Activities) }

// DrivingPath is the driving path to activity id (id last, unless a tie
// puts an activity it does not lead to after it — it never does: every
// activity on the path leads to id).
func (v *View) DrivingPath(id string) (*Path, error) {
	i, ok := v.Index(id)
	if !ok {
		return nil, fmt.Errorf("no activity %q", id)
	}
	p := v.path(v.backward([]int{i}))
	p.Target = id
	return p, nil
}

// DrivingPathToFinish is the driving path to the project finish: to every
// activity that finishes at it.
func (v *View) DrivingPathToFinish() *Path {
	var ends []int
	for _, i := range v.scheduleOrder() {
		if v.R.EF[i] >= v.R.ProjectDuration-schedule.Epsilon {
			ends = append(ends, i)
		}
	}
	return v.path(v.backward(ends))
}

// backward is every activity reachable from from backwards through
// driving links.
func (v *View) backward(from []int) map[int]bool {
	in := map[int]bool{}
	stack := slices.Clone(from)
	for _, i := range from {
		in[i] = true
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range v.Preds(i) {
			if !v.Drives(k) {
				continue
			}
			p, _ := v.Index(v.S.Relationships[k].Predecessor)
			if !in[p] {
				in[p] = true
				stack = append(stack, p)
			}
		}
	}
	return in
}

// forwardCritical is every critical activity reachable from i forwards
// through driving links between critical activities: what a critical
// activity holds up on its way to the finish.
func (v *View) forwardCritical(i int) map[int]bool {
	in := map[int]bool{i: true}
	stack := []int{i}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range v.Succs(j) {
			s, _ := v.Index(v.S.Relationships[k].Successor)
			if !v.Drives(k) || !v.R.Critical(s) || in[s] {
				continue
			}
			in[s] = true
			stack = append(stack, s)
		}
	}
	return in
}

// path orders a set of activities and the driving links among them.
func (v *View) path(set map[int]bool) *Path {
	type edge struct{ k, p, s int }
	var edges []edge
	indeg := map[int]int{}
	out := map[int][]edge{}
	for i := range set {
		for _, k := range v.Preds(i) {
			p, _ := v.Index(v.S.Relationships[k].Predecessor)
			if set[p] && v.Drives(k) {
				e := edge{k, p, i}
				edges = append(edges, e)
				indeg[i]++
				out[p] = append(out[p], e)
			}
		}
	}
	ready := &byStartHeap{v: v}
	res := &Path{Activities: []Row{}, Links: []PathLink{}, Starts: []string{}}
	for i := range set {
		if indeg[i] == 0 {
			heap.Push(ready, i)
		}
	}
	// Starts in path order.
	place := map[int]int{}
	var order []int
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		place[i] = len(order)
		order = append(order, i)
		for _, e := range out[i] {
			indeg[e.s]--
			if indeg[e.s] == 0 {
				heap.Push(ready, e.s)
			}
		}
	}
	for _, i := range order {
		res.Activities = append(res.Activities, v.row(i))
	}
	driven := map[int]bool{}
	for _, e := range edges {
		driven[e.s] = true
	}
	for _, i := range order {
		if !driven[i] {
			res.Starts = append(res.Starts, v.Activity(i).ID)
		}
	}
	slices.SortFunc(edges, func(a, b edge) int {
		return cmp.Or(cmp.Compare(place[a.s], place[b.s]), cmp.Compare(place[a.p], place[b.p]), cmp.Compare(a.k, b.k))
	})
	for _, e := range edges {
		rel := &v.S.Relationships[e.k]
		res.Links = append(res.Links, PathLink{RelationshipID: rel.ID, Type: rel.Type, Lag: rel.Lag, Predecessor: rel.Predecessor, Successor: rel.Successor})
	}
	return res
}

// byStartHeap pops the network index with the earliest early start, then
// the first in the schedule.
type byStartHeap struct {
	v  *View
	xs []int
}

func (h *byStartHeap) Len() int { return len(h.xs) }
func (h *byStartHeap) Less(a, b int) bool {
	x, y := h.xs[a], h.xs[b]
	return cmp.Or(cmpRounded(h.v.R.ES[x], h.v.R.ES[y]), cmp.Compare(h.v.pos[x], h.v.pos[y])) < 0
}
func (h *byStartHeap) Swap(a, b int) { h.xs[a], h.xs[b] = h.xs[b], h.xs[a] }
func (h *byStartHeap) Push(x any)    { h.xs = append(h.xs, x.(int)) }
func (h *byStartHeap) Pop() any {
	x := h.xs[len(h.xs)-1]
	h.xs = h.xs[:len(h.xs)-1]
	return x
}

// NearCritical lists the activities with total float of days or less
// (critical ones included), by total float, then early start, then the
// schedule's order.
func (v *View) NearCritical(days float64) []Row {
	var idx []int
	for _, i := range v.scheduleOrder() {
		if v.R.TotalFloat[i] <= days+schedule.Epsilon {
			idx = append(idx, i)
		}
	}
	v.byFloatThenStart(idx)
	return v.rows(idx)
}
