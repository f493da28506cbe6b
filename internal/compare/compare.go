// Package compare compares two versions of a schedule as a planner reads a
// monthly update: what changed (activities, logic, calendars, the data
// date), how far the project finish moved and which changes on the driving
// path moved it, which activities became or stopped being critical, and
// where float eroded. It is pure: the schedules come in computed, the
// report goes out as data (JSON), text or an HTML page.
//
// Activities are matched by id only. Two exports of one programme whose
// tools numbered the activities differently (MS Project UIDs renumbered)
// compare as everything removed and everything added: guessing a match by
// name would report changes nobody made.
package compare

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Report is the comparison of a schedule before (A) and after (B). Its
// JSON field names are a stable contract; lists are [] when empty. Every
// list is complete; the text and HTML forms show the first few of each.
type Report struct {
	Before Side `json:"before"`
	After  Side `json:"after"`
	// MatchedBy is how activities were paired: always "id".
	MatchedBy string `json:"matched_by"`
	// Project lists changes to the schedule's own fields: name,
	// start_date, data_date and the scheduling options.
	Project   []schedule.FieldChange `json:"project"`
	Calendars []CalendarChange       `json:"calendars"`
	// Activities added and changed are in B's order, removed ones in A's.
	ActivitiesAdded   []schedule.ComparedActivity `json:"activities_added"`
	ActivitiesRemoved []schedule.ComparedActivity `json:"activities_removed"`
	ActivitiesChanged []schedule.ActivityChange   `json:"activities_changed"`
	// Relationships are matched by their ends; one between the same two
	// activities with another type or lag is changed, not removed and
	// added.
	RelationshipsAdded   []schedule.ComparedRelationship `json:"relationships_added"`
	RelationshipsRemoved []schedule.ComparedRelationship `json:"relationships_removed"`
	RelationshipsChanged []RelationshipChange            `json:"relationships_changed"`
	// Finish, BecameCritical, NoLongerCritical and FloatErosion need CPM
	// on both versions: when either fails, Finish is nil and CPMError says
	// why.
	Finish           *FinishMove                 `json:"finish,omitempty"`
	BecameCritical   []schedule.ComparedActivity `json:"became_critical"`
	NoLongerCritical []schedule.ComparedActivity `json:"no_longer_critical"`
	FloatErosion     []FloatDrop                 `json:"float_erosion"`
	CPMError         string                      `json:"cpm_error,omitempty"`
}

// Side describes one version.
type Side struct {
	// Label is where it came from (a file or a stored schedule id), as the
	// caller names it.
	Label         string `json:"label,omitempty"`
	Name          string `json:"name,omitempty"`
	Activities    int    `json:"activities"`
	Relationships int    `json:"relationships"`
	StartDate     string `json:"start_date,omitempty"`
	DataDate      string `json:"data_date,omitempty"`
	// Finish is the project finish (schedule.DateTimeLayout) when the
	// version has dates; FinishDays the finish in working days from its
	// own start. Critical counts its critical activities.
	Finish     string  `json:"finish,omitempty"`
	FinishDays float64 `json:"finish_days"`
	Critical   int     `json:"critical"`
}

// CalendarChange is a calendar added, removed or changed. ID is its key in
// Schedule.Calendars, "" for the project's calendar.
type CalendarChange struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Change string `json:"change"` // added, removed or changed
	// Details say what changed, e.g. "holidays added: 2026-12-25".
	Details []string `json:"details"`
}

// RelationshipChange is a link between the same two activities in both
// versions whose type or lag changed.
type RelationshipChange struct {
	ID              string           `json:"id"`
	Predecessor     string           `json:"predecessor"`
	PredecessorName string           `json:"predecessor_name"`
	Successor       string           `json:"successor"`
	SuccessorName   string           `json:"successor_name"`
	TypeBefore      schedule.RelType `json:"type_before"`
	TypeAfter       schedule.RelType `json:"type_after"`
	LagBefore       float64          `json:"lag_before"`
	LagAfter        float64          `json:"lag_after"`
	// Text is "Pile caps -FS-> Ground beams now -FS+3->".
	Text string `json:"text"`
}

// FloatDrop is an activity in both versions whose total float fell, in
// working days.
type FloatDrop struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Drop   float64 `json:"drop"`
}

// Options shape a comparison.
type Options struct {
	// BeforeLabel and AfterLabel name the versions (Side.Label).
	BeforeLabel, AfterLabel string
}

// Compare compares before (A) and after (B), computing CPM on both.
func Compare(before, after *schedule.Schedule, opts Options) *Report {
	if before == nil {
		before = &schedule.Schedule{}
	}
	if after == nil {
		after = &schedule.Schedule{}
	}
	rb, errB := schedule.Analyze(before)
	ra, errA := schedule.Analyze(after)
	rep := CompareResults(before, after, rb, ra, opts)
	switch {
	case errB != nil:
		rep.CPMError = "CPM of " + sideName(opts.BeforeLabel, "the first version") + ": " + errB.Error()
	case errA != nil:
		rep.CPMError = "CPM of " + sideName(opts.AfterLabel, "the second version") + ": " + errA.Error()
	}
	return rep
}

func sideName(label, def string) string {
	if label == "" {
		return def
	}
	return label
}

// CompareResults is Compare for a caller that computed CPM already: rb on
// before, ra on after; a nil result (CPM failed) leaves the CPM parts out.
// Nil schedules count as empty. It changes neither schedule.
func CompareResults(before, after *schedule.Schedule, rb, ra *schedule.Result, opts Options) *Report {
	if before == nil {
		before = &schedule.Schedule{}
	}
	if after == nil {
		after = &schedule.Schedule{}
	}
	// The schedule package's comparison is the one change model: it
	// matches activities and links and says what became critical; this
	// adds the live programme's fields, changed links, and the finish.
	bl, al := withoutSameLinks(before, after)
	c := schedule.CompareResults(bl, al, rb, ra)
	rep := &Report{
		Before: side(before, rb, opts.BeforeLabel), After: side(after, ra, opts.AfterLabel), MatchedBy: "id",
		Project: projectChanges(before, after), Calendars: calendarChanges(before, after),
		ActivitiesAdded: c.Added, ActivitiesRemoved: c.Removed,
		ActivitiesChanged: liveChanges(before, after, c.Changed),
		BecameCritical:    []schedule.ComparedActivity{}, NoLongerCritical: []schedule.ComparedActivity{},
		FloatErosion: []FloatDrop{},
	}
	rep.RelationshipsAdded, rep.RelationshipsRemoved, rep.RelationshipsChanged = pairLinks(c.RelationshipsAdded, c.RelationshipsRemoved)
	if rb == nil || ra == nil {
		if rb == nil && ra == nil {
			rep.CPMError = "CPM failed on both versions"
		} else {
			rep.CPMError = "CPM failed on one version"
		}
		return rep
	}
	if im := c.Impact; im != nil {
		rep.BecameCritical, rep.NoLongerCritical = im.BecameCritical, im.NoLongerCritical
	}
	rep.FloatErosion = floatErosion(after, rb, ra)
	fm, err := finishMove(rep, before, after, rb, ra)
	if err != nil {
		rep.CPMError = err.Error()
		return rep
	}
	rep.Finish = fm
	return rep
}

// withoutSameLinks returns before and after with every relationship
// that has the same id and says the same (schedule.LinkKeyOf) in both left
// out, shallow copies of them otherwise. The schedule package matches the
// links that remain exactly as it would have matched all of them (a
// multiset difference does not change when equal pairs leave both sides),
// and a large programme's update, where nearly every link is kept under
// its id, is matched without hashing every link's ends.
func withoutSameLinks(before, after *schedule.Schedule) (*schedule.Schedule, *schedule.Schedule) {
	at := newAligner(len(before.Relationships), func(k int) string { return before.Relationships[k].ID })
	same := make([]bool, len(before.Relationships))
	restA := make([]schedule.Relationship, 0, 64)
	for _, r := range after.Relationships {
		if k, ok := at.find(r.ID); ok && !same[k] && schedule.LinkKeyOf(before.Relationships[k]) == schedule.LinkKeyOf(r) {
			same[k] = true
			continue
		}
		restA = append(restA, r)
	}
	restB := make([]schedule.Relationship, 0, 64)
	for k, r := range before.Relationships {
		if !same[k] {
			restB = append(restB, r)
		}
	}
	b, a := *before, *after
	b.Relationships, a.Relationships = restB, restA
	return &b, &a
}

// side sums up one version.
func side(s *schedule.Schedule, r *schedule.Result, label string) Side {
	sd := Side{Label: label, Name: s.Name, Activities: len(s.Activities), Relationships: len(s.Relationships),
		StartDate: s.StartDate, DataDate: s.DataDate}
	if r == nil {
		return sd
	}
	sd.FinishDays = schedule.RoundDays(r.ProjectDuration)
	for i := range r.Net.Len() {
		if r.Critical(i) {
			sd.Critical++
		}
	}
	if c, err := clockOf(s, r); err == nil && (c != nil || r.Times != nil) {
		if t, err := r.Finish(c); err == nil {
			sd.Finish = t.Format(schedule.DateTimeLayout)
		}
	}
	return sd
}

// clockOf is the clock that dates r's working-day offsets (nil when the
// live engine dated r itself or s has no start date).
func clockOf(s *schedule.Schedule, r *schedule.Result) (*schedule.Clock, error) {
	if r.Times != nil || s.StartDate == "" {
		return nil, nil
	}
	return schedule.NewClock(s.StartDate, s.Calendar)
}

// projectChanges lists the schedule-wide fields that differ.
func projectChanges(a, b *schedule.Schedule) []schedule.FieldChange {
	out := []schedule.FieldChange{}
	add := func(field, x, y string) {
		if x != y {
			out = append(out, schedule.FieldChange{Field: field, Before: x, After: y})
		}
	}
	add("name", a.Name, b.Name)
	add("start_date", a.StartDate, b.StartDate)
	add("data_date", a.DataDate, b.DataDate)
	oa, ob := optionsOf(a), optionsOf(b)
	add("options.tool", oa.Tool, ob.Tool)
	add("options.lag_calendar", oa.LagCalendar, ob.LagCalendar)
	add("options.progress", oa.Progress, ob.Progress)
	add("options.float", oa.Float, ob.Float)
	add("options.open_ends_critical", strconv.FormatBool(oa.OpenEndsCritical), strconv.FormatBool(ob.OpenEndsCritical))
	add("options.must_finish_by", oa.MustFinishBy, ob.MustFinishBy)
	return out
}

func optionsOf(s *schedule.Schedule) schedule.Options {
	if s.Options == nil {
		return schedule.Options{}
	}
	return *s.Options
}

// The activity fields compared beyond name, duration and description (the
// schedule package's), in the order they are reported.
var liveFields = []struct {
	field string
	get   func(a *schedule.Activity) string
}{
	{"type", func(a *schedule.Activity) string { return typeText(a.Type) }},
	{"calendar", func(a *schedule.Activity) string { return a.Calendar }},
	{"constraint", func(a *schedule.Activity) string { return constraintText(a.Constraint) }},
	{"secondary_constraint", func(a *schedule.Activity) string { return constraintText(a.SecondaryConstraint) }},
	{"actual_start", func(a *schedule.Activity) string { return a.ActualStart }},
	{"actual_finish", func(a *schedule.Activity) string { return a.ActualFinish }},
	{"remaining", func(a *schedule.Activity) string { return a.Remaining }},
	{"percent_complete", func(a *schedule.Activity) string {
		return strconv.FormatFloat(a.PercentComplete, 'f', -1, 64)
	}},
	{"manual", func(a *schedule.Activity) string { return map[bool]string{true: "yes", false: "no"}[a.Manual] }},
	// A manually scheduled task's dates are its schedule; on any other
	// they are only what the file showed last.
	{"start", func(a *schedule.Activity) string { return manualDate(a, a.Start) }},
	{"finish", func(a *schedule.Activity) string { return manualDate(a, a.Finish) }},
	{"wbs", func(a *schedule.Activity) string { return a.WBS }},
	{"assignments", assignmentsText},
}

// ScheduleFields are the activity fields whose change can move CPM dates:
// the finish explanation names these.
var scheduleFields = map[string]bool{"duration": true, "type": true, "calendar": true, "constraint": true,
	"secondary_constraint": true, "actual_start": true, "actual_finish": true, "remaining": true,
	"percent_complete": true, "manual": true, "start": true, "finish": true, "assignments": true}

func typeText(t schedule.ActivityType) string {
	if t == schedule.TaskType {
		return "task"
	}
	return strings.ReplaceAll(string(t), "_", " ")
}

func constraintText(c *schedule.Constraint) string {
	if c == nil {
		return ""
	}
	return c.String()
}

func manualDate(a *schedule.Activity, d string) string {
	if !a.Manual {
		return ""
	}
	return d
}

func assignmentsText(a *schedule.Activity) string {
	parts := make([]string, len(a.Assignments))
	for i, as := range a.Assignments {
		if as.NonDriving {
			parts[i] = as.Resource + " (not driving)"
			continue
		}
		units := as.Units
		if units == 0 {
			units = 1
		}
		parts[i] = fmt.Sprintf("%s %s%% work %s", as.Resource, strconv.FormatFloat(units*100, 'f', -1, 64), as.Work)
		if as.Calendar != "" {
			parts[i] += " on " + as.Calendar
		}
	}
	return strings.Join(parts, "; ")
}

// liveChanges adds, to the schedule package's activity changes (name,
// duration, description), every other field that differs: type, calendar,
// constraints, progress, WBS, codes (one entry per code type, "code
// Phase"), assignments. The result is in after's order.
func liveChanges(before, after *schedule.Schedule, base []schedule.ActivityChange) []schedule.ActivityChange {
	at := make(map[string]int, len(base))
	for i, c := range base {
		at[c.ID] = i
	}
	beforeAt := newAligner(len(before.Activities), func(j int) string { return before.Activities[j].ID })
	out := make([]schedule.ActivityChange, 0, len(base))
	// seen marks the before activities matched already: a repeated id
	// (a schedule CPM refused) is compared once.
	seen := make([]bool, len(before.Activities))
	for k := range after.Activities {
		a := &after.Activities[k]
		j, ok := beforeAt.find(a.ID)
		if !ok || seen[j] {
			continue
		}
		seen[j] = true
		old := &before.Activities[j]
		var ch []schedule.FieldChange
		if i, ok := at[a.ID]; ok {
			ch = base[i].Changes
		}
		for _, f := range liveFields {
			if x, y := f.get(old), f.get(a); x != y {
				ch = append(ch, schedule.FieldChange{Field: f.field, Before: x, After: y})
			}
		}
		if !maps.Equal(old.Codes, a.Codes) {
			for _, k := range slices.Sorted(maps.Keys(union(old.Codes, a.Codes))) {
				if x, y := old.Codes[k], a.Codes[k]; x != y {
					ch = append(ch, schedule.FieldChange{Field: "code " + k, Before: x, After: y})
				}
			}
		}
		if len(ch) > 0 {
			out = append(out, schedule.ActivityChange{ID: a.ID, Name: a.Name, Changes: ch})
		}
	}
	return out
}

func union(a, b map[string]string) map[string]bool {
	u := make(map[string]bool, len(a)+len(b))
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

// aligner finds ids in a list (of activities, links, a network) walked
// in about its own order, as the other version of a schedule is: it tries
// the place after the last one found first, and only on a miss (an item
// added or removed in between) asks a map, built on the first miss. Two
// versions of 100k activities are matched with a handful of lookups
// instead of 100k.
type aligner struct {
	n    int
	id   func(int) string
	next int
	at   map[string]int // each id's first position
}

func newAligner(n int, id func(int) string) *aligner { return &aligner{n: n, id: id} }

// find is the position of id, or false. A repeated id (only in a
// schedule CPM refused) may be found at any of its places.
func (a *aligner) find(id string) (int, bool) {
	if a.next < a.n && a.id(a.next) == id {
		a.next++
		return a.next - 1, true
	}
	if a.at == nil {
		a.at = make(map[string]int, a.n)
		for i := range a.n {
			if _, dup := a.at[a.id(i)]; !dup {
				a.at[a.id(i)] = i
			}
		}
	}
	j, ok := a.at[id]
	if ok {
		a.next = j + 1
	}
	return j, ok
}

// pairLinks turns a removed link and an added one between the same two
// activities (in that direction) into one changed link, pairing them in
// order when there are several.
func pairLinks(added, removed []schedule.ComparedRelationship) (a, r []schedule.ComparedRelationship, changed []RelationshipChange) {
	type ends struct{ p, s string }
	pending := map[ends][]int{}
	for i, x := range removed {
		k := ends{x.Predecessor, x.Successor}
		pending[k] = append(pending[k], i)
	}
	paired := make([]bool, len(removed))
	a, r, changed = []schedule.ComparedRelationship{}, []schedule.ComparedRelationship{}, []RelationshipChange{}
	for _, x := range added {
		k := ends{x.Predecessor, x.Successor}
		q := pending[k]
		if len(q) == 0 {
			a = append(a, x)
			continue
		}
		old := removed[q[0]]
		pending[k] = q[1:]
		paired[q[0]] = true
		changed = append(changed, RelationshipChange{
			ID: x.ID, Predecessor: x.Predecessor, PredecessorName: x.PredecessorName,
			Successor: x.Successor, SuccessorName: x.SuccessorName,
			TypeBefore: old.Type, TypeAfter: x.Type, LagBefore: old.Lag, LagAfter: x.Lag,
			Text: x.PredecessorName + " -" + schedule.TypeLag(old.Type, old.Lag) + "-> " + x.SuccessorName +
				" now -" + schedule.TypeLag(x.Type, x.Lag) + "->",
		})
	}
	for i, x := range removed {
		if !paired[i] {
			r = append(r, x)
		}
	}
	return a, r, changed
}

// floatErosion lists the activities in both versions whose total float
// fell, the largest drop first (ties in after's order).
func floatErosion(after *schedule.Schedule, rb, ra *schedule.Result) []FloatDrop {
	out := []FloatDrop{}
	inB := newAligner(rb.Net.Len(), rb.Net.ID)
	for i := range after.Activities {
		a := &after.Activities[i]
		j, okB := inB.find(a.ID)
		// The network is in the schedule's order (a compiled schedule has
		// unique ids): i is a's index in ra unless the ids say otherwise.
		k, okA := i, i < ra.Net.Len() && ra.Net.ID(i) == a.ID
		if !okA {
			k, okA = ra.Net.Index(a.ID)
		}
		if !okA || !okB {
			continue
		}
		if drop := rb.TotalFloat[j] - ra.TotalFloat[k]; drop > schedule.Epsilon {
			out = append(out, FloatDrop{ID: a.ID, Name: a.Name, Before: schedule.RoundDays(rb.TotalFloat[j]),
				After: schedule.RoundDays(ra.TotalFloat[k]), Drop: schedule.RoundDays(drop)})
		}
	}
	slices.SortStableFunc(out, func(x, y FloatDrop) int { return cmp.Compare(y.Drop, x.Drop) })
	return out
}

// calendarChanges compares the project's calendar and the named ones.
func calendarChanges(a, b *schedule.Schedule) []CalendarChange {
	out := []CalendarChange{}
	if d := calendarDiff(a.Calendar, b.Calendar); len(d) > 0 {
		out = append(out, CalendarChange{ID: "", Name: "project calendar", Change: "changed", Details: d})
	}
	for _, id := range slices.Sorted(maps.Keys(a.Calendars)) {
		if _, ok := b.Calendars[id]; !ok {
			out = append(out, CalendarChange{ID: id, Name: calendarName(id, a.Calendars[id]), Change: "removed", Details: []string{}})
		}
	}
	for _, id := range slices.Sorted(maps.Keys(b.Calendars)) {
		cb := b.Calendars[id]
		ca, ok := a.Calendars[id]
		switch {
		case !ok:
			out = append(out, CalendarChange{ID: id, Name: calendarName(id, cb), Change: "added", Details: []string{}})
		default:
			if d := calendarDiff(ca, cb); len(d) > 0 {
				out = append(out, CalendarChange{ID: id, Name: calendarName(id, cb), Change: "changed", Details: d})
			}
		}
	}
	return out
}

func calendarName(id string, c *schedule.Calendar) string {
	if c != nil && c.Name != "" {
		return c.Name
	}
	return id
}

// calendarDiff says what differs between two calendars (nil is the
// default calendar), one phrase per field.
func calendarDiff(a, b *schedule.Calendar) []string {
	if a == nil {
		a = &schedule.Calendar{}
	}
	if b == nil {
		b = &schedule.Calendar{}
	}
	var out []string
	same := func(field, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s %s -> %s", field, orNone(x), orNone(y)))
		}
	}
	same("name", a.Name, b.Name)
	same("workdays", strings.Join(a.Workdays, " "), strings.Join(b.Workdays, " "))
	same("hours", strings.Join(a.Hours, " "), strings.Join(b.Hours, " "))
	same("day hours", dayHoursText(a.DayHours), dayHoursText(b.DayHours))
	same("hours per day", numberOrNone(a.HoursPerDay), numberOrNone(b.HoursPerDay))
	setDiff := func(what string, x, y []string) {
		if gone := minus(x, y); len(gone) > 0 {
			out = append(out, what+" removed: "+strings.Join(gone, ", "))
		}
		if added := minus(y, x); len(added) > 0 {
			out = append(out, what+" added: "+strings.Join(added, ", "))
		}
	}
	setDiff("holidays", a.Holidays, b.Holidays)
	setDiff("exceptions", exceptionTexts(a.Exceptions), exceptionTexts(b.Exceptions))
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(default)"
	}
	return s
}

func numberOrNone(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func dayHoursText(m map[string][]string) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+" "+strings.Join(m[k], " "))
	}
	return strings.Join(parts, "; ")
}

func exceptionTexts(es []schedule.CalendarException) []string {
	out := make([]string, len(es))
	for i, e := range es {
		t := e.From
		if e.To != "" && e.To != e.From {
			t += ".." + e.To
		}
		if e.Working {
			t += " worked"
			if len(e.Hours) > 0 {
				t += " " + strings.Join(e.Hours, " ")
			}
		} else {
			t += " not worked"
		}
		if e.Name != "" {
			t = e.Name + " " + t
		}
		out[i] = t
	}
	return out
}

// minus is x without the items of y, in x's order.
func minus(x, y []string) []string {
	in := make(map[string]bool, len(y))
	for _, v := range y {
		in[v] = true
	}
	var out []string
	for _, v := range x {
		if !in[v] {
			out = append(out, v)
		}
	}
	return out
}

// dateTime formats a time as the report writes date-times.
func dateTime(t time.Time) string { return t.Format(schedule.DateTimeLayout) }
