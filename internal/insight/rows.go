package insight

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The read tools are plain methods on a View with JSON-friendly arguments
// and results (exported structs with json tags), so each can be offered to a
// model as a read-only tool one to one:
//
//	Find(Filter) (*FindResult, error)
//	Details(id string) (*Details, error)
//	DrivingPath(id string) (*Path, error)
//	DrivingPathToFinish() *Path
//	NearCritical(days float64) []Row
//	FloatBy(group string) ([]FloatGroup, error)
//	WhatIf(ops []schedule.Op) (*WhatIfResult, error)
//	WhatIfScenario(Scenario) (*WhatIfResult, error)
//
// Times are working-day offsets from the project start (day 0), rounded to
// a millionth of a day; dates are local date-times (schedule.DateTimeLayout)
// and are present only when the schedule has a start date.

// Row is one activity's CPM figures.
type Row struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Duration    float64 `json:"duration"`
	EarlyStart  float64 `json:"early_start"`
	EarlyFinish float64 `json:"early_finish"`
	LateStart   float64 `json:"late_start"`
	LateFinish  float64 `json:"late_finish"`
	TotalFloat  float64 `json:"total_float"`
	FreeFloat   float64 `json:"free_float"`
	Critical    bool    `json:"critical"`
	// Level is the level the name says ("3" for "Painting Level 3"), ""
	// when it says none; Trade is the name without its level (see LevelOf
	// and TradeOf).
	Level           string `json:"level,omitempty"`
	Trade           string `json:"trade,omitempty"`
	EarlyStartDate  string `json:"early_start_date,omitempty"`
	EarlyFinishDate string `json:"early_finish_date,omitempty"`
	LateStartDate   string `json:"late_start_date,omitempty"`
	LateFinishDate  string `json:"late_finish_date,omitempty"`
}

// LevelOf is the level an activity's name says, as the language layer
// reads levels (lang.LevelOf, whose words are the lexicon's through
// lexicon.MatchLevel: "Level 3", "L3", "level three", "3rd floor",
// "storey 3", "fl 3" are all "3"); "" when the name says none ("Roof slab
// formwork", "Handover"). Only the name counts, never the description.
func LevelOf(name string) string {
	return strings.TrimPrefix(lang.LevelOf(name), "level_")
}

// TradeOf is an activity's trade: its name without the level words and
// fillers (lang.TradeOf), so "Painting Level 1" … "Painting Level 4" are
// one trade, "Painting". Activities whose names differ only by level share
// a trade; grouping compares trades case-insensitively.
func TradeOf(name string) string {
	t := strings.TrimSpace(lang.TradeOf(name))
	if t == "" {
		return strings.TrimSpace(name)
	}
	return t
}

// row is activity i's (a network index) figures.
func (v *View) row(i int) Row {
	a := v.Activity(i)
	r := v.R
	out := Row{
		ID: a.ID, Name: a.Name,
		Duration:   schedule.RoundDays(r.EF[i] - r.ES[i]),
		EarlyStart: schedule.RoundDays(r.ES[i]), EarlyFinish: schedule.RoundDays(r.EF[i]),
		LateStart: schedule.RoundDays(r.LS[i]), LateFinish: schedule.RoundDays(r.LF[i]),
		TotalFloat: schedule.RoundDays(r.TotalFloat[i]), FreeFloat: schedule.RoundDays(r.FreeFloat[i]),
		Critical: r.Critical(i),
		Level:    LevelOf(a.Name), Trade: TradeOf(a.Name),
	}
	if v.Clock != nil {
		out.EarlyStartDate = v.date(i, schedule.EarlyStart)
		out.EarlyFinishDate = v.date(i, schedule.EarlyFinish)
		out.LateStartDate = v.date(i, schedule.LateStart)
		out.LateFinishDate = v.date(i, schedule.LateFinish)
	}
	return out
}

// Row is the figures of activity id.
func (v *View) Row(id string) (Row, bool) {
	i, ok := v.Index(id)
	if !ok {
		return Row{}, false
	}
	return v.row(i), true
}

// date dates one of activity i's CPM dates as the CPM report does (see
// schedule.Result.When). Past the calendar's range there is no date
// (never a clamped one).
func (v *View) date(i int, f schedule.DateField) string {
	t, err := v.R.When(v.Clock, i, f)
	if err != nil {
		return ""
	}
	return t.Format(schedule.DateTimeLayout)
}

// finishDate is the project's finish date, "" without a start date or
// past the calendar's range.
func (v *View) finishDate() string {
	if v.Clock == nil {
		return ""
	}
	t, err := v.R.Finish(v.Clock)
	if err != nil {
		return ""
	}
	return t.Format(schedule.DateTimeLayout)
}

// Finish is the project finish in working days and, with a start date, as
// a date.
type Finish struct {
	Duration   float64 `json:"project_duration"`
	FinishDate string  `json:"finish_date,omitempty"`
	// Activities are those that finish at the project finish.
	Activities []string `json:"activities"`
	// Critical counts the critical activities, of Total.
	Critical int `json:"critical"`
	Total    int `json:"total"`
}

// ProjectFinish is the project's finish.
func (v *View) ProjectFinish() Finish {
	f := Finish{Duration: schedule.RoundDays(v.R.ProjectDuration), FinishDate: v.finishDate(), Activities: []string{}, Total: v.R.Net.Len()}
	for _, i := range v.scheduleOrder() {
		if v.R.EF[i] >= v.R.ProjectDuration-schedule.Epsilon {
			f.Activities = append(f.Activities, v.Activity(i).ID)
		}
		if v.R.Critical(i) {
			f.Critical++
		}
	}
	return f
}

// CriticalPath is every critical activity, in the CPM report's
// critical_path order (early start, ties in topological order).
func (v *View) CriticalPath() []Row {
	ids := v.R.CriticalPath()
	out := make([]Row, 0, len(ids))
	for _, id := range ids {
		i, _ := v.Index(id)
		out = append(out, v.row(i))
	}
	return out
}

// scheduleOrder is the network indexes in the schedule's order.
func (v *View) scheduleOrder() []int {
	out := make([]int, len(v.pos))
	for i, p := range v.pos {
		out[p] = i
	}
	return out
}

// byFloatThenStart orders network indexes by total float, then early
// start, then schedule order.
func (v *View) byFloatThenStart(idx []int) {
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmpRounded(v.R.TotalFloat[a], v.R.TotalFloat[b]), cmpRounded(v.R.ES[a], v.R.ES[b]), cmp.Compare(v.pos[a], v.pos[b]))
	})
}

// byStart orders network indexes by early start, then schedule order.
func (v *View) byStart(idx []int) {
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmpRounded(v.R.ES[a], v.R.ES[b]), cmp.Compare(v.pos[a], v.pos[b]))
	})
}

// cmpRounded compares two times as equal within schedule.Epsilon.
func cmpRounded(a, b float64) int {
	if math.Abs(a-b) <= schedule.Epsilon {
		return 0
	}
	return cmp.Compare(a, b)
}

func (v *View) rows(idx []int) []Row {
	out := make([]Row, 0, len(idx))
	for _, i := range idx {
		out = append(out, v.row(i))
	}
	return out
}

// IDs lists the rows' ids in order.
func IDs(rows []Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}
