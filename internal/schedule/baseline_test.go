package schedule

import (
	"errors"
	"strings"
	"testing"
)

// baselineFixture: A (5 days) then B (3 days), from Monday 5 January 2026
// on the standard calendar.
func baselineFixture() *Schedule {
	return &Schedule{StartDate: "2026-01-05",
		Activities:    []Activity{{ID: "A", Name: "Piling", Duration: "5"}, {ID: "B", Name: "Pile caps", Duration: "3"}},
		Relationships: []Relationship{{ID: "R1", Type: FS, Predecessor: "A", Successor: "B"}}}
}

func mustAnalyze(t *testing.T, s *Schedule) *Result {
	t.Helper()
	r, err := Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSetBaselineCopiesTheForecast(t *testing.T) {
	s := baselineFixture()
	if err := SetBaseline(s, mustAnalyze(t, s)); err != nil {
		t.Fatal(err)
	}
	want := []struct{ start, finish, duration string }{
		{"2026-01-05T08:00", "2026-01-09T17:00", "5"},
		{"2026-01-12T08:00", "2026-01-14T17:00", "3"},
	}
	for k, w := range want {
		a := s.Activities[k]
		if a.BaselineStart != w.start || a.BaselineFinish != w.finish || a.BaselineDuration != w.duration {
			t.Errorf("%s: baseline %s to %s, %s days; want %s to %s, %s", a.ID, a.BaselineStart, a.BaselineFinish, a.BaselineDuration, w.start, w.finish, w.duration)
		}
	}
	if err := Validate(s); err != nil {
		t.Fatalf("a baselined schedule does not validate: %v", err)
	}
	// Right after it is set, nothing varies.
	vs, err := Variances(s, mustAnalyze(t, s))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if *v.StartDays != 0 || *v.FinishDays != 0 || *v.DurationDays != 0 {
			t.Errorf("%s varies from the baseline just set: start %g, finish %g, duration %g", v.ID, *v.StartDays, *v.FinishDays, *v.DurationDays)
		}
	}
}

func TestVariances(t *testing.T) {
	p := func(v float64) *float64 { return &v }
	cases := []struct {
		name   string
		change func(s *Schedule)
		// want per activity: start, finish, duration variance (nil: none)
		want map[string][3]*float64
	}{
		{"piling two days longer pushes pile caps", func(s *Schedule) { s.Activities[0].Duration = "7" },
			map[string][3]*float64{"A": {p(0), p(2), p(2)}, "B": {p(2), p(2), p(0)}}},
		{"piling a day shorter pulls pile caps in", func(s *Schedule) { s.Activities[0].Duration = "4" },
			map[string][3]*float64{"A": {p(0), p(-1), p(-1)}, "B": {p(-1), p(-1), p(0)}}},
		{"a half day of lag", func(s *Schedule) { s.Relationships[0].Lag = 0.5 },
			map[string][3]*float64{"A": {p(0), p(0), p(0)}, "B": {p(0.5), p(0.5), p(0)}}},
		{"a baseline finish as a date alone ends with the day", func(s *Schedule) {
			s.Activities[0].BaselineFinish = "2026-01-08" // Thursday: the forecast Friday 17:00 is a day late
			s.Activities[1].BaselineStart, s.Activities[1].BaselineDuration = "", ""
		}, map[string][3]*float64{"A": {p(0), p(1), p(0)}, "B": {nil, p(0), nil}}},
		{"a baseline of dates alone measures its duration between them", func(s *Schedule) {
			s.Activities[0].Duration = "6"
			s.Activities[0].BaselineDuration, s.Activities[1].BaselineDuration = "", ""
		}, map[string][3]*float64{"A": {p(0), p(1), p(1)}, "B": {p(1), p(1), p(0)}}},
		{"progress: piling started a day late and finished on its third day", func(s *Schedule) {
			s.DataDate = "2026-01-09"
			s.Activities[0].ActualStart, s.Activities[0].ActualFinish = "2026-01-06T08:00", "2026-01-08T17:00"
		}, map[string][3]*float64{"A": {p(1), p(-1), p(-2)}, "B": {p(-1), p(-1), p(0)}}},
		{"progress on P6's rules: started work is dated by its actuals, not its remaining early dates", func(s *Schedule) {
			s.Options = &Options{Tool: P6}
			s.DataDate = "2026-01-12" // Monday: B, not started, from the data date
			s.Activities[0].ActualStart, s.Activities[0].Remaining = "2026-01-06T08:00", "1"
		}, map[string][3]*float64{"A": {p(1), p(1), p(0)}, "B": {p(1), p(1), p(0)}}}, // A: 6 - 12 Jan, five days as planned
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := baselineFixture()
			if err := SetBaseline(s, mustAnalyze(t, s)); err != nil {
				t.Fatal(err)
			}
			tc.change(s)
			if err := Validate(s); err != nil {
				t.Fatal(err)
			}
			vs, err := Variances(s, mustAnalyze(t, s))
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != len(tc.want) {
				t.Fatalf("%d variances, want %d", len(vs), len(tc.want))
			}
			for _, v := range vs {
				got := [3]*float64{v.StartDays, v.FinishDays, v.DurationDays}
				for k, field := range []string{"start", "finish", "duration"} {
					w := tc.want[v.ID][k]
					if (got[k] == nil) != (w == nil) || got[k] != nil && *got[k] != *w {
						t.Errorf("%s %s variance %s, want %s", v.ID, field, show(got[k]), show(w))
					}
				}
			}
		})
	}
}

func show(v *float64) string {
	if v == nil {
		return "none"
	}
	return formatDays(*v)
}

func TestVariancesOnTheActivitysCalendar(t *testing.T) {
	// B works every day: a weekend slip is two of its days, none of the
	// project's.
	s := baselineFixture()
	s.Calendars = map[string]*Calendar{"7d": {Workdays: WeekdayNames[:]}}
	s.Activities[1].Calendar = "7d"
	if err := SetBaseline(s, mustAnalyze(t, s)); err != nil {
		t.Fatal(err)
	}
	if got := s.Activities[1].BaselineStart; got != "2026-01-10T08:00" {
		t.Fatalf("B's baseline start %s, want Saturday 2026-01-10T08:00", got)
	}
	s.Activities[0].Duration = "6" // A now finishes Monday 12th
	vs, err := Variances(s, mustAnalyze(t, s))
	if err != nil {
		t.Fatal(err)
	}
	if got := *vs[1].StartDays; got != 3 {
		t.Errorf("B's start variance %g days of its 7-day calendar, want 3 (Sat 10th to Tue 13th)", got)
	}
	if got := *vs[0].FinishDays; got != 1 {
		t.Errorf("A's finish variance %g days, want 1 (Fri 9th to Mon 12th on a 5-day week)", got)
	}
}

func TestBaselineRefusals(t *testing.T) {
	s := baselineFixture()
	s.StartDate = ""
	if err := SetBaseline(s, mustAnalyze(t, s)); !errors.Is(err, ErrNoDates) {
		t.Errorf("SetBaseline without dates: %v, want ErrNoDates", err)
	}
	for _, tc := range []struct {
		name string
		set  func(a *Activity)
		want string
	}{
		{"start not a date", func(a *Activity) { a.BaselineStart = "soon" }, "activities[0].baseline_start"},
		{"finish not a date", func(a *Activity) { a.BaselineFinish = "31/02/2026" }, "activities[0].baseline_finish"},
		{"duration not a duration", func(a *Activity) { a.BaselineDuration = "long" }, "activities[0].baseline_duration"},
		{"finish before start", func(a *Activity) { a.BaselineStart, a.BaselineFinish = "2026-02-02", "2026-02-01" }, "before its baseline start"},
	} {
		s := baselineFixture()
		tc.set(&s.Activities[0])
		if err := Validate(s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error naming %q", tc.name, err, tc.want)
		}
	}
	// ClearBaseline takes it all away.
	s = baselineFixture()
	if err := SetBaseline(s, mustAnalyze(t, s)); err != nil {
		t.Fatal(err)
	}
	ClearBaseline(s)
	if s.Activities[0].HasBaseline() || s.Activities[1].HasBaseline() {
		t.Error("ClearBaseline left a baseline")
	}
}
