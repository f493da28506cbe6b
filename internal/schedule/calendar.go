package schedule

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// The working periods of a day, as MS Project's Standard calendar has them:
// 08:00-12:00 and 13:00-17:00, eight hours.
var workPeriods = [2][2]time.Duration{
	{8 * time.Hour, 12 * time.Hour},
	{13 * time.Hour, 17 * time.Hour},
}

const hoursPerDay = 8 * time.Hour

// DefaultWorkdays is Monday to Friday.
var DefaultWorkdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri"}

var weekdayNames = map[string]time.Weekday{
	"sun": time.Sunday, "sunday": time.Sunday,
	"mon": time.Monday, "monday": time.Monday,
	"tue": time.Tuesday, "tuesday": time.Tuesday,
	"wed": time.Wednesday, "wednesday": time.Wednesday,
	"thu": time.Thursday, "thursday": time.Thursday,
	"fri": time.Friday, "friday": time.Friday,
	"sat": time.Saturday, "saturday": time.Saturday,
}

// workWeek is a compiled calendar: which weekdays work, which dates do not.
type workWeek struct {
	works    [7]bool
	holidays map[time.Time]bool
}

func (c *Calendar) compile() (*workWeek, error) {
	w := &workWeek{holidays: map[time.Time]bool{}}
	days := DefaultWorkdays
	if c != nil && c.Workdays != nil {
		days = c.Workdays
	}
	for i, name := range days {
		d, ok := weekdayNames[strings.ToLower(strings.TrimSpace(name))]
		if !ok {
			return nil, fieldErr(fmt.Sprintf("calendar.workdays[%d]", i), "%q is not a weekday; want Mon, Tue, Wed, Thu, Fri, Sat or Sun", name)
		}
		w.works[d] = true
	}
	if w.works == [7]bool{} {
		return nil, fieldErr("calendar.workdays", "no working days")
	}
	if c != nil {
		for i, h := range c.Holidays {
			day, err := time.Parse(time.DateOnly, h)
			if err != nil {
				return nil, fieldErr(fmt.Sprintf("calendar.holidays[%d]", i), "%q is not a date like 2026-12-25", h)
			}
			w.holidays[day] = true
		}
	}
	return w, nil
}

func (w *workWeek) working(day time.Time) bool {
	return w.works[day.Weekday()] && !w.holidays[day]
}

// Clock turns working-day offsets from the project start into local
// date-times on a calendar.
type Clock struct {
	week *workWeek
	days []time.Time // days[k] is the date of working day k (day 0 = start)
}

// NewClock makes a clock for a project starting on start (YYYY-MM-DD); the
// first working day on or after it is day 0.
func NewClock(start string, cal *Calendar) (*Clock, error) {
	day, err := time.Parse(time.DateOnly, start)
	if err != nil {
		return nil, fieldErr("start_date", "%q is not a date like 2026-01-05", start)
	}
	week, err := cal.compile()
	if err != nil {
		return nil, err
	}
	for !week.working(day) {
		day = day.AddDate(0, 0, 1)
	}
	return &Clock{week: week, days: []time.Time{day}}, nil
}

// workday is the date of working day k, extending the table as needed.
func (c *Clock) workday(k int) time.Time {
	for len(c.days) <= k {
		day := c.days[len(c.days)-1].AddDate(0, 0, 1)
		for !c.week.working(day) {
			day = day.AddDate(0, 0, 1)
		}
		c.days = append(c.days, day)
	}
	return c.days[k]
}

// at maps an offset to a time of day; a boundary between two periods maps
// to the later one for a start and the earlier one for a finish.
func (c *Clock) at(offset float64, finish bool) time.Time {
	offset = max(offset, 0)
	k := int(math.Floor(offset + Epsilon))
	frac := offset - float64(k)
	if frac < Epsilon {
		frac = 0
	}
	if finish && frac == 0 && k > 0 {
		k, frac = k-1, 1
	}
	// Round to the minute: durations in decimal days rarely land on one.
	worked := time.Duration(math.Round(frac*float64(hoursPerDay)/float64(time.Minute))) * time.Minute
	day := c.workday(k)
	for i, p := range workPeriods {
		length := p[1] - p[0]
		last := i == len(workPeriods)-1
		if worked < length || (finish && worked == length) || last {
			return day.Add(p[0] + min(worked, length))
		}
		worked -= length
	}
	panic("unreachable")
}

// StartAt is the date-time a working-day offset begins.
func (c *Clock) StartAt(offset float64) time.Time { return c.at(offset, false) }

// FinishAt is the date-time a working-day offset ends.
func (c *Clock) FinishAt(offset float64) time.Time { return c.at(offset, true) }

// DateTimeLayout is how reports write local date-times.
const DateTimeLayout = "2006-01-02T15:04:05"
