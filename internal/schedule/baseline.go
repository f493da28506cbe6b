package schedule

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Baselines: the plan progress is measured against (Activity's
// BaselineStart, BaselineFinish, BaselineDuration), set from the computed
// schedule (SetBaseline) and compared with its forecast (Variances). The
// dates come from Result.When, the working time between them from a
// Clock on each activity's own calendar: no date rule of their own.

// baselineLayout is how SetBaseline writes a baseline date: the model's
// date-time form, as the readers write actuals.
const baselineLayout = "2006-01-02T15:04"

// HasBaseline reports whether the activity carries any baseline field.
func (a *Activity) HasBaseline() bool {
	return a.BaselineStart != "" || a.BaselineFinish != "" || a.BaselineDuration != ""
}

// BaselineStartAt is the activity's baseline start as an instant: a date
// alone is the day's start (00:00).
func (a *Activity) BaselineStartAt() (time.Time, bool) {
	if a.BaselineStart == "" {
		return time.Time{}, false
	}
	t, err := ParseStart(a.BaselineStart)
	return t, err == nil
}

// BaselineFinishAt is the activity's baseline finish as an instant: a date
// alone is the day's last minute (23:59), so work finishing any time that
// day finished by it.
func (a *Activity) BaselineFinishAt() (time.Time, bool) {
	if a.BaselineFinish == "" {
		return time.Time{}, false
	}
	t, err := ParseStart(a.BaselineFinish)
	if err != nil {
		return time.Time{}, false
	}
	if len(a.BaselineFinish) == len(time.DateOnly) {
		t = t.AddDate(0, 0, 1).Add(-time.Minute)
	}
	return t, true
}

// checkBaselines names each baseline field that is not a date or a
// duration (Check's part for them).
func checkBaselines(s *Schedule) []error {
	var errs []error
	for i := range s.Activities {
		a := &s.Activities[i]
		if a.BaselineStart == "" && a.BaselineFinish == "" && a.BaselineDuration == "" {
			continue // most activities: nothing to parse (a failed parse costs)
		}
		path := activityPath(i).String()
		for _, d := range []struct{ field, v string }{{"baseline_start", a.BaselineStart}, {"baseline_finish", a.BaselineFinish}} {
			if d.v == "" {
				continue
			}
			if _, err := ParseStart(d.v); err != nil {
				errs = append(errs, fieldErr(path+"."+d.field, "activity %q: %q is not a date like 2026-03-02 (or with a time of day, 2026-03-02T08:00)", a.ID, d.v))
			}
		}
		if a.BaselineDuration != "" {
			if _, err := ParseDuration(a.BaselineDuration); err != nil {
				errs = append(errs, fieldErr(path+".baseline_duration", "activity %q: %v", a.ID, err))
			}
		}
		if start, ok := a.BaselineStartAt(); ok {
			if finish, ok := a.BaselineFinishAt(); ok && finish.Before(start) {
				errs = append(errs, fieldErr(path+".baseline_finish", "activity %q: %s is before its baseline start %s", a.ID, a.BaselineFinish, a.BaselineStart))
			}
		}
	}
	return errs
}

// Variance is how far an activity's forecast is from its baseline. The
// forecast is the computed schedule: actual dates where reported, early
// dates otherwise. Each variance is forecast minus baseline in working
// days of the activity's calendar (24-hour days for elapsed work), so a
// positive one is later or longer than planned (MS Project's sign); nil
// when the baseline lacks that field.
type Variance struct {
	ID, Name       string
	Start, Finish  time.Time // the forecast
	BaselineStart  time.Time // zero when the baseline has no start
	BaselineFinish time.Time // zero when the baseline has no finish
	// Duration is the forecast's working days from start to finish;
	// BaselineDuration the baseline's (its duration, else the working
	// days between its dates), -1 when it has neither.
	Duration, BaselineDuration float64
	StartDays, FinishDays      *float64
	DurationDays               *float64
}

// ErrNoDates is a schedule whose CPM times are working-day offsets only
// (no start date, nothing live): there are no dates to set a baseline
// from or compare one with.
var ErrNoDates = errors.New("the schedule has no start date, so its times are working-day offsets with no dates; give it a start_date")

// spanClocks gives each activity a Clock to measure working time on, one
// per calendar, all from an origin before every date measured.
type spanClocks struct {
	s      *Schedule
	origin string
	clocks map[string]*Clock
}

// newSpanClocks makes clocks from a week before the earliest of dates.
func newSpanClocks(s *Schedule, dates []time.Time) *spanClocks {
	var origin time.Time
	for _, t := range dates {
		if !t.IsZero() && (origin.IsZero() || t.Before(origin)) {
			origin = t
		}
	}
	if origin.IsZero() {
		origin = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return &spanClocks{s: s, origin: origin.AddDate(0, 0, -7).Format(time.DateOnly), clocks: map[string]*Clock{}}
}

// of is the clock activity a's working time is counted on: its calendar,
// or the 24-hour one when its duration is elapsed.
func (sc *spanClocks) of(a *Activity) (*Clock, error) {
	key, cal := "", sc.s.Calendar
	if a.Calendar != "" {
		key, cal = "cal:"+a.Calendar, sc.s.Calendars[a.Calendar]
		if cal == nil {
			return nil, fmt.Errorf("activity %q: no calendar %q in calendars", a.ID, a.Calendar)
		}
	}
	if d, err := ParseDuration(a.Duration); err == nil && d.Elapsed() {
		key, cal = "24h", twentyFourHours
	}
	if c := sc.clocks[key]; c != nil {
		return c, nil
	}
	c, err := NewClock(sc.origin, cal)
	if err != nil {
		return nil, err
	}
	sc.clocks[key] = c
	return c, nil
}

// forecast is activity i's start and finish as the computed schedule
// has them: its actual dates where reported (as the live engine read
// them), its early dates otherwise - P6's early dates of started work are
// its remaining work's, from the data date.
func forecast(s *Schedule, r *Result, project *Clock, i int) (start, finish time.Time, err error) {
	if start, err = r.When(project, i, EarlyStart); err != nil {
		return
	}
	if finish, err = r.When(project, i, EarlyFinish); err != nil {
		return
	}
	if ln := r.Net.live; ln != nil {
		clock := ln.clocks[0] // every clock counts instants from one origin
		if at := ln.actStart[i]; !at.IsZero() {
			start = clock.timeOf(at)
		}
		if at := ln.actEnd[i]; !at.IsZero() {
			finish = clock.timeOf(at)
		}
	}
	return
}

// projectClock is the clock Result.When dates a plain network on; nil for
// a live result, which carries its dates.
func projectClock(s *Schedule, r *Result) (*Clock, error) {
	if r.Times != nil {
		return nil, nil
	}
	if s.StartDate == "" {
		return nil, ErrNoDates
	}
	return NewClock(s.StartDate, s.Calendar)
}

// spanDays is the working days between from and to on c (negative when
// to is before from).
func spanDays(c *Clock, from, to time.Time) float64 {
	return roundVariance(c.Offset(to) - c.Offset(from))
}

// roundVariance drops the binary noise of minutes over a day's length.
func roundVariance(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// SetBaseline makes the computed schedule r of s its baseline: every
// activity's forecast start and finish (actual dates where reported,
// early dates otherwise) and the working days between them on its
// calendar become its baseline start, finish and duration. It changes
// only the activities' baseline fields.
func SetBaseline(s *Schedule, r *Result) error {
	project, err := projectClock(s, r)
	if err != nil {
		return err
	}
	type dated struct{ start, finish time.Time }
	at := make([]dated, len(s.Activities))
	var all []time.Time
	for k := range s.Activities {
		i, ok := r.Net.Index(s.Activities[k].ID)
		if !ok {
			return fmt.Errorf("activity %q is not in the computed schedule", s.Activities[k].ID)
		}
		if at[k].start, at[k].finish, err = forecast(s, r, project, i); err != nil {
			return err
		}
		all = append(all, at[k].start)
	}
	clocks := newSpanClocks(s, all)
	for k := range s.Activities {
		a := &s.Activities[k]
		c, err := clocks.of(a)
		if err != nil {
			return err
		}
		a.BaselineStart = at[k].start.Format(baselineLayout)
		a.BaselineFinish = at[k].finish.Format(baselineLayout)
		a.BaselineDuration = spanDuration(c, at[k].start, at[k].finish, a)

	}
	return nil
}

// spanDuration writes the working time from start to finish on c as a
// duration in a's unit: working days, or for elapsed work elapsed days
// (eh when not whole days). Whole minutes, kept to 1e-12, as the file
// readers keep durations, so a file writes it back exactly.
func spanDuration(c *Clock, start, finish time.Time, a *Activity) string {
	minutes := max(math.Round((c.Offset(finish)-c.Offset(start))*c.MinutesPerDay()), 0)
	round := func(v float64) string { return formatDays(math.Round(v*1e12) / 1e12) }
	if d, err := ParseDuration(a.Duration); err == nil && d.Elapsed() { // counted on the 24-hour clock
		if math.Mod(minutes, 24*60) == 0 {
			return formatDays(minutes/(24*60)) + ElapsedDays
		}
		return round(minutes/60) + ElapsedHours
	}
	return round(minutes / c.MinutesPerDay())
}

// ClearBaseline removes every activity's baseline.
func ClearBaseline(s *Schedule) {
	for k := range s.Activities {
		a := &s.Activities[k]
		a.BaselineStart, a.BaselineFinish, a.BaselineDuration = "", "", ""
	}
}

// Variances compares the computed schedule r of s with its baseline, for
// each activity that has one, in schedule order (see Variance).
func Variances(s *Schedule, r *Result) ([]Variance, error) {
	project, err := projectClock(s, r)
	if err != nil {
		return nil, err
	}
	var out []Variance
	var all []time.Time
	for k := range s.Activities {
		a := &s.Activities[k]
		if !a.HasBaseline() {
			continue
		}
		i, ok := r.Net.Index(a.ID)
		if !ok {
			return nil, fmt.Errorf("activity %q is not in the computed schedule", a.ID)
		}
		v := Variance{ID: a.ID, Name: a.Name, BaselineDuration: -1}
		if v.Start, v.Finish, err = forecast(s, r, project, i); err != nil {
			return nil, err
		}
		v.BaselineStart, _ = a.BaselineStartAt()
		if len(a.BaselineFinish) == len(time.DateOnly) {
			// A date alone ends with the day's work: measured to the
			// next midnight, which no working time follows that day.
			if t, err := ParseStart(a.BaselineFinish); err == nil {
				v.BaselineFinish = t.AddDate(0, 0, 1)
			}
		} else {
			v.BaselineFinish, _ = a.BaselineFinishAt()
		}
		out = append(out, v)
		all = append(all, v.Start, v.BaselineStart, v.BaselineFinish)
	}
	clocks := newSpanClocks(s, all)
	k := 0
	for j := range s.Activities {
		a := &s.Activities[j]
		if !a.HasBaseline() {
			continue
		}
		v := &out[k]
		k++
		c, err := clocks.of(a)
		if err != nil {
			return nil, err
		}
		v.Duration = max(spanDays(c, v.Start, v.Finish), 0)
		if !v.BaselineStart.IsZero() {
			d := spanDays(c, v.BaselineStart, v.Start)
			v.StartDays = &d
		}
		if !v.BaselineFinish.IsZero() {
			d := spanDays(c, v.BaselineFinish, v.Finish)
			v.FinishDays = &d
		}
		switch {
		case a.BaselineDuration != "":
			bd, err := ParseDuration(a.BaselineDuration)
			if err != nil {
				return nil, fieldErr(activityPath(j).String()+".baseline_duration", "activity %q: %v", a.ID, err)
			}
			v.BaselineDuration = roundVariance(bd.Minutes(c.MinutesPerDay()) / c.MinutesPerDay())
		case !v.BaselineStart.IsZero() && !v.BaselineFinish.IsZero():
			// A baseline of dates alone (P6's planned dates): its
			// duration is the working time between them.
			v.BaselineDuration = max(spanDays(c, v.BaselineStart, v.BaselineFinish), 0)
		}
		if v.BaselineDuration >= 0 {
			d := roundVariance(v.Duration - v.BaselineDuration)
			v.DurationDays = &d
		}
	}
	return out, nil
}
