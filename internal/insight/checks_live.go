package insight

// The DCMA points a live programme makes possible: hard constraints (5),
// invalid dates (9), resources (10), missed activities (11), the critical
// path length index (13) and the baseline execution index (14), each run
// only when the schedule has what it needs (notApplicable says why not
// otherwise), and the critical path test (12) on a programme with
// progress.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// baselineFinish is an activity's baseline finish: the one place the
// checks read a baseline from (missed activities, BEI). A date alone is
// the day's last minute, so work finished that day finished by it.
func baselineFinish(a *schedule.Activity) (time.Time, bool) { return a.BaselineFinishAt() }

// resourced reports whether an activity has a resource assignment: the one
// place the resources point (10) reads it from. Every assignment counts,
// those that do not date the task too (NonDriving: a P6 file's, a
// material resource's, a manual or contoured task's).
func resourced(a *schedule.Activity) bool { return len(a.Assignments) > 0 }

// The reasons a live point does not apply.
const (
	reasonNoDataDate    = "no data date: nothing has been statused"
	reasonNoBaseline    = "no baseline"
	reasonNothingDue    = "no activity's baseline finish is before the data date"
	reasonNoConstraints = "no date constraints: every date comes from logic"
	reasonNoAssignments = "no activity carries a resource assignment"
	reasonNoDeadline    = "no deadline: no constraint gives the project finish float, so the index is always 1"
	reasonFinished      = "the forecast finish is not after the data date: no critical path remains"
)

// notApplicable maps each live DCMA point that does not apply to the
// schedule to why; a point not in the map is checked.
func (c *checker) notApplicable() map[int]string {
	s := c.v.S
	out := map[int]string{}
	if !hasConstraints(s) {
		out[5] = reasonNoConstraints
	}
	if !slices.ContainsFunc(s.Activities, func(a schedule.Activity) bool { return c.resourced(&a) }) {
		out[10] = reasonNoAssignments
	}
	if _, ok := c.dataDate(); !ok {
		out[9], out[11], out[13], out[14] = reasonNoDataDate, reasonNoDataDate, reasonNoDataDate, reasonNoDataDate
		return out
	}
	switch baselined, due := c.due(); {
	case !baselined:
		out[11], out[14] = reasonNoBaseline, reasonNoBaseline
	case due == 0:
		out[11], out[14] = reasonNothingDue, reasonNothingDue
	}
	if f := c.finishFloat(); f.at < 0 || f.length <= schedule.Epsilon {
		out[13] = reasonFinished
	} else if !hasDeadline(s) && math.Abs(f.float) <= schedule.Epsilon {
		out[13] = reasonNoDeadline
	}
	return out
}

// dataDate is the programme's data date as an instant, when it has one
// and the live engine dated it.
func (c *checker) dataDate() (time.Time, bool) {
	if c.v.S.DataDate == "" || c.v.R.Times == nil {
		return time.Time{}, false
	}
	t, err := schedule.ParseStart(c.v.S.DataDate)
	return t, err == nil
}

// task reports whether activity j is work DCMA counts: not a WBS summary
// or level of effort, which are dated from other activities.
func (c *checker) task(j int) bool {
	t := c.v.Activity(j).Type
	return t != schedule.WBSSummary && t != schedule.LevelOfEffort
}

// counted reports whether activity j is one of DCMA's incomplete tasks: a
// task not finished. In a plan without progress every activity is.
func (c *checker) counted(j int) bool { return c.task(j) && c.v.Activity(j).ActualFinish == "" }

// countedN is how many activities are counted.
func (c *checker) countedN() int {
	n := 0
	for j := range c.n {
		if c.counted(j) {
			n++
		}
	}
	return n
}

func hasConstraints(s *schedule.Schedule) bool {
	return slices.ContainsFunc(s.Activities, func(a schedule.Activity) bool { return a.Constraint != nil || a.SecondaryConstraint != nil })
}

// hardConstraint reports whether k is hard by DCMA's definition - must
// start or finish on (P6's start on, finish on and mandatory start and
// finish) and start or finish no later than (on or before): it fixes a
// date against the logic. As late as possible, start and finish on or
// after are soft.
func hardConstraint(k *schedule.Constraint) bool { return k != nil && k.Type.Hard() }

// hasDeadline reports whether any constraint can hold late dates back,
// giving the finish float other than zero (hard constraints do).
func hasDeadline(s *schedule.Schedule) bool {
	return slices.ContainsFunc(s.Activities, func(a schedule.Activity) bool {
		return hardConstraint(a.Constraint) || hardConstraint(a.SecondaryConstraint)
	})
}

// hardConstraints: DCMA 5. Activities with a hard constraint (see
// hardConstraint), at most 5% of activities.
func (c *checker) hardConstraints() CheckResult {
	bad := c.byActivity(func(a *schedule.Activity, _ int) bool {
		return hardConstraint(a.Constraint) || hardConstraint(a.SecondaryConstraint)
	})
	return pctResult(CheckHardConstraints, "Hard constraints: start or finish on, on or before, mandatory (DCMA 5)",
		bad, HardConstraintsPct, c.n, unitActivities, "")
}

// invalidDates: DCMA 9, none allowed. An actual start or finish after the
// data date (a data date without a time counts its whole day; one with a
// time, up to the next working instant: work reported as starting at 08:00
// on a data date of 00:00 started when work resumed), or, on unfinished
// work, a forecast before the data date: the early start of work not
// started, the early finish of work not finished. WBS summaries and level
// of effort are dated from others and left out of the forecast part.
func (c *checker) invalidDates() CheckResult {
	t := c.v.R.Times
	data, _ := c.dataDate()
	latest := data
	if len(c.v.S.DataDate) == len(time.DateOnly) {
		latest = data.AddDate(0, 0, 1).Add(-time.Minute)
	} else if clk, err := c.clockOn(c.v.S.Calendar); err == nil {
		latest = clk.StartAt(clk.Offset(data))
	}
	bad := c.byActivity(func(a *schedule.Activity, j int) bool {
		for _, d := range []string{a.ActualStart, a.ActualFinish} {
			if at, e := schedule.ParseStart(d); d != "" && e == nil && at.After(latest) {
				return true
			}
		}
		if a.ActualFinish != "" || !c.task(j) {
			return false
		}
		return a.ActualStart == "" && t.ES[j].Before(data) || t.EF[j].Before(data)
	})
	return countResult(CheckInvalidDates, "Invalid dates: actual dates after the data date, or forecasts of unfinished work before it (DCMA 9)",
		bad, 0, c.n, unitActivities)
}

// resources: DCMA 10. Incomplete tasks with a duration and no resource
// assignment, of all incomplete tasks with a duration; run only when the
// file carries assignments.
func (c *checker) resources(pct float64) CheckResult {
	of := 0
	bad := c.byActivity(func(a *schedule.Activity, j int) bool {
		d, err := schedule.DurationDays(a.Duration)
		if !c.counted(j) || err != nil || d <= 0 || a.Type == schedule.StartMilestone || a.Type == schedule.FinishMilestone {
			return false
		}
		of++
		return !c.resourced(a)
	})
	return pctResult(CheckResources, "Resources: incomplete tasks with a duration and no resource assignment (DCMA 10)",
		bad, pct, of, unitActivities, "")
}

// due says whether any activity has a baseline finish and counts the
// tasks due by the data date: baseline finish before it.
func (c *checker) due() (baselined bool, due int) {
	data, _ := c.dataDate()
	for j := range c.n {
		if f, ok := c.baseline(c.v.Activity(j)); ok {
			baselined = true
			if c.task(j) && f.Before(data) {
				due++
			}
		}
	}
	return baselined, due
}

// dueNotDone lists the tasks due by the data date for which late holds,
// in schedule order, and how many are due.
func (c *checker) dueNotDone(late func(a *schedule.Activity, baseline time.Time) bool) (bad []string, due int) {
	data, _ := c.dataDate()
	bad = c.byActivity(func(a *schedule.Activity, j int) bool {
		f, ok := c.baseline(a)
		if !ok || !c.task(j) || !f.Before(data) {
			return false
		}
		due++
		return late(a, f)
	})
	return bad, due
}

// missedActivities: DCMA 11. Of the tasks due by the data date (baseline
// finish before it), those that did not finish by their baseline finish:
// not finished, or finished after it. At most pct %.
func (c *checker) missedActivities(pct float64) CheckResult {
	bad, due := c.dueNotDone(func(a *schedule.Activity, baseline time.Time) bool {
		if a.ActualFinish == "" {
			return true
		}
		at, err := schedule.ParseStart(a.ActualFinish)
		if err == nil && len(a.ActualFinish) == len(time.DateOnly) {
			at = at.AddDate(0, 0, 1).Add(-time.Minute) // a date alone: finished some time that day
			baseline = baseline.Truncate(24*time.Hour).AddDate(0, 0, 1).Add(-time.Minute)
		}
		return err == nil && at.After(baseline)
	})
	return pctResult(CheckMissedActivities, "Missed activities: tasks due by the data date by the baseline that did not finish by their baseline finish (DCMA 11)",
		bad, pct, due, unitActivities, "")
}

// beiCheck: DCMA 14. The baseline execution index, the tasks finished
// (all of them, due or not) over the tasks due by the data date, must be
// at least min. Offenders are the tasks due and not finished.
func (c *checker) beiCheck(min float64) CheckResult {
	bad, due := c.dueNotDone(func(a *schedule.Activity, _ time.Time) bool { return a.ActualFinish == "" })
	done := 0
	for j := range c.n {
		if c.task(j) && c.v.Activity(j).ActualFinish != "" {
			done++
		}
	}
	bei := float64(done) / float64(due)
	return CheckResult{
		ID: CheckBEI, Name: "Baseline execution index: tasks finished over tasks due by the data date by the baseline (DCMA 14)",
		Passed: bei >= min-1e-9, Count: len(bad), Offenders: bad, Of: due, Unit: unitActivities,
		Threshold: "BEI >= " + checkNum(min),
		Detail:    fmt.Sprintf("BEI %.2f: %d tasks finished, %d due by the data date; the offenders are due and not finished", bei, done, due),
	}
}

// projectFinishFloat is the project finish as CPLI reads it.
type projectFinishFloat struct {
	at     int     // the incomplete task finishing at the project finish with the least float, the last in schedule order on a tie (the finish milestone, usually); -1 if none
	float  float64 // its total float, working days
	length float64 // the critical path length: working days of the project calendar from the data date to the finish
}

// finishFloat finds the project finish's float and the critical path's
// length from the data date.
func (c *checker) finishFloat() projectFinishFloat {
	r := c.v.R
	f := projectFinishFloat{at: -1}
	for _, j := range slices.Backward(c.order) {
		if c.counted(j) && r.EF[j] >= r.ProjectDuration-schedule.Epsilon && (f.at < 0 || r.TotalFloat[j] < f.float) {
			f.at, f.float = j, r.TotalFloat[j]
		}
	}
	data, _ := c.dataDate()
	if clk, err := c.clockOn(c.v.S.Calendar); err == nil {
		f.length = clk.Offset(r.Times.Finish) - clk.Offset(data)
	}
	return f
}

// cpliCheck: DCMA 13. The critical path length index, (critical path
// length + total float of the finish) / critical path length, the length
// in working days from the data date to the forecast finish, must be at
// least min. The offender, when it fails, is the finish.
func (c *checker) cpliCheck(min float64) CheckResult {
	f := c.finishFloat()
	cpli := (f.length + f.float) / f.length
	res := CheckResult{
		ID: CheckCPLI, Name: "Critical path length index: (critical path length + finish float) / critical path length, from the data date (DCMA 13)",
		Passed: cpli >= min-1e-9, Offenders: []string{}, Unit: unitActivities,
		Threshold: "CPLI >= " + checkNum(min),
		Detail: fmt.Sprintf("CPLI %.2f: %s working days from the data date to the finish, %s with %s days of total float", cpli,
			checkNum(checkRound(f.length)), c.v.R.Net.ID(f.at), checkNum(checkRound(f.float))),
	}
	if !res.Passed {
		res.Count, res.Offenders = 1, []string{c.v.R.Net.ID(f.at)}
	}
	return res
}

// lengthenable reports whether the critical path test can lengthen
// activity j: work not finished, not a milestone, not dated from others.
func (c *checker) lengthenable(j int) bool {
	t := c.v.Activity(j).Type
	return c.counted(j) && t != schedule.StartMilestone && t != schedule.FinishMilestone
}

// lengthenLive makes activity j of a live programme delay working days of
// its calendar (24-hour days for elapsed work) longer, on a copy computed
// by the live engine, and measures how far its finish and the project
// finish moved on the project calendar. Work in progress gets the days on
// its remaining work (MS Project's rule runs the whole duration on from
// the actual start, so the duration grows too), an assignment-driven task
// on each assignment's work, and a manually scheduled task, which stays at
// its dates whatever its duration, gets a finish that many days later.
func (c *checker) lengthenLive(j int, delay float64) (movement, error) {
	v := c.v
	s := v.S.Clone()
	a := &s.Activities[v.pos[j]]
	cal := v.S.Calendar
	if a.Calendar != "" {
		cal = v.S.Calendars[a.Calendar]
	}
	d, err := schedule.ParseDuration(a.Duration)
	if err != nil {
		return movement{}, err
	}
	if d.Elapsed() {
		cal = &schedule.Calendar{Name: "24 hours", Workdays: schedule.WeekdayNames[:], Hours: []string{"00:00-24:00"}}
	}
	clk, err := c.clockOn(cal)
	if err != nil {
		return movement{}, err
	}
	day := clk.MinutesPerDay()
	if a.Duration, err = lengthen(a.Duration, delay, day); err != nil {
		return movement{}, err
	}
	if a.Manual {
		a.Finish = clk.FinishAt(clk.Offset(v.R.Times.EF[j]) + delay).Format("2006-01-02T15:04")
	}
	if a.ActualStart != "" {
		switch {
		case a.Remaining != "":
			a.Remaining, err = lengthen(a.Remaining, delay, day)
		case a.PercentComplete > 0: // the engine's remaining work, now explicit
			left := strconv.FormatFloat(d.Days()*(1-min(a.PercentComplete, 100)/100), 'f', -1, 64) + d.Unit
			a.Remaining, err = lengthen(left, delay, day)
		}
		if err != nil {
			return movement{}, err
		}
	}
	for _, as := range a.DatingAssignments() {
		units := as.Units
		if units == 0 {
			units = 1
		}
		if as.Work, err = lengthen(as.Work, delay*units, day); err != nil {
			return movement{}, err
		}
	}
	r2, err := schedule.Analyze(s)
	if err != nil {
		return movement{}, err
	}
	project, err := c.clockOn(v.S.Calendar)
	if err != nil {
		return movement{}, err
	}
	k, _ := r2.Net.Index(v.R.Net.ID(j))
	moved := func(from, to time.Time) float64 { return project.Offset(to) - project.Offset(from) }
	before, after := v.R.Times.Finish, r2.Times.Finish
	return movement{own: moved(v.R.Times.EF[j], r2.Times.EF[k]), finish: moved(before, after),
		from: before.Format(schedule.DateTimeLayout), to: after.Format(schedule.DateTimeLayout)}, nil
}

// lengthen adds days working days (of dayMinutes) to duration d, written
// in d's own unit; a distribution becomes its CPM value plus days.
func lengthen(d string, days, dayMinutes float64) (string, error) {
	p, err := schedule.ParseDuration(d)
	if err != nil {
		return "", err
	}
	add := days
	switch p.Unit {
	case schedule.WorkingHours:
		add = days * dayMinutes / 60
	case schedule.ElapsedHours:
		add = days * 24
	}
	longer := p.Days() + add
	if longer > schedule.MaxDays {
		return "", fmt.Errorf("%q made %s days longer is beyond the limit of %d", d, checkNum(days), schedule.MaxDays)
	}
	return strconv.FormatFloat(longer, 'f', -1, 64) + p.Unit, nil
}

// clockOn is a clock on calendar cal (nil: the default) from before the
// programme's start, data date and every early start (a manually
// scheduled task may sit before the start), to measure working time
// between dates.
func (c *checker) clockOn(cal *schedule.Calendar) (*schedule.Clock, error) {
	t := c.v.R.Times
	origin := t.Start
	if data, ok := c.dataDate(); ok && data.Before(origin) {
		origin = data
	}
	for _, es := range t.ES {
		if es.Before(origin) {
			origin = es
		}
	}
	return schedule.NewClock(origin.AddDate(0, 0, -7).Format(time.DateOnly), cal)
}

// names names each offender of res: an activity's name, or a
// relationship's ends, "predecessor name -> successor name".
func (c *checker) names(res *CheckResult) []string {
	v := c.v
	name := func(id string) string {
		if j, ok := v.Index(id); ok {
			return v.Activity(j).Name
		}
		return id
	}
	out := make([]string, 0, len(res.Offenders))
	var rels map[string]int
	for _, id := range res.Offenders {
		if res.Unit != unitRelationships {
			out = append(out, name(id))
			continue
		}
		if rels == nil {
			rels = make(map[string]int, len(v.S.Relationships))
			for k := range v.S.Relationships {
				rels[v.S.Relationships[k].ID] = k
			}
		}
		rel := &v.S.Relationships[rels[id]]
		out = append(out, name(rel.Predecessor)+" -> "+name(rel.Successor))
	}
	return out
}
