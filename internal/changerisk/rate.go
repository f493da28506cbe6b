// Package changerisk rates the risk of a change to a schedule for the
// person who approves it (issue 31): from the two versions and their CPM
// results it finds what a reviewer must not miss — critical or driving
// work deleted, driving logic cut (a finish that moves earlier only
// because a chain was broken), open ends created, constraints added, float
// consumed, schedule checks made worse — and grades the change low,
// medium, high or critical. It is pure: no I/O.
package changerisk

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// DissolveFeedback is the reject-with-feedback text that asks for the same
// round with its deletions made dissolves (scope reads it so; an LLM
// planner reads it with the proposal it rejects).
const DissolveFeedback = "dissolve instead"

// Limits keep a rating small enough to travel in a workflow's history
// whatever the change's size: the lists past them are counted.
const (
	maxItems  = 50 // items per reason
	maxChains = 50 // chains a logic cut names
	maxNamed  = 3  // items a reason's sentence names
	// maxReach bounds the reachability searches of the logic-cut test
	// (each is one walk of the after network).
	maxReach = 200
)

// Rate rates going from before (whose CPM result is rb) to after (ra). Its
// error says why the versions could not be read together (a result that
// is not of its schedule); a rating whose checks could not be run says
// so in a reason instead.
func Rate(before, after *schedule.Schedule, rb, ra *schedule.Result) (*schedule.RiskRating, error) {
	if before == nil || after == nil || rb == nil || ra == nil {
		return nil, fmt.Errorf("rating a change needs both versions and their CPM results")
	}
	vb, err := insight.NewOf(before, rb)
	if err != nil {
		return nil, fmt.Errorf("rating a change: the version before: %w", err)
	}
	va, err := insight.NewOf(after, ra)
	if err != nil {
		return nil, fmt.Errorf("rating a change: the version after: %w", err)
	}
	c := &change{b: vb, a: va, names: map[string]string{}}
	for _, s := range []*schedule.Schedule{after, before} {
		for _, a := range s.Activities {
			if _, ok := c.names[a.ID]; !ok {
				c.names[a.ID] = a.Name
			}
		}
	}
	c.finishChange = schedule.RoundDays(ra.ProjectDuration - rb.ProjectDuration)

	r := &schedule.RiskRating{Reasons: []schedule.RiskReason{}}
	r.Reasons = appendReason(r.Reasons, c.deletedWork())
	cut, dissolve := c.logicCut()
	r.Reasons = appendReason(r.Reasons, cut)
	if cut != nil && cut.Level == schedule.RiskCritical {
		r.FinishFromCutLogic = true
	}
	if len(dissolve) > 0 {
		// The feedback dissolves every deletion of the round; the list
		// names those that cut logic (enough of them to say which).
		r.DissolveInstead, r.DissolveFeedback = dissolve[:min(len(dissolve), maxItems)], DissolveFeedback
	}
	starts, finishes := c.openEnds()
	r.Reasons = appendReason(r.Reasons, starts)
	r.Reasons = appendReason(r.Reasons, finishes)
	r.Reasons = appendReason(r.Reasons, c.constraintsAdded())
	r.Reasons = appendReason(r.Reasons, c.floatConsumed())
	r.Reasons = append(r.Reasons, c.checksWorse()...)

	slices.SortStableFunc(r.Reasons, func(x, y schedule.RiskReason) int { return cmp.Compare(y.Level.Rank(), x.Level.Rank()) })
	r.Level = schedule.RiskLow
	if len(r.Reasons) > 0 {
		r.Level = r.Reasons[0].Level
	}
	r.Summary = summary(r)
	return r, nil
}

// Unrated is the rating of a change Rate could not rate: high, so that a
// reviewer looks at it by hand, with why.
func Unrated(err error) *schedule.RiskRating {
	text := "The change's risk could not be rated (" + err.Error() + "): review it by hand."
	return &schedule.RiskRating{Level: schedule.RiskHigh, Summary: "High risk: " + text, Reasons: []schedule.RiskReason{
		{Kind: schedule.RiskUnrated, Level: schedule.RiskHigh, Text: text, Items: []schedule.RiskItem{}},
	}}
}

// summary is the rating in a sentence: its level and its worst reason.
func summary(r *schedule.RiskRating) string {
	if len(r.Reasons) == 0 {
		return "Low risk: no critical or driving work deleted, no logic cut, no open ends, no constraints added, no float consumed, no check worse."
	}
	s := capital(string(r.Level)) + " risk: " + r.Reasons[0].Text
	if n := len(r.Reasons) - 1; n > 0 {
		s += fmt.Sprintf(" (and %d more %s)", n, plural(n, "reason", "reasons"))
	}
	if len(r.DissolveInstead) > 0 {
		s += " Alternative: dissolve " + itemList(r.DissolveInstead, maxNamed, 0) + " instead, keeping the logic through " +
			plural(len(r.DissolveInstead), "it", "them") + ` (reject with feedback "` + r.DissolveFeedback + `").`
	}
	return s
}

func appendReason(rs []schedule.RiskReason, r *schedule.RiskReason) []schedule.RiskReason {
	if r == nil {
		return rs
	}
	return append(rs, *r)
}

// change is the two versions being compared.
type change struct {
	b, a         *insight.View
	names        map[string]string // every activity's name, after's first
	finishChange float64           // working days, after - before
	driversOf    map[string][]driver
}

func (c *change) item(id string) schedule.RiskItem {
	return schedule.RiskItem{ID: id, Name: c.names[id]}
}

// removed lists before's activities (network indexes in before) that
// after does not have, in before's order.
func (c *change) removed() []int {
	var out []int
	for _, a := range c.b.S.Activities {
		if _, ok := c.a.Index(a.ID); !ok {
			if i, ok := c.b.Index(a.ID); ok {
				out = append(out, i)
			}
		}
	}
	return out
}

// deletedWork: critical work deleted (high), or work that drove another
// activity's start (medium).
func (c *change) deletedWork() *schedule.RiskReason {
	var critical, driving []schedule.RiskItem
	for _, i := range c.removed() {
		id := c.b.R.Net.ID(i)
		switch {
		case c.b.R.Critical(i):
			critical = append(critical, c.item(id))
		case slices.ContainsFunc(c.b.Succs(i), c.b.Drives):
			driving = append(driving, c.item(id))
		}
	}
	switch {
	case len(critical) > 0:
		text := "Critical work deleted: " + itemList(critical, maxNamed, 0) + "."
		if len(driving) > 0 {
			text += " Driving work deleted too: " + itemList(driving, maxNamed, 0) + "."
		}
		return reason(schedule.RiskCriticalDeleted, schedule.RiskHigh, text, append(critical, driving...))
	case len(driving) > 0:
		return reason(schedule.RiskCriticalDeleted, schedule.RiskMedium,
			"Driving work deleted (not critical): "+itemList(driving, maxNamed, 0)+" held the start of the work after "+plural(len(driving), "it", "them")+".", driving)
	}
	return nil
}

// logicCut finds the driving chains the change broke: a link that drove a
// surviving activity is gone (removed, or deleted with the activity at its
// other end), and the surviving activity that drove it, directly or
// through deleted activities, no longer reaches it. A cut that drove the
// project finish while the finish moves earlier is critical: the finish is
// earlier only because logic was cut; any other is high. dissolve lists
// the deleted activities the cut chains ran through.
func (c *change) logicCut() (r *schedule.RiskReason, dissolve []schedule.RiskItem) {
	kept := map[schedule.LinkKey]int{}
	for _, rel := range c.a.S.Relationships {
		kept[schedule.LinkKeyOf(rel)]++
	}
	var chains []schedule.RiskChain
	reach := map[int][]bool{} // after's forward reach of a surviving activity, by its index in after
	omitted := 0
	seen := map[[2]string]bool{}
	for k, rel := range c.b.S.Relationships {
		key := schedule.LinkKeyOf(rel)
		if kept[key] > 0 {
			kept[key]--
			continue
		}
		to, ok := c.a.Index(rel.Successor)
		if !ok || !c.b.Drives(k) {
			continue
		}
		toB, _ := c.b.Index(rel.Successor)
		for _, from := range c.drivers(rel.Predecessor) {
			f, _ := c.a.Index(from.id)
			if seen[[2]string{from.id, rel.Successor}] {
				continue
			}
			seen[[2]string{from.id, rel.Successor}] = true
			if _, done := reach[f]; !done && len(reach) >= maxReach {
				omitted++ // too many to search: not claimed either way
				continue
			}
			if reach[f] == nil {
				reach[f] = c.forward(f)
			}
			if reach[f][to] {
				continue // the logic goes on another way (a dissolve, a relink through others)
			}
			fromB, _ := c.b.Index(from.id)
			ch := schedule.RiskChain{From: c.item(from.id), To: c.item(rel.Successor),
				Critical: c.b.R.Critical(fromB) && c.b.R.Critical(toB)}
			for _, v := range from.via {
				ch.Via = append(ch.Via, c.item(v))
			}
			ch.ViaOmitted = from.viaOmitted
			chains = append(chains, ch)
		}
	}
	if len(chains) == 0 {
		return nil, nil
	}
	critical := slices.ContainsFunc(chains, func(ch schedule.RiskChain) bool { return ch.Critical })
	level := schedule.RiskHigh
	var b strings.Builder
	b.WriteString("Logic cut: ")
	for i, ch := range chains[:min(len(chains), maxNamed)] {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(chainText(ch))
	}
	if n := len(chains) - maxNamed + omitted; n > 0 {
		fmt.Fprintf(&b, "; and %d more %s", n, plural(n, "chain", "chains"))
	}
	b.WriteString(".")
	if critical && c.finishChange < 0 {
		level = schedule.RiskCritical
		fmt.Fprintf(&b, " The finish moves earlier by %s only because logic was cut.", workingDays(-c.finishChange))
	} else {
		b.WriteString(" The work after the cut lost its driving predecessor and is no longer held by it.")
	}
	var items []schedule.RiskItem
	seenItem := map[string]bool{}
	add := func(it schedule.RiskItem) {
		if !seenItem[it.ID] {
			seenItem[it.ID] = true
			items = append(items, it)
		}
	}
	for _, ch := range chains {
		add(ch.From)
		add(ch.To)
		for _, v := range ch.Via {
			if !slices.ContainsFunc(dissolve, func(d schedule.RiskItem) bool { return d.ID == v.ID }) {
				dissolve = append(dissolve, v)
			}
		}
	}
	r = reason(schedule.RiskLogicCut, level, b.String(), items)
	r.Chains = chains[:min(len(chains), maxChains)]
	r.Omitted += len(chains) - len(r.Chains) + omitted
	return r, dissolve
}

// chainText is "A (A1) no longer drives C (C1) (through B (B1), deleted)".
func chainText(ch schedule.RiskChain) string {
	s := itemText(ch.From) + " no longer drives " + itemText(ch.To)
	if len(ch.Via) > 0 {
		s += " (through " + itemList(ch.Via, maxVia, ch.ViaOmitted) + ", deleted)"
	}
	return s
}

// driver is a surviving activity that drove a link's predecessor: the
// predecessor itself, or one found back through deleted activities (via,
// nearest the driver first, at most maxVia of them; viaOmitted counts the
// rest).
type driver struct {
	id         string
	via        []string
	viaOmitted int
}

// maxVia is how many deleted activities a chain names between its ends.
const maxVia = 8

// drivers finds, for a link's predecessor pred in before, the surviving
// activities its start hung on: pred when it survives; otherwise the
// surviving activities that drove it through driving links over deleted
// activities only (none when the deleted chain began with nothing
// driving it). Each deleted activity is walked once per pred, and each
// pred once.
func (c *change) drivers(pred string) []driver {
	if _, ok := c.a.Index(pred); ok {
		return []driver{{id: pred}}
	}
	if d, ok := c.driversOf[pred]; ok {
		return d
	}
	start, ok := c.b.Index(pred)
	if !ok {
		return nil
	}
	var out []driver
	// toward[j] is the deleted activity j's driving link leads to on the
	// way to start: the chain from a driver is read back along it.
	toward := map[int]int{start: -1}
	stack := []int{start}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range c.b.Preds(i) {
			if !c.b.Drives(k) {
				continue
			}
			p := c.b.S.Relationships[k].Predecessor
			if _, ok := c.a.Index(p); ok {
				if !slices.ContainsFunc(out, func(d driver) bool { return d.id == p }) {
					d := driver{id: p}
					for j := i; j >= 0; j = toward[j] {
						if len(d.via) < maxVia {
							d.via = append(d.via, c.b.R.Net.ID(j))
						} else {
							d.viaOmitted++
						}
					}
					out = append(out, d)
				}
				continue
			}
			j, ok := c.b.Index(p)
			if _, seen := toward[j]; !ok || seen {
				continue
			}
			toward[j] = i
			stack = append(stack, j)
		}
	}
	if c.driversOf == nil {
		c.driversOf = map[string][]driver{}
	}
	c.driversOf[pred] = out
	return out
}

// forward marks every activity of after reachable from f by links.
func (c *change) forward(f int) []bool {
	seen := make([]bool, c.a.R.Net.Len())
	seen[f] = true
	stack := []int{f}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range c.a.Succs(i) {
			s, ok := c.a.Index(c.a.S.Relationships[k].Successor)
			if ok && !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

// openEnds: activities the change leaves without a predecessor (starts)
// or a successor (finishes) that had one before, or that it adds without
// one — the project's own start and finish excused (insight.ProjectEnds).
func (c *change) openEnds() (starts, finishes *schedule.RiskReason) {
	start, finish := insight.ProjectEnds(c.a)
	var noPred, noSucc []schedule.RiskItem
	for _, a := range c.a.S.Activities {
		j, ok := c.a.Index(a.ID)
		if !ok {
			continue
		}
		i, existed := c.b.Index(a.ID)
		if len(c.a.Preds(j)) == 0 && a.ID != start && (!existed || len(c.b.Preds(i)) > 0) {
			noPred = append(noPred, c.item(a.ID))
		}
		if len(c.a.Succs(j)) == 0 && a.ID != finish && (!existed || len(c.b.Succs(i)) > 0) {
			noSucc = append(noSucc, c.item(a.ID))
		}
	}
	if len(noPred) > 0 {
		starts = reason(schedule.RiskOpenEnds, schedule.RiskMedium,
			"Open ends: "+itemList(noPred, maxNamed, 0)+" "+plural(len(noPred), "has", "have")+" no predecessor now: "+
				plural(len(noPred), "its start hangs", "their starts hang")+" on nothing but the project start.", noPred)
	}
	if len(noSucc) > 0 {
		finishes = reason(schedule.RiskOpenEnds, schedule.RiskMedium,
			"Open ends: "+itemList(noSucc, maxNamed, 0)+" "+plural(len(noSucc), "has", "have")+" no successor: "+
				plural(len(noSucc), "a delay to it moves", "delays to them move")+" nothing, so the schedule cannot show its effect.", noSucc)
	}
	return starts, finishes
}

// constraintsAdded: date constraints the change adds or changes (a date
// that overrides the logic).
func (c *change) constraintsAdded() *schedule.RiskReason {
	var items []schedule.RiskItem
	var said []string
	for _, a := range c.a.S.Activities {
		var old *schedule.Activity
		if i, ok := c.b.Index(a.ID); ok {
			old = c.b.Activity(i)
		}
		for _, k := range []struct{ now, was *schedule.Constraint }{
			{a.Constraint, constraintOf(old, false)}, {a.SecondaryConstraint, constraintOf(old, true)},
		} {
			if k.now == nil || k.was != nil && *k.was == *k.now {
				continue
			}
			if len(items) == 0 || items[len(items)-1].ID != a.ID {
				items = append(items, c.item(a.ID))
			}
			if len(said) < maxNamed {
				txt := itemText(c.item(a.ID)) + " " + strings.ReplaceAll(string(k.now.Type), "_", " ")
				if k.now.Date != "" {
					txt += " " + k.now.Date
				}
				said = append(said, txt)
			}
		}
	}
	if len(items) == 0 {
		return nil
	}
	text := "Constraints added: " + strings.Join(said, ", ")
	if n := len(items) - len(said); n > 0 {
		text += fmt.Sprintf(" and %d more", n)
	}
	return reason(schedule.RiskConstraintsAdded, schedule.RiskMedium, text+": a date that overrides the logic.", items)
}

func constraintOf(a *schedule.Activity, secondary bool) *schedule.Constraint {
	switch {
	case a == nil:
		return nil
	case secondary:
		return a.SecondaryConstraint
	}
	return a.Constraint
}

// floatConsumed: the finish moves later (high), the critical path grows
// (medium), or total float shrinks on activities in both versions (low).
func (c *change) floatConsumed() *schedule.RiskReason {
	type eroded struct {
		id          string
		was, is, by float64
	}
	var lost []eroded
	var became []schedule.RiskItem
	for _, a := range c.a.S.Activities {
		j, ok := c.a.Index(a.ID)
		i, existed := c.b.Index(a.ID)
		if !ok || !existed {
			continue
		}
		if c.a.R.Critical(j) && !c.b.R.Critical(i) {
			became = append(became, c.item(a.ID))
		}
		if was, is := c.b.R.TotalFloat[i], c.a.R.TotalFloat[j]; is < was-schedule.Epsilon {
			lost = append(lost, eroded{a.ID, was, is, was - is})
		}
	}
	later := c.finishChange > 0
	if !later && len(became) == 0 && len(lost) == 0 {
		return nil
	}
	slices.SortStableFunc(lost, func(x, y eroded) int { return cmp.Compare(y.by, x.by) })
	var parts []string
	level := schedule.RiskLow
	if later {
		level = schedule.RiskHigh
		parts = append(parts, "the finish moves later by "+workingDays(c.finishChange))
	}
	if len(became) > 0 {
		if level.Rank() < schedule.RiskMedium.Rank() {
			level = schedule.RiskMedium
		}
		parts = append(parts, "the critical path grows: "+itemList(became, maxNamed, 0)+" "+plural(len(became), "becomes", "become")+" critical")
	}
	items := slices.Clone(became)
	if len(lost) > 0 {
		var most []string
		for _, e := range lost[:min(len(lost), maxNamed)] {
			most = append(most, fmt.Sprintf("%s %s -> %s", itemText(c.item(e.id)), days(e.was), days(e.is)))
		}
		txt := fmt.Sprintf("total float eroded on %d %s, most on %s", len(lost), plural(len(lost), "activity", "activities"), strings.Join(most, ", "))
		parts = append(parts, txt)
		for _, e := range lost {
			if !slices.ContainsFunc(items, func(it schedule.RiskItem) bool { return it.ID == e.id }) {
				items = append(items, c.item(e.id))
			}
		}
	}
	return reason(schedule.RiskFloatConsumed, level, "Float consumed: "+strings.Join(parts, "; ")+".", items)
}

// checksWorse: each schedule check (insight's) the change makes worse,
// with its new offenders; medium when it now fails, low when it fails
// already or still passes with more offenders.
func (c *change) checksWorse() []schedule.RiskReason {
	var results [2][]insight.CheckResult
	for i, v := range []*insight.View{c.b, c.a} {
		res, err := insight.RunChecks(v, insight.DefaultThresholds())
		if err != nil {
			return []schedule.RiskReason{*reason(schedule.RiskCheckWorse, schedule.RiskMedium,
				"The schedule checks could not be compared: "+err.Error()+".", nil)}
		}
		results[i] = res
	}
	prev := map[string]insight.CheckResult{}
	for _, r := range results[0] {
		prev[r.ID] = r
	}
	var out []schedule.RiskReason
	for _, w := range insight.Worse(results[0], results[1]) {
		was, had := prev[w.ID]
		level := schedule.RiskLow
		state := "still passes"
		if !w.Passed {
			state = "fails"
			if !had || was.Passed {
				level, state = schedule.RiskMedium, "now fails"
			}
		}
		unit := cmp.Or(w.Unit, "offenders")
		text := fmt.Sprintf("Check worse: %s %s, %d -> %d %s (threshold %s)", w.Name, state, was.Count, w.Count, unit, w.Threshold)
		fresh := insight.NewOffenders(was, w)
		names := map[string]string{}
		for i, id := range w.Offenders {
			if i < len(w.OffenderNames) {
				names[id] = w.OffenderNames[i]
			}
		}
		items := make([]schedule.RiskItem, 0, len(fresh))
		for _, id := range fresh {
			items = append(items, schedule.RiskItem{ID: id, Name: names[id]})
		}
		if len(items) > 0 {
			text += "; new: " + itemList(items, maxNamed, 0)
		}
		r := reason(schedule.RiskCheckWorse, level, text+".", items)
		r.Check = w.ID
		out = append(out, *r)
	}
	return out
}

// reason builds a reason, its items capped at maxItems (the rest counted).
func reason(kind string, level schedule.RiskLevel, text string, items []schedule.RiskItem) *schedule.RiskReason {
	r := &schedule.RiskReason{Kind: kind, Level: level, Text: text, Items: []schedule.RiskItem{}}
	if len(items) > maxItems {
		r.Omitted = len(items) - maxItems
		items = items[:maxItems]
	}
	r.Items = append(r.Items, items...)
	return r
}

// itemText is "Name (ID)", or the id alone when the name says no more.
func itemText(it schedule.RiskItem) string {
	if it.Name == "" || it.Name == it.ID {
		return it.ID
	}
	return it.Name + " (" + it.ID + ")"
}

// itemList names up to n items, "and k more" for the rest (plus extra
// counted elsewhere).
func itemList(items []schedule.RiskItem, n, extra int) string {
	var parts []string
	for _, it := range items[:min(n, len(items))] {
		parts = append(parts, itemText(it))
	}
	s := strings.Join(parts, ", ")
	if k := len(items) - min(n, len(items)) + extra; k > 0 {
		s += fmt.Sprintf(" and %d more", k)
	}
	return s
}

func days(v float64) string { return strconv.FormatFloat(schedule.RoundDays(v), 'f', -1, 64) }

func workingDays(v float64) string {
	if v == 1 {
		return "1 working day"
	}
	return days(v) + " working days"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
