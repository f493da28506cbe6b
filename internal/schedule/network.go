package schedule

import (
	"fmt"
	"hash/maphash"
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

// linkTypeOf is t's link type; false when t is not one of the four. A
// switch, not a map: it is asked of every relationship.
func linkTypeOf(t RelType) (linkType, bool) {
	switch t {
	case FS:
		return linkFS, true
	case SS:
		return linkSS, true
	case FF:
		return linkFF, true
	case SF:
		return linkSF, true
	}
	return 0, false
}

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
	live     *liveNet // nil: a plain logic network
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
//
// Map operations dominate on large schedules (each is a cache miss), so
// there are as few as possible: one insert per activity and one lookup per
// link end unless it repeats the previous link's (files list links grouped
// by task). Relationship ids are checked by sorting hashes (see
// duplicateIDs), not with a map.
func compile(s *Schedule, full bool) (*Network, []error) {
	var errs []error
	report := func(path string, format string, args ...any) bool {
		if len(errs) < maxReported {
			errs = append(errs, fieldErr(path, format, args...))
		}
		return !full || len(errs) >= maxReported // stop?
	}
	// The live programme's fields compile on the other core meanwhile;
	// every return waits for it, so s is not read after compile returns.
	var live chan liveCompiled
	if scheduleIsLive(s) {
		live = make(chan liveCompiled, 1)
		go func() {
			l, err := compileLive(s)
			live <- liveCompiled{l, err}
		}()
		defer func() {
			if live != nil {
				<-live
			}
		}()
	}
	nAct := len(s.Activities)
	n := &Network{
		ids:      make([]string, nAct),
		dur:      make([]float64, nAct),
		inStart:  make([]int32, nAct+1),
		outStart: make([]int32, nAct+1),
	}
	// The duplicate check sorts hashes of every id; on a second core it
	// overlaps the index building below, which misses the cache as much.
	var pending chan []error
	if full {
		pending = make(chan []error, 1)
		go func() { pending <- duplicateIDs(s) }()
	}
	// settle puts the duplicate-id errors first, where a sequential check
	// would have reported them, keeping at most maxReported in all.
	settle := func() []error {
		if pending != nil {
			errs = append(<-pending, errs...)
			pending = nil
			errs = errs[:min(len(errs), maxReported)]
		}
		return errs
	}
	index := make(map[string]int32, nAct)
	for i := range s.Activities {
		a := &s.Activities[i]
		n.ids[i] = a.ID
		if first, dup := index[a.ID]; dup {
			if !full && report(fmt.Sprintf("activities[%d].id", i), "duplicate id %q (also activities[%d].id)", a.ID, first) {
				return nil, settle()
			}
		} else {
			index[a.ID] = int32(i)
		}
		if full && !activityText(a, i, report) {
			return nil, settle()
		}
		d, err := DurationDays(a.Duration)
		if err != nil && report(fmt.Sprintf("activities[%d].duration", i), "activity %q: %v", a.ID, err) {
			return nil, settle()
		}
		n.dur[i] = d
	}
	settle()

	// Resolve both ends once; the CSR fill below reuses them, with each
	// link as its predecessor sees it (compact, where the relationships
	// themselves are ten times the bytes and long out of the cache).
	ends := make([][2]int32, len(s.Relationships))
	outs := make([]link, len(s.Relationships))
	var pred, succ lastLookup
	for i := range s.Relationships {
		r := &s.Relationships[i]
		typ, typeOK := linkTypeOf(r.Type)
		if !typeOK && report(fmt.Sprintf("relationships[%d].type", i), "%q must be one of FS, SS, FF, SF", r.Type) {
			return nil, errs
		}
		p, predOK := pred.resolve(index, r.Predecessor)
		if !predOK && report(fmt.Sprintf("relationships[%d].predecessor", i), "unknown activity %q", r.Predecessor) {
			return nil, errs
		}
		q, succOK := succ.resolve(index, r.Successor)
		if !succOK && report(fmt.Sprintf("relationships[%d].successor", i), "unknown activity %q", r.Successor) {
			return nil, errs
		}
		if predOK && succOK && p == q && report(fmt.Sprintf("relationships[%d]", i), "self-link: activity %q cannot precede itself", r.Predecessor) {
			return nil, errs
		}
		if err := CheckLag(r.Lag); err != nil && report(fmt.Sprintf("relationships[%d].lag", i), "relationship %q: %v", r.ID, err) {
			return nil, errs
		}
		if full {
			if err := CheckID(r.ID); err != nil && report(fmt.Sprintf("relationships[%d].id", i), "%v", err) {
				return nil, errs
			}
		}
		if len(errs) > 0 {
			continue // the network will not be built; keep looking for problems
		}
		ends[i] = [2]int32{p, q}
		outs[i] = link{other: q, typ: typ, lag: r.Lag}
		n.outStart[p+1]++
		n.inStart[q+1]++
	}
	if len(errs) > 0 {
		return nil, errs
	}
	n.index = index
	for v := 0; v < nAct; v++ {
		n.outStart[v+1] += n.outStart[v]
		n.inStart[v+1] += n.inStart[v]
	}
	n.in = make([]link, len(s.Relationships))
	n.out = make([]link, len(s.Relationships))
	inNext := slices.Clone(n.inStart[:nAct])
	outNext := slices.Clone(n.outStart[:nAct])
	for i, l := range outs {
		p, q := ends[i][0], l.other
		n.out[outNext[p]] = l
		outNext[p]++
		n.in[inNext[q]] = link{other: p, typ: l.typ, lag: l.lag}
		inNext[q]++
	}
	if full {
		if errs := n.duplicateLinks(s, ends); len(errs) > 0 {
			return nil, errs
		}
	}
	if err := n.sortTopologically(s); err != nil {
		return nil, []error{err}
	}
	if live != nil {
		r := <-live
		live = nil
		if r.err != nil {
			return nil, []error{r.err}
		}
		n.live = r.live
	}
	return n, nil
}

// liveCompiled is compileLive's answer.
type liveCompiled struct {
	live *liveNet
	err  error
}

// activityText checks an activity's id, name and description against the
// text rules (see CheckID); it returns false when the check should stop.
func activityText(a *Activity, i int, report func(path string, format string, args ...any) bool) bool {
	if err := CheckID(a.ID); err != nil && report(fmt.Sprintf("activities[%d].id", i), "%v", err) {
		return false
	}
	if a.Name == "" {
		if report(fmt.Sprintf("activities[%d].name", i), "missing name") {
			return false
		}
	} else if err := CheckName(a.Name); err != nil && report(fmt.Sprintf("activities[%d].name", i), "activity %q: %v", a.ID, err) {
		return false
	}
	if err := CheckDescription(a.Description); err != nil && report(fmt.Sprintf("activities[%d].description", i), "activity %q: %v", a.ID, err) {
		return false
	}
	return true
}

// lastLookup remembers one map lookup: consecutive links usually share an
// end, and a string compare is far cheaper than a map lookup's cache miss.
type lastLookup struct {
	id    string
	at    int32
	found bool
}

func (l *lastLookup) resolve(index map[string]int32, id string) (int32, bool) {
	if !l.found || id != l.id {
		l.id = id
		l.at, l.found = index[id]
	}
	return l.at, l.found
}

// duplicateIDs reports missing ids and ids used twice, across activities
// and relationships. It finds equal 64-bit hashes of the ids (repeated),
// which is several times faster than a map on large schedules; only when
// two hashes are equal (a real duplicate, or very rarely a collision) does
// it compare the ids.
func duplicateIDs(s *Schedule) []error {
	var errs []error
	path := func(i int) string {
		if i < len(s.Activities) {
			return fmt.Sprintf("activities[%d].id", i)
		}
		return fmt.Sprintf("relationships[%d].id", i-len(s.Activities))
	}
	id := func(i int) string {
		if i < len(s.Activities) {
			return s.Activities[i].ID
		}
		return s.Relationships[i-len(s.Activities)].ID
	}
	total := len(s.Activities) + len(s.Relationships)
	seed := maphash.MakeSeed()
	hashes := make([]uint64, total)
	for i := range total {
		if id(i) == "" && len(errs) < maxReported {
			errs = append(errs, fieldErr(path(i), "missing id"))
		}
		hashes[i] = maphash.String(seed, id(i))
	}
	suspect := repeated(hashes)
	if len(suspect) == 0 {
		return errs
	}
	first := map[string]int{}
	for i := range total {
		v := id(i)
		if v == "" || !suspect[maphash.String(seed, v)] {
			continue
		}
		if at, dup := first[v]; dup {
			if len(errs) < maxReported {
				errs = append(errs, fieldErr(path(i), "duplicate id %q (also %s)", v, path(at)))
			}
			continue
		}
		first[v] = i
	}
	return errs
}

// repeated returns the values that occur more than once in a. It buckets
// the values by their top 16 bits (one counting pass, one scattering
// pass) and compares within each bucket, a handful of values: on hashes,
// which spread evenly, that is a fraction of a sort's time.
func repeated(a []uint64) map[uint64]bool {
	out := map[uint64]bool{}
	if len(a) < 1<<12 {
		sortedRepeats(slices.Clone(a), out)
		return out
	}
	start := make([]int32, 1<<16+1)
	for _, v := range a {
		start[v>>48+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	next := slices.Clone(start[:1<<16])
	bucketed := make([]uint64, len(a))
	for _, v := range a {
		bucketed[next[v>>48]] = v
		next[v>>48]++
	}
	for k := range 1 << 16 {
		bucket := bucketed[start[k]:start[k+1]]
		if len(bucket) > 32 { // values that are not spread
			sortedRepeats(bucket, out)
			continue
		}
		for i := 1; i < len(bucket); i++ {
			for _, w := range bucket[:i] {
				if w == bucket[i] {
					out[w] = true
				}
			}
		}
	}
	return out
}

// sortedRepeats sorts a and adds to out the values it holds more than once.
func sortedRepeats(a []uint64, out map[uint64]bool) {
	slices.Sort(a)
	for i := 1; i < len(a); i++ {
		if a[i] == a[i-1] {
			out[a[i]] = true
		}
	}
}

// duplicateLinks finds links with the same predecessor, successor and type
// by sorting each activity's (short) list of incoming links.
func (n *Network) duplicateLinks(s *Schedule, ends [][2]int32) []error {
	var errs []error
	var keys []uint64
	for v := range n.ids {
		in := n.in[n.inStart[v]:n.inStart[v+1]]
		if len(in) < 2 {
			continue
		}
		keys = keys[:0]
		for _, l := range in {
			keys = append(keys, uint64(l.other)<<2|uint64(l.typ))
		}
		slices.Sort(keys)
		for k := 1; k < len(keys) && len(errs) < maxReported; k++ {
			if keys[k] != keys[k-1] {
				continue
			}
			// Rare: find which relationships they are, for the message.
			pred, typ := int32(keys[k]>>2), linkType(keys[k]&3)
			var at []int
			for i, e := range ends {
				if t, _ := linkTypeOf(s.Relationships[i].Type); e == [2]int32{pred, int32(v)} && t == typ {
					at = append(at, i)
				}
			}
			r := s.Relationships[at[len(at)-1]]
			errs = append(errs, fieldErr(fmt.Sprintf("relationships[%d]", at[len(at)-1]),
				"duplicate %s link %q -> %q (also relationships[%d])", r.Type, r.Predecessor, r.Successor, at[0]))
			for k+1 < len(keys) && keys[k+1] == keys[k] {
				k++ // report a repeated link once
			}
		}
	}
	return errs
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
