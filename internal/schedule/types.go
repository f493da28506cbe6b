package schedule

import (
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"
)

// Activity is one unit of work. Duration is kept as written (working days or a
// distribution, see ParseDuration) so nothing the planner typed is lost.
type Activity struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Duration    string `json:"duration"`

	// The live programme (issue 28): every field is optional, so a plain
	// logic network reads and writes exactly as before.

	// Type is what kind of activity it is; "" is a task.
	Type ActivityType `json:"type,omitempty"`
	// Calendar is the key of the activity's calendar in Schedule.Calendars;
	// "" is the project's calendar.
	Calendar string `json:"calendar,omitempty"`
	// Constraint and SecondaryConstraint are date constraints (P6 has two;
	// MS Project one).
	Constraint          *Constraint `json:"constraint,omitempty"`
	SecondaryConstraint *Constraint `json:"secondary_constraint,omitempty"`
	// ActualStart and ActualFinish are when the work really started and
	// finished (2026-01-05T08:00 or a date); Remaining is the work left
	// (a duration like Duration) and PercentComplete the progress as the
	// planner reported it (0-100).
	ActualStart     string  `json:"actual_start,omitempty"`
	ActualFinish    string  `json:"actual_finish,omitempty"`
	Remaining       string  `json:"remaining,omitempty"`
	PercentComplete float64 `json:"percent_complete,omitempty"`
	// Manual marks an MS Project manually scheduled task: it stays at Start
	// and Finish whatever its logic says.
	Manual bool   `json:"manual,omitempty"`
	Start  string `json:"start,omitempty"`
	Finish string `json:"finish,omitempty"`
	// WBS is the activity's place in the work breakdown, outermost first
	// ("1.2.3" or "Site/Block A/Level 3"); Codes are its activity codes
	// (code type -> value). Kept, shown and searchable; CPM ignores them.
	WBS   string            `json:"wbs,omitempty"`
	Codes map[string]string `json:"codes,omitempty"`
	// Assignments are the resources' work on the activity: MS Project
	// dates a task that is not fixed-duration from them (see Assignment).
	Assignments []Assignment `json:"assignments,omitempty"`
	// BaselineStart, BaselineFinish (dates like ActualStart) and
	// BaselineDuration (a duration like Duration) are the plan progress
	// is measured against: MS Project's baseline, P6's planned dates, or
	// the dates `baseline set` copied. CPM ignores them (see Variances).
	BaselineStart    string `json:"baseline_start,omitempty"`
	BaselineFinish   string `json:"baseline_finish,omitempty"`
	BaselineDuration string `json:"baseline_duration,omitempty"`
}

// Assignment is one resource's work on an activity. MS Project spans a
// task driven by its assignments from its start to the latest finish of
// Work/Units of working time on each resource's calendar, so a resource
// on a night shift or at half time moves the task's finish.
type Assignment struct {
	Resource string `json:"resource"`
	// Units is the share of the resource's time, 1 for 100%; 0 reads as 1.
	Units float64 `json:"units,omitempty"`
	// Work is a duration like Activity.Duration ("5", "40h").
	Work string `json:"work"`
	// Calendar is the resource's calendar, a key in Schedule.Calendars;
	// "" is the activity's.
	Calendar string `json:"calendar,omitempty"`
	// NonDriving marks an assignment that does not date the activity: a
	// material or cost resource's, or one on a fixed-duration, manual or
	// contoured task. It is kept so the resource counts (DCMA 10) and is
	// listed; CPM skips it, its Work may be empty, and the whole-model
	// writers leave it out (the imported file itself keeps it).
	NonDriving bool `json:"non_driving,omitempty"`
}

// DatingAssignments yields the activity's assignments that date it (every
// one not NonDriving), with their index in Assignments.
func (a *Activity) DatingAssignments() iter.Seq2[int, *Assignment] {
	return func(yield func(int, *Assignment) bool) {
		for k := range a.Assignments {
			if as := &a.Assignments[k]; !as.NonDriving && !yield(k, as) {
				return
			}
		}
	}
}

// RelType is the logic type of a relationship between two activities.
type RelType string

// The four precedence types of MS Project and Primavera P6.
const (
	FS RelType = "FS" // finish-to-start
	SS RelType = "SS" // start-to-start
	FF RelType = "FF" // finish-to-finish
	SF RelType = "SF" // start-to-finish
)

// ReadRelType reads a relationship type as people write it: "FS", "ss",
// "finish to start", "Start-to-Finish"; "" when words name none (the
// planners' and preferences' phrase reader; files use ParseRelType).
func ReadRelType(words string) RelType {
	switch strings.ToUpper(strings.NewReplacer("-", " ").Replace(strings.TrimSpace(words))) {
	case "FS", "FINISH TO START":
		return FS
	case "SS", "START TO START":
		return SS
	case "FF", "FINISH TO FINISH":
		return FF
	case "SF", "START TO FINISH":
		return SF
	}
	return ""
}

// ParseRelType accepts FS, SS, FF or SF in any letter case.
func ParseRelType(s string) (RelType, error) {
	switch t := RelType(strings.ToUpper(strings.TrimSpace(s))); t {
	case FS, SS, FF, SF:
		return t, nil
	}
	return "", fmt.Errorf("relationship type %q: must be one of FS, SS, FF, SF", s)
}

// Valid reports whether t is one of the four types.
func (t RelType) Valid() bool { return t == FS || t == SS || t == FF || t == SF }

// fromStart reports whether the predecessor end of the link is its start.
func (t RelType) fromStart() bool { return t == SS || t == SF }

// toStart reports whether the successor end of the link is its start.
func (t RelType) toStart() bool { return t == FS || t == SS }

// Relationship is a logic link: the successor's start or finish is constrained
// by the predecessor's start or finish plus Lag working days (negative = lead)
// - days of the successor's calendar, counted on the calendar the schedule's
// options name for lags (see Options.LagCalendar).
type Relationship struct {
	ID          string  `json:"id"`
	Type        RelType `json:"type"`
	Predecessor string  `json:"predecessor"`
	Successor   string  `json:"successor"`
	Lag         float64 `json:"lag"`
}

// Calendar says when work happens. Every field is optional: the default is
// MS Project's Standard calendar, Monday to Friday, 08:00-12:00 and
// 13:00-17:00, eight hours a day. Durations and lags are in working days of
// HoursPerDay hours, so a fractional day maps to hours within the working
// periods (see Clock).
type Calendar struct {
	// Name is how the planner's tool names the calendar ("5-day",
	// "Curing 7-day"); the key in Schedule.Calendars is its id.
	Name string `json:"name,omitempty"`
	// Workdays are the weekdays normally worked ("Mon" or "monday" ...).
	Workdays []string `json:"workdays,omitempty"`
	// Holidays are single dates not worked, whatever else says.
	Holidays []string `json:"holidays,omitempty"`
	// Hours are the working periods of a workday, "08:00-12:00"; default
	// 08:00-12:00 and 13:00-17:00.
	Hours []string `json:"hours,omitempty"`
	// DayHours overrides Hours for some workdays, e.g. a short Friday:
	// {"Fri": ["08:00-12:00"]}.
	DayHours map[string][]string `json:"day_hours,omitempty"`
	// HoursPerDay is how many working hours make one day of duration or lag
	// (MS Project's MinutesPerDay / 60, P6's day_hr_cnt); default the length
	// of Hours.
	HoursPerDay float64 `json:"hours_per_day,omitempty"`
	// Exceptions are date ranges worked differently from the week: not at
	// all (a shutdown) or with their own hours (a worked Saturday).
	Exceptions []CalendarException `json:"exceptions,omitempty"`
}

// CalendarException is a date range (From to To inclusive; To defaults to
// From) that is either not worked, or worked with Hours (default the
// calendar's Hours) - MS Project's calendar exception, P6's exception day.
type CalendarException struct {
	Name    string   `json:"name,omitempty"`
	From    string   `json:"from"`
	To      string   `json:"to,omitempty"`
	Working bool     `json:"working,omitempty"`
	Hours   []string `json:"hours,omitempty"`
}

// Clone returns a deep copy.
func (c *Calendar) Clone() *Calendar {
	if c == nil {
		return nil
	}
	cal := *c
	cal.Workdays = slices.Clone(c.Workdays)
	cal.Holidays = slices.Clone(c.Holidays)
	cal.Hours = slices.Clone(c.Hours)
	if c.DayHours != nil {
		cal.DayHours = make(map[string][]string, len(c.DayHours))
		for k, v := range c.DayHours {
			cal.DayHours[k] = slices.Clone(v)
		}
	}
	if c.Exceptions != nil {
		cal.Exceptions = make([]CalendarException, len(c.Exceptions))
		for i, e := range c.Exceptions {
			e.Hours = slices.Clone(e.Hours)
			cal.Exceptions[i] = e
		}
	}
	return &cal
}

// Schedule is a whole project: its activities and the logic between them.
// Slice order is the planner's order and is preserved by every op and inverse.
type Schedule struct {
	Name      string    `json:"name,omitempty"`
	StartDate string    `json:"start_date,omitempty"`
	Calendar  *Calendar `json:"calendar,omitempty"`
	// DataDate is the status date of a progressed programme: work before
	// it is reported (actuals), work after it is scheduled (2026-03-02 or
	// 2026-03-02T08:00). "" when nothing has been statused.
	DataDate string `json:"data_date,omitempty"`
	// Calendars are the calendars activities name (Activity.Calendar), by
	// id; Calendar stays the project's default.
	Calendars map[string]*Calendar `json:"calendars,omitempty"`
	// Options say how to schedule (which tool's rules); nil is MS
	// Project's defaults.
	Options       *Options       `json:"options,omitempty"`
	Activities    []Activity     `json:"activities"`
	Relationships []Relationship `json:"relationships"`
	// Source is the P6 or MS Project file the schedule was imported from,
	// kept whole so that export writes it back with only the changes made
	// (nil for a schedule made here or read from JSON without one).
	Source *Source `json:"source,omitempty"`
}

// Source is a file a schedule was imported from. Everything the model
// does not schedule with - resources, costs, codes, UDFs, notes,
// baselines, views - lives only here, so it is never lost: export reads
// it again and writes it back with the schedule's changes applied. It is
// never changed after import; it is shared, not copied, by Clone.
type Source struct {
	// Format is the file's format: "xer" or "mspdi".
	Format string `json:"format"`
	// Name is the file's base name, as imported.
	Name string `json:"name,omitempty"`
	// Gzip is the file's bytes, gzip-compressed (a P6 export shrinks
	// about tenfold).
	Gzip []byte `json:"gzip"`
}

// Clone returns a deep copy, so a caller can keep a snapshot while ops mutate.
func (s *Schedule) Clone() *Schedule {
	c := *s
	c.Activities = append([]Activity(nil), s.Activities...)
	c.Relationships = append([]Relationship(nil), s.Relationships...)
	c.Calendar = s.Calendar.Clone()
	if s.Calendars != nil {
		c.Calendars = make(map[string]*Calendar, len(s.Calendars))
		for k, v := range s.Calendars {
			c.Calendars[k] = v.Clone()
		}
	}
	if s.Options != nil {
		o := *s.Options
		c.Options = &o
	}
	for i := range c.Activities {
		if a := &c.Activities[i]; a.Constraint != nil || a.SecondaryConstraint != nil || a.Codes != nil || a.Assignments != nil {
			*a = a.Clone()
		}
	}
	return &c
}

// activityIndex returns the position of the activity with id, or -1.
func (s *Schedule) activityIndex(id string) int {
	for i := range s.Activities {
		if s.Activities[i].ID == id {
			return i
		}
	}
	return -1
}

// relationshipIndex returns the position of the relationship with id, or -1.
func (s *Schedule) relationshipIndex(id string) int {
	for i := range s.Relationships {
		if s.Relationships[i].ID == id {
			return i
		}
	}
	return -1
}

// Activity returns the activity with id.
func (s *Schedule) Activity(id string) (Activity, bool) {
	if i := s.activityIndex(id); i >= 0 {
		return s.Activities[i], true
	}
	return Activity{}, false
}

// Relationship returns the relationship with id.
func (s *Schedule) Relationship(id string) (Relationship, bool) {
	if i := s.relationshipIndex(id); i >= 0 {
		return s.Relationships[i], true
	}
	return Relationship{}, false
}

// activityName is the readable label of an activity id: its name, or the id.
func (s *Schedule) activityName(id string) string {
	if a, ok := s.Activity(id); ok && a.Name != "" {
		return a.Name
	}
	return id
}

// MarshalJSON writes empty activity and relationship lists as [] whether
// they are nil or empty, so equal schedules serialise to equal bytes.
func (s Schedule) MarshalJSON() ([]byte, error) {
	type plain Schedule // drops this method, avoiding recursion
	if s.Activities == nil {
		s.Activities = []Activity{}
	}
	if s.Relationships == nil {
		s.Relationships = []Relationship{}
	}
	return json.Marshal(plain(s))
}
