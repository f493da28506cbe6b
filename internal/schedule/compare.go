package schedule

import (
	"math"
)

// Comparison is the one change model: how two versions of a schedule
// differ — activities added, removed and changed, relationships added and
// removed — and what that does to their CPM results. The review screen,
// `diff`, a dispatch's impact and a what-if all carry it; render draws it.
// Its JSON is a stable part of `--json` output and of recorded workflow
// histories; lists are [] rather than null when empty.
type Comparison struct {
	// Activities are matched by id. Added and changed ones are in the
	// after schedule's order, removed ones in the before schedule's.
	Added   []ComparedActivity `json:"added"`
	Removed []ComparedActivity `json:"removed"`
	Changed []ActivityChange   `json:"changed"`
	// Relationships are matched by what they say (predecessor, successor,
	// type and lag), not by id: a link re-created with a new id is no
	// change, and a changed lag or type is one removal and one addition.
	RelationshipsAdded   []ComparedRelationship `json:"relationships_added"`
	RelationshipsRemoved []ComparedRelationship `json:"relationships_removed"`
	// Impact is nil when CPM fails on either version (a cycle, a bad
	// duration); ImpactError then says why.
	Impact      *CPMChange `json:"impact,omitempty"`
	ImpactError string     `json:"impact_error,omitempty"`
	// Omitted counts the entries Cap cut from each list, by its JSON name.
	Omitted map[string]int `json:"omitted,omitempty"`
}

// ComparedActivity is an added or removed activity. Critical is its CPM
// status in the version that has it (after for added, before for removed).
type ComparedActivity struct {
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

// ComparedRelationship is an added or removed relationship with the names
// of its ends (from the version that has it) and its arrow text, e.g.
// "Excavate L1 -FS+2-> Pour slab L1".
type ComparedRelationship struct {
	ID              string  `json:"id"`
	Type            RelType `json:"type"`
	Predecessor     string  `json:"predecessor"`
	PredecessorName string  `json:"predecessor_name"`
	Successor       string  `json:"successor"`
	SuccessorName   string  `json:"successor_name"`
	Lag             float64 `json:"lag"`
	Text            string  `json:"text"`
}

// CPMChange is the CPM effect of a change. BecameCritical and
// NoLongerCritical cover activities in both versions (an added activity
// says itself whether it is critical), in the after schedule's order;
// FloatChanged counts the activities in both whose total float changed
// (FloatChanged lists them).
type CPMChange struct {
	Finishes
	BecameCritical   []ComparedActivity `json:"became_critical"`
	NoLongerCritical []ComparedActivity `json:"no_longer_critical"`
	FloatChanged     int                `json:"float_changed"`
	// Risk is the change's effect on the P80 finish, when the schedule has
	// duration distributions (a Monte Carlo run of each version).
	Risk *RiskChange `json:"risk,omitempty"`
}

// Finishes is how a change moves the project finish, in working days from
// the start (rounded by RoundDays); the finish dates (local date-times,
// DateTimeLayout) are present when the version has a start date and its
// finish is within the calendar's range.
type Finishes struct {
	FinishBefore     float64 `json:"finish_before"`
	FinishAfter      float64 `json:"finish_after"`
	FinishChange     float64 `json:"finish_change"`
	FinishDateBefore string  `json:"finish_date_before,omitempty"`
	FinishDateAfter  string  `json:"finish_date_after,omitempty"`
}

// FinishesOf is the move from the finish before (and its date, or "") to
// the finish after.
func FinishesOf(before, after float64, dateBefore, dateAfter string) Finishes {
	return Finishes{
		FinishBefore: RoundDays(before), FinishAfter: RoundDays(after), FinishChange: RoundDays(after - before),
		FinishDateBefore: dateBefore, FinishDateAfter: dateAfter,
	}
}

// RiskChange is a change's effect on the finish percentiles: the same
// iterations and seed on both versions. Times are working days; dates as
// CPMChange's.
type RiskChange struct {
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

// Compare compares before and after (nil counts as empty) and computes CPM
// on both; a version CPM refuses leaves the impact out, with ImpactError
// saying why. It does not modify either schedule.
func Compare(before, after *Schedule) *Comparison {
	if before == nil {
		before = &Schedule{}
	}
	if after == nil {
		after = &Schedule{}
	}
	rb, errB := Analyze(before)
	ra, errA := Analyze(after)
	c := CompareResults(before, after, rb, ra)
	switch {
	case errB != nil:
		c.ImpactError = "CPM before the change: " + errB.Error()
	case errA != nil:
		c.ImpactError = "CPM after the change: " + errA.Error()
	}
	return c
}

// CompareResults is Compare for a caller that has computed CPM on both
// schedules already (rb on before, ra on after). A nil result (CPM failed)
// leaves the impact out and marks no activity critical in that version.
func CompareResults(before, after *Schedule, rb, ra *Result) *Comparison {
	c := &Comparison{
		Added: []ComparedActivity{}, Removed: []ComparedActivity{}, Changed: []ActivityChange{},
		RelationshipsAdded: []ComparedRelationship{}, RelationshipsRemoved: []ComparedRelationship{},
	}
	critical := func(r *Result, id string) bool {
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
			c.Removed = append(c.Removed, ComparedActivity{ID: a.ID, Name: a.Name, Duration: a.Duration, Critical: critical(rb, a.ID)})
		}
	}
	for _, a := range after.Activities {
		i, ok := beforeAt[a.ID]
		if !ok {
			c.Added = append(c.Added, ComparedActivity{ID: a.ID, Name: a.Name, Duration: a.Duration, Critical: critical(ra, a.ID)})
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
			c.Changed = append(c.Changed, ActivityChange{ID: a.ID, Name: a.Name, Changes: ch})
		}
	}

	c.RelationshipsRemoved = unmatchedLinks(before, after)
	c.RelationshipsAdded = unmatchedLinks(after, before)

	if rb != nil && ra != nil {
		c.Impact = cpmChange(before, after, rb, ra)
	}
	return c
}

// Cap keeps at most n entries of each list and counts the rest in
// Omitted, so a comparison of a huge change stays small enough to travel
// in a workflow's history; the text form says "… and N more".
func (c *Comparison) Cap(n int) {
	cut := func(name string, length int) int {
		if length <= n {
			return length
		}
		if c.Omitted == nil {
			c.Omitted = map[string]int{}
		}
		c.Omitted[name] += length - n
		return n
	}
	c.Added = c.Added[:cut("added", len(c.Added))]
	c.Removed = c.Removed[:cut("removed", len(c.Removed))]
	c.Changed = c.Changed[:cut("changed", len(c.Changed))]
	c.RelationshipsAdded = c.RelationshipsAdded[:cut("relationships_added", len(c.RelationshipsAdded))]
	c.RelationshipsRemoved = c.RelationshipsRemoved[:cut("relationships_removed", len(c.RelationshipsRemoved))]
	if im := c.Impact; im != nil {
		im.BecameCritical = im.BecameCritical[:cut("became_critical", len(im.BecameCritical))]
		im.NoLongerCritical = im.NoLongerCritical[:cut("no_longer_critical", len(im.NoLongerCritical))]
	}
}

func activityIndex(s *Schedule) map[string]int {
	m := make(map[string]int, len(s.Activities))
	for i, a := range s.Activities {
		if _, dup := m[a.ID]; !dup {
			m[a.ID] = i
		}
	}
	return m
}

// LinkKey is what a relationship says (its ends, type and lag, the lag to
// 1e-6 days): two relationships with the same key are the same link, even
// under different ids. Comparisons match relationships by it.
type LinkKey struct {
	pred, succ string
	typ        RelType
	lag        float64
}

// LinkKeyOf is r's LinkKey.
func LinkKeyOf(r Relationship) LinkKey {
	return LinkKey{r.Predecessor, r.Successor, r.Type, RoundDays(r.Lag)}
}

// unmatchedLinks lists the relationships of s that other does not have,
// counting repeats (each of other's links matches at most one of s's).
func unmatchedLinks(s, other *Schedule) []ComparedRelationship {
	have := map[LinkKey]int{}
	for _, r := range other.Relationships {
		have[LinkKeyOf(r)]++
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
	out := []ComparedRelationship{}
	for _, r := range s.Relationships {
		k := LinkKeyOf(r)
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, ComparedRelationship{
			ID: r.ID, Type: r.Type, Lag: r.Lag,
			Predecessor: r.Predecessor, PredecessorName: name(r.Predecessor),
			Successor: r.Successor, SuccessorName: name(r.Successor),
			Text: name(r.Predecessor) + " -" + TypeLag(r.Type, r.Lag) + "-> " + name(r.Successor),
		})
	}
	return out
}

func cpmChange(before, after *Schedule, rb, ra *Result) *CPMChange {
	im := &CPMChange{
		// A finish past the calendar's range has no date (never a clamped,
		// wrong one); the impact still says it in working days.
		Finishes:       FinishesOf(rb.ProjectDuration, ra.ProjectDuration, projectFinishDate(before, rb), projectFinishDate(after, ra)),
		BecameCritical: []ComparedActivity{}, NoLongerCritical: []ComparedActivity{},
		FloatChanged: len(FloatChanged(after, rb, ra)),
	}
	for i, a := range after.Activities {
		j, ok := rb.Net.Index(a.ID)
		if !ok {
			continue
		}
		ca := ComparedActivity{ID: a.ID, Name: a.Name, Duration: a.Duration}
		switch cb, cr := rb.Critical(j), ra.Critical(i); {
		case cr && !cb:
			ca.Critical = true
			im.BecameCritical = append(im.BecameCritical, ca)
		case cb && !cr:
			im.NoLongerCritical = append(im.NoLongerCritical, ca)
		}
	}
	return im
}

// FloatChanged lists the ids, in after's order, of the activities in both
// versions whose total float changed (by more than Epsilon) from rb, the
// CPM of the version before, to ra, the CPM of after.
func FloatChanged(after *Schedule, rb, ra *Result) []string {
	var ids []string
	for _, a := range after.Activities {
		j, okB := rb.Net.Index(a.ID)
		i, okA := ra.Net.Index(a.ID)
		if okA && okB && math.Abs(ra.TotalFloat[i]-rb.TotalFloat[j]) > Epsilon {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// projectFinishDate is the date-time (DateTimeLayout) r's project
// finishes: the live engine's own date, else its offset dated on s's
// calendar (see finishDate).
func projectFinishDate(s *Schedule, r *Result) string {
	if r.Times != nil {
		return r.Times.Finish.Format(DateTimeLayout)
	}
	return finishDate(s, r.ProjectDuration)
}

// finishDate is the date-time (DateTimeLayout) working-day offset ends on
// in s's calendar; "" when s has no valid start date or the offset is past
// the calendar's range.
func finishDate(s *Schedule, offset float64) string {
	if s.StartDate == "" {
		return ""
	}
	c, err := NewClock(s.StartDate, s.Calendar)
	if err != nil {
		return ""
	}
	t, err := c.Finish(offset)
	if err != nil {
		return ""
	}
	return t.Format(DateTimeLayout)
}

// NewRiskChange is the RiskChange of going from before to after, given
// each version's P50 and P80 finishes from the same iterations and seed;
// the dates come from each version's calendar.
func NewRiskChange(before, after *Schedule, iterations int, seed uint64, p50Before, p80Before, p50After, p80After float64) *RiskChange {
	// Percentiles of a sampled finish: a hundredth of a day is all the
	// precision iterations give.
	r2 := func(v float64) float64 { return math.Round(v*100) / 100 }
	return &RiskChange{
		Iterations: iterations, Seed: seed,
		P50Before: r2(p50Before), P50After: r2(p50After),
		P80Before: r2(p80Before), P80After: r2(p80After), P80Change: r2(p80After - p80Before),
		P80DateBefore: finishDate(before, p80Before), P80DateAfter: finishDate(after, p80After),
	}
}

// Impact is the CPM effect of a round of changes as a dispatch reports it:
// the finish before and after (working days), both critical paths
// (activity ids by early start), the ids, in the after schedule's order,
// of activities in both versions whose total float changed, and the
// comparison the review screen shows. It is the ComputeImpact activity's
// result and the dispatch workflow's payload (workflows.Impact), recorded
// in histories as JSON.
type Impact struct {
	FinishBefore   float64  `json:"finish_before"`
	FinishAfter    float64  `json:"finish_after"`
	CriticalBefore []string `json:"critical_before"`
	CriticalAfter  []string `json:"critical_after"`
	FloatChanged   []string `json:"float_changed,omitempty"`
	// Diff is the review screen's before/after: what changed, finish moved
	// by how much (with dates when the schedule has a start date), which
	// activities became critical.
	Diff *Comparison `json:"diff,omitempty"`
	// RiskRating is how far a reviewer can trust the change (issue 31),
	// shown before everything else; nil in histories recorded before it.
	RiskRating *RiskRating `json:"risk_rating,omitempty"`
}

// RiskLevel grades a proposal for its reviewer, from RiskLow to
// RiskCritical.
type RiskLevel string

// The risk levels, in rising order (RiskLevel.Rank).
const (
	RiskLow      RiskLevel = "low"
	RiskMedium   RiskLevel = "medium"
	RiskHigh     RiskLevel = "high"
	RiskCritical RiskLevel = "critical"
)

// Rank orders the levels: 0 for low up to 3 for critical, -1 for a level
// this version does not know.
func (l RiskLevel) Rank() int {
	switch l {
	case RiskLow:
		return 0
	case RiskMedium:
		return 1
	case RiskHigh:
		return 2
	case RiskCritical:
		return 3
	}
	return -1
}

// The kinds of RiskReason: stable, scripts and the web page key on them.
const (
	RiskCriticalDeleted  = "critical_work_deleted"
	RiskLogicCut         = "logic_cut"
	RiskOpenEnds         = "open_ends"
	RiskConstraintsAdded = "constraints_added"
	RiskFloatConsumed    = "float_consumed"
	RiskCheckWorse       = "check_worse"
	RiskUnrated          = "unrated" // the change could not be rated
)

// RiskRating is a proposal's risk: its level (the highest of its
// reasons', low when there are none) and every reason, highest first.
type RiskRating struct {
	Level RiskLevel `json:"level"`
	// Summary is the rating in one sentence, its worst reason first.
	Summary string       `json:"summary"`
	Reasons []RiskReason `json:"reasons"`
	// FinishFromCutLogic says the finish moves earlier only because a
	// driving chain was cut: never to be shown as good news.
	FinishFromCutLogic bool `json:"finish_from_cut_logic,omitempty"`
	// DissolveInstead are the deleted activities whose deletion cut
	// driving logic: dissolving them instead removes the same work and
	// ties their predecessors to their successors. DissolveFeedback is
	// the reject-with-feedback text that asks the planner for that round.
	DissolveInstead  []RiskItem `json:"dissolve_instead,omitempty"`
	DissolveFeedback string     `json:"dissolve_feedback,omitempty"`
}

// RiskReason is one reason for a rating: its kind, level, a sentence for
// a person and what it names — activities (or, for a check on
// relationships, the relationships), the chains cut, the check.
type RiskReason struct {
	Kind  string     `json:"kind"`
	Level RiskLevel  `json:"level"`
	Text  string     `json:"text"`
	Items []RiskItem `json:"items"`
	// Chains are the driving chains a logic cut broke.
	Chains []RiskChain `json:"chains,omitempty"`
	// Check is the id of the check a check_worse reason is about.
	Check string `json:"check,omitempty"`
	// Omitted counts the items left out of a long list.
	Omitted int `json:"omitted,omitempty"`
}

// RiskItem is an activity (or relationship) a reason names, with its
// name ("predecessor name -> successor name" for a relationship).
type RiskItem struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// RiskChain is a driving chain a change broke: From drove To (through
// Via, the activities deleted between them, when there are any) and no
// longer reaches it; To now starts earlier, or is no longer held by it.
type RiskChain struct {
	From RiskItem   `json:"from"`
	Via  []RiskItem `json:"via,omitempty"`
	// ViaOmitted counts the deleted activities of a long chain left out
	// of Via (the ones nearest To).
	ViaOmitted int      `json:"via_omitted,omitempty"`
	To         RiskItem `json:"to"`
	// Critical says the chain drove the project finish.
	Critical bool `json:"critical,omitempty"`
}

// ImpactOf is the Impact of going from before (whose CPM is rb) to after
// (ra).
func ImpactOf(before, after *Schedule, rb, ra *Result) Impact {
	return Impact{
		FinishBefore:   rb.ProjectDuration,
		FinishAfter:    ra.ProjectDuration,
		CriticalBefore: rb.CriticalPath(),
		CriticalAfter:  ra.CriticalPath(),
		FloatChanged:   FloatChanged(after, rb, ra),
		Diff:           CompareResults(before, after, rb, ra),
	}
}

// RoundDays rounds working days to 1e-6 (a millionth of a day, under a
// tenth of a second), the precision schedules are shown and compared at;
// never "-0", and numbers too large to round are left as they are.
func RoundDays(v float64) float64 {
	if math.Abs(v) >= 1<<53/1e6 {
		return v
	}
	r := math.Round(v*1e6) / 1e6
	if r == 0 {
		return 0
	}
	return r
}

// TypeLag is "FS", "SS+2" or "FF-1.5": a relationship's type, with its lag
// (rounded by RoundDays) only when it is not zero.
func TypeLag(t RelType, lag float64) string {
	switch l := RoundDays(lag); {
	case l > 0:
		return string(t) + "+" + formatDays(l)
	case l < 0:
		return string(t) + formatDays(l)
	}
	return string(t)
}
