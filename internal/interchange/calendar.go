package interchange

// The working week as both formats hold it: a period list per weekday.
// exportWeek is what the writers start from, foldWeek what the readers end
// with, so MSPDI and XER fold and unfold a week the same way.

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// exportWeek is what both calendar writers export of a (validated)
// calendar, defaults applied: the calendar itself (never nil), the working
// periods of each weekday (nil: not worked) and the default day's periods,
// which a working exception without hours of its own uses.
func exportWeek(cal *schedule.Calendar) (c *schedule.Calendar, week [7][]string, hours []string) {
	c = cal
	if c == nil {
		c = &schedule.Calendar{}
	}
	hours = c.Hours
	if hours == nil {
		hours = schedule.DefaultHours
	}
	workdays := c.Workdays
	if workdays == nil {
		workdays = schedule.DefaultWorkdays
	}
	for _, name := range workdays {
		d, _ := schedule.ParseWeekday(name)
		week[d] = hours
	}
	for name, h := range c.DayHours {
		d, _ := schedule.ParseWeekday(name)
		week[d] = h
	}
	return c, week, hours
}

// mondayFirst is the order a week is folded in: on a tie between two sets
// of hours, the one Monday's side reaches first is the common one.
var mondayFirst = [7]time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday}

// foldWeek is exportWeek's inverse: from the working periods of each
// weekday (nil: not worked) it sets cal's Workdays, Hours (the periods most
// days have, unless they are schedule.DefaultHours) and DayHours (the days
// that differ). It returns the common periods and their minutes, from
// which the caller decides HoursPerDay.
func foldWeek(cal *schedule.Calendar, week [7][]string) (common []string, minutes int) {
	count := map[string]int{}
	for _, d := range mondayFirst {
		h := week[d]
		if h == nil {
			continue
		}
		cal.Workdays = append(cal.Workdays, schedule.WeekdayNames[d])
		key := strings.Join(h, ",")
		if count[key]++; count[key] > count[strings.Join(common, ",")] {
			common = h
		}
	}
	if !slices.Equal(common, schedule.DefaultHours) {
		cal.Hours = common
	}
	for d, h := range week {
		if h != nil && !slices.Equal(h, common) {
			if cal.DayHours == nil {
				cal.DayHours = map[string][]string{}
			}
			cal.DayHours[schedule.WeekdayNames[d]] = h
		}
	}
	for _, h := range common {
		p, _ := schedule.ParsePeriod(h)
		minutes += p.Minutes()
	}
	return common, minutes
}

// dropOverlaps removes the exceptions that fall on a date an earlier one
// (in date order, then file order) already covers - MS Project writes a
// recurring exception's occurrences beside a single one on the same day -
// and returns them as "from to" texts, for the reader's warning. A
// calendar may hold one exception per date.
func dropOverlaps(cal *schedule.Calendar) []string {
	if len(cal.Exceptions) < 2 {
		return nil
	}
	list := slices.Clone(cal.Exceptions)
	slices.SortStableFunc(list, func(a, b schedule.CalendarException) int { return strings.Compare(a.From, b.From) })
	var kept []schedule.CalendarException
	var dropped []string
	for _, e := range list {
		if n := len(kept); n > 0 && e.From <= lastDay(kept[n-1]) {
			dropped = append(dropped, e.From+" to "+lastDay(e))
			continue
		}
		kept = append(kept, e)
	}
	if dropped != nil {
		cal.Exceptions = kept
	}
	return dropped
}

// lastDay is the last date an exception covers.
func lastDay(e schedule.CalendarException) string { return cmp.Or(e.To, e.From) }

// coversDate reports whether a holiday or an exception of cal falls on a
// date from from to to (dates as 2006-01-02 compare as text).
func coversDate(cal *schedule.Calendar, from, to string) bool {
	for _, h := range cal.Holidays {
		if h >= from && h <= to {
			return true
		}
	}
	for _, e := range cal.Exceptions {
		if e.From <= to && lastDay(e) >= from {
			return true
		}
	}
	return false
}
