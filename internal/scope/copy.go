package scope

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// copyPlace copies the activities on one place as a new place ("add a
// level 5 like level 4", "copy span 3 as span 5"): each activity renamed
// (Level 4 → Level 5), with a new id in the schedule's pattern after the
// original's, and the logic among them copied. The copy follows the
// original as the original follows the place before it (Level 4 follows
// Level 3 by its links from Level 3; the same links go from Level 4 to
// Level 5), or, where no place leads into it, the copy's first activities
// follow the original's last ones. What the original is tied to outside
// its kind of place (the roof after the top floor, a pier cap before a
// span) the copy is tied to as well. A note says all of it.
func (b *builder) copyPlace(key string, c lang.Command) {
	res := b.resolver()
	to, ok := res.Place(c.Name)
	if !ok {
		// "another level": the next one of its kind.
		if to, ok = b.nextPlace(res, c.Name); ok {
			b.note("%q: the new place is %s, the next after the schedule's last", c.Source, res.Label(to))
		}
	}
	if !ok && slices.Contains(res.PlaceKinds(), strings.ToLower(strings.TrimSpace(c.Name))) {
		// A kind with no next place ("another wing" where wings are
		// named by compass points): which one is asked.
		kind := strings.ToLower(strings.TrimSpace(c.Name))
		about := "the new " + kind + " in " + c.Source
		ans, answered := b.answered(about)
		if answered && noneAnswer.MatchString(strings.ToLower(ans)) {
			b.note("%q: left out, as you answered %q", c.Source, ans)
			return
		}
		if to, ok = res.Place(ans); answered && !ok {
			to, ok = res.Place(ans + " " + kind) // "west"
		}
		if !answered || !ok || kindOf(to) != kind {
			b.ask(about, fmt.Sprintf("Which %s is the new one? The schedule has %s. Answer with its name, or \"none\".", kind, placeExamples(b.s, kind)))
			return
		}
	}
	if !ok {
		b.note("%q: %q is not a place this schedule's names use (like %s): nothing copied", c.Source, c.Name, placeExamples(b.s, ""))
		return
	}
	about := "what " + c.Name + " copies"
	from, ok := res.Place(c.Targets[0].Words)
	if ans, answered := b.answered(about); answered {
		if noneAnswer.MatchString(strings.ToLower(ans)) {
			b.note("%q: left out, as you answered %q", c.Source, ans)
			return
		}
		from, ok = res.Place(ans)
	}
	var members []schedule.Activity
	if ok {
		for _, a := range b.s.Activities {
			if res.OnPlace(a.Name, from) {
				members = append(members, a)
			}
		}
	}
	if !ok || len(members) == 0 || from == to {
		said := c.Targets[0].Text
		if ans, answered := b.answered(about); answered {
			said = ans
		}
		b.ask(about, fmt.Sprintf("Which place should %s copy? %q names no place with activities. Answer like %s, or \"none\".", res.Label(to), said, placeExamples(b.s, kindOf(to))))
		return
	}
	if kindOf(from) != kindOf(to) {
		b.note("%q: %s and %s are different kinds of place: nothing copied; say \"copy %s as %s …\"", c.Source, res.Label(from), res.Label(to), strings.ToLower(res.Label(from)), kindOf(from))
		return
	}
	var there []schedule.Activity
	for _, a := range b.s.Activities {
		if res.OnPlace(a.Name, to) {
			there = append(there, a)
		}
	}
	if len(there) > 0 {
		b.note("%q: %s has activities already (%s): nothing copied", c.Source, res.Label(to), listActivities(there, 10))
		return
	}
	names := make([]string, len(members))
	for i, a := range members {
		n, ok := res.RenamePlace(a.Name, from, to)
		if !ok {
			b.note("%q: %q does not write %s in a way a copy can rename: nothing copied; add %s's activities by name", c.Source, a.Name, res.Label(from), res.Label(to))
			return
		}
		names[i] = n
	}
	// lead is the place the copy comes after: the one just before it when
	// there is one ("level 5 like level 2" comes after Level 4), else the
	// original.
	lead := from
	if before, ok := shiftPlace(to, -1); ok {
		for _, a := range b.s.Activities {
			if res.OnPlace(a.Name, before) {
				lead = before
				break
			}
		}
	}
	// The activities, in the original's order, each after the one before,
	// their ids after lead's.
	copyOf := map[string]schedule.Activity{}
	var prev schedule.Activity
	for _, a := range b.s.Activities {
		if res.OnPlace(a.Name, lead) && (prev.ID == "" || schedule.CompareIDs(a.ID, prev.ID) > 0) {
			prev = a
		}
	}
	for i, a := range members {
		// The work as planned: no progress, dates, constraints or
		// baseline of the original's; its own codes and assignments.
		n := schedule.Activity{Name: names[i], Description: a.Description, Duration: a.Duration, Type: a.Type, Calendar: a.Calendar,
			WBS: a.WBS, Codes: maps.Clone(a.Codes), Assignments: slices.Clone(a.Assignments)}
		added, ok := b.addNew(n, []schedule.Activity{prev}, nil, key, names[i])
		if !ok {
			return
		}
		copyOf[a.ID] = added
		prev = added
	}
	inFrom := func(id string) bool { _, ok := copyOf[id]; return ok }
	byID := map[string]schedule.Activity{}
	for _, a := range b.s.Activities {
		byID[a.ID] = a
	}
	ofKind := func(id string) bool { return slices.Contains(placeKindsOf(res, byID[id].Name), kindOf(from)) }
	link := func(pred, succ string, r schedule.Relationship) {
		b.add(schedule.AddRelationship(schedule.Relationship{ID: b.relationshipID(key, pred, succ, string(r.Type)), Type: r.Type, Predecessor: pred, Successor: succ, Lag: r.Lag}))
	}
	var inside, chain, outside int
	var before string // the place the original follows
	for _, r := range slices.Clone(b.s.Relationships) {
		p, s := inFrom(r.Predecessor), inFrom(r.Successor)
		switch {
		case p && s:
			link(copyOf[r.Predecessor].ID, copyOf[r.Successor].ID, r)
			inside++
		case s && ofKind(r.Predecessor):
			// From another place of the kind (the one before): the same
			// link from the place as far from the copy, when there is one.
			pred := byID[r.Predecessor]
			q := placeOfKind(res, pred.Name, kindOf(from))
			d, ok := placeDistance(from, q)
			if !ok {
				continue
			}
			there, ok := shiftPlace(to, d)
			if !ok {
				continue
			}
			want, ok := res.RenamePlace(pred.Name, q, there)
			if !ok {
				continue
			}
			if counterpart, ok := b.byName(want); ok {
				link(counterpart.ID, copyOf[r.Successor].ID, r)
				chain++
				before = q
			}
		case s:
			link(r.Predecessor, copyOf[r.Successor].ID, r)
			outside++
		case p && !ofKind(r.Successor):
			link(copyOf[r.Predecessor].ID, r.Successor, r)
			outside++
		}
	}
	if chain == 0 {
		// No place leads into the original: the copy starts when it ends.
		for _, first := range ends(b.s, members, true) {
			for _, last := range ends(b.s, members, false) {
				link(last.ID, copyOf[first.ID].ID, schedule.Relationship{Type: schedule.FS})
				chain++
			}
		}
	}
	var made []schedule.Activity
	for _, a := range members {
		made = append(made, copyOf[a.ID])
	}
	how := fmt.Sprintf("its first activities follow %s's last ones (%s)", res.Label(from), linkCount(chain))
	if before != "" {
		how = fmt.Sprintf("it follows %s as %s follows %s (%s)", res.Label(lead), res.Label(from), res.Label(before), linkCount(chain))
	}
	b.note("%s is a copy of %s: %d activities (%s) with the %s among them; %s; and %s to and from the rest of the schedule as %s has them. Durations are %s's; no progress, dates, constraints or baseline are copied",
		res.Label(to), res.Label(from), len(made), listActivities(made, 30), linkCount(inside), how, linkCount(outside), res.Label(from), res.Label(from))
}

// nextPlace is the place after the last of a kind the schedule's names
// use ("level" → level_5 where Level 4 is the top), for a copy that names
// its kind alone.
func (b *builder) nextPlace(res *lang.Resolver, kind string) (string, bool) {
	kind = strings.ToLower(strings.TrimSpace(kind))
	if lexicon.IsLevelWord(kind) {
		kind = "level"
	}
	last, found := "", false
	for _, a := range b.s.Activities {
		for _, p := range res.PlacesOf(a.Name) {
			if kindOf(p) != kind || strings.HasSuffix(p, "_*") {
				continue
			}
			n, ok := placeOrdinal(p)
			m, _ := placeOrdinal(last)
			if ok && (!found || n > m) {
				last, found = p, true
			}
		}
	}
	if !found {
		return "", false
	}
	return shiftPlace(last, 1)
}

// ends are the first activities of a group (none of its members precedes
// them), or its last (they precede none of its members).
func ends(s *schedule.Schedule, members []schedule.Activity, first bool) []schedule.Activity {
	in := map[string]bool{}
	for _, m := range members {
		in[m.ID] = true
	}
	linked := map[string]bool{}
	for _, r := range s.Relationships {
		if in[r.Predecessor] && in[r.Successor] {
			if first {
				linked[r.Successor] = true
			} else {
				linked[r.Predecessor] = true
			}
		}
	}
	var out []schedule.Activity
	for _, m := range members {
		if !linked[m.ID] {
			out = append(out, m)
		}
	}
	return out
}

// counterpartPairs pairs each of to with the activity of from that does
// the same work on another place (Drywall board Level 2 for Drywall board
// Level 4); ok only when every one of to has one and both are groups.
func counterpartPairs(res *lang.Resolver, from, to []schedule.Activity) ([][2]schedule.Activity, bool) {
	if len(from) < 2 || len(to) < 2 {
		return nil, false
	}
	var out [][2]schedule.Activity
	for _, t := range to {
		f, ok := sameTrade(res, from, t)
		if !ok || f.ID == t.ID {
			return nil, false
		}
		out = append(out, [2]schedule.Activity{f, t})
	}
	return out, true
}

// wholePlaces reports whether every ref names a place and nothing else
// ("span 1", "wing B").
func (b *builder) wholePlaces(refs []lang.Ref) bool {
	for _, r := range refs {
		if _, ok := b.resolver().Place(r.Words); !ok {
			return false
		}
	}
	return len(refs) > 0
}

func linkCount(n int) string {
	if n == 1 {
		return "1 link"
	}
	return strconv.Itoa(n) + " links"
}

// byName is the activity named name exactly.
func (b *builder) byName(name string) (schedule.Activity, bool) {
	for _, a := range b.s.Activities {
		if a.Name == name {
			return a, true
		}
	}
	return schedule.Activity{}, false
}

// placeDistance is how many places q is after p, both of one kind and
// numbered or lettered alike ("level 3" is 1 before "level 4").
func placeDistance(p, q string) (int, bool) {
	a, ok1 := placeOrdinal(p)
	b, ok2 := placeOrdinal(q)
	return b - a, ok1 && ok2 && kindOf(p) == kindOf(q)
}

// shiftPlace is the place d after p ("level 4" and -1: "level 3").
func shiftPlace(p string, d int) (string, bool) {
	n, ok := placeOrdinal(p)
	if !ok || n+d < 0 {
		return "", false
	}
	val := strconv.Itoa(n + d)
	if v := strings.TrimPrefix(p, kindOf(p)+"_"); len(v) == 1 && v[0] >= 'a' && v[0] <= 'z' {
		if n+d >= 26 {
			return "", false
		}
		val = string(rune('a' + n + d))
	}
	return kindOf(p) + "_" + val, true
}

// placeOrdinal is a place's number, or its letter's place in the
// alphabet from 0.
func placeOrdinal(p string) (int, bool) {
	v := strings.TrimPrefix(p, kindOf(p)+"_")
	if len(v) == 1 && v[0] >= 'a' && v[0] <= 'z' {
		return int(v[0] - 'a'), true
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

func kindOf(place string) string {
	if i := strings.LastIndexByte(place, '_'); i > 0 {
		return place[:i]
	}
	return place
}

// placeKindsOf are the kinds of place a name is on: a kind named with
// no value ("Mobilise spread crews") is on none of its places.
func placeKindsOf(res *lang.Resolver, name string) []string {
	var out []string
	for _, p := range res.PlacesOf(name) {
		if !strings.HasSuffix(p, "_*") {
			out = append(out, kindOf(p))
		}
	}
	return out
}

// placeOfKind is the place of kind a name is on, "" for none.
func placeOfKind(res *lang.Resolver, name, kind string) string {
	for _, p := range res.PlacesOf(name) {
		if kindOf(p) == kind && !strings.HasSuffix(p, "_*") {
			return p
		}
	}
	return ""
}

// placeExamples names a few of the schedule's places (of kind, when
// given and used), for a note or a question.
func placeExamples(s *schedule.Schedule, kind string) string {
	res := lang.NewResolver(s)
	used := false
	for _, a := range s.Activities {
		used = used || slices.ContainsFunc(res.PlacesOf(a.Name), func(p string) bool { return kindOf(p) == kind })
	}
	var out []string
	for _, a := range s.Activities {
		for _, p := range res.PlacesOf(a.Name) {
			if used && kindOf(p) != kind {
				continue
			}
			if l := "\"" + strings.ToLower(lang.PlaceLabel(p)) + "\""; !strings.HasSuffix(p, "_*") && !slices.Contains(out, l) && len(out) < 3 {
				out = append(out, l)
			}
		}
	}
	if len(out) == 0 {
		return "\"level 2\""
	}
	return strings.Join(out, ", ")
}
