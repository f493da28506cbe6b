package schedule

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// DefaultWorkdays is Monday to Friday.
var DefaultWorkdays = []string{"Mon", "Tue", "Wed", "Thu", "Fri"}

// DefaultHours are the working periods of MS Project's Standard calendar.
var DefaultHours = []string{"08:00-12:00", "13:00-17:00"}

// WeekdayNames are the short names calendars are written with, Sunday first
// as in time.Weekday.
var WeekdayNames = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}

var weekdayNames = map[string]time.Weekday{
	"sun": time.Sunday, "sunday": time.Sunday,
	"mon": time.Monday, "monday": time.Monday,
	"tue": time.Tuesday, "tuesday": time.Tuesday,
	"wed": time.Wednesday, "wednesday": time.Wednesday,
	"thu": time.Thursday, "thursday": time.Thursday,
	"fri": time.Friday, "friday": time.Friday,
	"sat": time.Saturday, "saturday": time.Saturday,
}

// ParseWeekday reads "Mon" or "monday" in any letter case.
func ParseWeekday(name string) (time.Weekday, bool) {
	d, ok := weekdayNames[strings.ToLower(strings.TrimSpace(name))]
	return d, ok
}

// Period is a working period within a day, in minutes after midnight.
type Period struct{ From, To int }

// Minutes is the period's length.
func (p Period) Minutes() int { return p.To - p.From }

// String writes the period the way calendars hold it, "08:00-12:00".
func (p Period) String() string { return clockTime(p.From) + "-" + clockTime(p.To) }

func clockTime(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }

// ParsePeriod reads "08:00-12:00"; the end may be 24:00.
func ParsePeriod(s string) (Period, error) {
	from, to, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		return Period{}, fmt.Errorf("%q is not a period like 08:00-12:00", s)
	}
	f, okF := parseClock(strings.TrimSpace(from))
	t, okT := parseClock(strings.TrimSpace(to))
	if !okF || !okT {
		return Period{}, fmt.Errorf("%q is not a period like 08:00-12:00", s)
	}
	if t <= f {
		return Period{}, fmt.Errorf("%q ends before it starts", s)
	}
	return Period{f, t}, nil
}

// parseClock reads HH:MM (00:00 to 24:00).
func parseClock(s string) (int, bool) {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 {
		return 0, false
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || mm < 0 || mm > 59 || hh*60+mm > 24*60 || h[0] == '+' || m[0] == '+' {
		return 0, false
	}
	return hh*60 + mm, true
}

// parsePeriods reads a day's periods: in order, not overlapping, not empty.
func parsePeriods(path string, list []string) ([]Period, error) {
	if len(list) == 0 {
		return nil, fieldErr(path, "no working periods; leave the day out of workdays instead")
	}
	ps := make([]Period, len(list))
	for i, s := range list {
		p, err := ParsePeriod(s)
		if err != nil {
			return nil, fieldErr(fmt.Sprintf("%s[%d]", path, i), "%s", err.Error())
		}
		if i > 0 && p.From < ps[i-1].To {
			return nil, fieldErr(fmt.Sprintf("%s[%d]", path, i), "%q starts before the previous period ends", s)
		}
		ps[i] = p
	}
	return ps, nil
}

// ParseDate reads a calendar date, 2026-12-25.
func ParseDate(s string) (time.Time, error) { return time.Parse(time.DateOnly, s) }

// startLayouts are the forms of a schedule's start_date: a date (work
// starts with the day's first working period) or a date and time of day
// (a project that starts at 09:00 on a calendar worked from 08:00).
var startLayouts = []string{time.DateOnly, "2006-01-02T15:04", "2006-01-02T15:04:05"}

// ParseStart reads a schedule's start_date, 2026-01-05 or 2026-01-05T09:00.
func ParseStart(s string) (time.Time, error) {
	if t, ok := quickDate(s); ok {
		return t, nil
	}
	var err error
	for _, layout := range startLayouts {
		var t time.Time
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

// quickDate reads the two forms files hold most, 2026-01-05 and
// 2026-01-05T09:00, without time.Parse's cost (a live programme has
// several dates per activity); anything else is left to time.Parse, which
// also names what is wrong.
func quickDate(s string) (time.Time, bool) {
	if len(s) != 10 && len(s) != 16 {
		return time.Time{}, false
	}
	num := func(from, to int) int {
		v := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, m, d := num(0, 4), num(5, 7), num(8, 10)
	if s[4] != '-' || s[7] != '-' || y < 0 || m < 1 || m > 12 || d < 1 || d > daysIn(time.Month(m), y) {
		return time.Time{}, false
	}
	hh, mm := 0, 0
	if len(s) == 16 {
		if hh, mm = num(11, 13), num(14, 16); s[10] != 'T' || s[13] != ':' || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
			return time.Time{}, false
		}
	}
	return time.Date(y, time.Month(m), d, hh, mm, 0, 0, time.UTC), true
}

func daysIn(m time.Month, year int) int {
	return time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// dateOf is the midnight t's date starts at.
func dateOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// StartDateOf writes instant t as a schedule's start_date on the working
// time w: the date alone when t is at or before the day's first working
// period (work starts there anyway), else the date and time of day, so
// that a file's 09:00 start is not read as the calendar's 08:00.
func StartDateOf(t time.Time, w *WorkTime) string {
	day := dateOf(t)
	minute := t.Hour()*60 + t.Minute()
	if ps := w.Periods(day); minute == 0 || len(ps) > 0 && minute <= ps[0].From {
		return day.Format(time.DateOnly)
	}
	return t.Format("2006-01-02T15:04")
}

// WorkTime is a compiled calendar: the working periods of every date.
type WorkTime struct {
	week       [7][]Period // nil: the weekday is not worked
	holidays   map[time.Time]bool
	exceptions []exceptionRange // sorted, not overlapping
	dayMinutes float64          // working minutes in one day of duration
}

type exceptionRange struct {
	from, to time.Time // inclusive
	periods  []Period  // nil: not worked
}

// Compile checks the calendar and builds its working time; a nil calendar is
// the default one. Errors name the field, e.g. calendar.exceptions[2].to.
func (c *Calendar) Compile() (*WorkTime, error) {
	if c == nil {
		c = &Calendar{}
	}
	w := &WorkTime{holidays: map[time.Time]bool{}}
	hoursPath, hours := "calendar.hours", c.Hours
	if hours == nil {
		hours = DefaultHours
	}
	base, err := parsePeriods(hoursPath, hours)
	if err != nil {
		return nil, err
	}
	days := DefaultWorkdays
	if c.Workdays != nil {
		days = c.Workdays
	}
	for i, name := range days {
		d, ok := ParseWeekday(name)
		if !ok {
			return nil, fieldErr(fmt.Sprintf("calendar.workdays[%d]", i), "%q is not a weekday; want Mon, Tue, Wed, Thu, Fri, Sat or Sun", name)
		}
		w.week[d] = base
	}
	if !slices.ContainsFunc(w.week[:], func(ps []Period) bool { return ps != nil }) {
		return nil, fieldErr("calendar.workdays", "no working days")
	}
	// Sorted keys: the first problem reported does not depend on map order.
	keys := make([]string, 0, len(c.DayHours))
	for k := range c.DayHours {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	seen := map[time.Weekday]string{}
	for _, k := range keys {
		path := "calendar.day_hours." + k
		d, ok := ParseWeekday(k)
		if !ok {
			return nil, fieldErr(path, "%q is not a weekday; want Mon, Tue, Wed, Thu, Fri, Sat or Sun", k)
		}
		if other, dup := seen[d]; dup {
			return nil, fieldErr(path, "the same weekday as %q", other)
		}
		seen[d] = k
		if w.week[d] == nil {
			return nil, fieldErr(path, "%s is not in workdays", k)
		}
		if w.week[d], err = parsePeriods(path, c.DayHours[k]); err != nil {
			return nil, err
		}
	}
	w.dayMinutes = float64(totalMinutes(base))
	if c.HoursPerDay != 0 {
		if !(c.HoursPerDay > 0 && c.HoursPerDay <= 24) {
			return nil, fieldErr("calendar.hours_per_day", "%g is not between 0 and 24", c.HoursPerDay)
		}
		w.dayMinutes = c.HoursPerDay * 60
	}
	for i, h := range c.Holidays {
		day, err := ParseDate(h)
		if err != nil {
			return nil, fieldErr(fmt.Sprintf("calendar.holidays[%d]", i), "%q is not a date like 2026-12-25", h)
		}
		w.holidays[day] = true
	}
	for i, e := range c.Exceptions {
		path := fmt.Sprintf("calendar.exceptions[%d]", i)
		from, err := ParseDate(e.From)
		if err != nil {
			return nil, fieldErr(path+".from", "%q is not a date like 2026-12-25", e.From)
		}
		to := from
		if e.To != "" {
			if to, err = ParseDate(e.To); err != nil {
				return nil, fieldErr(path+".to", "%q is not a date like 2026-12-25", e.To)
			}
			if to.Before(from) {
				return nil, fieldErr(path+".to", "%s is before from %s", e.To, e.From)
			}
		}
		r := exceptionRange{from: from, to: to}
		switch {
		case e.Working && e.Hours == nil:
			r.periods = base
		case e.Working:
			if r.periods, err = parsePeriods(path+".hours", e.Hours); err != nil {
				return nil, err
			}
		case e.Hours != nil:
			return nil, fieldErr(path+".hours", "hours on a non-working exception; set \"working\": true")
		}
		w.exceptions = append(w.exceptions, r)
	}
	slices.SortStableFunc(w.exceptions, func(a, b exceptionRange) int { return a.from.Compare(b.from) })
	for i := 1; i < len(w.exceptions); i++ {
		if a, b := w.exceptions[i-1], w.exceptions[i]; !b.from.After(a.to) {
			return nil, fieldErr("calendar.exceptions", "%s to %s overlaps %s to %s; a date may have one exception",
				a.from.Format(time.DateOnly), a.to.Format(time.DateOnly), b.from.Format(time.DateOnly), b.to.Format(time.DateOnly))
		}
	}
	return w, nil
}

// compile is Compile under the name validation calls.
func (c *Calendar) compile() (*WorkTime, error) { return c.Compile() }

func totalMinutes(ps []Period) int {
	n := 0
	for _, p := range ps {
		n += p.Minutes()
	}
	return n
}

// MinutesPerDay is the working minutes in one day of duration.
func (w *WorkTime) MinutesPerDay() float64 { return w.dayMinutes }

// exceptionAt returns the exception covering day, if any.
func (w *WorkTime) exceptionAt(day time.Time) (exceptionRange, bool) {
	i := sort.Search(len(w.exceptions), func(i int) bool { return !w.exceptions[i].to.Before(day) })
	if i < len(w.exceptions) && !w.exceptions[i].from.After(day) {
		return w.exceptions[i], true
	}
	return exceptionRange{}, false
}

// Periods are the working periods of a date (midnight UTC, as ParseDate
// returns); nil when the date is not worked. Holidays win over exceptions,
// exceptions over the week.
func (w *WorkTime) Periods(day time.Time) []Period {
	if w.holidays[day] {
		return nil
	}
	if e, ok := w.exceptionAt(day); ok {
		return e.periods
	}
	return w.week[day.Weekday()]
}

// nextCandidate is the first date after day that may be worked: it jumps
// over a whole non-working exception, so a long shutdown costs one step.
func (w *WorkTime) nextCandidate(day time.Time) time.Time {
	if e, ok := w.exceptionAt(day); ok && e.periods == nil {
		return e.to.AddDate(0, 0, 1)
	}
	return day.AddDate(0, 0, 1)
}

// MaxCalendarDays is the calendar's range: a Clock dates working time up to
// this many calendar days after the project start (about 273 years; from
// 2026-01-05 the range ends on 2299-10-20). Beyond it a date is an error
// (see Clock.Check), not a walk of the calendar for ever on a nonsense
// duration. A schedule of MaxDays-long activities computes in working days
// but cannot be dated: 100,000 working days are some 384 years of five-day
// weeks.
const MaxCalendarDays = 100_000

// Clock turns working-day offsets from the project start into local
// date-times on a calendar, and back.
type Clock struct {
	work    *WorkTime
	end     time.Time     // the first date past the calendar's range
	from    time.Time     // the project's start instant: no work before it
	next    time.Time     // the first date not yet in periods
	periods []clockPeriod // working periods in time order
	worked  int64         // working minutes in periods
	// starts and ends index periods for the live engine's searches
	// (timeline.go): each period's start in Unix seconds and its end in
	// working minutes (before + length), filled as periods grow.
	starts, ends []int64
	// dayFirst[d] is the first period starting on or after midnight of
	// the d-th day after from's date: workBefore looks at one day's
	// periods, not a search of them all.
	dayFirst []int32
	base     int64 // from's midnight in Unix seconds, for dayFirst
	// workFirst[b] is the first period ending at or after working minute
	// b<<workBucketShift: atWork looks at a period or two, not a binary
	// search of them all.
	workFirst []int32
	// indexedTo (Unix seconds) and indexedWork (working minutes) are how
	// far periods and the indexes above are complete: workAt and atWork
	// below them go straight to the indexes.
	indexedTo, indexedWork int64
}

// workBucketShift sizes workFirst's buckets: 256 working minutes, about
// one of the two periods of a working day.
const workBucketShift = 8

// clockPeriod is one working period on one date, with the working minutes
// before it since the project start.
type clockPeriod struct {
	start  time.Time
	length int64
	before int64
}

// NewClock makes a clock for a project starting on start (YYYY-MM-DD); the
// first working period on or after it is the start of day 0. A calendar
// with no working time at all in its range is an error.
func NewClock(start string, cal *Calendar) (*Clock, error) {
	at, err := ParseStart(start)
	if err != nil {
		return nil, fieldErr("start_date", "%q is not a date like 2026-01-05 (or with a time of day, 2026-01-05T09:00)", start)
	}
	work, err := cal.Compile()
	if err != nil {
		return nil, err
	}
	day := dateOf(at)
	c := &Clock{work: work, next: day, end: day.AddDate(0, 0, MaxCalendarDays), from: at}
	c.extend(0)
	if len(c.periods) == 0 {
		return nil, fieldErr("calendar", "no working time between the start date %s and %s, the end of the calendar's range",
			start, c.end.AddDate(0, 0, -1).Format(time.DateOnly))
	}
	return c, nil
}

// extend walks the calendar until more than m working minutes are known
// or the range ends.
func (c *Clock) extend(m int64) {
	for c.worked <= m && c.next.Before(c.end) {
		day := c.next
		for _, p := range c.work.Periods(day) {
			start := day.Add(time.Duration(p.From) * time.Minute)
			length := int64(p.Minutes())
			if start.Before(c.from) { // the start day's work before the project's start time
				length -= int64(c.from.Sub(start) / time.Minute)
				if length <= 0 {
					continue
				}
				start = c.from
			}
			c.periods = append(c.periods, clockPeriod{start: start, length: length, before: c.worked})
			c.worked += length
		}
		c.next = c.work.nextCandidate(day)
	}
}

// maxClockMinutes bounds the working minutes a Clock is asked about: every
// offset in the calendar's range is far below it, and int64 holds it.
const maxClockMinutes = MaxCalendarDays * 24 * 60

// minutes converts a working-day offset to whole working minutes: durations
// in decimal days rarely land on a minute. Offsets before the start are the
// start; offsets past the range, and NaN, are one minute past the range.
func (c *Clock) minutes(offset float64) int64 {
	m := math.Round(max(offset, 0) * c.work.dayMinutes)
	if !(m <= maxClockMinutes) {
		return maxClockMinutes + 1
	}
	return int64(m)
}

// at maps working minute m to a time of day; a boundary between two periods
// maps to the later one for a start and the earlier one for a finish. ok is
// false past the calendar's range, where the time is the range's last
// working instant.
func (c *Clock) at(m int64, finish bool) (t time.Time, ok bool) {
	c.extend(m)
	if finish && m == 0 {
		return c.periods[0].start, true
	}
	i := sort.Search(len(c.periods), func(i int) bool {
		end := c.periods[i].before + c.periods[i].length
		return end > m || (finish && end == m)
	})
	if i == len(c.periods) { // beyond the range
		p := c.periods[len(c.periods)-1]
		return p.start.Add(time.Duration(p.length) * time.Minute), false
	}
	p := c.periods[i]
	return p.start.Add(time.Duration(m-p.before) * time.Minute), true
}

// DateRangeError is a working-day offset past the calendar's range (see
// MaxCalendarDays): the schedule runs on past the dates a Clock can give.
type DateRangeError struct {
	Offset float64   // the working-day offset asked for
	Last   float64   // the last working-day offset the range holds
	End    time.Time // the last instant of working time in the range
}

func (e *DateRangeError) Error() string {
	return fmt.Sprintf("working day %s is past the calendar's range: dates run for %d calendar days from the start date, to %s, which is working day %s; shorten the schedule or move its start",
		formatDays(math.Round(e.Offset*1e6)/1e6), MaxCalendarDays, e.End.Format(DateTimeLayout), formatDays(math.Round(e.Last*1e6)/1e6))
}

func (c *Clock) rangeError(offset float64) error {
	end, _ := c.at(c.worked, true)
	return &DateRangeError{Offset: offset, Last: float64(c.worked) / c.work.dayMinutes, End: end}
}

// Check reports a *DateRangeError when offset (working days; the finish of
// a schedule, say its ProjectDuration) is past the calendar's range. When
// it is not, StartAt and FinishAt date every offset up to it exactly.
func (c *Clock) Check(offset float64) error {
	_, err := c.Finish(offset)
	return err
}

// Start is the date-time a working-day offset begins, or a
// *DateRangeError past the calendar's range.
func (c *Clock) Start(offset float64) (time.Time, error) {
	t, ok := c.at(c.minutes(offset), false)
	if !ok {
		return t, c.rangeError(offset)
	}
	return t, nil
}

// Finish is the date-time a working-day offset ends, or a
// *DateRangeError past the calendar's range.
func (c *Clock) Finish(offset float64) (time.Time, error) {
	t, ok := c.at(c.minutes(offset), true)
	if !ok {
		return t, c.rangeError(offset)
	}
	return t, nil
}

// StartAt is Start without the error: past the calendar's range it gives
// the range's last working instant. Check the schedule's finish first.
func (c *Clock) StartAt(offset float64) time.Time {
	t, _ := c.Start(offset)
	return t
}

// FinishAt is Finish without the error: past the calendar's range it gives
// the range's last working instant. Check the schedule's finish first.
func (c *Clock) FinishAt(offset float64) time.Time {
	t, _ := c.Finish(offset)
	return t
}

// Offset is the working-day offset of a date-time: the working time between
// the project start and t (0 before the start). The end of one working
// period and the start of the next have the same offset. Past the
// calendar's range it is the offset of the range's end.
func (c *Clock) Offset(t time.Time) float64 {
	return float64(c.workBefore(t)) / c.work.dayMinutes
}

// MinutesPerDay is the working minutes in one day of duration.
func (c *Clock) MinutesPerDay() float64 { return c.work.dayMinutes }

// DateTimeLayout is how reports write local date-times.
const DateTimeLayout = "2006-01-02T15:04:05"
