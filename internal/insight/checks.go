package insight

// Schedule quality checks: the DCMA 14-point assessment, each point where
// the schedule has what it needs (a live programme's points are in
// checks_live.go), plus two logic checks of our own (redundant links,
// dangling ends).
//
// Every check counts offenders: activities (missing_logic, high_float,
// negative_float, high_duration, critical_path_test, dangling_starts,
// dangling_finishes and the live points) or relationships (leads, lags,
// relationship_types, redundant_links), listed by id, with their names, in
// schedule order. Percentages are of all activities or all relationships,
// except that float and duration count DCMA's incomplete tasks: activities
// not finished and not WBS summaries or level of effort (a plan without
// progress has none of those, so there every activity counts, milestones
// included).
//
// The project start and finish, which DCMA excuses from missing logic:
//   - start: the only activity without a predecessor; when several have
//     none, the first of them in schedule order that is a milestone
//     (duration 0). Otherwise none is excused.
//   - finish: the only activity without a successor, if it finishes at
//     the project finish; when several have none, the last of them in
//     schedule order that is a milestone and finishes at the project
//     finish. Otherwise none is excused. (An activity without a predecessor
//     always starts on day 0; one without a successor can finish early,
//     e.g. when it hangs off an SF link: then it is no project finish.)
//
// Both are also left out of the dangling checks.
//
// The DCMA points left out, and why, are in NotApplicable.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The check ids: stable, scripts and the web app key on them.
const (
	CheckMissingLogic      = "missing_logic"
	CheckLeads             = "leads"
	CheckLags              = "lags"
	CheckRelationshipTypes = "relationship_types"
	CheckHighFloat         = "high_float"
	CheckNegativeFloat     = "negative_float"
	CheckHighDuration      = "high_duration"
	CheckCriticalPathTest  = "critical_path_test"
	CheckRedundantLinks    = "redundant_links"
	CheckDanglingStarts    = "dangling_starts"
	CheckDanglingFinishes  = "dangling_finishes"
	CheckHardConstraints   = "hard_constraints"
	CheckInvalidDates      = "invalid_dates"
	CheckResources         = "resources"
	CheckMissedActivities  = "missed_activities"
	CheckCPLI              = "cpli"
	CheckBEI               = "bei"
)

// HardConstraintsPct is DCMA's limit on hard constraints: at most 5% of
// activities.
const HardConstraintsPct = 5

// Thresholds configure the checks. Percentages are 0-100 of all
// activities or all relationships; days are working days.
type Thresholds struct {
	// MissingLogicPct: at most this % of activities lack a predecessor or
	// a successor (the project start and finish excused). DCMA: 5.
	MissingLogicPct float64
	// MaxLeads: at most this many relationships with a negative lag. DCMA: 0.
	MaxLeads int
	// LagsPct: at most this % of relationships have a positive lag. DCMA: 5.
	LagsPct float64
	// MinFSPct: at least this % of relationships are finish-to-start. DCMA: 90.
	MinFSPct float64
	// HighFloatDays: an activity whose total float exceeds it has high
	// float; at most HighFloatPct % of activities may. DCMA: 44 and 5.
	HighFloatDays float64
	HighFloatPct  float64
	// MaxNegativeFloat: at most this many activities with total float
	// below zero. DCMA: 0.
	MaxNegativeFloat int
	// HighDurationDays: an activity longer than it has a high duration;
	// at most HighDurationPct % of activities may. DCMA: 44 and 5.
	HighDurationDays float64
	HighDurationPct  float64
	// CriticalPathDelay: the critical path test makes the first critical
	// task this many working days longer; the project finish must move by
	// exactly as much. DCMA suggests a large slip (600 days); any positive
	// delay tests the same logic, 10 keeps the dates readable.
	CriticalPathDelay float64
	// MaxRedundantLinks: at most this many FS links that a chain of FS
	// links already implies. Default 0.
	MaxRedundantLinks int
	// MaxDanglingPct: at most this % of activities have a dangling start
	// (respectively a dangling finish). Default 5.
	MaxDanglingPct float64
	// NoResourcesPct: at most this % of incomplete tasks with a duration
	// have no resource assignment, when the file carries assignments.
	// DCMA: 0 (every such task resourced).
	NoResourcesPct float64
	// MissedPct: at most this % of the activities due by the data date
	// (baseline finish before it) finished late or not at all. DCMA: 5.
	MissedPct float64
	// MinCPLI and MinBEI: the critical path length index and the baseline
	// execution index must be at least these. DCMA: 0.95 each.
	MinCPLI, MinBEI float64
}

// DefaultThresholds are DCMA's, with the choices documented on Thresholds.
func DefaultThresholds() Thresholds {
	return Thresholds{
		MissingLogicPct:   5,
		MaxLeads:          0,
		LagsPct:           5,
		MinFSPct:          90,
		HighFloatDays:     44,
		HighFloatPct:      5,
		MaxNegativeFloat:  0,
		HighDurationDays:  44,
		HighDurationPct:   5,
		CriticalPathDelay: 10,
		MaxRedundantLinks: 0,
		MaxDanglingPct:    5,
		NoResourcesPct:    0,
		MissedPct:         5,
		MinCPLI:           0.95,
		MinBEI:            0.95,
	}
}

// Validate refuses thresholds no check can use: negative values,
// percentages over 100, a delay that is not positive or beyond
// schedule.MaxDays.
func (t Thresholds) Validate() error {
	pcts := []struct {
		name string
		v    float64
	}{
		{"missing logic %", t.MissingLogicPct}, {"lags %", t.LagsPct}, {"FS %", t.MinFSPct},
		{"high float %", t.HighFloatPct}, {"high duration %", t.HighDurationPct}, {"dangling %", t.MaxDanglingPct},
		{"no resources %", t.NoResourcesPct}, {"missed %", t.MissedPct},
	}
	for _, p := range pcts {
		if math.IsNaN(p.v) || p.v < 0 || p.v > 100 {
			return fmt.Errorf("%s %v: want a percentage from 0 to 100", p.name, p.v)
		}
	}
	for _, d := range []struct {
		name string
		v    float64
	}{{"high float days", t.HighFloatDays}, {"high duration days", t.HighDurationDays}} {
		if math.IsNaN(d.v) || d.v < 0 || d.v > schedule.MaxDays {
			return fmt.Errorf("%s %v: want 0 to %d working days", d.name, d.v, schedule.MaxDays)
		}
	}
	if math.IsNaN(t.CriticalPathDelay) || t.CriticalPathDelay <= 0 || t.CriticalPathDelay > schedule.MaxDays {
		return fmt.Errorf("critical path delay %v: want more than 0 and at most %d working days", t.CriticalPathDelay, schedule.MaxDays)
	}
	for _, x := range []struct {
		name string
		v    float64
	}{{"minimum CPLI", t.MinCPLI}, {"minimum BEI", t.MinBEI}} {
		if math.IsNaN(x.v) || x.v < 0 || x.v > 10 {
			return fmt.Errorf("%s %v: want an index from 0 to 10 (DCMA: 0.95)", x.name, x.v)
		}
	}
	if t.MaxLeads < 0 || t.MaxNegativeFloat < 0 || t.MaxRedundantLinks < 0 {
		return fmt.Errorf("a maximum count is negative")
	}
	return nil
}

// CheckResult is one check's outcome. Its JSON is the `check --json` shape:
// {"id", "name", "passed", "count", "threshold", "offenders",
// "offender_names"}; offenders is [] (never null) when there are none, and
// offender_names[i] names offenders[i]: the activity's name, or for a
// relationship "predecessor name -> successor name".
type CheckResult struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Passed        bool     `json:"passed"`
	Count         int      `json:"count"`
	Threshold     string   `json:"threshold"`
	Offenders     []string `json:"offenders"`
	OffenderNames []string `json:"offender_names"`
	// Of is what Count is out of (all activities or all relationships),
	// and Unit names them: "activities" or "relationships".
	Of   int    `json:"-"`
	Unit string `json:"-"`
	// Detail says more for a person, e.g. how far the finish moved in the
	// critical path test; empty when there is nothing to add.
	Detail string `json:"-"`
}

// Labels are the offenders as a person reads them: "Pour slab Level 3
// (A045)", or the id alone where there is no name.
func (c CheckResult) Labels() []string {
	out := make([]string, len(c.Offenders))
	for i, id := range c.Offenders {
		out[i] = id
		if i < len(c.OffenderNames) && c.OffenderNames[i] != "" && c.OffenderNames[i] != id {
			out[i] = c.OffenderNames[i] + " (" + id + ")"
		}
	}
	return out
}

// NotApplicablePoint is a DCMA point the checks leave out.
type NotApplicablePoint struct {
	Point  int
	Name   string
	Reason string
}

// NotApplicable lists the DCMA 14 points that apply only when the schedule
// has what they need, with what that is (NotApplicableTo says which do
// not apply to a given schedule, and why).
var NotApplicable = []NotApplicablePoint{
	{5, "Hard constraints", "needs date constraints (must start on, finish no later than ...); without them every date comes from logic"},
	{9, "Invalid dates", "needs a data date (status date)"},
	{10, "Resources", "needs activities with resource assignments"},
	{11, "Missed activities", "needs a data date and a baseline"},
	{13, "Critical path length index (CPLI)", "needs a data date and a deadline (a finish constraint); without one the critical path has no float and the index is always 1"},
	{14, "Baseline execution index (BEI)", "needs a data date and a baseline"},
}

// NotApplicableTo lists the DCMA points that do not apply to v, each with
// the reason for this schedule ("no baseline", "no data date: ...").
func NotApplicableTo(v *View) []NotApplicablePoint {
	reasons := newChecker(v).notApplicable()
	var out []NotApplicablePoint
	for _, p := range NotApplicable {
		if why, ok := reasons[p.Point]; ok {
			p.Reason = why
			out = append(out, p)
		}
	}
	return out
}

const (
	unitActivities    = "activities"
	unitRelationships = "relationships"
)

// RunChecks runs every check that applies to v (see NotApplicableTo) with
// thresholds t, in a fixed order. Its only error is from thresholds that
// do not validate or a critical path test that cannot be computed.
func RunChecks(v *View, t Thresholds) ([]CheckResult, error) {
	return newChecker(v).run(t)
}

func (c *checker) run(t Thresholds) ([]CheckResult, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	cpt, err := c.criticalPathTest(t.CriticalPathDelay)
	if err != nil {
		return nil, err
	}
	results := []CheckResult{
		c.missingLogic(t.MissingLogicPct),
		c.leads(t.MaxLeads),
		c.lags(t.LagsPct),
		c.relationshipTypes(t.MinFSPct),
		c.highFloat(t.HighFloatDays, t.HighFloatPct),
		c.negativeFloat(t.MaxNegativeFloat),
		c.highDuration(t.HighDurationDays, t.HighDurationPct),
		cpt,
		c.redundantLinks(t.MaxRedundantLinks),
		c.danglingStarts(t.MaxDanglingPct),
		c.danglingFinishes(t.MaxDanglingPct),
	}
	// The live programme's points, where its data has them.
	na := c.notApplicable()
	live := []struct {
		point int
		check func() CheckResult
	}{
		{5, c.hardConstraints},
		{9, c.invalidDates},
		{10, func() CheckResult { return c.resources(t.NoResourcesPct) }},
		{11, func() CheckResult { return c.missedActivities(t.MissedPct) }},
		{13, func() CheckResult { return c.cpliCheck(t.MinCPLI) }},
		{14, func() CheckResult { return c.beiCheck(t.MinBEI) }},
	}
	for _, p := range live {
		if _, skip := na[p.point]; !skip {
			results = append(results, p.check())
		}
	}
	for i := range results {
		results[i].OffenderNames = c.names(&results[i])
	}
	return results, nil
}

// byActivity lists, in schedule order, the activities bad holds for (each
// with its network index).
func (c *checker) byActivity(bad func(a *schedule.Activity, j int) bool) []string {
	out := []string{}
	for i := range c.v.S.Activities {
		if bad(&c.v.S.Activities[i], c.order[i]) {
			out = append(out, c.v.S.Activities[i].ID)
		}
	}
	return out
}

// Failed counts the checks that did not pass.
func Failed(results []CheckResult) int {
	n := 0
	for _, r := range results {
		if !r.Passed {
			n++
		}
	}
	return n
}

// Worse lists the checks a change makes worse: each result of after whose
// check passed before and fails after, or has more offenders than before
// (a check before did not have counts as worse when it fails). Results are
// after's, in after's order; nil when nothing got worse.
func Worse(before, after []CheckResult) []CheckResult {
	prev := make(map[string]CheckResult, len(before))
	for _, b := range before {
		prev[b.ID] = b
	}
	var worse []CheckResult
	for _, a := range after {
		b, ok := prev[a.ID]
		if !ok && !a.Passed || ok && (b.Passed && !a.Passed || a.Count > b.Count) {
			worse = append(worse, a)
		}
	}
	return worse
}

// NewOffenders lists the offenders of after that before did not have, in
// after's order.
func NewOffenders(before, after CheckResult) []string {
	var added []string
	for _, id := range after.Offenders {
		if !slices.Contains(before.Offenders, id) {
			added = append(added, id)
		}
	}
	return added
}

// checker holds what several checks share.
type checker struct {
	v *View
	n int
	// baseline is each activity's baseline finish (see baselineFinish);
	// a field so that tests can give one before the model has it.
	baseline func(*schedule.Activity) (time.Time, bool)
	// resourced is resourced, likewise.
	resourced func(*schedule.Activity) bool
	// dur is each activity's CPM duration, by network index.
	dur []float64
	// order is the schedule's activities in schedule order (network indexes).
	order []int
	// start and finish are the project start and finish (network indexes),
	// -1 when none is recognised.
	start, finish int
}

func newChecker(v *View) *checker {
	n := v.R.Net.Len()
	c := &checker{v: v, n: n, dur: make([]float64, n), order: make([]int, len(v.S.Activities)), start: -1, finish: -1,
		baseline: baselineFinish, resourced: resourced}
	for i := range v.S.Activities {
		j, _ := v.Index(v.S.Activities[i].ID)
		c.order[i] = j
	}
	for j := 0; j < n; j++ {
		c.dur[j] = v.R.EF[j] - v.R.ES[j]
	}
	var noPred, noSucc []int
	for _, j := range c.order {
		if len(v.Preds(j)) == 0 {
			noPred = append(noPred, j)
		}
		if len(v.Succs(j)) == 0 {
			noSucc = append(noSucc, j)
		}
	}
	if len(noPred) == 1 {
		c.start = noPred[0]
	} else {
		for _, j := range noPred {
			if c.milestone(j) {
				c.start = j
				break
			}
		}
	}
	atFinish := func(j int) bool { return v.R.EF[j] >= v.R.ProjectDuration-schedule.Epsilon }
	if len(noSucc) == 1 {
		if atFinish(noSucc[0]) {
			c.finish = noSucc[0]
		}
	} else {
		for _, j := range slices.Backward(noSucc) {
			if c.milestone(j) && atFinish(j) {
				c.finish = j
				break
			}
		}
	}
	return c
}

// milestone reports whether activity j has no duration.
func (c *checker) milestone(j int) bool { return c.dur[j] <= schedule.Epsilon }

// ProjectEnds names the activities the checks take for the project start
// and finish (see the package notes on checks); "" when none is recognised.
func ProjectEnds(v *View) (start, finish string) {
	c := newChecker(v)
	if c.start >= 0 {
		start = v.R.Net.ID(c.start)
	}
	if c.finish >= 0 {
		finish = v.R.Net.ID(c.finish)
	}
	return start, finish
}

// activities collects the ids of the activities bad reports, in schedule order.
func (c *checker) activities(bad func(j int) bool) []string {
	return c.byActivity(func(_ *schedule.Activity, j int) bool { return bad(j) })
}

// relationships collects the ids of the relationships bad reports, in
// schedule order.
func (c *checker) relationships(bad func(k int, r *schedule.Relationship) bool) []string {
	out := []string{}
	for k := range c.v.S.Relationships {
		if r := &c.v.S.Relationships[k]; bad(k, r) {
			out = append(out, r.ID)
		}
	}
	return out
}

// pctResult is a check passing when at most pct % of of are offenders.
func pctResult(id, name string, offenders []string, pct float64, of int, unit, rule string) CheckResult {
	allowed := int(math.Floor(pct*float64(of)/100 + 1e-9))
	return CheckResult{
		ID: id, Name: name, Offenders: offenders, Count: len(offenders), Of: of, Unit: unit,
		Passed:    len(offenders) <= allowed,
		Threshold: fmt.Sprintf("%s<= %s%% of %s (%d of %d)", rule, checkNum(pct), unit, allowed, of),
	}
}

// countResult is a check passing when at most max are offenders.
func countResult(id, name string, offenders []string, max int, of int, unit string) CheckResult {
	return CheckResult{
		ID: id, Name: name, Offenders: offenders, Count: len(offenders), Of: of, Unit: unit,
		Passed:    len(offenders) <= max,
		Threshold: fmt.Sprintf("<= %d %s", max, unit),
	}
}

func checkNum(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// missingLogic: DCMA 1. An activity without a predecessor (unless it is
// the project start) or without a successor (unless it is the project
// finish) is counted once.
func (c *checker) missingLogic(pct float64) CheckResult {
	v := c.v
	bad := c.activities(func(j int) bool {
		return len(v.Preds(j)) == 0 && j != c.start || len(v.Succs(j)) == 0 && j != c.finish
	})
	return pctResult(CheckMissingLogic, "Missing logic: activities without a predecessor or a successor, the project start and finish excused (DCMA 1)",
		bad, pct, c.n, unitActivities, "")
}

// leads: DCMA 2. Relationships with a negative lag.
func (c *checker) leads(max int) CheckResult {
	bad := c.relationships(func(_ int, r *schedule.Relationship) bool { return r.Lag < 0 })
	return countResult(CheckLeads, "Leads: relationships with a negative lag (DCMA 2)", bad, max, len(c.v.S.Relationships), unitRelationships)
}

// lags: DCMA 3. Relationships with a positive lag, whatever their type.
func (c *checker) lags(pct float64) CheckResult {
	bad := c.relationships(func(_ int, r *schedule.Relationship) bool { return r.Lag > 0 })
	return pctResult(CheckLags, "Lags: relationships with a positive lag (DCMA 3)", bad, pct, len(c.v.S.Relationships), unitRelationships, "")
}

// relationshipTypes: DCMA 4. At least minFS % of relationships are FS; the
// offenders are the others (SS, FF, SF).
func (c *checker) relationshipTypes(minFS float64) CheckResult {
	bad := c.relationships(func(_ int, r *schedule.Relationship) bool { return r.Type != schedule.FS })
	res := pctResult(CheckRelationshipTypes, "Relationship types: relationships that are not finish-to-start (DCMA 4)",
		bad, 100-minFS, len(c.v.S.Relationships), unitRelationships, fmt.Sprintf("FS >= %s%%: non-FS ", checkNum(minFS)))
	return res
}

// highFloat: DCMA 6. Incomplete tasks (see counted) with total float
// over days: working days of the activity's calendar on a live programme.
func (c *checker) highFloat(days, pct float64) CheckResult {
	r := c.v.R
	bad := c.activities(func(j int) bool { return c.counted(j) && r.TotalFloat[j] > days+schedule.Epsilon })
	return pctResult(CheckHighFloat, fmt.Sprintf("High float: total float over %s working days (DCMA 6)", checkNum(days)),
		bad, pct, c.countedN(), unitActivities, "")
}

// negativeFloat: DCMA 7. Incomplete tasks whose total float is below
// zero: without constraints CPM never makes one; the check is kept so a
// report shows it was made. A plan's float is LS - ES; a live
// programme's is the engine's, on the activity's calendar as its tool
// measures it.
func (c *checker) negativeFloat(max int) CheckResult {
	r := c.v.R
	bad := c.activities(func(j int) bool {
		if r.Times != nil {
			return c.counted(j) && r.Times.FloatMinutes[j] < 0
		}
		return r.LS[j]-r.ES[j] < -schedule.Epsilon
	})
	return countResult(CheckNegativeFloat, "Negative float: total float below zero (DCMA 7)", bad, max, c.countedN(), unitActivities)
}

// highDuration: DCMA 8. Incomplete tasks with a CPM duration (a
// distribution's mode or mean) over days. On a live programme it is the
// planned duration as written (DCMA reads the baseline's), not the span
// of dates, which the data date, actual starts and calendars stretch or
// cut.
func (c *checker) highDuration(days, pct float64) CheckResult {
	bad := c.activities(func(j int) bool {
		if !c.counted(j) {
			return false
		}
		d := c.dur[j]
		if a := c.v.Activity(j); c.v.R.Times != nil {
			d, _ = schedule.DurationDays(a.Duration)
			if a.Type == schedule.StartMilestone || a.Type == schedule.FinishMilestone {
				d = 0
			}
		}
		return d > days+schedule.Epsilon
	})
	return pctResult(CheckHighDuration, fmt.Sprintf("High duration: duration over %s working days (DCMA 8)", checkNum(days)),
		bad, pct, c.countedN(), unitActivities, "")
}

// criticalPathTest: DCMA 12. The first task on the first driving path to
// the project finish (an activity with a duration; the first activity
// when all are milestones) is made delay days longer, on a copy; the
// project finish must move by exactly delay. On a live programme finished
// work is on no path, so the task is the incomplete critical work nearest
// the data date, lengthened as its tool would (see lengthenLive), and the
// finish must move as far as the task's own finish did, both in working
// days of the project calendar (the task's calendar may count the delay
// differently). It fails when the critical path does not run through
// that task's duration — e.g. it enters and leaves by SS links, so the
// task's finish drives nothing, or a constraint holds a later activity.
// Count is 1 on failure (the tested activity is the offender), 0
// otherwise; a schedule without activities passes.
func (c *checker) criticalPathTest(delay float64) (CheckResult, error) {
	v := c.v
	res := CheckResult{ID: CheckCriticalPathTest, Name: "Critical path test: a critical task made longer moves the project finish by as much (DCMA 12)",
		Passed: true, Offenders: []string{}, Of: c.n, Unit: unitActivities}
	paths := v.R.DrivingPaths(1)
	if len(paths) == 0 || len(paths[0]) == 0 {
		res.Threshold = "no critical path to test"
		return res, nil
	}
	tested := paths[0][0]
	for _, id := range paths[0] {
		if j, _ := v.Index(id); !c.milestone(j) && c.lengthenable(j) {
			tested = id
			break
		}
	}
	j, _ := v.Index(tested)
	if v.R.Times != nil && !c.lengthenable(j) {
		// Typed milestones and summaries keep no duration to lengthen.
		res.Threshold = "no incomplete task on the critical path to test"
		return res, nil
	}
	res.Threshold = fmt.Sprintf("finish moves %s days when %s takes %s days longer", checkNum(delay), tested, checkNum(delay))
	var m movement
	var err error
	if v.R.Times != nil {
		m, err = c.lengthenLive(j, delay)
	} else {
		m, err = c.lengthenPlan(j, delay)
	}
	if err != nil {
		return res, fmt.Errorf("critical path test: %w", err)
	}
	own := ""
	if math.Abs(m.own-delay) > schedule.Epsilon {
		own = fmt.Sprintf(" (its finish %s working days later)", checkNum(checkRound(m.own)))
	}
	res.Detail = fmt.Sprintf("%s made %s days longer%s: the finish moved %s days (%s to %s)", tested, checkNum(delay), own,
		checkNum(checkRound(m.finish)), m.from, m.to)
	// A plan's offsets are exact. A live programme's are working time on
	// the project calendar, where a start waits for its own calendar's
	// next working period: half a day absorbs that, never a day of float.
	tolerance := schedule.Epsilon
	if v.R.Times != nil {
		tolerance = 0.5
	}
	if m.own <= schedule.Epsilon || math.Abs(m.finish-m.own) > tolerance {
		res.Passed, res.Count, res.Offenders = false, 1, []string{tested}
	}
	return res, nil
}

// movement is how far the critical path test moved things, in working
// days of the project calendar: the tested activity's own finish and the
// project finish, which moved from and to.
type movement struct {
	own, finish float64
	from, to    string
}

// lengthenPlan makes activity j of a plan delay working days longer, on a
// copy: its finish moves delay days, the project finish as far as the
// logic takes it (working-day offsets).
func (c *checker) lengthenPlan(j int, delay float64) (movement, error) {
	v := c.v
	s := v.S.Clone()
	longer := c.dur[j] + delay
	if longer > schedule.MaxDays {
		return movement{}, fmt.Errorf("%s would last %s working days, beyond the limit of %d", v.R.Net.ID(j), checkNum(longer), schedule.MaxDays)
	}
	s.Activities[v.pos[j]].Duration = strconv.FormatFloat(longer, 'f', -1, 64)
	r2, err := schedule.Analyze(s)
	if err != nil {
		return movement{}, err
	}
	return movement{own: delay, finish: r2.ProjectDuration - v.R.ProjectDuration,
		from: checkNum(checkRound(v.R.ProjectDuration)), to: checkNum(checkRound(r2.ProjectDuration))}, nil
}

// checkRound drops binary noise below a millionth of a day for display.
func checkRound(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// redundantLinks: an FS link A->C (any lag L) is redundant when another
// chain A->X1->...->Xk->C (k >= 1) of FS links, each with a lag >= 0,
// has lags summing to at least L. Such a chain makes C start at least
// (sum of lags + the durations of X1..Xk) >= L days after A finishes,
// whatever the durations are, so the link never constrains anything:
// removing it (or every flagged link at once) leaves every date as it is.
// SS, FF and SF links are never flagged, nor links a chain implies only
// through durations (they may change), nor chains with a lead or a non-FS
// link. Offenders are relationship ids.
func (c *checker) redundantLinks(max int) CheckResult {
	bad := c.redundant()
	return countResult(CheckRedundantLinks, "Redundant links: FS links that a longer chain of FS links already implies",
		bad, max, len(c.v.S.Relationships), unitRelationships)
}

func (c *checker) redundant() []string {
	v := c.v
	rels := v.S.Relationships
	chain := func(k int) bool { return rels[k].Type == schedule.FS && rels[k].Lag >= 0 }
	topo := c.topoPos()
	// Scratch, reused across sources: best[x] is the largest lag sum of a
	// chain of one or more links from the source to x, valid when
	// seen[x] == stamp.
	best := make([]float64, c.n)
	seen := make([]int, c.n)
	stamp := 0
	redundant := make([]bool, len(rels))
	var stack, reach []int
	for a := 0; a < c.n; a++ {
		// Candidate links out of a: FS (any lag). A chain to a candidate's
		// successor starts with another link out of a, a chain link (every
		// chain link is a candidate too).
		var cands []int
		chains := 0
		for _, k := range v.Succs(a) {
			if rels[k].Type == schedule.FS {
				cands = append(cands, k)
			}
			if chain(k) {
				chains++
			}
		}
		if chains == 0 || len(cands) < 2 {
			continue // no chain can start beside the candidate
		}
		// A chain to target t only passes activities finishing by t's
		// start and placed before t in topological order.
		maxES, maxPos := math.Inf(-1), -1
		for _, k := range cands {
			t, _ := v.Index(rels[k].Successor)
			maxES, maxPos = max(maxES, v.R.ES[t]), max(maxPos, topo[t])
		}
		stamp++
		reach = reach[:0]
		stack = stack[:0]
		push := func(x int) {
			if seen[x] != stamp {
				seen[x] = stamp
				best[x] = math.Inf(-1)
				reach = append(reach, x)
				stack = append(stack, x)
			}
		}
		for _, k := range v.Succs(a) {
			if x, _ := v.Index(rels[k].Successor); chain(k) && topo[x] < maxPos && v.R.EF[x] <= maxES+schedule.Epsilon {
				push(x)
			}
		}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, k := range v.Succs(x) {
				if y, _ := v.Index(rels[k].Successor); chain(k) && topo[y] < maxPos && v.R.EF[y] <= maxES+schedule.Epsilon {
					push(y)
				}
			}
		}
		slices.SortFunc(reach, func(x, y int) int { return topo[x] - topo[y] })
		for _, k := range v.Succs(a) {
			if x, _ := v.Index(rels[k].Successor); chain(k) && seen[x] == stamp {
				best[x] = max(best[x], rels[k].Lag)
			}
		}
		for _, x := range reach {
			for _, k := range v.Succs(x) {
				if y, _ := v.Index(rels[k].Successor); chain(k) && seen[y] == stamp {
					best[y] = max(best[y], best[x]+rels[k].Lag)
				}
			}
		}
		// Through-chains into each target: a chain of two or more links
		// ends with a link x->t from an x the source reaches.
		for _, k := range cands {
			t, _ := v.Index(rels[k].Successor)
			for _, in := range v.Preds(t) {
				x, _ := v.Index(rels[in].Predecessor)
				if chain(in) && seen[x] == stamp && best[x]+rels[in].Lag >= rels[k].Lag-schedule.Epsilon {
					redundant[k] = true
					break
				}
			}
		}
	}
	return c.relationships(func(k int, _ *schedule.Relationship) bool { return redundant[k] })
}

// topoPos numbers the activities in a topological order of the logic.
func (c *checker) topoPos() []int {
	v := c.v
	pending := make([]int, c.n)
	var queue []int
	for j := 0; j < c.n; j++ {
		if pending[j] = len(v.Preds(j)); pending[j] == 0 {
			queue = append(queue, j)
		}
	}
	pos := make([]int, c.n)
	for head := 0; head < len(queue); head++ {
		x := queue[head]
		pos[x] = head
		for _, k := range v.Succs(x) {
			y, _ := v.Index(v.S.Relationships[k].Successor)
			if pending[y]--; pending[y] == 0 {
				queue = append(queue, y)
			}
		}
	}
	return pos
}

// danglingStarts: an activity with predecessors, none of them FS or SS,
// so only FF/SF links reach it and nothing drives its start: it could
// start any time and only its finish is held. Left out: milestones (their
// start is their finish), the project start and the project finish, and
// activities without predecessors (missing logic counts those).
func (c *checker) danglingStarts(pct float64) CheckResult {
	v := c.v
	bad := c.activities(func(j int) bool {
		if j == c.start || j == c.finish || c.milestone(j) || len(v.Preds(j)) == 0 {
			return false
		}
		for _, k := range v.Preds(j) {
			if t := v.S.Relationships[k].Type; t == schedule.FS || t == schedule.SS {
				return false
			}
		}
		return true
	})
	return pctResult(CheckDanglingStarts, "Dangling starts: activities whose predecessors are all FF or SF, so nothing drives their start",
		bad, pct, c.n, unitActivities, "")
}

// danglingFinishes: an activity with successors, none of them FS or FF,
// so it only drives through its start (SS/SF) and its finish could slip
// without moving anything. Left out as for danglingStarts: milestones, the
// project start and finish, and activities without successors.
func (c *checker) danglingFinishes(pct float64) CheckResult {
	v := c.v
	bad := c.activities(func(j int) bool {
		if j == c.start || j == c.finish || c.milestone(j) || len(v.Succs(j)) == 0 {
			return false
		}
		for _, k := range v.Succs(j) {
			if t := v.S.Relationships[k].Type; t == schedule.FS || t == schedule.FF {
				return false
			}
		}
		return true
	})
	return pctResult(CheckDanglingFinishes, "Dangling finishes: activities whose successors are all SS or SF, so their finish drives nothing",
		bad, pct, c.n, unitActivities, "")
}
