package interchange

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The live programme in an MSPDI file (issue 28): task calendars,
// constraints, progress, manual dates and elapsed durations. A value the
// reader cannot use is a warning naming the task and field, and the task
// is read without it; it never refuses the file.

// liveLayout is how live dates are written into a schedule.
const liveLayout = "2006-01-02T15:04"

// mspdiConstraints are MSPDI's ConstraintType codes; 0 (as soon as
// possible) is no constraint.
var mspdiConstraints = map[string]schedule.ConstraintType{
	"1": schedule.AsLateAsPossible, "2": schedule.StartOn, "3": schedule.FinishOn,
	"4": schedule.StartOnOrAfter, "5": schedule.StartOnOrBefore,
	"6": schedule.FinishOnOrAfter, "7": schedule.FinishOnOrBefore,
}

type mspdiLive struct {
	p             *mspdiProject
	s             *schedule.Schedule
	rs            *readState
	minutesPerDay float64
	calendars     map[string]string // task CalendarUID -> key in s.Calendars ("" unusable)
}

// elapsedFormat reports whether a DurationFormat is an elapsed unit (em,
// eh, ed, ew, emo, e%), estimated (+32) or not.
func elapsedFormat(v string) bool {
	f, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return false
	}
	if f >= 35 && f <= 52 {
		f -= 32
	}
	return f == 4 || f == 6 || f == 8 || f == 10 || f == 12 || f == 20
}

// task reads one task's live fields into a.
func (l *mspdiLive) task(t *mspdiTask, a *schedule.Activity, days float64) error {
	warn := func(field string, err error) {
		l.rs.warnf("%s: %s: %v; read without it", t.where(), field, err)
	}
	if elapsedFormat(t.DurationFormat) {
		// MSPDI keeps an elapsed duration as elapsed time: its days of
		// MinutesPerDay are that many minutes of the clock.
		hours := roundDays(days * l.minutesPerDay / 60)
		if whole := hours / 24; whole == float64(int64(whole)) {
			a.Duration = formatDays(whole) + schedule.ElapsedDays
		} else {
			a.Duration = formatDays(hours) + schedule.ElapsedHours
		}
	}
	if uid := strings.TrimSpace(t.CalendarUID); uid != "" && uid != "-1" && uid != strings.TrimSpace(l.p.CalendarUID) {
		key, seen := l.calendars[uid]
		if !seen {
			cal, err := l.p.calendarOf(uid, l.minutesPerDay, false)
			if err != nil {
				l.rs.warnf("%s: calendar: %v (its tasks are scheduled on the project's calendar)", t.where(), err)
			} else {
				key = uid
				if l.s.Calendars == nil {
					l.s.Calendars = map[string]*schedule.Calendar{}
				}
				l.s.Calendars[key] = cal
			}
			l.calendars[uid] = key
		}
		a.Calendar = key
	}
	if v := strings.TrimSpace(t.ConstraintType); v != "" && v != "0" {
		typ, ok := mspdiConstraints[v]
		switch {
		case !ok:
			warn("ConstraintType", fmt.Errorf("unknown code %q (0-7)", v))
		case typ == schedule.AsLateAsPossible:
			a.Constraint = &schedule.Constraint{Type: typ}
		default:
			at, err := parseMSPDIDateTime(t.ConstraintDate)
			if err != nil {
				warn("ConstraintDate", err)
				break
			}
			a.Constraint = &schedule.Constraint{Type: typ, Date: at.Format(liveLayout)}
		}
	}
	date := func(field, v string) string {
		if strings.TrimSpace(v) == "" {
			return ""
		}
		at, err := parseMSPDIDateTime(v)
		if err != nil {
			warn(field, err)
			return ""
		}
		return at.Format(liveLayout)
	}
	a.ActualStart = date("ActualStart", t.ActualStart)
	if a.ActualStart != "" {
		a.ActualFinish = date("ActualFinish", t.ActualFinish)
	}
	if v := strings.TrimSpace(t.PercentComplete); v != "" && v != "0" {
		if pc, err := strconv.ParseFloat(v, 64); err != nil || pc < 0 || pc > 100 {
			warn("PercentComplete", fmt.Errorf("%q is not a percentage", v))
		} else {
			a.PercentComplete = pc
		}
	}
	if a.ActualStart != "" && a.ActualFinish == "" && strings.TrimSpace(t.RemainingDuration) != "" {
		if rem, err := parseMSPDIDuration(t.RemainingDuration, l.minutesPerDay); err != nil {
			warn("RemainingDuration", err)
		} else {
			a.Remaining = formatDays(rem)
		}
	}
	if isTrue(t.Manual) {
		start, finish := date("Start", t.Start), date("Finish", t.Finish)
		if start != "" && finish != "" {
			a.Manual, a.Start, a.Finish = true, start, finish
		}
	}
	return nil
}
