package schedule

import (
	"math"
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
	c := &Clock{work: work, next: day, end: day.AddDate(0, 0, MaxCalendarDays), from: day, base: day.Unix()}
	c.extend(0)
	return c
}

// twentyFourHours is the 24-hour calendar elapsed durations and P6's
// 24-hour lags run on.
var twentyFourHours = &Calendar{Name: "24 hours", Workdays: WeekdayNames[:], Hours: []string{"00:00-24:00"}}

// workBefore is the working minutes between the clock's origin and t, on
// a report's clock (NewClock; the live engine's clocks use workAt).
func (c *Clock) workBefore(t time.Time) int64 {
	for len(c.periods) > 0 && !c.next.After(t) && c.next.Before(c.end) {
		c.extend(c.worked)
	}
	i := sort.Search(len(c.periods), func(i int) bool { return c.periods[i].start.After(t) })
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
		end := p.before + p.length
		c.starts = append(c.starts, p.start.Unix())
		c.ends = append(c.ends, end)
		for b := len(c.workFirst); int64(b)<<workBucketShift <= end; b++ {
			c.workFirst = append(c.workFirst, int32(k))
		}
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
	c.indexedTo, c.indexedWork = c.next.Unix(), c.worked
}

// workBeforePeriod is the working minutes before period k begins: the end of
// the one before it (periods are contiguous in working time).
func (c *Clock) workBeforePeriod(k int) int64 {
	if k == 0 {
		return 0
	}
	return c.ends[k-1]
}

// instant is a moment as whole minutes after the live engine's origin
// (the midnight its clocks start at): the passes compare and move
// instants as integers, and date only what they report.
type instant int64

// noInstant is no date (not started, not finished, none yet).
const noInstant instant = math.MinInt64

func (a instant) After(b instant) bool  { return a > b }
func (a instant) Before(b instant) bool { return a < b }
func (a instant) IsZero() bool          { return a == noInstant }

// instantOf is t as an instant of c (a live clock: from a midnight).
func (c *Clock) instantOf(t time.Time) instant { return instant((t.Unix() - c.base) / 60) }

// timeOf is the date-time of instant m.
func (c *Clock) timeOf(m instant) time.Time { return time.Unix(c.base+int64(m)*60, 0).UTC() }

// workAt is the working minutes between the clock's origin and instant m.
func (c *Clock) workAt(m instant) int64 {
	ts := c.base + int64(m)*60
	if m < 0 {
		return 0
	}
	if ts >= c.indexedTo {
		for len(c.periods) > 0 && c.next.Unix() <= ts && c.next.Before(c.end) {
			c.extend(c.worked)
		}
		c.index()
	}
	d := (ts - c.base) / 86400
	i := len(c.starts) // past the range
	if d+1 < int64(len(c.dayFirst)) {
		i = int(c.dayFirst[d])
		for end := int(c.dayFirst[d+1]); i < end && c.starts[i] <= ts; i++ {
		}
	}
	if i == 0 {
		return 0
	}
	return min(c.workBeforePeriod(i-1)+(ts-c.starts[i-1])/60, c.ends[i-1])
}

// atWork is the instant working minute w begins (a start) or ends (a
// finish): a boundary between two periods is the later one for a start,
// the earlier one for a finish.
func (c *Clock) atWork(w int64, finish bool) instant {
	if w >= c.indexedWork {
		c.extend(w)
		c.index()
	}
	if finish && w == 0 {
		return instant((c.starts[0] - c.base) / 60)
	}
	// The first period that ends after w (a start) or at it (a finish),
	// from the first one ending in w's bucket.
	lo := 0 // before the origin: the first period
	if w >= 0 {
		lo = len(c.ends)
		if b := w >> workBucketShift; b < int64(len(c.workFirst)) {
			lo = int(c.workFirst[b])
			for lo < len(c.ends) && (c.ends[lo] < w || !finish && c.ends[lo] == w) {
				lo++
			}
		}
	}
	if lo == len(c.ends) { // beyond the range
		lo = len(c.ends) - 1
		w = c.ends[lo]
	}
	return instant((c.starts[lo]-c.base)/60 + w - c.workBeforePeriod(lo))
}

// nextStart is the first working instant at or after m: a finish at Fri
// 17:00 becomes the start Mon 08:00.
func (c *Clock) nextStart(m instant) instant {
	if len(c.periods) == 0 {
		return m
	}
	return max(c.atWork(c.workAt(m), false), m) // past the range: m
}

// prevFinish is the last working instant at or before m: a start at Mon
// 08:00 becomes the finish Fri 17:00.
func (c *Clock) prevFinish(m instant) instant {
	w := c.workAt(m)
	if w == 0 || len(c.periods) == 0 {
		return m
	}
	return c.atWork(w, true)
}

// atFinish reports whether m is the end of a working period (no working
// minute between prevFinish and m, and m itself one).
func (c *Clock) atFinish(m instant) bool { return c.prevFinish(m) == m }

// add moves m by w working minutes: forward it lands at the end of a
// working period (a finish, Fri 17:00), backward at a start (Mon 08:00);
// zero leaves m as it is.
func (c *Clock) add(m instant, w int64) instant {
	switch {
	case w == 0:
		return m
	case w > 0:
		return c.atWork(c.workAt(m)+w, true)
	}
	return c.atWork(max(c.workAt(m)+w, 0), false)
}

// between is the working minutes from a to b, negative when b is before a.
func (c *Clock) between(a, b instant) int64 { return c.workAt(b) - c.workAt(a) }
