// Package versions says which versions of a stored schedule are kept and
// which one a planner means. A version is the whole schedule as it stood
// at one data date, kept when a write moved its data date on (a committed
// set_data_date, an import --replace of the next update): the monthly
// update's "last month". The package is pure: the coordinator
// (internal/store) keeps and reads versions, the CLI names them.
//
// Bound: a schedule keeps at most Max versions; keeping one more drops the
// oldest kept (Prune). The schedule itself is never dropped, and a
// version is never overwritten: a data date visited twice keeps both.
package versions

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Max is how many versions a schedule keeps: ten years of monthly updates.
const Max = 120

// Info describes a kept version.
type Info struct {
	ID string `json:"id"`
	// DataDate is the data date the schedule had ("" for a plan never
	// statused).
	DataDate string    `json:"data_date"`
	KeptAt   time.Time `json:"kept_at"`
	// Why says which write moved the data date on, in words.
	Why           string `json:"why"`
	Activities    int    `json:"activities"`
	Relationships int    `json:"relationships"`
}

// ID is the id of the version a write (its op ids) keeps: the same write
// retried keeps the same version, never a second one.
func ID(scheduleID string, opIDs []string) string {
	return schedule.DerivedID(append([]string{"version", scheduleID}, opIDs...)...)
}

// Moved reports whether a write from before to after moves the data date,
// so the schedule as it stood before is kept.
func Moved(before, after *schedule.Schedule) bool {
	return before != nil && after != nil && before.DataDate != after.DataDate
}

// Of describes s kept now as a version for why.
func Of(id string, s *schedule.Schedule, keptAt time.Time, why string) Info {
	return Info{ID: id, DataDate: s.DataDate, KeptAt: keptAt.UTC(), Why: why,
		Activities: len(s.Activities), Relationships: len(s.Relationships)}
}

// ImportWhy is why an import keeps the schedule it replaces.
func ImportWhy(from, to string) string {
	return fmt.Sprintf("import --replace moved the data date %s -> %s", DateText(from), DateText(to))
}

// CommitWhy is why a committed dispatch keeps the schedule it changed:
// "dispatch-building/run-1 (accepted by ana) moved the data date
// 2027-03-01 -> 2027-04-01".
func CommitWhy(dispatch, reviewer, from, to string) string {
	by := ""
	if reviewer != "" {
		by = " by " + reviewer
	}
	if dispatch == "" {
		dispatch = "changes"
	}
	return fmt.Sprintf("%s (accepted%s) moved the data date %s -> %s", dispatch, by, DateText(from), DateText(to))
}

// DateText is a data date as a person reads it: "none" when unset.
func DateText(d string) string {
	if d == "" {
		return "none"
	}
	return d
}

// day is a data date's day (2027-03-01 of 2027-03-01T08:00).
func day(d string) string {
	if i := strings.IndexByte(d, 'T'); i >= 0 {
		return d[:i]
	}
	return d
}

// Sorted orders versions by data date, then when they were kept: the
// order a planner reads updates in.
func Sorted(list []Info) []Info {
	out := slices.Clone(list)
	slices.SortStableFunc(out, func(a, b Info) int {
		if c := cmp.Compare(a.DataDate, b.DataDate); c != 0 {
			return c
		}
		if c := a.KeptAt.Compare(b.KeptAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}

// Prune is the versions to drop so that keeping one more leaves at most
// max: the oldest kept first.
func Prune(list []Info, max int) []string {
	extra := len(list) + 1 - max
	if extra <= 0 {
		return nil
	}
	byKept := slices.Clone(list)
	slices.SortStableFunc(byKept, func(a, b Info) int {
		if c := a.KeptAt.Compare(b.KeptAt); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	drop := make([]string, 0, extra)
	for _, v := range byKept[:min(extra, len(byKept))] {
		drop = append(drop, v.ID)
	}
	return drop
}

// CheckDate reads a date a planner gives for a version (2027-03-01, or a
// data date with its time, 2027-03-01T08:00) and returns it as written.
func CheckDate(d string) (string, error) {
	d = strings.TrimSpace(d)
	if _, err := schedule.ParseDate(day(d)); err != nil {
		return "", fmt.Errorf("%q is not a date: give the data date as YYYY-MM-DD (e.g. 2027-03-01)", d)
	}
	if strings.ContainsRune(d, 'T') {
		if _, err := schedule.ParseStart(d); err != nil {
			return "", fmt.Errorf("%q is not a date and time: give YYYY-MM-DD or YYYY-MM-DDTHH:MM", d)
		}
	}
	return d, nil
}

// Matches reports whether a data date is the date asked for: the same
// day, or exactly the same instant when a time is given.
func Matches(dataDate, asked string) bool {
	if strings.ContainsRune(asked, 'T') {
		return dataDate == asked
	}
	return day(dataDate) == asked
}

// At is the version at data date d: of several kept at that date, the
// last kept (the schedule as it finally stood at that date). ok is false
// when none is.
func At(list []Info, d string) (Info, bool) {
	var found Info
	ok := false
	for _, v := range Sorted(list) {
		if Matches(v.DataDate, d) {
			found, ok = v, true
		}
	}
	return found, ok
}

// Previous is the last update before the current data date: the version
// with the latest data date before it (the last kept of those), or, for a
// schedule with no data date, the last version kept. ok is false when
// there is none.
func Previous(list []Info, current string) (Info, bool) {
	if current == "" {
		var last Info
		ok := false
		for _, v := range list {
			if !ok || v.KeptAt.After(last.KeptAt) || v.KeptAt.Equal(last.KeptAt) && v.ID > last.ID {
				last, ok = v, true
			}
		}
		return last, ok
	}
	var found Info
	ok := false
	for _, v := range Sorted(list) {
		if day(v.DataDate) < day(current) {
			found, ok = v, true
		}
	}
	return found, ok
}

// Dates lists the data dates of versions, in order, once each: for an
// error that says which there are.
func Dates(list []Info) string {
	var ds []string
	for _, v := range Sorted(list) {
		d := DateText(v.DataDate)
		if len(ds) == 0 || ds[len(ds)-1] != d {
			ds = append(ds, d)
		}
	}
	if len(ds) == 0 {
		return "none"
	}
	return strings.Join(ds, ", ")
}

// Label names a version of a schedule for a report: "building at data
// date 2027-03-01".
func Label(scheduleID string, v Info) string {
	return fmt.Sprintf("%s at data date %s", scheduleID, DateText(v.DataDate))
}

// NoneBefore says why a schedule at data date current has no previous
// version.
func NoneBefore(current string) string {
	return fmt.Sprintf("none is kept before its data date (%s). A version is kept each time the data date moves: "+
		"an accepted dispatch that sets it, or import --replace of the next update's file", DateText(current))
}
