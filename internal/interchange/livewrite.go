package interchange

// What both whole-model writers share to write a live programme (issue
// 29, across formats): which schedules carry more than a logic network,
// and the inverse of the readers' code tables.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// isLive reports whether s holds anything beyond a plain logic network:
// a plain network is written exactly as it always was, so a file
// exported before the live fields reads and compares the same.
func isLive(s *schedule.Schedule) bool {
	if s.DataDate != "" || s.Options != nil || len(s.Calendars) > 0 {
		return true
	}
	for i := range s.Activities {
		a := &s.Activities[i]
		if a.Live() || a.WBS != "" || len(a.Codes) > 0 || a.PercentComplete != 0 {
			return true
		}
	}
	return false
}

// keyOf is the file's code for a model value in one of the readers' code
// tables ("" when the value is not there, as for the zero value).
func keyOf[V comparable](codes map[string]V, v V) string {
	var zero V
	if v == zero {
		return ""
	}
	best := ""
	for k, x := range codes {
		// The smallest key: a table may give one value two codes
		// (TT_Task and "" both read as a task), and the file must not
		// change from one export to the next.
		if x == v && (best == "" || k < best) {
			best = k
		}
	}
	return best
}

// numericKey reports whether a calendar key is a file id as both
// formats write one: a positive whole number in its plain form.
func numericKey(key string) (int, bool) {
	n, err := strconv.Atoi(key)
	return n, err == nil && n > 0 && strconv.Itoa(n) == key
}

// fileIDs gives each calendar key a numeric id in the file: the key
// itself where it is one (so it reads back the same), the next free
// number otherwise; project is the project calendar's id, 1 unless a key
// takes it.
type fileIDs struct {
	project int
	keys    []string // s.Calendars' keys, sorted
	id      map[string]int
}

func calendarFileIDs(s *schedule.Schedule) fileIDs {
	ids := fileIDs{id: map[string]int{}}
	used := map[int]bool{}
	for key := range s.Calendars {
		ids.keys = append(ids.keys, key)
		if n, ok := numericKey(key); ok {
			ids.id[key], used[n] = n, true
		}
	}
	slices.Sort(ids.keys)
	next := 1
	free := func() int {
		for used[next] {
			next++
		}
		used[next] = true
		return next
	}
	ids.project = free()
	for _, key := range ids.keys {
		if _, ok := ids.id[key]; !ok {
			ids.id[key] = free()
		}
	}
	return ids
}

// wbsSegments cuts a WBS path into the names of its levels, outermost
// first, as both readers join them with "."; a path with an empty level
// ("A..B") is one level, so it reads back as written.
func wbsSegments(path string) []string {
	parts := strings.Split(path, ".")
	if slices.Contains(parts, "") {
		return []string{path}
	}
	return parts
}

// sortedCodeTypes lists the activity code types the activities use,
// sorted.
func sortedCodeTypes(s *schedule.Schedule) []string {
	seen := map[string]bool{}
	var types []string
	for i := range s.Activities {
		for t := range s.Activities[i].Codes {
			if !seen[t] {
				seen[t] = true
				types = append(types, t)
			}
		}
	}
	slices.Sort(types)
	return types
}

// resourceNames lists the resources the assignments name, in order of
// first use, with the calendar key each is on: the first an assignment
// gives ("" the activity's).
func resourceNames(s *schedule.Schedule) (names []string, calendar map[string]string) {
	calendar = map[string]string{}
	for i := range s.Activities {
		for _, as := range s.Activities[i].DatingAssignments() {
			key, seen := calendar[as.Resource]
			if !seen {
				names = append(names, as.Resource)
			}
			if key == "" {
				calendar[as.Resource] = as.Calendar
			}
		}
	}
	return names, calendar
}

// workCalendars are a schedule's calendars compiled, by key ("" the
// project's): the writers count durations in their hours and date a
// live date on them.
type workCalendars map[string]*schedule.WorkTime

func compileCalendars(s *schedule.Schedule) (workCalendars, error) {
	w, err := s.Calendar.Compile()
	if err != nil {
		return nil, err
	}
	wc := workCalendars{"": w}
	for key, cal := range s.Calendars {
		if wc[key], err = cal.Compile(); err != nil {
			return nil, fmt.Errorf("calendar %q: %w", key, err)
		}
	}
	return wc, nil
}

// hoursPerDay is how many working hours make a day on a calendar.
func (wc workCalendars) hoursPerDay(key string) float64 { return wc[key].MinutesPerDay() / 60 }

// dateText writes a live date of an activity on calendar key in layout,
// "" for none. Both formats hold instants: a date alone stands, as the
// engine reads it, for the first working instant at or after its start
// or, for a finish, the last one at or before its end.
func (wc workCalendars) dateText(key, v string, finish bool, layout string) string {
	if v == "" {
		return ""
	}
	t, err := schedule.ParseStart(v)
	if err != nil {
		return "" // checked valid before writing
	}
	if len(v) == len(time.DateOnly) {
		t = workingEdge(wc[key], t, finish)
	}
	return t.Format(layout)
}

// workingEdge is the first working instant of day or a later day, or for
// a finish the last one of day or an earlier day, within a year; the
// day's own edge when none is worked.
func workingEdge(w *schedule.WorkTime, day time.Time, finish bool) time.Time {
	for n := range 366 {
		if finish {
			d := day.AddDate(0, 0, -n)
			if ps := w.Periods(d); len(ps) > 0 {
				return d.Add(time.Duration(ps[len(ps)-1].To) * time.Minute)
			}
			continue
		}
		d := day.AddDate(0, 0, n)
		if ps := w.Periods(d); len(ps) > 0 {
			return d.Add(time.Duration(ps[0].From) * time.Minute)
		}
	}
	if finish {
		return day.AddDate(0, 0, 1)
	}
	return day
}

// finishConstraint reports whether a constraint's date is about the
// finish.
func finishConstraint(t schedule.ConstraintType) bool {
	switch t {
	case schedule.FinishOn, schedule.FinishOnOrAfter, schedule.FinishOnOrBefore, schedule.MandatoryFinish:
		return true
	}
	return false
}
