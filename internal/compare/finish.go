package compare

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// FinishMove is how far the project finish moved from A to B and why.
//
// The why is read off one driving chain: B's, from B's finish back through
// driving links (insight's rule: a link with no slack drives), when the
// finish moved later or stayed; A's when it moved earlier, since what
// pulled it in (a cut link, a shorter duration) is on the path that drove
// the old finish and may be gone from B. Along the chain each activity's
// start and finish moved by some working days between the versions; the
// difference from one event to the next is what that step added: an
// activity's own duration, a link's lag, a link that did not drive before
// (the float the path had), an activity not in the other version. The
// steps add up exactly to the finish's move.
type FinishMove struct {
	Before string `json:"before,omitempty"` // A's finish date-time, when dated
	After  string `json:"after,omitempty"`
	// Days is the move in working days of B's project calendar, positive
	// later; Direction is later, earlier or unchanged.
	Days      float64 `json:"days"`
	Direction string  `json:"direction"`
	// PathOf says whose driving chain explains it: "after" or "before".
	PathOf string     `json:"path_of"`
	Path   []PathStep `json:"path"`
	// Causes are the chain's steps that moved the finish, in path order;
	// their Days add up to Days.
	Causes []Cause `json:"causes"`
	// Text says it in one sentence.
	Text string `json:"text"`
}

// PathStep is an activity of the explaining chain, first to last.
type PathStep struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Moved is how far its early finish moved from A to B in working
	// days; nil when it is in one version only (InBoth false).
	Moved  *float64 `json:"moved,omitempty"`
	InBoth bool     `json:"in_both"`
}

// Cause is one step of the chain that moved the finish.
type Cause struct {
	// Kind is "activity" (its own duration or progress, or its being
	// added or removed), "relationship", "start" (where the chain begins
	// moved: a constraint, an actual start, the data date) or "end" (the
	// chain's end against the other version's finish).
	Kind string `json:"kind"`
	// ID is the activity's or the relationship's id; Name the activity's
	// name or the link's "Pred -> Succ".
	ID   string `json:"id"`
	Name string `json:"name"`
	// At is the id of the path's activity the step leads to: the
	// activity itself, or a link's successor.
	At string `json:"at"`
	// Days is what the step added to the finish's move (negative: pulled
	// it earlier or was absorbed by float).
	Days float64 `json:"days"`
	// Why says what changed there, e.g. "duration 12 -> 17", "added",
	// "lag 0 -> 3", "link removed (logic cut)", "had 4 d of float before".
	Why string `json:"why"`
}

// tolerance is the smallest move reported: a working minute on an 8-hour
// day is 0.002 d, so finer differences are the clock's rounding.
const tolerance = 1e-3

// version is one side with what dates its events on the common scale.
type version struct {
	s *schedule.Schedule
	r *schedule.Result
	// own dates r's offsets (nil: r.Times has the dates, or no dates).
	own *schedule.Clock
}

// scale measures both versions' events in working days of one calendar
// from one origin, so a moved start date or data date counts; without
// dates on both sides, the offsets from each day 0 are used as they are.
type scale struct {
	common *schedule.Clock
}

func (sc *scale) at(v *version, i int, f schedule.DateField) (float64, error) {
	if sc.common == nil {
		return [4][]float64{v.r.ES, v.r.EF, v.r.LS, v.r.LF}[f][i], nil
	}
	t, err := v.r.When(v.own, i, f)
	if err != nil {
		return 0, err
	}
	return sc.common.Offset(t), nil
}

func (sc *scale) finish(v *version) (float64, time.Time, error) {
	if sc.common == nil {
		return v.r.ProjectDuration, time.Time{}, nil
	}
	t, err := v.r.Finish(v.own)
	if err != nil {
		return 0, t, err
	}
	return sc.common.Offset(t), t, nil
}

// origin is the instant a version starts: its engine's start, else its
// start date; ok is false without either.
func origin(v *version) (time.Time, bool) {
	if v.r.Times != nil {
		t := v.r.Times.Start
		if v.s.StartDate != "" {
			if sd, err := schedule.ParseStart(v.s.StartDate); err == nil && sd.Before(t) {
				t = sd
			}
		}
		return t, true
	}
	if v.s.StartDate == "" {
		return time.Time{}, false
	}
	t, err := schedule.ParseStart(v.s.StartDate)
	return t, err == nil
}

// finishMove works out FinishMove (rep holds the changes it names).
func finishMove(rep *Report, before, after *schedule.Schedule, rb, ra *schedule.Result) (*FinishMove, error) {
	vb, va := &version{s: before, r: rb}, &version{s: after, r: ra}
	var err error
	if vb.own, err = clockOf(before, rb); err != nil {
		return nil, fmt.Errorf("dating %s: %w", sideName(rep.Before.Label, "the first version"), err)
	}
	if va.own, err = clockOf(after, ra); err != nil {
		return nil, fmt.Errorf("dating %s: %w", sideName(rep.After.Label, "the second version"), err)
	}
	sc := &scale{}
	ob, okB := origin(vb)
	oa, okA := origin(va)
	if okB && okA {
		o := min(ob.Unix(), oa.Unix())
		if sc.common, err = schedule.NewClock(time.Unix(o, 0).UTC().Format("2006-01-02T15:04"), after.Calendar); err != nil {
			return nil, fmt.Errorf("dating the comparison: %w", err)
		}
	}
	fb, tb, err := sc.finish(vb)
	if err != nil {
		return nil, fmt.Errorf("dating the finish of %s: %w", sideName(rep.Before.Label, "the first version"), err)
	}
	fa, ta, err := sc.finish(va)
	if err != nil {
		return nil, fmt.Errorf("dating the finish of %s: %w", sideName(rep.After.Label, "the second version"), err)
	}
	fm := &FinishMove{Days: schedule.RoundDays(round3(fa - fb)), Path: []PathStep{}, Causes: []Cause{}}
	if sc.common != nil {
		fm.Before, fm.After = dateTime(tb), dateTime(ta)
	}
	x, y, sign := va, vb, 1.0
	switch {
	case fm.Days > 0:
		fm.Direction, fm.PathOf = "later", "after"
	case fm.Days < 0:
		fm.Direction, fm.PathOf = "earlier", "before"
		x, y, sign = vb, va, -1
	default:
		fm.Days, fm.Direction, fm.PathOf = 0, "unchanged", "after"
	}
	e := &explainer{rep: rep, sc: sc, x: x, y: y, sign: sign}
	if sign < 0 {
		e.fx, e.fy = fb, fa
	} else {
		e.fx, e.fy = fa, fb
	}
	if err := e.explain(fm); err != nil {
		return nil, err
	}
	fm.Text = sentence(fm)
	return fm, nil
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// explainer walks the chain of x (the version whose path explains the
// move) against y.
type explainer struct {
	rep    *Report
	sc     *scale
	x, y   *version
	sign   float64 // +1 when x is B (after), -1 when x is A (before)
	fx, fy float64 // the finishes on the common scale
	view   *insight.View
	// changes are the activity changes by id; yLinks y's relationships by
	// their ends.
	changes map[string][]schedule.FieldChange
	yLinks  map[[2]string]int
	// onChain holds the ids of the chain's activities.
	onChain map[string]bool
}

// event is an activity's start or finish on the chain; m is how far it
// moved, x minus y, when the activity is in both (known).
type event struct {
	act   int // x's network index; -1 for the chain's start and the finish
	field schedule.DateField
	m     float64
	known bool
}

// step is what lies between one event and the next.
type step struct {
	kind string // start, activity, relationship, end
	act  int    // x's network index (activity, start)
	rel  int    // x's relationship index (relationship)
}

func (e *explainer) explain(fm *FinishMove) error {
	v, err := insight.NewOf(e.x.s, e.x.r)
	if err != nil {
		return err
	}
	e.view = v
	acts, rels := e.chain()
	if len(acts) == 0 {
		return nil
	}
	e.onChain = make(map[string]bool, len(acts))
	for _, a := range acts {
		e.onChain[e.x.r.Net.ID(a)] = true
	}
	// The events in path order, and the step that leads to each.
	events := []event{{act: -1, known: true}}
	steps := []step{{}}
	push := func(st step, act int, f schedule.DateField) error {
		ev := event{act: act, field: f}
		var err error
		if ev.m, ev.known, err = e.moved(act, f); err != nil {
			return err
		}
		events, steps = append(events, ev), append(steps, st)
		return nil
	}
	entry := schedule.EarlyStart
	if err := push(step{kind: "start", act: acts[0]}, acts[0], schedule.EarlyStart); err != nil {
		return err
	}
	for k, a := range acts {
		exit := schedule.EarlyFinish
		var next schedule.DateField
		if k+1 < len(acts) {
			t := e.x.s.Relationships[rels[k]].Type
			if t == schedule.SS || t == schedule.SF {
				exit = schedule.EarlyStart
			}
			next = schedule.EarlyStart
			if t == schedule.FF || t == schedule.SF {
				next = schedule.EarlyFinish
			}
		}
		if exit != entry {
			if err := push(step{kind: "activity", act: a}, a, exit); err != nil {
				return err
			}
		}
		if k+1 < len(acts) {
			if err := push(step{kind: "relationship", rel: rels[k]}, acts[k+1], next); err != nil {
				return err
			}
			entry = next
		}
	}
	events = append(events, event{act: -1, known: true, m: e.fx - e.fy})
	steps = append(steps, step{kind: "end", act: acts[len(acts)-1]})

	// Each known event's move less the last known one's is what the steps
	// between them added: the step itself, or the first activity between
	// them that the other version lacks (its links came with it).
	last, lacking := 0.0, -1
	for k := 1; k < len(events); k++ {
		ev := events[k]
		if !ev.known {
			if lacking < 0 {
				lacking = ev.act
			}
			continue
		}
		delta := ev.m - last
		last = ev.m
		st := steps[k]
		if lacking >= 0 {
			st, lacking = step{kind: "activity", act: lacking}, -1
		}
		if math.Abs(delta) < tolerance {
			continue
		}
		fm.Causes = append(fm.Causes, e.cause(st, e.sign*delta))
	}
	for _, a := range acts {
		id := e.x.r.Net.ID(a)
		ps := PathStep{ID: id, Name: e.view.Activity(a).Name}
		if m, known, _ := e.moved(a, schedule.EarlyFinish); known {
			d := schedule.RoundDays(round3(e.sign * m))
			ps.Moved, ps.InBoth = &d, true
		}
		fm.Path = append(fm.Path, ps)
	}
	return nil
}

// moved is how far activity a's (x's network index) event moved, x minus
// y on the common scale; known is false when y has no such activity.
func (e *explainer) moved(a int, f schedule.DateField) (float64, bool, error) {
	j, ok := e.y.r.Net.Index(e.x.r.Net.ID(a))
	if !ok {
		return 0, false, nil
	}
	tx, err := e.sc.at(e.x, a, f)
	if err != nil {
		return 0, false, err
	}
	ty, err := e.sc.at(e.y, j, f)
	if err != nil {
		return 0, false, err
	}
	return tx - ty, true, nil
}

// drivenType reports activities that are driven and never drive: a
// level-of-effort activity or a WBS summary spans others, so no chain
// runs through it.
func drivenType(a *schedule.Activity) bool {
	return a.Type == schedule.LevelOfEffort || a.Type == schedule.WBSSummary
}

// chain is x's driving chain to its finish, first activity first, and
// the links between them (rels[k] joins acts[k] and acts[k+1]). Where
// several activities finish the project, or several links drive one
// activity, it follows the one that moved most against y (one y lacks
// counts as moved most): the branch that carries the change.
func (e *explainer) chain() (acts, rels []int) {
	r, v := e.x.r, e.view
	movedMost := func(a int, f schedule.DateField) float64 {
		m, known, err := e.moved(a, f)
		if !known || err != nil {
			return math.Inf(1)
		}
		return m
	}
	cur, best := -1, math.Inf(-1)
	for k := range e.x.s.Activities {
		a := &e.x.s.Activities[k]
		i, ok := r.Net.Index(a.ID)
		if !ok || drivenType(a) || r.EF[i] < r.ProjectDuration-schedule.Epsilon {
			continue
		}
		// On a tie, the latest to start: a finish milestone after the
		// last activity ends the chain.
		if m := movedMost(i, schedule.EarlyFinish); cur < 0 || m > best || m == best && r.ES[i] > r.ES[cur] {
			cur, best = i, m
		}
	}
	if cur < 0 {
		return nil, nil
	}
	seen := map[int]bool{cur: true}
	acts = []int{cur}
	for {
		pick, pickRel, best := -1, -1, math.Inf(-1)
		for _, k := range v.Preds(cur) {
			if !v.Drives(k) {
				continue
			}
			rel := &e.x.s.Relationships[k]
			p, ok := r.Net.Index(rel.Predecessor)
			if !ok || seen[p] || drivenType(v.Activity(p)) {
				continue
			}
			from := schedule.EarlyFinish
			if rel.Type == schedule.SS || rel.Type == schedule.SF {
				from = schedule.EarlyStart
			}
			if m := movedMost(p, from); pick < 0 || m > best {
				pick, pickRel, best = p, k, m
			}
		}
		if pick < 0 {
			break
		}
		seen[pick] = true
		acts, rels = append(acts, pick), append(rels, pickRel)
		cur = pick
	}
	// Collected from the finish backwards.
	for i, j := 0, len(acts)-1; i < j; i, j = i+1, j-1 {
		acts[i], acts[j] = acts[j], acts[i]
	}
	for i, j := 0, len(rels)-1; i < j; i, j = i+1, j-1 {
		rels[i], rels[j] = rels[j], rels[i]
	}
	return acts, rels
}

// cause words one step that moved the finish by days.
func (e *explainer) cause(st step, days float64) Cause {
	days = schedule.RoundDays(round3(days))
	later := e.sign > 0 // x is B
	switch st.kind {
	case "relationship":
		rel := e.x.s.Relationships[st.rel]
		c := Cause{Kind: "relationship", ID: rel.ID, At: rel.Successor, Days: days,
			Name: e.name(rel.Predecessor) + " -" + schedule.TypeLag(rel.Type, rel.Lag) + "-> " + e.name(rel.Successor)}
		k, ok := e.otherLink(rel)
		switch {
		case !ok && later:
			c.Why = "new link"
		case !ok:
			c.Why = "link removed (logic cut)"
		default:
			old := e.y.s.Relationships[k]
			b, a := old, rel // before and after
			if !later {
				b, a = rel, old
			}
			var why []string
			if b.Type != a.Type {
				why = append(why, "type "+string(b.Type)+" -> "+string(a.Type))
			}
			if schedule.RoundDays(b.Lag) != schedule.RoundDays(a.Lag) {
				why = append(why, "lag "+days2(b.Lag)+" -> "+days2(a.Lag))
			}
			switch {
			case len(why) > 0:
				c.Why = strings.Join(why, ", ")
			case days < 0 && later:
				c.Why = fmt.Sprintf("had %s d of float before", days2(-days))
			case days > 0 && !later:
				c.Why = fmt.Sprintf("%s now starts %s d after this link allows", e.name(rel.Successor), days2(days))
			}
		}
		return c
	case "end":
		c := Cause{Kind: "end", ID: e.x.r.Net.ID(st.act), At: e.x.r.Net.ID(st.act), Name: e.view.Activity(st.act).Name, Days: days}
		if later {
			c.Why = fmt.Sprintf("the path finished %s d before the old finish", days2(-days))
		} else {
			c.Why = fmt.Sprintf("another path now drives the finish, %s d later than this one", days2(days))
		}
		return c
	}
	a := e.view.Activity(st.act)
	c := Cause{Kind: st.kind, ID: a.ID, At: a.ID, Name: a.Name, Days: days}
	if _, ok := e.y.r.Net.Index(a.ID); !ok {
		what := "added"
		if !later {
			what = "removed"
		}
		c.Why = what + " (" + orNone(strings.TrimSpace(a.Duration)) + " d)"
		return c
	}
	var why []string
	for _, f := range e.changesOf(a.ID) {
		start := f.Field == "constraint" || f.Field == "secondary_constraint" || f.Field == "actual_start" || f.Field == "start" || f.Field == "manual"
		if st.kind == "start" && !start || !scheduleFields[f.Field] {
			continue
		}
		why = append(why, f.Field+" "+orDash(f.Before)+" -> "+orDash(f.After))
	}
	if len(why) == 0 {
		for _, p := range e.rep.Project {
			if p.Field == "start_date" || p.Field == "data_date" {
				why = append(why, strings.ReplaceAll(p.Field, "_", " ")+" "+orDash(p.Before)+" -> "+orDash(p.After))
			}
		}
	}
	if len(why) == 0 && e.calendarChanged(a.Calendar) {
		why = append(why, "its calendar changed")
	}
	c.Why = strings.Join(why, ", ")
	return c
}

func orDash(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func days2(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", schedule.RoundDays(v)), "0"), ".")
}

func (e *explainer) name(id string) string {
	if i, ok := e.view.Index(id); ok && e.view.Activity(i).Name != "" {
		return e.view.Activity(i).Name
	}
	return id
}

func (e *explainer) changesOf(id string) []schedule.FieldChange {
	if e.changes == nil {
		e.changes = make(map[string][]schedule.FieldChange, len(e.rep.ActivitiesChanged))
		for _, c := range e.rep.ActivitiesChanged {
			e.changes[c.ID] = c.Changes
		}
	}
	return e.changes[id]
}

// otherLink finds y's relationship between rel's ends. y's links into
// the chain's activities are indexed once, on the first call: the chain
// is short, the schedule may not be.
func (e *explainer) otherLink(rel schedule.Relationship) (int, bool) {
	if e.yLinks == nil {
		e.yLinks = map[[2]string]int{}
		for k, r := range e.y.s.Relationships {
			if !e.onChain[r.Successor] {
				continue
			}
			key := [2]string{r.Predecessor, r.Successor}
			if _, dup := e.yLinks[key]; !dup {
				e.yLinks[key] = k
			}
		}
	}
	k, ok := e.yLinks[[2]string{rel.Predecessor, rel.Successor}]
	return k, ok
}

// calendarChanged reports whether the calendar an activity works on (""
// the project's) changed between the versions.
func (e *explainer) calendarChanged(id string) bool {
	for _, c := range e.rep.Calendars {
		if c.ID == id {
			return true
		}
	}
	return false
}
