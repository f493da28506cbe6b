package web_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// TestMeasureSchedulePage is a tool, not a check: with MEASURE_SCHEDULE_PAGE
// set it prints, for synthetic schedules of 2,000 and 50,000 activities,
// the schedule page's bytes, the server's time, and in Chromium the time
// to its first contentful paint, to DOMContentLoaded and to its load event
// (which waits for the Gantt frame).
func TestMeasureSchedulePage(t *testing.T) {
	if os.Getenv("MEASURE_SCHEDULE_PAGE") == "" {
		t.Skip("MEASURE_SCHEDULE_PAGE is not set")
	}
	a := startApp(t)
	c := newChrome(t, a)
	for _, n := range []int{2000, 50000} {
		id := "measure-" + strconv.Itoa(n)
		sc := schedule.Synthetic(n, 2, 1)
		sc.StartDate = "2026-01-05"
		a.importSchedule(t, sc, id)
		b := a.browser(t)
		start := time.Now()
		_, body := b.get("/s/" + id)
		server := time.Since(start)
		c.do(chromedp.Navigate("about:blank"))
		c.open("/s/" + id)
		fcp := jsValue[float64](c, `(performance.getEntriesByName("first-contentful-paint")[0] || {startTime: -1}).startTime`)
		dcl := jsValue[float64](c, `performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd`)
		load := jsValue[float64](c, `performance.getEntriesByType("navigation")[0].loadEventEnd`)
		fmt.Printf("%d activities: page %d bytes, server %v; first contentful paint %.0f ms, DOMContentLoaded %.0f ms, load (with the Gantt frame) %.0f ms\n",
			n, len(body), server.Round(time.Millisecond), fcp, dcl, load)
	}
}
