package schedule

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// linkType is RelType packed into a byte for the compact network.
type linkType uint8

const (
	linkFS linkType = iota
	linkSS
	linkFF
	linkSF
)

var linkTypes = map[RelType]linkType{FS: linkFS, SS: linkSS, FF: linkFF, SF: linkSF}

// link is one relationship seen from one of its ends; other is the activity
// at the far end (the predecessor in an in-list, the successor in an out-list).
type link struct {
	other int32
	typ   linkType
	lag   float64
}

// Network is a schedule compiled for CPM: activities are dense indices, links
// are stored twice in compressed sparse rows (into and out of each activity),
// and order is a topological order of the activity-level graph. Compile once,
// compute as often as needed; a Network is read-only and safe to share.
type Network struct {
	ids      []string
	index    map[string]int32
	dur      []float64
	inStart  []int32 // links into activity v are in[inStart[v]:inStart[v+1]]
	in       []link
	outStart []int32
	out      []link
	order    []int32
}

// Len is the number of activities.
func (n *Network) Len() int { return len(n.ids) }

// ID is the activity id at index i.
func (n *Network) ID(i int) string { return n.ids[i] }

// Index returns the dense index of an activity id.
func (n *Network) Index(id string) (int, bool) {
	i, ok := n.index[id]
	return int(i), ok
}

// FieldError names where in a schedule a problem is, e.g.
// `relationships[3].successor: unknown activity "A9"`.
type FieldError struct {
	Path   string
	Reason string
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Reason }

func fieldErr(path string, format string, args ...any) *FieldError {
	return &FieldError{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// CycleError is circular logic: the activities on the cycle, in link order,
// the first repeated at the end.
type CycleError struct {
	IDs   []string
	Names []string
}

func (e *CycleError) Error() string {
	labels := make([]string, len(e.IDs))
	for i, id := range e.IDs {
		labels[i] = fmt.Sprintf("%q", id)
		if e.Names[i] != "" && e.Names[i] != id {
			labels[i] = fmt.Sprintf("%q (%s)", e.Names[i], id)
		}
	}
	return "circular logic: " + strings.Join(labels, " -> ")
}

// Compile checks what CPM depends on (unique activity ids, parsable durations,
// known link ends and types, no self-links, no cycles) and builds the compact
// network. It is O(V+E) and stops at the first problem; Validate checks more
// and reports every problem.
func Compile(s *Schedule) (*Network, error) {
	n, errs := compile(s, false)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return n, nil
}

// maxReported caps how many problems a full check lists at once.
const maxReported = 20

// compile builds the network. With full set it also checks names,
// relationship ids (present, unique across activities and relationships)
// and duplicate links (same predecessor, successor and type), and collects
// up to maxReported problems instead of stopping at the first.
func compile(s *Schedule, full bool) (*Network, []error) {
	var errs []error
	report := func(path func() string, format string, args ...any) bool {
		if len(errs) < maxReported {
			errs = append(errs, fieldErr(path(), format, args...))
		}
		return !full || len(errs) >= maxReported // stop?
	}
	actPath := func(i int, field string) func() string {
		return func() string { return fmt.Sprintf("activities[%d]%s", i, field) }
	}
	relPath := func(i int, field string) func() string {
		return func() string { return fmt.Sprintf("relationships[%d]%s", i, field) }
	}

	nAct := len(s.Activities)
	n := &Network{
		ids:      make([]string, nAct),
		index:    make(map[string]int32, nAct),
		dur:      make([]float64, nAct),
		inStart:  make([]int32, nAct+1),
		outStart: make([]int32, nAct+1),
	}
	for i := range s.Activities {
		a := &s.Activities[i]
		n.ids[i] = a.ID
		if first, dup := n.index[a.ID]; dup {
			if report(actPath(i, ".id"), "duplicate id %q (also activities[%d].id)", a.ID, first) {
				return nil, errs
			}
		} else {
			n.index[a.ID] = int32(i)
		}
		if full && a.ID == "" && report(actPath(i, ".id"), "missing id") {
			return nil, errs
		}
		if full && a.Name == "" && report(actPath(i, ".name"), "missing name") {
			return nil, errs
		}
		d, err := DurationDays(a.Duration)
		if err != nil && report(actPath(i, ".duration"), "%v", err) {
			return nil, errs
		}
		n.dur[i] = d
	}

	var relIDs map[string]int32
	var links map[uint64]int32
	if full {
		relIDs = make(map[string]int32, len(s.Relationships))
		links = make(map[uint64]int32, len(s.Relationships))
	}
	// Resolve both ends once; the CSR fill below reuses them.
	ends := make([][2]int32, len(s.Relationships))
	for i := range s.Relationships {
		r := &s.Relationships[i]
		if full {
			if first, dup := relIDs[r.ID]; dup {
				if report(relPath(i, ".id"), "duplicate id %q (also relationships[%d].id)", r.ID, first) {
					return nil, errs
				}
			} else if a, clash := n.index[r.ID]; clash && r.ID != "" {
				if report(relPath(i, ".id"), "duplicate id %q (also activities[%d].id)", r.ID, a) {
					return nil, errs
				}
			} else if r.ID == "" {
				if report(relPath(i, ".id"), "missing id") {
					return nil, errs
				}
			} else {
				relIDs[r.ID] = int32(i)
			}
		}
		t, typeOK := linkTypes[r.Type]
		if !typeOK && report(relPath(i, ".type"), "%q must be one of FS, SS, FF, SF", r.Type) {
			return nil, errs
		}
		p, predOK := n.index[r.Predecessor]
		if !predOK && report(relPath(i, ".predecessor"), "unknown activity %q", r.Predecessor) {
			return nil, errs
		}
		q, succOK := n.index[r.Successor]
		if !succOK && report(relPath(i, ".successor"), "unknown activity %q", r.Successor) {
			return nil, errs
		}
		if predOK && succOK && p == q && report(relPath(i, ""), "self-link: activity %q cannot precede itself", r.Predecessor) {
			return nil, errs
		}
		if (math.IsNaN(r.Lag) || math.IsInf(r.Lag, 0)) && report(relPath(i, ".lag"), "must be a finite number of working days") {
			return nil, errs
		}
		if full && typeOK && predOK && succOK {
			key := uint64(p)<<34 | uint64(q)<<2 | uint64(t)
			if first, dup := links[key]; dup {
				if report(relPath(i, ""), "duplicate %s link %q -> %q (also relationships[%d])", r.Type, r.Predecessor, r.Successor, first) {
					return nil, errs
				}
			} else {
				links[key] = int32(i)
			}
		}
		if len(errs) > 0 {
			continue // the network will not be built; keep looking for problems
		}
		ends[i] = [2]int32{p, q}
		n.outStart[p+1]++
		n.inStart[q+1]++
	}
	if len(errs) > 0 {
		return nil, errs
	}
	for v := 0; v < nAct; v++ {
		n.outStart[v+1] += n.outStart[v]
		n.inStart[v+1] += n.inStart[v]
	}
	n.in = make([]link, len(s.Relationships))
	n.out = make([]link, len(s.Relationships))
	inNext := slices.Clone(n.inStart[:nAct])
	outNext := slices.Clone(n.outStart[:nAct])
	for i := range s.Relationships {
		r := &s.Relationships[i]
		p, q, t := ends[i][0], ends[i][1], linkTypes[r.Type]
		n.out[outNext[p]] = link{other: q, typ: t, lag: r.Lag}
		outNext[p]++
		n.in[inNext[q]] = link{other: p, typ: t, lag: r.Lag}
		inNext[q]++
	}
	if err := n.sortTopologically(s); err != nil {
		return nil, []error{err}
	}
	return n, nil
}

// sortTopologically fills n.order with Kahn's algorithm (a FIFO queue, so the
// order follows the file order where logic allows) or returns the cycle.
func (n *Network) sortTopologically(s *Schedule) error {
	nAct := len(n.ids)
	pending := make([]int32, nAct) // unprocessed predecessors per activity
	for v := 0; v < nAct; v++ {
		pending[v] = n.inStart[v+1] - n.inStart[v]
	}
	order := make([]int32, 0, nAct)
	for v := 0; v < nAct; v++ {
		if pending[v] == 0 {
			order = append(order, int32(v))
		}
	}
	for head := 0; head < len(order); head++ {
		v := order[head]
		for _, l := range n.out[n.outStart[v]:n.outStart[v+1]] {
			if pending[l.other]--; pending[l.other] == 0 {
				order = append(order, l.other)
			}
		}
	}
	if len(order) < nAct {
		return n.findCycle(s, pending)
	}
	n.order = order
	return nil
}

// findCycle walks predecessors among the activities Kahn could not order
// (each has an unordered predecessor) until one repeats: that loop is a cycle.
func (n *Network) findCycle(s *Schedule, pending []int32) error {
	start := int32(-1)
	for v, p := range pending {
		if p > 0 {
			start = int32(v)
			break
		}
	}
	seenAt := map[int32]int{}
	var walk []int32
	for v := start; ; {
		if at, seen := seenAt[v]; seen {
			walk = walk[at:]
			break
		}
		seenAt[v] = len(walk)
		walk = append(walk, v)
		for _, l := range n.in[n.inStart[v]:n.inStart[v+1]] {
			if pending[l.other] > 0 {
				v = l.other
				break
			}
		}
	}
	// walk follows predecessors; report it in link direction, from the
	// activity first in the file, closed.
	slices.Reverse(walk)
	first := slices.Index(walk, slices.Min(walk))
	walk = slices.Concat(walk[first:], walk[:first+1])
	e := &CycleError{}
	for _, v := range walk {
		e.IDs = append(e.IDs, n.ids[v])
		e.Names = append(e.Names, s.Activities[v].Name)
	}
	return e
}
