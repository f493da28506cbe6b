package schedule

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// CompareIDs orders ids as a planner reads them: runs of digits by their
// value, so A2 comes before A10 and 1.9 before 1.10; other text by its
// bytes. Ids that differ only in leading zeros ("A01", "A1") fall back to
// their text, so the order is total.
func CompareIDs(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			da := strings.TrimLeft(a[si:i], "0")
			db := strings.TrimLeft(b[sj:j], "0")
			if c := cmp.Compare(len(da), len(db)); c != 0 {
				return c
			}
			if c := strings.Compare(da, db); c != 0 {
				return c
			}
			continue
		}
		if a[i] != b[j] {
			return cmp.Compare(a[i], b[j])
		}
		i++
		j++
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// SortByID puts activities and relationships in CompareIDs order: the
// order a stored schedule is read in, whatever order its store keeps.
func SortByID(s *Schedule) {
	slices.SortStableFunc(s.Activities, func(a, b Activity) int { return CompareIDs(a.ID, b.ID) })
	slices.SortStableFunc(s.Relationships, func(a, b Relationship) int { return CompareIDs(a.ID, b.ID) })
}

// numbered is an id split as prefix, number, and the number's written
// width when it has leading zeros (0 when it has none).
type numbered struct {
	prefix string
	n      int
	width  int
}

// splitNumbered splits an id ending in digits ("A1040", "11-SF-12",
// "0042"); ok is false for one that does not, or whose number is too long.
func splitNumbered(id string) (numbered, bool) {
	end := len(id)
	start := end
	for start > 0 && isDigit(id[start-1]) {
		start--
	}
	if start == end || end-start > 9 {
		return numbered{}, false
	}
	n, err := strconv.Atoi(id[start:end])
	if err != nil {
		return numbered{}, false
	}
	width := 0
	if id[start] == '0' && end-start > 1 {
		width = end - start
	}
	return numbered{id[:start], n, width}, true
}

func (p numbered) format(n int) string {
	digits := strconv.Itoa(n)
	if len(digits) < p.width {
		digits = strings.Repeat("0", p.width-len(digits)) + digits
	}
	return p.prefix + digits
}

// NextActivityID is a readable id for a new activity, in the schedule's own
// pattern, that sorts (CompareIDs) right after anchor: between anchor and
// the next id of its pattern when there is room (A1045 between A1040 and
// A1050, as planners number inserted work), else anchor with a point
// number (A117.1 after A117, before A118). With no anchor it follows the
// last id of the schedule's most used pattern by its usual step (A1060
// after A1050). ok is false when the ids have no numbered pattern (then a
// derived id serves).
//
// avoid are ids it must not take although the schedule no longer holds
// them (what the same change removed: an id taken back and given to other
// work would confuse the review, undo and the planner's own tool).
func NextActivityID(s *Schedule, anchor string, avoid ...string) (string, bool) {
	ids := make([]string, len(s.Activities))
	for i, a := range s.Activities {
		ids[i] = a.ID
	}
	return nextID(ids, s, anchor, avoid)
}

// PrecedingID is the id of the activity just before id in CompareIDs
// order ("" when none is): the anchor that places new work before id.
func PrecedingID(s *Schedule, id string) string {
	prev := ""
	for _, a := range s.Activities {
		if CompareIDs(a.ID, id) < 0 && (prev == "" || CompareIDs(a.ID, prev) > 0) {
			prev = a.ID
		}
	}
	return prev
}

// NextRelationshipID is NextActivityID for a new relationship, following
// the last of the relationships' pattern (R018 after R017).
func NextRelationshipID(s *Schedule, avoid ...string) (string, bool) {
	ids := make([]string, len(s.Relationships))
	for i, r := range s.Relationships {
		ids[i] = r.ID
	}
	return nextID(ids, s, "", avoid)
}

// nextID follows the pattern of ids; an activity and a relationship of s
// never share an id.
func nextID(ids []string, s *Schedule, anchor string, avoid []string) (string, bool) {
	taken := make(map[string]bool, len(s.Activities)+len(s.Relationships)+len(avoid))
	for _, id := range avoid {
		taken[id] = true
	}
	for _, a := range s.Activities {
		taken[a.ID] = true
	}
	for _, r := range s.Relationships {
		taken[r.ID] = true
	}
	free := func(id string) bool { return !taken[id] && CheckID(id) == nil }
	if _, numberedAnchor := splitNumbered(anchor); numberedAnchor && !looksDerived(anchor) {
		if id, ok := idAfter(ids, anchor, free); ok {
			return id, true
		}
	}
	// The most used pattern (prefix and width), its numbers in order.
	byPattern := map[numbered][]int{}
	for _, id := range ids {
		if p, ok := splitNumbered(id); ok {
			key := numbered{prefix: p.prefix, width: p.width}
			byPattern[key] = append(byPattern[key], p.n)
		}
	}
	var best numbered
	for key, ns := range byPattern {
		if len(ns) > len(byPattern[best]) || len(ns) == len(byPattern[best]) && key.prefix < best.prefix {
			best = key
		}
	}
	ns := byPattern[best]
	// A pattern only when most ids follow it: ids made up by earlier
	// tools (UUIDs ending in digits) are not one.
	if len(ns) == 0 || 2*len(ns) <= len(ids) {
		return "", false
	}
	slices.Sort(ns)
	step := usualStep(ns)
	for n := ns[len(ns)-1] + step; n < 1e9; n += step {
		if id := best.format(n); free(id) {
			return id, true
		}
	}
	return "", false
}

// idAfter is an id between anchor and the id that follows it in
// CompareIDs order.
func idAfter(ids []string, anchor string, free func(string) bool) (string, bool) {
	var next string
	for _, id := range ids {
		if CompareIDs(id, anchor) > 0 && (next == "" || CompareIDs(id, next) < 0) {
			next = id
		}
	}
	if p, ok := splitNumbered(anchor); ok {
		var ns []int
		for _, id := range ids {
			if q, ok := splitNumbered(id); ok && q.prefix == p.prefix {
				ns = append(ns, q.n)
			}
		}
		slices.Sort(ns)
		step := usualStep(ns)
		q, nextOK := splitNumbered(next)
		switch {
		case next == "" || (len(ns) == 0 || ns[len(ns)-1] <= p.n) && !strings.HasPrefix(next, anchor):
			// The last of its pattern: the pattern's next free number.
			for n := p.n + step; n < p.n+1000*step; n += step {
				if id := p.format(n); free(id) {
					return id, true
				}
			}
		case nextOK && step >= 2 && p.n+step/2 < q.n:
			// Half a step on, off the numbering's grid (A1045 after
			// A1040): a number on it may be a deleted activity's.
			if id := p.format(p.n + step/2); free(id) {
				return id, true
			}
		}
	}
	// A point number: before the next id when one fits, else the first
	// free one (A117.2 when A117.1 is taken: still beside its anchor).
	first := ""
	for k := 1; k < 1000; k++ {
		id := anchor + "." + strconv.Itoa(k)
		if !free(id) {
			continue
		}
		if next == "" || CompareIDs(id, next) < 0 {
			return id, true
		}
		if first == "" {
			first = id
		}
	}
	return first, first != ""
}

// looksDerived reports a UUID-shaped id (DerivedID's): its digits are no
// numbering to continue.
func looksDerived(id string) bool {
	return len(id) == 36 && id[8] == '-' && id[13] == '-' && id[18] == '-' && id[23] == '-'
}

// usualStep is the most common gap between consecutive numbers (10 for
// P6's A1000, A1010, …), 1 when there is none.
func usualStep(ns []int) int {
	count := map[int]int{}
	best := 1
	for i := 1; i < len(ns); i++ {
		if d := ns[i] - ns[i-1]; d > 0 {
			count[d]++
			if count[d] > count[best] || count[d] == count[best] && d < best {
				best = d
			}
		}
	}
	return best
}
