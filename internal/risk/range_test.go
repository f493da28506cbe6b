package risk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// wideReport simulates two normal(1,100000) activities in a row from a
// start date: CPM says 2 days, but many iterations run past the calendar's
// range (issue 26, item 12).
func wideReport(t *testing.T, iters int) *Report {
	t.Helper()
	s := chain("N", "normal(1,100000)", "normal(1,100000)")
	s.StartDate = "2026-01-05"
	r := simulate(t, s, iters)
	clock, err := schedule.NewClock(s.StartDate, s.Calendar)
	if err != nil {
		t.Fatal(err)
	}
	return &Report{Result: r, Clock: clock}
}

// The report is written whatever the iterations' finishes: every figure in
// working days, dates where the calendar has them, and a note with how many
// and which iterations ran past it.
func TestReportPastTheCalendarRange(t *testing.T) {
	rep := wideReport(t, 2000)
	p := rep.PastRange()
	if p == nil || p.Count == 0 || p.Count == 2000 || len(p.First) != maxListed {
		t.Fatalf("past range: %+v", p)
	}
	// Exactly the iterations whose finish has no date.
	count := 0
	for i, f := range rep.Finish {
		if _, ok := rep.dated(f); !ok {
			if count < maxListed && p.First[count] != i {
				t.Fatalf("listed %v; iteration %d is past the range", p.First, i)
			}
			count++
		}
	}
	if count != p.Count {
		t.Fatalf("%d iterations past the range, PastRange says %d", count, p.Count)
	}

	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	out := table.String()
	first := make([]string, 3)
	for i := range first {
		first[i] = fmt.Sprint(p.First[i])
	}
	for _, want := range []string{
		"deterministic (P", "Tue 2026-01-06", // 2 days from Monday 5 January
		"past the calendar's range",
		fmt.Sprintf("%d of 2000 iterations finish past the calendar's range (dates run to ", p.Count),
		"Iterations past it (numbered from 0, as the rows of --dump-samples): " + strings.Join(first, ", ") + ", ",
		fmt.Sprintf(" and %d more.", p.Count-maxListed),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}

	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, js.String())
	}
	if d, _ := got["deterministic_finish_date"].(string); d != "2026-01-06T17:00:00" {
		t.Errorf("deterministic_finish_date %v", got["deterministic_finish_date"])
	}
	if v, ok := got["p90_date"]; !ok || v != nil {
		t.Errorf("p90_date %v (present %v), want null", v, ok)
	}
	pr, _ := got["past_calendar_range"].(map[string]any)
	if pr == nil || pr["iterations"].(float64) != float64(p.Count) || len(pr["first"].([]any)) != maxListed || pr["last_date"] == "" {
		t.Errorf("past_calendar_range %v", got["past_calendar_range"])
	}

	var page bytes.Buffer
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), `<p id="past-range">`) || !strings.Contains(page.String(), "past the calendar&#39;s range") {
		t.Error("the page does not say which iterations ran past the range")
	}
}

// Within the range nothing changes: no note, no field, every date.
func TestReportWithinTheRangeUnchanged(t *testing.T) {
	rep := buildingReport(t, 300)
	if rep.PastRange() != nil {
		t.Fatal("the building runs past the range")
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(js.String(), "past_calendar_range") || strings.Contains(js.String(), "null") {
		t.Errorf("JSON within the range:\n%s", js.String())
	}
	var table bytes.Buffer
	rep.WriteTable(&table)
	if strings.Contains(table.String(), "past the calendar") {
		t.Errorf("table within the range:\n%s", table.String())
	}
}
