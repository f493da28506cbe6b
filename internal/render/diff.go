package render

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// ChangeDiff compares two versions of a schedule, as the dispatch review
// screen shows them: what changed in the schedule and what that does to
// the CPM result. It is the JSON form of WriteChangeDiff (a stable part of
// `--json` output); lists are [] rather than null when empty.
type ChangeDiff struct {
	// Activities are matched by id. Added and changed ones are in the
	// after schedule's order, removed ones in the before schedule's.
	Added   []DiffActivity   `json:"added"`
	Removed []DiffActivity   `json:"removed"`
	Changed []ActivityChange `json:"changed"`
	// Relationships are matched by what they say (predecessor, successor,
	// type and lag), not by id: a link re-created with a new id is no
	// change, and a changed lag or type is one removal and one addition.
	RelationshipsAdded   []DiffRelationship `json:"relationships_added"`
	RelationshipsRemoved []DiffRelationship `json:"relationships_removed"`
	// Impact is nil when CPM fails on either version (a cycle, a bad
	// duration); ImpactError then says why.
	Impact      *DiffImpact `json:"impact,omitempty"`
	ImpactError string      `json:"impact_error,omitempty"`
	// Omitted counts the entries Cap cut from each list, by its JSON name.
	Omitted map[string]int `json:"omitted,omitempty"`
}

// Cap keeps at most n entries of each list and counts the rest in
// Omitted, so a diff of a huge change stays small enough to travel in a
// workflow's history; the text form says "… and N more".
func (d *ChangeDiff) Cap(n int) {
	cut := func(name string, length int) int {
		if length <= n {
			return length
		}
		if d.Omitted == nil {
			d.Omitted = map[string]int{}
		}
		d.Omitted[name] += length - n
		return n
	}
	d.Added = d.Added[:cut("added", len(d.Added))]
	d.Removed = d.Removed[:cut("removed", len(d.Removed))]
	d.Changed = d.Changed[:cut("changed", len(d.Changed))]
	d.RelationshipsAdded = d.RelationshipsAdded[:cut("relationships_added", len(d.RelationshipsAdded))]
	d.RelationshipsRemoved = d.RelationshipsRemoved[:cut("relationships_removed", len(d.RelationshipsRemoved))]
	if im := d.Impact; im != nil {
		im.BecameCritical = im.BecameCritical[:cut("became_critical", len(im.BecameCritical))]
		im.NoLongerCritical = im.NoLongerCritical[:cut("no_longer_critical", len(im.NoLongerCritical))]
	}
}

// DiffActivity is an added or removed activity. Critical is its CPM status
// in the version that has it (after for added, before for removed).
type DiffActivity struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Duration string `json:"duration"`
	Critical bool   `json:"critical,omitempty"`
}

// ActivityChange is an activity in both versions whose name, duration or
// description differ; Name is its name after the change.
type ActivityChange struct {
	ID      string        `json:"id"`
	Name    string        `json:"name"`
	Changes []FieldChange `json:"changes"`
}

// FieldChange is one changed field: "name", "duration" or "description".
type FieldChange struct {
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// DiffRelationship is an added or removed relationship with the names of
// its ends (from the version that has it) and its arrow text, e.g.
// "Excavate L1 -FS+2-> Pour slab L1".
type DiffRelationship struct {
	ID              string           `json:"id"`
	Type            schedule.RelType `json:"type"`
	Predecessor     string           `json:"predecessor"`
	PredecessorName string           `json:"predecessor_name"`
	Successor       string           `json:"successor"`
	SuccessorName   string           `json:"successor_name"`
	Lag             float64          `json:"lag"`
	Text            string           `json:"text"`
}

// DiffImpact is the CPM effect of the change. Times are working days; the
// finish dates (local date-times, schedule.DateTimeLayout) are present when
// the version has a start date. BecameCritical and NoLongerCritical cover
// activities in both versions (an added activity says itself whether it is
// critical), in the after schedule's order; FloatChanged counts the
// activities in both whose total float changed.
type DiffImpact struct {
	FinishBefore     float64        `json:"finish_before"`
	FinishAfter      float64        `json:"finish_after"`
	FinishChange     float64        `json:"finish_change"`
	FinishDateBefore string         `json:"finish_date_before,omitempty"`
	FinishDateAfter  string         `json:"finish_date_after,omitempty"`
	BecameCritical   []DiffActivity `json:"became_critical"`
	NoLongerCritical []DiffActivity `json:"no_longer_critical"`
	FloatChanged     int            `json:"float_changed"`
	// Risk is the change's effect on the P80 finish, when the schedule has
	// duration distributions (a Monte Carlo run of each version).
	Risk *RiskImpact `json:"risk,omitempty"`
}

// RiskImpact is a change's effect on the finish percentiles: the same
// iterations and seed on both versions. Times are working days; dates as
// DiffImpact's.
type RiskImpact struct {
	Iterations    int     `json:"iterations"`
	Seed          uint64  `json:"seed"`
	P50Before     float64 `json:"p50_before"`
	P50After      float64 `json:"p50_after"`
	P80Before     float64 `json:"p80_before"`
	P80After      float64 `json:"p80_after"`
	P80Change     float64 `json:"p80_change"`
	P80DateBefore string  `json:"p80_date_before,omitempty"`
	P80DateAfter  string  `json:"p80_date_after,omitempty"`
}

// riskMove says how a percentile finish moved.
func riskMove(change float64) string {
	switch {
	case change > 0:
		return "later by " + workingDays(change)
	case change < 0:
		return "earlier by " + workingDays(-change)
	}
	return "unchanged"
}

// shortDate turns a finish date-time into "Mon 2006-01-02" for the text
// form ("" stays "").
func shortDate(dateTime string) string {
	t, err := time.Parse(schedule.DateTimeLayout, dateTime)
	if err != nil {
		return ""
	}
	return t.Format("Mon 2006-01-02")
}

// DiffOptions shapes the text form.
type DiffOptions struct {
	Color bool // ANSI colours, for a terminal
	// Limit caps each list (activities added, removed, …) at that many
	// lines and says how many more there are; 0 shows everything.
	Limit int
}

// WriteChangeDiff writes the change from before to after as text for a
// terminal: activities added (+), removed (-) and changed (~, old -> new),
// relationships added and removed ("Pred -FS+2-> Succ"), then the CPM
// impact: the project finish before and after, activities that became or
// are no longer critical, and how many activities' total float changed.
// A nil schedule counts as empty.
func WriteChangeDiff(w io.Writer, before, after *schedule.Schedule, opts DiffOptions) error {
	return NewChangeDiff(before, after).WriteText(w, opts)
}

// NewChangeDiff compares before and after (nil counts as empty) and
// computes CPM on both. It does not modify either schedule.
func NewChangeDiff(before, after *schedule.Schedule) *ChangeDiff {
	if before == nil {
		before = &schedule.Schedule{}
	}
	if after == nil {
		after = &schedule.Schedule{}
	}
	rb, errB := schedule.Analyze(before)
	ra, errA := schedule.Analyze(after)
	d := changeDiff(before, after, rb, ra)
	switch {
	case errB != nil:
		d.ImpactError = "CPM before the change: " + errB.Error()
	case errA != nil:
		d.ImpactError = "CPM after the change: " + errA.Error()
	}
	return d
}

// NewChangeDiffOf is NewChangeDiff for a caller that has computed CPM on
// both schedules already (rb on before, ra on after).
func NewChangeDiffOf(before, after *schedule.Schedule, rb, ra *schedule.Result) *ChangeDiff {
	return changeDiff(before, after, rb, ra)
}

// changeDiff compares before and after; a nil result (CPM failed) leaves
// the impact out and marks no activity critical in that version.
func changeDiff(before, after *schedule.Schedule, rb, ra *schedule.Result) *ChangeDiff {
	d := &ChangeDiff{
		Added: []DiffActivity{}, Removed: []DiffActivity{}, Changed: []ActivityChange{},
		RelationshipsAdded: []DiffRelationship{}, RelationshipsRemoved: []DiffRelationship{},
	}
	critical := func(r *schedule.Result, id string) bool {
		if r == nil {
			return false
		}
		i, ok := r.Net.Index(id)
		return ok && r.Critical(i)
	}

	beforeAt := activityIndex(before)
	afterAt := activityIndex(after)
	for _, a := range before.Activities {
		if _, ok := afterAt[a.ID]; !ok {
			d.Removed = append(d.Removed, DiffActivity{ID: a.ID, Name: a.Name, Duration: a.Duration, Critical: critical(rb, a.ID)})
		}
	}
	for _, a := range after.Activities {
		i, ok := beforeAt[a.ID]
		if !ok {
			d.Added = append(d.Added, DiffActivity{ID: a.ID, Name: a.Name, Duration: a.Duration, Critical: critical(ra, a.ID)})
			continue
		}
		old := before.Activities[i]
		var ch []FieldChange
		for _, f := range []struct{ field, before, after string }{
			{"name", old.Name, a.Name}, {"duration", old.Duration, a.Duration}, {"description", old.Description, a.Description},
		} {
			if f.before != f.after {
				ch = append(ch, FieldChange{Field: f.field, Before: f.before, After: f.after})
			}
		}
		if ch != nil {
			d.Changed = append(d.Changed, ActivityChange{ID: a.ID, Name: a.Name, Changes: ch})
		}
	}

	d.RelationshipsRemoved = unmatchedLinks(before, after)
	d.RelationshipsAdded = unmatchedLinks(after, before)

	if rb != nil && ra != nil {
		d.Impact = impactOf(before, after, rb, ra)
	}
	return d
}

func activityIndex(s *schedule.Schedule) map[string]int {
	m := make(map[string]int, len(s.Activities))
	for i, a := range s.Activities {
		if _, dup := m[a.ID]; !dup {
			m[a.ID] = i
		}
	}
	return m
}

// linkKey is what a relationship says; lags are compared to 1e-6 days.
type linkKey struct {
	pred, succ string
	typ        schedule.RelType
	lag        float64
}

func keyOf(r schedule.Relationship) linkKey {
	return linkKey{r.Predecessor, r.Successor, r.Type, round(r.Lag)}
}

// unmatchedLinks lists the relationships of s that other does not have,
// counting repeats (each of other's links matches at most one of s's).
func unmatchedLinks(s, other *schedule.Schedule) []DiffRelationship {
	have := map[linkKey]int{}
	for _, r := range other.Relationships {
		have[keyOf(r)]++
	}
	names := map[string]string{}
	for _, a := range s.Activities {
		if _, ok := names[a.ID]; !ok {
			names[a.ID] = a.Name
		}
	}
	name := func(id string) string {
		if n := names[id]; n != "" {
			return n
		}
		return id
	}
	out := []DiffRelationship{}
	for _, r := range s.Relationships {
		k := keyOf(r)
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, DiffRelationship{
			ID: r.ID, Type: r.Type, Lag: r.Lag,
			Predecessor: r.Predecessor, PredecessorName: name(r.Predecessor),
			Successor: r.Successor, SuccessorName: name(r.Successor),
			Text: name(r.Predecessor) + " " + arrow(r.Type, r.Lag) + " " + name(r.Successor),
		})
	}
	return out
}

func impactOf(before, after *schedule.Schedule, rb, ra *schedule.Result) *DiffImpact {
	im := &DiffImpact{
		FinishBefore: round(rb.ProjectDuration), FinishAfter: round(ra.ProjectDuration),
		FinishChange:   round(ra.ProjectDuration - rb.ProjectDuration),
		BecameCritical: []DiffActivity{}, NoLongerCritical: []DiffActivity{},
	}
	// A finish past the calendar's range has no date (never a clamped,
	// wrong one); the impact still says it in working days.
	if c := clockOf(before); c != nil {
		if t, err := c.Finish(rb.ProjectDuration); err == nil {
			im.FinishDateBefore = t.Format(schedule.DateTimeLayout)
		}
	}
	if c := clockOf(after); c != nil {
		if t, err := c.Finish(ra.ProjectDuration); err == nil {
			im.FinishDateAfter = t.Format(schedule.DateTimeLayout)
		}
	}
	for i, a := range after.Activities {
		j, ok := rb.Net.Index(a.ID)
		if !ok {
			continue
		}
		da := DiffActivity{ID: a.ID, Name: a.Name, Duration: a.Duration}
		switch cb, ca := rb.Critical(j), ra.Critical(i); {
		case ca && !cb:
			da.Critical = true
			im.BecameCritical = append(im.BecameCritical, da)
		case cb && !ca:
			im.NoLongerCritical = append(im.NoLongerCritical, da)
		}
		if math.Abs(ra.TotalFloat[i]-rb.TotalFloat[j]) > schedule.Epsilon {
			im.FloatChanged++
		}
	}
	return im
}

// clockOf dates a schedule with a valid start date; otherwise nil (the
// impact is then in working days only).
func clockOf(s *schedule.Schedule) *schedule.Clock {
	if s.StartDate == "" {
		return nil
	}
	c, err := schedule.NewClock(s.StartDate, s.Calendar)
	if err != nil {
		return nil
	}
	return c
}

// ANSI colours of the text form.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
)

// WriteText writes d as WriteChangeDiff does.
func (d *ChangeDiff) WriteText(w io.Writer, opts DiffOptions) error {
	bw := bufio.NewWriter(w)
	paint := func(color, s string) string {
		if !opts.Color || color == "" {
			return s
		}
		return color + s + ansiReset
	}
	section := func(title string) { fmt.Fprintln(bw, paint(ansiBold, title)) }
	// shown says how many of n items to print; more prints the rest's count.
	shown := func(n int) int {
		if opts.Limit > 0 && n > opts.Limit {
			return opts.Limit
		}
		return n
	}
	more := func(name string, n int) {
		if k := n - shown(n) + d.Omitted[name]; k > 0 {
			fmt.Fprintf(bw, "    … and %d more\n", k)
		}
	}

	if len(d.Added)+len(d.Removed)+len(d.Changed) > 0 {
		section("Activities")
		for _, a := range d.Added[:shown(len(d.Added))] {
			fmt.Fprintln(bw, paint(ansiGreen, "  + "+activityText(a)))
		}
		more("added", len(d.Added))
		for _, a := range d.Removed[:shown(len(d.Removed))] {
			fmt.Fprintln(bw, paint(ansiRed, "  - "+activityText(a)))
		}
		more("removed", len(d.Removed))
		for _, c := range d.Changed[:shown(len(d.Changed))] {
			parts := make([]string, len(c.Changes))
			for i, f := range c.Changes {
				switch f.Field {
				case "duration":
					parts[i] = "duration " + textOf(f.Before) + " -> " + textOf(f.After) + " d"
				default:
					parts[i] = f.Field + " " + strconv.QuoteToGraphic(clip(f.Before, 60)) + " -> " + strconv.QuoteToGraphic(clip(f.After, 60))
				}
			}
			fmt.Fprintln(bw, paint(ansiYellow, "  ~ "+textOf(c.Name)+" ("+textOf(c.ID)+"): "+strings.Join(parts, "; ")))
		}
		more("changed", len(d.Changed))
	}
	if len(d.RelationshipsAdded)+len(d.RelationshipsRemoved) > 0 {
		section("Relationships")
		for _, r := range d.RelationshipsAdded[:shown(len(d.RelationshipsAdded))] {
			fmt.Fprintln(bw, paint(ansiGreen, "  + "+textOf(r.Text)))
		}
		more("relationships_added", len(d.RelationshipsAdded))
		for _, r := range d.RelationshipsRemoved[:shown(len(d.RelationshipsRemoved))] {
			fmt.Fprintln(bw, paint(ansiRed, "  - "+textOf(r.Text)))
		}
		more("relationships_removed", len(d.RelationshipsRemoved))
	}
	if len(d.Added)+len(d.Removed)+len(d.Changed)+len(d.RelationshipsAdded)+len(d.RelationshipsRemoved) == 0 {
		fmt.Fprintln(bw, "No changes to activities or relationships.")
	}

	section("CPM impact")
	im := d.Impact
	if im == nil {
		fmt.Fprintln(bw, paint(ansiRed, "  "+textOf(d.ImpactError)))
		return bw.Flush()
	}
	finish := "  Project finish: " + Days(im.FinishBefore) + " -> " + Days(im.FinishAfter) + " working days"
	// From the exported fields, so a diff that went through JSON (a
	// workflow's history) prints the same.
	if b, a := shortDate(im.FinishDateBefore), shortDate(im.FinishDateAfter); b != "" && a != "" {
		finish += " (" + b + " -> " + a + ")"
	}
	var moves, color string
	switch {
	case im.FinishChange > 0:
		moves, color = "finish moves later by "+workingDays(im.FinishChange), ansiRed
	case im.FinishChange < 0:
		moves, color = "finish moves earlier by "+workingDays(-im.FinishChange), ansiGreen
	default:
		moves = "finish unchanged"
	}
	fmt.Fprintln(bw, finish+": "+paint(color, moves))
	if r := im.Risk; r != nil {
		p80 := "  P80 finish: " + Days(r.P80Before) + " -> " + Days(r.P80After) + " working days"
		if b, a := shortDate(r.P80DateBefore), shortDate(r.P80DateAfter); b != "" && a != "" {
			p80 += " (" + b + " -> " + a + ")"
		}
		fmt.Fprintf(bw, "%s: %s (P50 %s -> %s; Monte Carlo, %d iterations, seed %d)\n", p80, riskMove(r.P80Change),
			Days(r.P50Before), Days(r.P50After), r.Iterations, r.Seed)
	}
	list := func(title, color, name string, as []DiffActivity) {
		if len(as) == 0 {
			return
		}
		omitted := d.Omitted[name]
		names := make([]string, 0, shown(len(as))+1)
		for _, a := range as[:shown(len(as))] {
			names = append(names, textOf(a.Name)+" ("+textOf(a.ID)+")")
		}
		if k := len(as) - shown(len(as)) + omitted; k > 0 {
			names = append(names, fmt.Sprintf("… and %d more", k))
		}
		fmt.Fprintf(bw, "  %s (%d): %s\n", title, len(as)+omitted, paint(color, strings.Join(names, ", ")))
	}
	list("Became critical", ansiRed, "became_critical", im.BecameCritical)
	list("No longer critical", ansiGreen, "no_longer_critical", im.NoLongerCritical)
	switch im.FloatChanged {
	case 0:
		fmt.Fprintln(bw, "  Total float unchanged on every activity in both versions")
	case 1:
		fmt.Fprintln(bw, "  Total float changed on 1 activity")
	default:
		fmt.Fprintf(bw, "  Total float changed on %d activities\n", im.FloatChanged)
	}
	return bw.Flush()
}

func activityText(a DiffActivity) string {
	s := textOf(a.Name) + " (" + textOf(a.ID) + ", " + textOf(a.Duration) + " d"
	if a.Critical {
		s += ", critical"
	}
	return s + ")"
}

func workingDays(v float64) string {
	if v == 1 {
		return "1 working day"
	}
	return Days(v) + " working days"
}

// textOf keeps names from steering the terminal: text with control
// characters (an escape sequence, a newline) or invalid UTF-8 is quoted.
func textOf(s string) string {
	for _, r := range s {
		if r == unicode.ReplacementChar || !unicode.IsGraphic(r) && r != ' ' {
			return strconv.QuoteToGraphic(s)
		}
	}
	return s
}

// NewRiskImpact is the RiskImpact of going from before to after, given each
// version's P50 and P80 finishes from the same iterations and seed; the
// dates come from each version's calendar.
func NewRiskImpact(before, after *schedule.Schedule, iterations int, seed uint64, p50Before, p80Before, p50After, p80After float64) *RiskImpact {
	// Percentiles of a sampled finish: a hundredth of a day is all the
	// precision iterations give.
	r2 := func(v float64) float64 { return math.Round(v*100) / 100 }
	r := &RiskImpact{
		Iterations: iterations, Seed: seed,
		P50Before: r2(p50Before), P50After: r2(p50After),
		P80Before: r2(p80Before), P80After: r2(p80After), P80Change: r2(p80After - p80Before),
	}
	if c := clockOf(before); c != nil {
		if t, err := c.Finish(p80Before); err == nil {
			r.P80DateBefore = t.Format(schedule.DateTimeLayout)
		}
	}
	if c := clockOf(after); c != nil {
		if t, err := c.Finish(p80After); err == nil {
			r.P80DateAfter = t.Format(schedule.DateTimeLayout)
		}
	}
	return r
}
