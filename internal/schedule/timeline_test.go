package schedule

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestAtWorkBuckets: atWork's bucket index finds the period a binary
// search over every period finds, for starts and finishes, on calendars
// with short, long and day-long periods, at every minute around period
// boundaries, before the origin and past the periods laid out so far.
func TestAtWorkBuckets(t *testing.T) {
	calendars := []*Calendar{
		nil, // the project default
		{Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}, Hours: []string{"07:00-07:30", "08:00-08:10", "09:00-12:00", "13:00-19:00"}},
		twentyFourHours,
		{Workdays: []string{"Mon"}, Hours: []string{"09:00-09:01"}},
	}
	origin := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	for ci, cal := range calendars {
		work, err := cal.Compile()
		if err != nil {
			t.Fatal(err)
		}
		c := newTimeline(origin, work)
		c.extend(400_000)
		c.index()
		search := func(w int64, finish bool) int {
			lo, hi := 0, len(c.ends)
			for lo < hi {
				h := (lo + hi) / 2
				if e := c.ends[h]; e > w || (finish && e == w) {
					hi = h
				} else {
					lo = h + 1
				}
			}
			return lo
		}
		for w := int64(-3); w < c.worked+700; w += 1 + w/5000 {
			for _, finish := range []bool{false, true} {
				if finish && w == 0 {
					continue // the origin's first instant, not a search
				}
				want := search(w, finish)
				if want == len(c.periods) {
					continue // past the range laid out: atWork extends
				}
				wantAt := instant((c.starts[want]-c.base)/60 + w - c.periods[want].before)
				if got := c.atWork(w, finish); got != wantAt {
					t.Fatalf("calendar %d: atWork(%d, finish %v) = %d, want %d", ci, w, finish, got, wantAt)
				}
			}
		}
	}
}

// TestLiveResultParallel: a live network large enough for its figures to
// be worked out on several goroutines gives the figures of one goroutine
// (the race detector watches the clocks meanwhile).
func TestLiveResultParallel(t *testing.T) {
	s := Synthetic(20_000, 2, 3)
	s.StartDate, s.DataDate = "2026-01-05", "2026-02-16"
	s.Calendars = map[string]*Calendar{"6d": {Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}, Hours: []string{"07:00-12:00", "13:00-17:00"}}}
	for i := range s.Activities {
		a := &s.Activities[i]
		switch i % 7 {
		case 1:
			a.Calendar = "6d"
		case 2:
			a.ActualStart, a.ActualFinish = "2026-01-06", "2026-01-09"
		case 3:
			a.ActualStart, a.Remaining = "2026-02-02", "2"
		}
	}
	n, err := Check(s)
	if err != nil {
		t.Fatal(err)
	}
	old := runtime.GOMAXPROCS(1)
	one := n.Compute()
	runtime.GOMAXPROCS(max(old, 2))
	many := n.Compute()
	runtime.GOMAXPROCS(old)
	for _, f := range [][2][]float64{{one.ES, many.ES}, {one.EF, many.EF}, {one.LS, many.LS}, {one.LF, many.LF}, {one.TotalFloat, many.TotalFloat}, {one.FreeFloat, many.FreeFloat}} {
		if !slices.Equal(f[0], f[1]) {
			t.Fatal("figures differ between one goroutine and several")
		}
	}
	if !slices.EqualFunc(one.Times.LF, many.Times.LF, time.Time.Equal) || one.ProjectDuration != many.ProjectDuration {
		t.Fatal("dates differ between one goroutine and several")
	}
}
