package schedule

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// The live engine: CPM on instants for a programme with progress,
// constraints, several calendars and activity types, reproducing MS Project
// or P6 (Options.Tool). A plain logic network keeps the working-day engine
// of cpm.go, which is what this one computes when nothing is live.

// liveNet is what the live engine needs beyond the plain network.
type liveNet struct {
	p6    bool
	opts  Options
	start instant // the project start
	data  instant // the data date; noInstant when none
	// mustFinish is P6's must-finish-by date, where the late dates count
	// back from; noInstant when none (or not P6's rules).
	mustFinish instant
	// clocks: [0] the project's calendar, [1] 24 hours, then the named ones.
	clocks []*Clock
	cal    []int32 // each activity's duration clock (24 hours for elapsed work)
	home   []int32 // each activity's calendar: float is working time on it
	dur    []int64 // working (or elapsed) minutes
	remain []int64 // minutes of work left: dur unless progressed
	kind   []ActivityType
	// isDriven is driven(v) as a byte each: the passes ask it of every
	// link's other end, and kind's strings are sixteen bytes apart.
	isDriven []bool
	cons     [][2]liveConstraint
	actStart []instant // noInstant: not started
	actEnd   []instant // noInstant: not finished
	manual   []bool
	manStart []instant
	manEnd   []instant
	wbs      []string
	// dayOf is the minutes in a day of each activity's calendar: a lag in
	// days is days of its successor's calendar.
	dayOf []float64
	// assign: the spans of an assignment-driven task, each on its
	// resource's calendar; nil for a task its own duration drives.
	assign [][]span
	// workFloat is each activity's total float in working minutes of its
	// calendar, set by a computation (fresh gives each its own).
	workFloat []int64
}

// span is working minutes on one clock.
type span struct {
	clock   int32
	minutes int64
}

type liveConstraint struct {
	typ ConstraintType // "" none
	at  instant
}

// Times are the dates the live engine computed, indexed like the Network.
type Times struct {
	ES, EF, LS, LF []time.Time
	// FloatMinutes is each activity's total float as the tool measures it:
	// working minutes of its calendar (elapsed minutes for elapsed work);
	// negative where a constraint cannot be met. Result.TotalFloat is the
	// same in working days of the activity's calendar.
	FloatMinutes []int64
	// Done marks the activities finished (an actual finish): no longer
	// on any path, so never critical.
	Done   []bool
	Start  time.Time // the project start instant
	Finish time.Time // the latest early finish
}

// scheduleIsLive reports whether s needs the live engine.
func scheduleIsLive(s *Schedule) bool {
	if s.DataDate != "" || len(s.Calendars) > 0 || s.Options != nil {
		return true
	}
	for i := range s.Activities {
		if s.Activities[i].Live() {
			return true
		}
	}
	return false
}

// liveDate reads an instant of a live field: a date (at the day's first
// working instant for a start, its last for a finish) or a date-time.
func liveDate(s string, c *Clock, finish bool) (instant, error) {
	t, err := ParseStart(s)
	if err != nil {
		return noInstant, fmt.Errorf("%q is not a date like 2026-03-02 (or with a time of day, 2026-03-02T08:00)", s)
	}
	if len(s) == len(time.DateOnly) {
		if finish {
			return c.prevFinish(c.instantOf(t.AddDate(0, 0, 1))), nil
		}
		return c.nextStart(c.instantOf(t)), nil
	}
	return c.instantOf(t), nil
}

// compileLive builds the live engine's data; errors name the field.
func compileLive(s *Schedule) (*liveNet, error) {
	if err := s.Options.check(); err != nil {
		return nil, err
	}
	ln := &liveNet{p6: s.Options.IsP6()}
	if s.Options != nil {
		ln.opts = *s.Options
	}
	startDate := s.StartDate
	if startDate == "" {
		// No start: the data date, else a fixed Monday - a schedule
		// without dates is reported in offsets, which must not depend on
		// the day it is computed.
		startDate = cmp.Or(s.DataDate, "2001-01-01")
	}
	start, err := ParseStart(startDate)
	if err != nil {
		return nil, fieldErr("start_date", "%q is not a date like 2026-01-05 (or with a time of day, 2026-01-05T09:00)", s.StartDate)
	}
	// The clocks run from well before the start: actuals, constraints and
	// negative float reach back before it.
	origin := dateOf(start)
	for i := range s.Activities {
		a := &s.Activities[i]
		for _, d := range [...]string{a.ActualStart, a.Start, constraintDate(a.Constraint), constraintDate(a.SecondaryConstraint)} {
			if d == "" {
				continue
			}
			if t, err := ParseStart(d); err == nil && t.Before(origin) {
				origin = dateOf(t)
			}
		}
	}
	if t, err := ParseStart(s.DataDate); err == nil && t.Before(origin) {
		origin = dateOf(t)
	}
	origin = origin.AddDate(-1, 0, 0)
	projectWork, err := s.Calendar.Compile()
	if err != nil {
		return nil, err
	}
	dayWork, _ := twentyFourHours.Compile()
	ln.clocks = []*Clock{newTimeline(origin, projectWork), newTimeline(origin, dayWork)}
	named := map[string]int32{}
	for _, id := range slices.Sorted(maps.Keys(s.Calendars)) {
		w, err := s.Calendars[id].Compile()
		if err != nil {
			if fe, ok := err.(*FieldError); ok {
				return nil, fieldErr("calendars."+id+strings.TrimPrefix(fe.Path, "calendar"), "%s", fe.Reason)
			}
			return nil, err
		}
		named[id] = int32(len(ln.clocks))
		ln.clocks = append(ln.clocks, newTimeline(origin, w))
	}
	project := ln.clocks[0]
	ln.start, ln.data = project.nextStart(project.instantOf(start)), noInstant
	if s.DataDate != "" {
		if ln.data, err = liveDate(s.DataDate, project, false); err != nil {
			return nil, fieldErr("data_date", "%v", err)
		}
	}
	ln.mustFinish = noInstant
	if s.Options != nil && s.Options.MustFinishBy != "" {
		if ln.mustFinish, err = liveDate(s.Options.MustFinishBy, project, true); err != nil {
			return nil, fieldErr("options.must_finish_by", "%v", err)
		}
		if !ln.p6 {
			ln.mustFinish = noInstant // MS Project has no such date
		}
	}
	nAct := len(s.Activities)
	ln.cal = make([]int32, nAct)
	ln.home = make([]int32, nAct)
	ln.dur = make([]int64, nAct)
	ln.remain = make([]int64, nAct)
	ln.kind = make([]ActivityType, nAct)
	ln.isDriven = make([]bool, nAct)
	ln.cons = make([][2]liveConstraint, nAct)
	ln.actStart = slices.Repeat([]instant{noInstant}, nAct)
	ln.actEnd = slices.Repeat([]instant{noInstant}, nAct)
	ln.manual = make([]bool, nAct)
	ln.manStart = make([]instant, nAct)
	ln.manEnd = make([]instant, nAct)
	ln.wbs = make([]string, nAct)
	ln.assign = make([][]span, nAct)
	ln.dayOf = make([]float64, nAct)
	for i := range s.Activities {
		a := &s.Activities[i]
		path := activityPath(i)
		if !a.Type.Valid() {
			return nil, fieldErr(path.String()+".type", "%q: want start_milestone, finish_milestone, level_of_effort, wbs_summary, resource_dependent or none (a task)", a.Type)
		}
		ln.kind[i] = a.Type
		ln.isDriven[i] = a.Type == LevelOfEffort || a.Type == WBSSummary
		ln.wbs[i] = a.WBS
		if a.Calendar != "" {
			k, ok := named[a.Calendar]
			if !ok {
				return nil, fieldErr(path.String()+".calendar", "activity %q: no calendar %q in calendars", a.ID, a.Calendar)
			}
			ln.cal[i] = k
		}
		ln.home[i] = ln.cal[i]
		ln.dayOf[i] = ln.clocks[ln.cal[i]].work.dayMinutes
		days, unit, err := deterministic(a.Duration)
		if err != nil {
			return nil, fieldErr(path.String()+".duration", "activity %q: %v", a.ID, err)
		}
		if (Duration{Unit: unit}).Elapsed() {
			ln.cal[i] = 1
		}
		c := ln.clocks[ln.cal[i]]
		ln.dur[i] = int64(math.Round(unitMinutes(days, unit, c.work.dayMinutes)))
		if a.Type == StartMilestone || a.Type == FinishMilestone {
			ln.dur[i] = 0
		}
		ln.remain[i] = ln.dur[i]
		if a.Remaining != "" {
			days, unit, err := deterministic(a.Remaining)
			if err != nil {
				return nil, fieldErr(path.String()+".remaining", "activity %q: %v", a.ID, err)
			}
			ln.remain[i] = int64(math.Round(unitMinutes(days, unit, c.work.dayMinutes)))
		} else if a.PercentComplete > 0 && a.ActualStart != "" {
			ln.remain[i] = int64(math.Round(float64(ln.dur[i]) * (1 - min(a.PercentComplete, 100)/100)))
		}
		if !(a.PercentComplete >= 0 && a.PercentComplete <= 100) {
			return nil, fieldErr(path.String()+".percent_complete", "activity %q: %g is not between 0 and 100", a.ID, a.PercentComplete)
		}
		for k, cons := range []*Constraint{a.Constraint, a.SecondaryConstraint} {
			if cons == nil {
				continue
			}
			field := path.String() + []string{".constraint", ".secondary_constraint"}[k]
			if !cons.Type.Valid() {
				return nil, fieldErr(field+".type", "activity %q: %q is not a constraint; want start_on, start_on_or_after, start_on_or_before, finish_on, finish_on_or_after, finish_on_or_before, mandatory_start, mandatory_finish or as_late_as_possible", a.ID, cons.Type)
			}
			lc := liveConstraint{typ: cons.Type}
			if cons.Type != AsLateAsPossible {
				if lc.at, err = liveDate(cons.Date, c, !cons.Type.onStart()); err != nil {
					return nil, fieldErr(field+".date", "activity %q: %v", a.ID, err)
				}
			}
			ln.cons[i][k] = lc
		}
		if a.ActualStart != "" {
			if ln.actStart[i], err = liveDate(a.ActualStart, c, false); err != nil {
				return nil, fieldErr(path.String()+".actual_start", "activity %q: %v", a.ID, err)
			}
		}
		if a.ActualFinish != "" {
			if ln.actEnd[i], err = liveDate(a.ActualFinish, c, true); err != nil {
				return nil, fieldErr(path.String()+".actual_finish", "activity %q: %v", a.ID, err)
			}
			if ln.actStart[i].IsZero() {
				return nil, fieldErr(path.String()+".actual_start", "activity %q: finished (actual_finish %s) with no actual start", a.ID, a.ActualFinish)
			}
			if ln.actEnd[i].Before(ln.actStart[i]) {
				return nil, fieldErr(path.String()+".actual_finish", "activity %q: %s is before its actual start %s", a.ID, a.ActualFinish, a.ActualStart)
			}
			ln.remain[i] = 0
		}
		for k, as := range a.DatingAssignments() {
			field := fmt.Sprintf("%s.assignments[%d]", path, k)
			sp := span{clock: ln.cal[i]}
			if as.Calendar != "" {
				cal, ok := named[as.Calendar]
				if !ok {
					return nil, fieldErr(field+".calendar", "activity %q: no calendar %q in calendars", a.ID, as.Calendar)
				}
				sp.clock = cal
			}
			w, err := ParseDuration(as.Work)
			if err != nil {
				return nil, fieldErr(field+".work", "activity %q: %v", a.ID, err)
			}
			units := as.Units
			if units == 0 {
				units = 1
			}
			if !(units > 0 && units <= 1000) {
				return nil, fieldErr(field+".units", "activity %q: %g is not a share of a resource's time above 0", a.ID, as.Units)
			}
			sp.minutes = int64(math.Round(w.Minutes(ln.clocks[sp.clock].work.dayMinutes) / units))
			ln.assign[i] = append(ln.assign[i], sp)
		}
		if a.Manual {
			ln.manual[i] = true
			if ln.manStart[i], err = liveDate(a.Start, c, false); err != nil {
				return nil, fieldErr(path.String()+".start", "activity %q: a manually scheduled task needs its start: %v", a.ID, err)
			}
			if ln.manEnd[i], err = liveDate(a.Finish, c, true); err != nil {
				return nil, fieldErr(path.String()+".finish", "activity %q: a manually scheduled task needs its finish: %v", a.ID, err)
			}
		}
	}
	return ln, nil
}

func constraintDate(c *Constraint) string {
	if c == nil {
		return ""
	}
	return c.Date
}

// activityPath names activity i in an error, "activities[3]", formatted
// only when an error is written (not once per activity).
type activityPath int

func (i activityPath) String() string { return fmt.Sprintf("activities[%d]", int(i)) }
