package schedule

import (
	"sort"
	"time"
)

// Working-time arithmetic on instants, for the live engine (live_cpm.go):
// a Clock laid from an origin instant answers how much work lies before an
// instant and where a number of working minutes ends, so durations and lags
// can be counted on each activity's own calendar.

// newTimeline is a clock on work starting at origin (no work before it).
func newTimeline(origin time.Time, work *WorkTime) *Clock {
	day := dateOf(origin)
	c := &Clock{work: work, next: day, end: day.AddDate(0, 0, MaxCalendarDays), from: origin, base: day.Unix()}
	c.extend(0)
	return c
}

// twentyFourHours is the 24-hour calendar elapsed durations and P6's
// 24-hour lags run on.
var twentyFourHours = &Calendar{Name: "24 hours", Workdays: WeekdayNames[:], Hours: []string{"00:00-24:00"}}

// workBefore is the working minutes between the clock's origin and t.
func (c *Clock) workBefore(t time.Time) int64 {
	for len(c.periods) > 0 && !c.next.After(t) && c.next.Before(c.end) {
		c.extend(c.worked)
	}
	var i int
	if c.from.Nanosecond() == 0 && c.base != 0 {
		// Periods start on whole seconds: the first period starting after t
		// is the first whose start second is after t's, among the periods
		// of t's day.
		ts := t.Unix()
		if ts < c.base {
			return 0
		}
		d := (ts - c.base) / 86400
		if len(c.starts) < len(c.periods) || d+1 >= int64(len(c.dayFirst)) {
			c.index()
		}
		if d+1 < int64(len(c.dayFirst)) {
			i = int(c.dayFirst[d])
			for end := int(c.dayFirst[d+1]); i < end && c.starts[i] <= ts; i++ {
			}
		} else { // past the range
			i = len(c.starts)
		}
		if i == 0 {
			return 0
		}
		p := &c.periods[i-1]
		return p.before + min((ts-c.starts[i-1])/60, p.length)
	} else {
		c.index()
		i = sort.Search(len(c.periods), func(i int) bool { return c.periods[i].start.After(t) })
	}
	if i == 0 {
		return 0
	}
	p := &c.periods[i-1]
	return p.before + min(int64(t.Sub(p.start)/time.Minute), p.length)
}

// index brings starts and ends up to date with periods.
func (c *Clock) index() {
	for k := len(c.starts); k < len(c.periods); k++ {
		p := &c.periods[k]
		c.starts = append(c.starts, p.start.Unix())
		c.ends = append(c.ends, p.before+p.length)
	}
	// Days before next are complete; next's own has no period yet, so its
	// first is the next one appended.
	base := c.base
	for d, last := len(c.dayFirst), int((c.next.Unix()-base)/86400); d <= last; d++ {
		i := 0
		if d > 0 {
			i = int(c.dayFirst[d-1])
		}
		for midnight := base + int64(d)*86400; i < len(c.starts) && c.starts[i] < midnight; i++ {
		}
		c.dayFirst = append(c.dayFirst, int32(i))
	}
}

// atMinute is at (calendar.go) searching the ends index: working minute m
// as a time of day, a boundary between two periods the later one for a
// start and the earlier one for a finish.
func (c *Clock) atMinute(m int64, finish bool) time.Time {
	c.extend(m)
	if finish && m == 0 {
		return c.periods[0].start
	}
	c.index()
	// The first period whose end is past m (for a finish: at or past m).
	lo, hi := 0, len(c.ends)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if e := c.ends[h]; e > m || (finish && e == m) {
			hi = h
		} else {
			lo = h + 1
		}
	}
	if lo == len(c.periods) { // beyond the range
		p := &c.periods[len(c.periods)-1]
		return p.start.Add(time.Duration(p.length) * time.Minute)
	}
	p := &c.periods[lo]
	return p.start.Add(time.Duration(m-p.before) * time.Minute)
}

// nextStart is the first working instant at or after t: a finish at Fri
// 17:00 becomes the start Mon 08:00.
func (c *Clock) nextStart(t time.Time) time.Time {
	if len(c.periods) == 0 {
		return t
	}
	s := c.atMinute(c.workBefore(t), false)
	if s.Before(t) { // t past the range
		return t
	}
	return s
}

// prevFinish is the last working instant at or before t: a start at Mon
// 08:00 becomes the finish Fri 17:00.
func (c *Clock) prevFinish(t time.Time) time.Time {
	m := c.workBefore(t)
	if m == 0 || len(c.periods) == 0 {
		return t
	}
	return c.atMinute(m, true)
}

// atFinish reports whether t is the end of a working period (no working
// minute between prevFinish and t, and t itself one).
func (c *Clock) atFinish(t time.Time) bool { return c.prevFinish(t).Equal(t) }

// add moves t by w working minutes: forward it lands at the end of a
// working period (a finish, Fri 17:00), backward at a start (Mon 08:00);
// zero leaves t as it is.
func (c *Clock) add(t time.Time, w int64) time.Time {
	switch {
	case w == 0:
		return t
	case w > 0:
		return c.atMinute(c.workBefore(t)+w, true)
	}
	m := c.workBefore(t) + w
	if m < 0 {
		m = 0
	}
	return c.atMinute(m, false)
}

// between is the working minutes from a to b, negative when b is before a.
func (c *Clock) between(a, b time.Time) int64 { return c.workBefore(b) - c.workBefore(a) }
