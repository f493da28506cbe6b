package interchange

import (
	"fmt"
	"math"
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
	assignments   map[string][]mspdiAssignment
	resources     map[string]*mspdiResource
	codeAliases   map[string]string // task text field id -> its alias, the code type
}

// codes reads a task's named text fields (Text1-Text30 with an alias in
// the project's ExtendedAttributes, other than the three export writes
// for itself) as its activity codes: alias -> value. P6's activity codes
// go to MS Project as such fields.
func (l *mspdiLive) codes(t *mspdiTask) map[string]string {
	if l.codeAliases == nil {
		l.codeAliases = map[string]string{}
		text := map[string]bool{}
		for _, id := range textFieldIDs {
			text[id] = true
		}
		for _, id := range codeFieldIDs {
			text[id] = true
		}
		for _, f := range l.p.ExtendedAttributes {
			id, alias := strings.TrimSpace(f.FieldID), strings.TrimSpace(f.Alias)
			switch alias {
			case "", aliasActivityID, aliasRelIDs, aliasDuration:
				continue
			}
			if text[id] {
				l.codeAliases[id] = alias
			}
		}
	}
	var out map[string]string
	for _, a := range t.ExtendedAttribute {
		if alias, ok := l.codeAliases[strings.TrimSpace(a.FieldID)]; ok {
			if out == nil {
				out = map[string]string{}
			}
			out[alias] = a.Value
		}
	}
	return out
}

// assignmentsOf lists a task's assignments. Those that drive its dates,
// as MS Project counts them, are to a work resource, with units and work,
// flat (a contoured assignment's span is not work/units: such a task keeps
// its own duration); every other is kept NonDriving.
func (l *mspdiLive) assignmentsOf(t *mspdiTask) []schedule.Assignment {
	if l.assignments == nil {
		l.assignments, l.resources = map[string][]mspdiAssignment{}, map[string]*mspdiResource{}
		for _, a := range l.p.Assignments {
			l.assignments[strings.TrimSpace(a.TaskUID)] = append(l.assignments[strings.TrimSpace(a.TaskUID)], a)
		}
		for i := range l.p.Resources {
			l.resources[strings.TrimSpace(l.p.Resources[i].UID)] = &l.p.Resources[i]
		}
	}
	// A fixed-duration or manual task, or one with a contoured assignment,
	// is not dated by its assignments: they are all kept, NonDriving.
	dating := strings.TrimSpace(t.Type) != "1" && !isTrue(t.Manual)
	for _, a := range l.assignments[t.UID] {
		if c := strings.TrimSpace(a.WorkContour); c != "" && c != "0" {
			dating = false
		}
	}
	var out []schedule.Assignment
	for _, a := range l.assignments[t.UID] {
		r := l.resources[strings.TrimSpace(a.ResourceUID)]
		if r == nil {
			// MS Project's unassigned placeholder (ResourceUID -65535) or a
			// resource the file does not hold: no resource is assigned.
			continue
		}
		as := schedule.Assignment{Resource: strings.TrimSpace(r.Name)}
		if as.Resource == "" {
			as.Resource = "Resource " + strings.TrimSpace(r.UID)
		}
		units, err := strconv.ParseFloat(strings.TrimSpace(a.Units), 64)
		work, werr := parseMSPDIDuration(a.Work, l.minutesPerDay)
		if !dating || strings.TrimSpace(r.Type) != "1" || err != nil || !(units > 0) || werr != nil || work == 0 {
			// A material or cost resource, or no work to date the task by.
			as.NonDriving = true
			out = append(out, as)
			continue
		}
		as.Units, as.Work = units, formatDays(work)
		if units == 1 {
			as.Units = 0
		}
		as.Calendar = l.calendarKey(strings.TrimSpace(r.CalendarUID), fmt.Sprintf("Resource UID %s", strings.TrimSpace(r.UID)))
		out = append(out, as)
	}
	return out
}

// calendarKey is the key in s.Calendars of the file's calendar uid, read
// once; "" for the project's calendar or one that cannot be read (a
// warning says so).
func (l *mspdiLive) calendarKey(uid, who string) string {
	if uid == "" || uid == "-1" || uid == strings.TrimSpace(l.p.CalendarUID) {
		return ""
	}
	key, seen := l.calendars[uid]
	if !seen {
		cal, err := l.p.calendarOf(uid, l.minutesPerDay, false, l.rs)
		if err == nil {
			_, err = cal.Compile()
		}
		if err != nil {
			l.rs.warnf("%s: calendar: %v (scheduled on the project's calendar instead)", who, err)
		} else {
			key = uid
			if l.s.Calendars == nil {
				l.s.Calendars = map[string]*schedule.Calendar{}
			}
			l.s.Calendars[key] = cal
		}
		l.calendars[uid] = key
	}
	return key
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

// deadline is the date of an MS Project deadline held as a secondary
// "finish on or before" constraint (see mspdiLive.task), or "".
func deadline(c *schedule.Constraint) string {
	if c == nil || c.Type != schedule.FinishOnOrBefore {
		return ""
	}
	return c.Date
}

// task reads one task's live fields into a; what it cannot use is a
// warning.
func (l *mspdiLive) task(t *mspdiTask, a *schedule.Activity, days float64) {
	warn := func(field string, err error) {
		l.rs.warnf("%s: %s: %v; read without it", t.where(), field, err)
	}
	if elapsedFormat(t.DurationFormat) {
		a.Duration = l.elapsed(days)
	}
	a.Calendar = l.calendarKey(strings.TrimSpace(t.CalendarUID), t.where())
	a.Assignments = l.assignmentsOf(t)
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
	// A deadline bounds only the late finish (MS Project: the late finish
	// is the earlier of the logic's and the deadline, float may go
	// negative), as P6's secondary "finish on or before" does: it is read
	// as that, MS Project having no second constraint.
	if v := strings.TrimSpace(t.Deadline); v != "" && !strings.EqualFold(v, "NA") {
		if at, err := parseMSPDIDateTime(v); err != nil {
			warn("Deadline", err)
		} else {
			a.SecondaryConstraint = &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: at.Format(liveLayout)}
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
		if a.ActualFinish != "" && a.ActualFinish < a.ActualStart { // one layout: text order is time order
			warn("ActualFinish", fmt.Errorf("%s is before ActualStart %s", a.ActualFinish, a.ActualStart))
			a.ActualFinish = ""
		}
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
	a.Codes = l.codes(t)
	l.baseline(t, a, date)
}

// elapsed writes an elapsed MSPDI duration of days: MSPDI keeps elapsed
// time as such, so its days of MinutesPerDay are that many minutes of the
// clock.
func (l *mspdiLive) elapsed(days float64) string {
	// The file holds milliseconds: minutes to 1e-6 undo the rounding of
	// days (a minute of a 480-minute day is not a round number of days).
	minutes := math.Round(days*l.minutesPerDay*1e6) / 1e6
	hours := roundDays(minutes / 60)
	if whole := hours / 24; whole == float64(int64(whole)) {
		return formatDays(whole) + schedule.ElapsedDays
	}
	return formatDays(hours) + schedule.ElapsedHours
}

// mspdiBaseline is a task's <Baseline>: Number 0 is the baseline (1-10
// are the other saved baselines, kept only in the source file).
type mspdiBaseline struct {
	Number         string `xml:"Number"`
	Start          string `xml:"Start"`
	Finish         string `xml:"Finish"`
	Duration       string `xml:"Duration"`
	DurationFormat string `xml:"DurationFormat"`
}

// baseline reads the task's baseline (Number 0) into a: start, finish and
// duration, each dated by date (a bad one is a warning, read without).
func (l *mspdiLive) baseline(t *mspdiTask, a *schedule.Activity, date func(field, v string) string) {
	for _, b := range t.Baseline {
		if n := strings.TrimSpace(b.Number); n != "" && n != "0" {
			continue
		}
		a.BaselineStart = date("Baseline Start", b.Start)
		a.BaselineFinish = date("Baseline Finish", b.Finish)
		if a.BaselineStart != "" && a.BaselineFinish != "" && a.BaselineFinish < a.BaselineStart { // one layout: text order is time order
			l.rs.warnf("%s: Baseline Finish: %s is before Baseline Start %s; read without it", t.where(), a.BaselineFinish, a.BaselineStart)
			a.BaselineFinish = ""
		}
		if v := strings.TrimSpace(b.Duration); v != "" {
			days, err := parseMSPDIDuration(v, l.minutesPerDay)
			switch {
			case err != nil:
				l.rs.warnf("%s: Baseline Duration: %v; read without it", t.where(), err)
			case !(days >= 0 && days <= schedule.MaxDays):
				l.rs.warnf("%s: Baseline Duration: %q is not from 0 to %d working days; read without it", t.where(), v, schedule.MaxDays)
			case elapsedFormat(b.DurationFormat):
				a.BaselineDuration = l.elapsed(days)
			default:
				a.BaselineDuration = formatDays(roundDays(days))
			}
		}
		return
	}
}
