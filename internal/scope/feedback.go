package scope

import (
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// removalOp reports whether op belongs to a round's removals step.
func removalOp(op schedule.Op) bool {
	switch op.Kind {
	case schedule.RemoveActivityOp, schedule.DissolveActivityOp, schedule.RemoveRelationshipOp:
		return true
	}
	return false
}

// FeedbackNotUnderstood is the note that opens a round whose feedback the
// planner could not read: the proposal is made again, and said to be.
func FeedbackNotUnderstood(feedback string) string {
	return "your feedback " + strconvQuote(feedback) + " was not understood; the proposal is unchanged"
}

func strconvQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `'`) + `"` }

// feedback plans a step of a round after a rejection with feedback: the
// previous proposal's ops of this step, changed as the feedback says, or
// replaced by the feedback's own commands. The removals step speaks for
// the feedback as a whole (its notes come first in the round).
func (b *builder) feedback(fb lang.Feedback, removals bool) {
	if removals {
		if !fb.Understood() {
			b.note("%s", FeedbackNotUnderstood(b.in.Feedback))
		} else {
			for _, u := range fb.Unknown {
				reason := NotUnderstood
				if u.Kind == lang.Unsupported {
					reason = u.Reason
				}
				b.note("%q in your feedback: %s", u.Source, reason)
			}
		}
	}
	var prev []schedule.Op
	for _, op := range b.in.Previous {
		if removalOp(op) == removals {
			prev = append(prev, op)
		}
	}
	var own []lang.Command
	for _, c := range fb.Commands {
		if c.Kind == lang.Relink || c.Kind.Removal() == removals {
			own = append(own, c)
		}
	}
	base := prev
	if len(own) > 0 && !fb.Also || len(own) == 0 && fb.Only && len(fb.Commands) > 0 {
		base = nil
	}
	for _, op := range b.modified(base, fb) {
		op.ID, op.Call = "", ""
		b.source = op.Source
		b.add(op)
	}
	touched := b.touched(b.in.Previous)
	for i, c := range own {
		if b.asking() {
			return
		}
		c.Targets = b.inProposal(touched, c.Targets)
		b.source = c.Source
		b.command(i, c, removals)
	}
}

// modified applies the feedback's changes to the previous proposal's ops.
func (b *builder) modified(ops []schedule.Op, fb lang.Feedback) []schedule.Op {
	if len(ops) == 0 {
		return nil
	}
	ops = slices.Clone(ops)
	touched := b.touched(ops)
	if len(fb.Exclude) > 0 {
		drop := b.within(touched, fb.Exclude)
		ops = slices.DeleteFunc(ops, func(op schedule.Op) bool { return b.touches(op, drop) })
	}
	if len(fb.Keep) > 0 {
		keep := b.counterparts(touched, fb.Keep)
		if keep == nil {
			keep = b.within(touched, fb.Keep)
		}
		if len(keep) > 0 && !slices.ContainsFunc(touched, func(a schedule.Activity) bool { return keep[a.ID] }) {
			// "I meant Painting Level 3": the same change on other activities.
			return b.retarget(ops, keep)
		}
		if len(keep) > 0 {
			ops = slices.DeleteFunc(ops, func(op schedule.Op) bool { return !b.touches(op, keep) })
		}
	}
	if len(fb.More) > 0 {
		ops = b.more(ops, fb.More)
	}
	for i := range ops {
		op := &ops[i]
		switch op.Kind {
		case schedule.RemoveActivityOp:
			if fb.Dissolve {
				op.Kind = schedule.DissolveActivityOp
			}
		case schedule.DissolveActivityOp:
			if fb.Delete {
				op.Kind = schedule.RemoveActivityOp
			}
		case schedule.AddRelationshipOp, schedule.UpdateRelationshipOp:
			if op.Relationship != nil && (fb.Type != "" || fb.Lag != nil) {
				r := *op.Relationship
				if fb.Type != "" {
					r.Type = fb.Type
				}
				if fb.Lag != nil {
					r.Lag = *fb.Lag
				}
				op.Relationship = &r
			}
		case schedule.AddActivityOp, schedule.UpdateActivityOp:
			if op.Activity != nil && fb.Days != nil {
				a := *op.Activity
				a.Duration = b.correctedDuration(*op, *fb.Days)
				op.Activity = &a
			}
			if op.Activity != nil && fb.Name != "" && op.Kind == schedule.AddActivityOp {
				a := *op.Activity
				a.Name = fb.Name
				op.Activity = &a
			}
		}
	}
	return ops
}

// correctedDuration is the duration an op gets from feedback naming days:
// those days, or, where the op came from a change by a number of days
// ("add 2 days to X", "X needs another 2 days"), the activity's duration
// before the round changed by them ("make it 3 days": 3 more, not 3).
func (b *builder) correctedDuration(op schedule.Op, days float64) string {
	if op.Kind != schedule.UpdateActivityOp || op.Source == "" {
		return formatDays(days)
	}
	before, ok := b.orig.Activity(op.Activity.ID)
	old, err := strconv.ParseFloat(strings.TrimSpace(before.Duration), 64)
	if !ok || err != nil {
		return formatDays(days)
	}
	for _, c := range lang.Parse(op.Source, b.options()) {
		if c.Kind == lang.SetDuration && c.DaysDelta && c.Days != nil {
			if *c.Days < 0 { // "cut 2 days off X", then "make it 3": 3 fewer
				days = -days
			}
			return formatDays(max(old+days, 0))
		}
	}
	return formatDays(days)
}

// touched is the activities ops act on: those in the schedule, and the
// ones they add.
func (b *builder) touched(ops []schedule.Op) []schedule.Activity {
	var out []schedule.Activity
	addID := func(id string) {
		if a, ok := b.s.Activity(id); ok && !slices.ContainsFunc(out, func(x schedule.Activity) bool { return x.ID == id }) {
			out = append(out, a)
		}
	}
	for _, op := range ops {
		switch {
		case op.Kind == schedule.AddActivityOp && op.Activity != nil:
			out = append(out, *op.Activity)
		case op.Relationship != nil:
			addID(op.Relationship.Predecessor)
			addID(op.Relationship.Successor)
		case op.Kind == schedule.RemoveRelationshipOp:
			if r, ok := b.s.Relationship(op.RelationshipID); ok {
				addID(r.Predecessor)
				addID(r.Successor)
			}
		default:
			addID(op.ActivityID)
		}
	}
	return out
}

// within resolves refs among the activities the proposal touches first,
// then in the whole schedule; what resolves to nothing is noted.
func (b *builder) within(touched []schedule.Activity, refs []lang.Ref) map[string]bool {
	ids := map[string]bool{}
	sub := lang.NewResolver(&schedule.Schedule{Activities: touched})
	for _, r := range refs {
		res := sub.Resolve(r)
		if res.Status == lang.Ambiguous {
			res = lang.Resolution{Status: lang.Found, Acts: res.Candidates}
		}
		if res.Status != lang.Found {
			res = b.resolver().Resolve(r)
		}
		if res.Status != lang.Found {
			b.note("%q in your feedback matches nothing the proposal changes", r.Text)
			continue
		}
		for _, a := range res.Acts {
			ids[a.ID] = true
		}
	}
	return ids
}

// touches reports whether op acts on one of ids.
func (b *builder) touches(op schedule.Op, ids map[string]bool) bool {
	switch {
	case op.Activity != nil:
		return ids[op.Activity.ID]
	case op.Relationship != nil:
		return ids[op.Relationship.Predecessor] || ids[op.Relationship.Successor]
	case op.Kind == schedule.RemoveRelationshipOp:
		r, ok := b.s.Relationship(op.RelationshipID)
		return ok && (ids[r.Predecessor] || ids[r.Successor])
	}
	return ids[op.ActivityID]
}

// retarget applies a proposal of activity removals to other activities
// ("no, I meant X"); a proposal of anything else is kept as it was.
func (b *builder) retarget(ops []schedule.Op, ids map[string]bool) []schedule.Op {
	kind, ok := removalKind(ops)
	if !ok {
		b.note("the feedback names %d other activities, but the proposal is not only deletions: it is unchanged", len(ids))
		return ops
	}
	var out []schedule.Op
	for _, a := range b.s.Activities {
		if ids[a.ID] {
			out = append(out, schedule.Op{Kind: kind, ActivityID: a.ID, Source: b.in.Feedback})
		}
	}
	return out
}

// counterparts reads feedback that names only a place ("no, level 3",
// "wing B") as the same activities on that place; nil when a reference
// names more.
func (b *builder) counterparts(touched []schedule.Activity, refs []lang.Ref) map[string]bool {
	res := b.resolver()
	ids := map[string]bool{}
	for _, r := range refs {
		place, ok := res.Place(r.Words)
		if !ok {
			return nil
		}
		for _, a := range touched {
			if c, ok := sameTrade(res, onPlace(res, b.s.Activities, place, a.ID), a); ok {
				ids[c.ID] = true
			}
		}
	}
	return ids
}

// onPlace are the activities of acts on place, but the one with id skip.
func onPlace(res *lang.Resolver, acts []schedule.Activity, place, skip string) []schedule.Activity {
	var out []schedule.Activity
	for _, c := range acts {
		if c.ID != skip && res.OnPlace(c.Name, place) {
			out = append(out, c)
		}
	}
	return out
}

// more does to other activities what a proposal of activity removals does
// ("and Hoarding removal"); a proposal of anything else is kept as it was.
func (b *builder) more(ops []schedule.Op, refs []lang.Ref) []schedule.Op {
	kind, ok := removalKind(ops)
	if !ok {
		b.note("the feedback names more activities, but the proposal is not only deletions: it is unchanged")
		return ops
	}
	for _, r := range refs {
		acts, ok := b.refActs(r, true)
		if !ok {
			continue
		}
		for _, a := range acts {
			if !slices.ContainsFunc(ops, func(op schedule.Op) bool { return op.ActivityID == a.ID }) {
				ops = append(ops, schedule.Op{Kind: kind, ActivityID: a.ID, Source: b.in.Feedback})
			}
		}
	}
	return ops
}

// inProposal reads feedback's references in the light of the proposal:
// "only delete the painting" on a level 2 proposal is Painting Level 2.
// A reference the proposal's activities answer exactly is pinned to their
// ids; any other is left to resolve against the whole schedule.
func (b *builder) inProposal(touched []schedule.Activity, refs []lang.Ref) []lang.Ref {
	if len(touched) == 0 {
		return refs
	}
	sub := lang.NewResolver(&schedule.Schedule{Activities: touched})
	out := slices.Clone(refs)
	for i, r := range out {
		if res := sub.Resolve(r); res.Status == lang.Found {
			var ids []string
			for _, a := range res.Acts {
				ids = append(ids, a.ID)
			}
			out[i].Words = strings.Join(ids, " and ")
		}
	}
	return out
}

// removalKind is the one kind of a proposal made only of activity
// deletions or only of dissolves; ok is false for anything else.
func removalKind(ops []schedule.Op) (kind schedule.OpKind, ok bool) {
	kind = ops[0].Kind
	if kind != schedule.RemoveActivityOp && kind != schedule.DissolveActivityOp {
		return kind, false
	}
	for _, op := range ops {
		if op.Kind != kind {
			return kind, false
		}
	}
	return kind, true
}
