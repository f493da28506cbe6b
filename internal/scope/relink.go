package scope

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Re-sequencing, "X should follow Y instead of Z": the removals step takes
// out the links from Z into X, the additions step adds links from Y into X
// with the type and lag of the ones removed (what this round removed comes
// in PlanInput.Removed). For groups ("fit-outs on floor 4 follow floor 2
// instead of floor 3") each removed link is re-created from the member of
// Y of the same trade.

func (b *builder) relinkRemove(c lang.Command) {
	if b.relinkToSame(c, true) {
		return
	}
	// Plan both halves on a copy first: a re-sequencing whose new links
	// would close a loop is refused whole, never half done.
	trial := &builder{s: b.s.Clone(), in: b.in, answers: b.answers, source: b.source, ctx: b.ctx}
	trial.relinkRemoveOn(c)
	if trial.asking() || len(trial.plan.Ops) == 0 {
		b.relinkRemoveOn(c)
		return
	}
	_, inverses, err := schedule.ApplyAll(b.s.Clone(), trial.plan.Ops)
	if err == nil {
		after := &builder{s: trial.s, in: b.in, answers: b.answers, source: b.source}
		after.in.Removed = append(slices.Clone(b.in.Removed), inverses...)
		after.relinkAdd("check", c)
		for _, n := range after.plan.Notes {
			if strings.HasPrefix(n, "dropped: ") {
				b.note("%q is not changed: its new links would not hold (%s)", c.Source, strings.TrimPrefix(n, "dropped: "))
				return
			}
		}
	}
	b.relinkRemoveOn(c)
}

func (b *builder) relinkRemoveOn(c lang.Command) {
	xs, ok := b.refsActs(c.To, true)
	if !ok {
		return
	}
	if len(xs) > 1 {
		if c.Instead == nil {
			b.note("%q: say what %s should stop following (\"… instead of Z\"); only the new links are added", c.Source, c.To[0].Text)
			return
		}
		zs, ok := b.refActs(*c.Instead, true)
		if !ok {
			return
		}
		links := b.links(zs, xs, "", false)
		if len(links) == 0 {
			b.note("%q: no relationships from %s to %s", c.Source, c.Instead.Text, c.To[0].Text)
		}
		for _, r := range links {
			b.add(schedule.RemoveRelationship(r.ID))
		}
		return
	}
	x := xs[0]
	about := "what " + c.To[0].Text + " should stop following"
	preds := b.predecessors(x.ID)
	var from []schedule.Activity
	if c.Instead != nil {
		zs, ok := b.refActs(*c.Instead, true)
		if !ok {
			return
		}
		from = zs
		if len(b.links(zs, xs, "", false)) == 0 {
			from = nil
			if ys, ok := b.refsActs(c.From, true); ok && len(b.links(ys, xs, "", false)) > 0 {
				b.note("%q: %s already follows %s, and %s does not precede it: nothing to change", c.Source, x.Name, names(ys), names(zs))
				return
			}
		}
	}
	if from == nil {
		ans, answered := b.answered(about)
		switch {
		case answered && noneAnswer.MatchString(strings.ToLower(ans)):
			return
		case answered && allAnswer.MatchString(strings.ToLower(ans)):
			from = preds
		case answered:
			sub := lang.NewResolver(&schedule.Schedule{Activities: preds}).Resolve(lang.Ref{Text: ans, Words: strings.ToLower(ans)})
			if sub.Status != lang.Found {
				b.ask(about, fmt.Sprintf("Your answer %q is not one of %s's predecessors (%s). Which should %s replace? Answer with one, \"all\", or \"none\" to only add the new link.", ans, x.Name, listActivities(preds, 10), c.From[0].Text))
				return
			}
			from = sub.Acts
		default:
			lead := fmt.Sprintf("%q does not precede %q.", insteadText(c), x.Name)
			if c.Instead == nil {
				lead = fmt.Sprintf("Moving %q after %s:", x.Name, c.From[0].Text)
			}
			if len(preds) == 0 {
				return // nothing to replace: the additions step links it
			}
			b.ask(about, fmt.Sprintf("%s %s follows %s. Which of them should %s replace? Answer with one, \"all\", or \"none\" to only add the new link.", lead, x.Name, listActivities(preds, 10), c.From[0].Text))
			return
		}
	}
	for _, r := range b.links(from, xs, "", false) {
		b.add(schedule.RemoveRelationship(r.ID))
	}
}

// relinkToSame reports whether the new predecessors read as the very
// ones replaced ("the west ticket hall should follow the east entrance
// instead of the east ticket hall": the east entrance took the ticket
// hall's words): nothing would change, so nothing does, and the removals
// step says so.
func (b *builder) relinkToSame(c lang.Command, say bool) bool {
	if c.Instead == nil || len(c.From) != 1 {
		return false
	}
	res := b.resolver()
	ys, zs := res.Resolve(c.From[0]), res.Resolve(*c.Instead)
	if ys.Status != lang.Found || zs.Status != lang.Found || !maps.Equal(idSet(ys.Acts), idSet(zs.Acts)) {
		return false
	}
	if say {
		b.note("%q: %q reads as %s, the very predecessor it replaces: nothing changed; name the new one (\"… should follow <activity> instead of %s\")", c.Source, c.From[0].Text, names(ys.Acts), c.Instead.Text)
	}
	return true
}

func insteadText(c lang.Command) string {
	if c.Instead == nil {
		return ""
	}
	return c.Instead.Text
}

func (b *builder) predecessors(id string) []schedule.Activity {
	var out []schedule.Activity
	for _, r := range b.s.Relationships {
		if r.Successor == id {
			if a, ok := b.s.Activity(r.Predecessor); ok && !slices.ContainsFunc(out, func(x schedule.Activity) bool { return x.ID == a.ID }) {
				out = append(out, a)
			}
		}
	}
	return out
}

func (b *builder) relinkAdd(key string, c lang.Command) {
	if b.relinkToSame(c, false) {
		return
	}
	xs, ok := b.refsActs(c.To, true)
	if !ok {
		return
	}
	if len(xs) > 1 && (len(c.To) > 1 || len(b.resolver().Split(c.To[0])) > 1) {
		// A list ("wing C partitions and ceilings"): each item from its
		// counterpart among the new predecessors.
		ys, ok := b.refsActs(c.From, true)
		if !ok {
			return
		}
		inPrev := func(schedule.Activity) bool { return true }
		prev := "any predecessor"
		if c.Instead != nil {
			zs, ok := b.refActs(*c.Instead, true)
			if !ok {
				return
			}
			set := idSet(zs)
			inPrev, prev = func(a schedule.Activity) bool { return set[a.ID] }, c.Instead.Text
			for _, x := range xs {
				if !b.removedInto(x.ID) {
					b.note("%q: %s does not follow %s: its links are not changed", c.Source, x.Name, c.Instead.Text)
				}
			}
		}
		b.relinkFrom(ys, idSet(xs), inPrev, "on "+refsText(c.From), refsText(c.To), prev)
		return
	}
	if len(xs) > 1 {
		res := b.resolver()
		to := parseGroupIn(res, c.To[0].Text)
		prev := group{}
		if c.Instead != nil {
			prev = parseGroupIn(res, c.Instead.Text).inherit(to)
		}
		b.relinkGroups(parseGroupIn(res, c.From[0].Text).inherit(to), to, prev)
		return
	}
	ys, ok := b.refsActs(c.From, true)
	if !ok {
		return
	}
	x := xs[0]
	if c.Instead != nil && len(b.links(ys, xs, "", false)) > 0 {
		if zs, ok := b.refActs(*c.Instead, true); ok && len(b.links(zs, xs, "", false)) == 0 && !b.removedInto(x.ID) {
			return // X already follows Y and never followed Z: the removals step said so
		}
	}
	var removed []schedule.Relationship
	for _, op := range b.in.Removed {
		if op.Kind == schedule.AddRelationshipOp && op.Relationship != nil && op.Relationship.Successor == x.ID {
			removed = append(removed, *op.Relationship)
		}
	}
	for _, y := range ys {
		if len(removed) == 0 || c.Type != "" || c.Lag != nil {
			typ, lag := schedule.FS, 0.0
			if c.Type != "" {
				typ = c.Type
			} else if len(removed) > 0 {
				typ = removed[0].Type
			}
			if c.Lag != nil {
				lag = *c.Lag
			} else if len(removed) > 0 {
				lag = removed[0].Lag
			}
			b.addLink(key, y, x, typ, lag)
			continue
		}
		seen := map[schedule.RelType]bool{}
		for _, r := range removed {
			if !seen[r.Type] {
				seen[r.Type] = true
				b.addLink(key, y, x, r.Type, r.Lag)
			}
		}
	}
}

// relinkGroups re-creates, from the counterparts in from, the links into
// to that this round removed from prev (or, said on its own, that exist
// now).
func (b *builder) relinkGroups(from, to, prev group) {
	inPrev := prev.memberSet(b.s.Activities)
	b.relinkFrom(from.members(b.s.Activities), to.memberSet(b.s.Activities), func(a schedule.Activity) bool { return inPrev[a.ID] || prev.matches(a) },
		from.String(), to.String(), prev.String())
}

// relinkFrom re-creates, from the counterparts among sources, the links
// into the activities of inTo that this round removed (or, with none
// removed, that exist now) from a predecessor inPrev takes.
func (b *builder) relinkFrom(sources []schedule.Activity, inTo map[string]bool, inPrev func(schedule.Activity) bool, from, to, prev string) {
	var old []schedule.Relationship
	for _, op := range b.in.Removed {
		if op.Kind == schedule.AddRelationshipOp && op.Relationship != nil {
			old = append(old, *op.Relationship)
		}
	}
	if len(old) == 0 {
		old = b.s.Relationships
	}
	names := map[string]schedule.Activity{}
	for _, a := range b.s.Activities {
		names[a.ID] = a
	}
	for _, op := range b.in.Removed { // removed activities still name ends
		if op.Kind == schedule.AddActivityOp && op.Activity != nil {
			names[op.Activity.ID] = *op.Activity
		}
	}
	found := false
	for _, r := range old {
		pred, ok := names[r.Predecessor]
		if !ok || !inTo[r.Successor] || !inPrev(pred) {
			continue
		}
		if inTo[r.Predecessor] {
			continue // the group's own logic: it stays as it is
		}
		found = true
		counterpart, ok := sameTrade(b.resolver(), sources, pred)
		if !ok {
			b.note("no counterpart of %q %s: its link to %q is not re-created", pred.Name, from, names[r.Successor].Name)
			continue
		}
		if b.linked(counterpart.ID, r.Successor, r.Type) {
			continue
		}
		b.add(schedule.AddRelationship(schedule.Relationship{
			ID:          b.relationshipID(counterpart.ID, r.Successor, string(r.Type)),
			Type:        r.Type,
			Predecessor: counterpart.ID,
			Successor:   r.Successor,
			Lag:         r.Lag,
		}))
	}
	if !found {
		b.note("no relationships from %s to %s to re-create from %s", prev, to, from)
	}
}

func refsText(refs []lang.Ref) string {
	texts := make([]string, len(refs))
	for i, r := range refs {
		texts[i] = r.Text
	}
	return strings.Join(texts, " and ")
}

func idSet(acts []schedule.Activity) map[string]bool {
	set := make(map[string]bool, len(acts))
	for _, a := range acts {
		set[a.ID] = true
	}
	return set
}

// sameTrade finds the activity among candidates whose name is a's with a
// different place.
func sameTrade(res *lang.Resolver, candidates []schedule.Activity, a schedule.Activity) (schedule.Activity, bool) {
	trade := func(name string) []string {
		return slices.DeleteFunc(res.Tokens(name), res.IsPlace)
	}
	want := trade(a.Name)
	for _, c := range candidates {
		if slices.Equal(trade(c.Name), want) {
			return c, true
		}
	}
	return schedule.Activity{}, false
}

func (b *builder) linked(pred, succ string, typ schedule.RelType) bool {
	for _, r := range b.s.Relationships {
		if r.Predecessor == pred && r.Successor == succ && r.Type == typ {
			return true
		}
	}
	return false
}

// removedInto reports whether this round's removals took out a link into id.
func (b *builder) removedInto(id string) bool {
	for _, op := range b.in.Removed {
		if op.Kind == schedule.AddRelationshipOp && op.Relationship != nil && op.Relationship.Successor == id {
			return true
		}
	}
	return false
}
