package schedule

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ActivityType is the kind of an activity, as P6 and MS Project type them.
type ActivityType string

// The activity types. A milestone has no duration; a level-of-effort
// activity spans from its predecessors to its successors; a WBS summary
// spans the activities of its WBS branch (both are driven, never drive).
const (
	TaskType          ActivityType = "" // a task: duration-driven work
	StartMilestone    ActivityType = "start_milestone"
	FinishMilestone   ActivityType = "finish_milestone"
	LevelOfEffort     ActivityType = "level_of_effort"
	WBSSummary        ActivityType = "wbs_summary"
	ResourceDependent ActivityType = "resource_dependent"
)

var activityTypes = map[ActivityType]bool{TaskType: true, StartMilestone: true, FinishMilestone: true,
	LevelOfEffort: true, WBSSummary: true, ResourceDependent: true}

// Valid reports whether t is one of the types.
func (t ActivityType) Valid() bool { return activityTypes[t] }

// ConstraintType is a date constraint, named for what it asks.
type ConstraintType string

// The constraints of MS Project and P6. StartOn and FinishOn are MS
// Project's Must Start/Finish On and P6's Start On/Finish On; Mandatory*
// are P6's mandatory (hard) constraints; AsLateAsPossible takes no date.
const (
	StartOn          ConstraintType = "start_on"
	StartOnOrAfter   ConstraintType = "start_on_or_after"
	StartOnOrBefore  ConstraintType = "start_on_or_before"
	FinishOn         ConstraintType = "finish_on"
	FinishOnOrAfter  ConstraintType = "finish_on_or_after"
	FinishOnOrBefore ConstraintType = "finish_on_or_before"
	MandatoryStart   ConstraintType = "mandatory_start"
	MandatoryFinish  ConstraintType = "mandatory_finish"
	AsLateAsPossible ConstraintType = "as_late_as_possible"
)

var constraintTypes = map[ConstraintType]bool{StartOn: true, StartOnOrAfter: true, StartOnOrBefore: true,
	FinishOn: true, FinishOnOrAfter: true, FinishOnOrBefore: true, MandatoryStart: true,
	MandatoryFinish: true, AsLateAsPossible: true}

// Valid reports whether t is one of the constraints.
func (t ConstraintType) Valid() bool { return constraintTypes[t] }

// onStart reports whether the constraint's date is about the start.
func (t ConstraintType) onStart() bool {
	return t == StartOn || t == StartOnOrAfter || t == StartOnOrBefore || t == MandatoryStart
}

// Constraint is a date constraint: Type and, except for
// as_late_as_possible, Date (2026-03-02 or 2026-03-02T08:00).
type Constraint struct {
	Type ConstraintType `json:"type"`
	Date string         `json:"date,omitempty"`
}

// Tool names whose scheduling rules apply where MS Project and P6 differ.
const (
	MSProject = "msproject"
	P6        = "p6"
)

// The lag calendars: which calendar a relationship's lag is counted on.
const (
	LagSuccessor   = "successor"
	LagPredecessor = "predecessor"
	Lag24Hour      = "24h"
	LagProject     = "project"
)

// The ways progressed activities are scheduled (P6's names).
const (
	RetainedLogic    = "retained_logic"
	ProgressOverride = "progress_override"
	ActualDates      = "actual_dates"
)

// The total float measures (P6's).
const (
	FinishFloat   = "finish"
	StartFloat    = "start"
	SmallestFloat = "smallest"
)

// Options are the scheduling options of the tool a programme comes from.
// Every field is optional; the zero value is MS Project's behaviour.
type Options struct {
	// Tool is msproject or p6: whose rules apply where they differ.
	Tool string `json:"tool,omitempty"`
	// LagCalendar is successor, predecessor, 24h or project; by default
	// MS Project's successor's, P6's predecessor's.
	LagCalendar string `json:"lag_calendar,omitempty"`
	// Progress is retained_logic (default), progress_override or
	// actual_dates.
	Progress string `json:"progress,omitempty"`
	// Float is finish, start or smallest (default: finish for P6,
	// smallest for MS Project).
	Float string `json:"float,omitempty"`
	// OpenEndsCritical makes activities without successors critical.
	OpenEndsCritical bool `json:"open_ends_critical,omitempty"`
	// MustFinishBy is P6's project "must finish by" date (2026-04-15T17:00
	// or a day): with P6's rules the late dates count back from it, not
	// from the early finish, so work that runs past it has negative float.
	MustFinishBy string `json:"must_finish_by,omitempty"`
}

var optionValues = []struct {
	field string
	get   func(*Options) string
	allow []string
}{
	{"tool", func(o *Options) string { return o.Tool }, []string{MSProject, P6}},
	{"lag_calendar", func(o *Options) string { return o.LagCalendar }, []string{LagSuccessor, LagPredecessor, Lag24Hour, LagProject}},
	{"progress", func(o *Options) string { return o.Progress }, []string{RetainedLogic, ProgressOverride, ActualDates}},
	{"float", func(o *Options) string { return o.Float }, []string{FinishFloat, StartFloat, SmallestFloat}},
}

// check names the first option set to a value not allowed.
func (o *Options) check() error {
	if o == nil {
		return nil
	}
	for _, v := range optionValues {
		if got := v.get(o); got != "" && !slices.Contains(v.allow, got) {
			return fieldErr("options."+v.field, "%q: want one of %s", got, strings.Join(v.allow, ", "))
		}
	}
	return nil
}

// IsP6 reports whether P6's rules apply.
func (o *Options) IsP6() bool { return o != nil && o.Tool == P6 }

// Clone returns a deep copy of the activity.
func (a Activity) Clone() Activity {
	if a.Constraint != nil {
		c := *a.Constraint
		a.Constraint = &c
	}
	if a.SecondaryConstraint != nil {
		c := *a.SecondaryConstraint
		a.SecondaryConstraint = &c
	}
	a.Codes = maps.Clone(a.Codes)
	a.Assignments = slices.Clone(a.Assignments)
	return a
}

// Live reports whether the activity carries anything beyond the plain
// logic network (its own calendar, a type, a constraint, progress, fixed
// dates): such a schedule is computed on dates, not working-day offsets.
func (a *Activity) Live() bool {
	return a.Type != TaskType || a.Calendar != "" || a.Constraint != nil || a.SecondaryConstraint != nil ||
		a.ActualStart != "" || a.ActualFinish != "" || a.Remaining != "" || a.Manual || hasUnit(a.Duration) ||
		len(a.Assignments) > 0
}

// hasUnit reports whether a duration is written with a unit other than
// working days ("3ed", "4h"), which only the live engine counts on the
// right clock.
func hasUnit(d string) bool {
	if plainNumber(d) {
		return false
	}
	_, unit := cutUnit(strings.TrimSpace(d))
	return unit != ""
}

// String writes a constraint as planners read it: "start on or after 2026-03-02".
func (c Constraint) String() string {
	words := strings.ReplaceAll(string(c.Type), "_", " ")
	if c.Date == "" {
		return words
	}
	return fmt.Sprintf("%s %s", words, c.Date)
}

// Equal reports whether two activities hold the same values.
func (a Activity) Equal(b Activity) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Description == b.Description && a.Duration == b.Duration &&
		a.Type == b.Type && a.Calendar == b.Calendar && equalConstraint(a.Constraint, b.Constraint) &&
		equalConstraint(a.SecondaryConstraint, b.SecondaryConstraint) && a.ActualStart == b.ActualStart &&
		a.ActualFinish == b.ActualFinish && a.Remaining == b.Remaining && a.PercentComplete == b.PercentComplete &&
		a.Manual == b.Manual && a.Start == b.Start && a.Finish == b.Finish && a.WBS == b.WBS && maps.Equal(a.Codes, b.Codes) &&
		slices.Equal(a.Assignments, b.Assignments) && a.BaselineStart == b.BaselineStart &&
		a.BaselineFinish == b.BaselineFinish && a.BaselineDuration == b.BaselineDuration
}

func equalConstraint(a, b *Constraint) bool {
	return a == b || a != nil && b != nil && *a == *b
}
