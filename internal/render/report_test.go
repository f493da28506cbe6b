package render_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func report(t *testing.T, s *schedule.Schedule) *render.Report {
	t.Helper()
	rep, err := render.NewReport(s)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The hand-written encoder must produce JSON that decodes to the same
// strings, whatever the names hold.
func TestJSONReportEscapesNames(t *testing.T) {
	names := []string{
		`quote " and backslash \`, "tab\tnewline\nreturn\r", "control \x01\x1f", "unicode Étage — 二階 🏗",
		"<html> & 'single'", "bad utf8 \xff end", "MATCH (n) DETACH DELETE n; }) //",
	}
	s := &schedule.Schedule{}
	for i, name := range names {
		s.Activities = append(s.Activities, schedule.Activity{ID: name + string(rune('a'+i)), Name: name, Duration: "1"})
	}
	var buf bytes.Buffer
	if err := report(t, s).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got struct {
		CriticalPath []string `json:"critical_path"`
		Activities   []struct{ ID, Name string }
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, buf.String())
	}
	for i, a := range got.Activities {
		want := strings.ToValidUTF8(names[i], "\uFFFD")
		if a.Name != want || a.ID != strings.ToValidUTF8(s.Activities[i].ID, "\uFFFD") {
			t.Errorf("activity %d: name %q, want %q", i, a.Name, want)
		}
	}
	if len(got.CriticalPath) != len(names) {
		t.Errorf("critical path has %d ids, want %d", len(got.CriticalPath), len(names))
	}
}

func TestReportRoundsBinaryNoise(t *testing.T) {
	s := &schedule.Schedule{
		Activities:    []schedule.Activity{{ID: "A", Name: "a", Duration: "0.1"}, {ID: "B", Name: "b", Duration: "0.2"}},
		Relationships: []schedule.Relationship{{ID: "R", Type: schedule.FS, Predecessor: "A", Successor: "B"}},
	}
	var buf bytes.Buffer
	if err := report(t, s).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"project_duration": 0.3,`) {
		t.Errorf("want 0.3, got %s", buf.String())
	}
}

func TestMilestoneDates(t *testing.T) {
	// A 5-day task then a milestone: the milestone starts and finishes at
	// 17:00 on the task's last day, as MS Project shows it.
	s := &schedule.Schedule{
		StartDate: "2026-01-05",
		Activities: []schedule.Activity{
			{ID: "A", Name: "Excavate", Duration: "5"},
			{ID: "M", Name: "Excavation complete", Duration: "0"},
		},
		Relationships: []schedule.Relationship{{ID: "R", Type: schedule.FS, Predecessor: "A", Successor: "M"}},
	}
	var buf bytes.Buffer
	if err := report(t, s).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"id": "M", "name": "Excavation complete", "duration": 0, "early_start": 5, "early_finish": 5, "late_start": 5, "late_finish": 5, "total_float": 0, "free_float": 0, "critical": true, "early_start_date": "2026-01-09T17:00:00", "early_finish_date": "2026-01-09T17:00:00"`,
		`"id": "A", "name": "Excavate", "duration": 5, "early_start": 0, "early_finish": 5, "late_start": 0, "late_finish": 5, "total_float": 0, "free_float": 0, "critical": true, "early_start_date": "2026-01-05T08:00:00", "early_finish_date": "2026-01-09T17:00:00"`,
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("report lacks %s\n%s", want, buf.String())
		}
	}
}

// A finish past the calendar's range is an error, not dates stuck at the
// range's end (2299-10-20 from this start); without a start date the same
// schedule reports in working days.
func TestReportRefusesDatesPastTheCalendarRange(t *testing.T) {
	tests := []struct {
		name, start string
		want        string // "" when the report is made
	}{
		{"dated", "2026-01-05", "dating the schedule: working day 160000 is past the calendar's range"},
		{"undated", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &schedule.Schedule{
				StartDate: tc.start,
				Activities: []schedule.Activity{
					{ID: "A", Name: "a", Duration: "80000"}, {ID: "B", Name: "b", Duration: "80000"},
				},
				Relationships: []schedule.Relationship{{ID: "R", Type: schedule.FS, Predecessor: "A", Successor: "B"}},
			}
			rep, err := render.NewReport(s)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := rep.WriteJSON(&buf); err != nil || !json.Valid(buf.Bytes()) {
					t.Errorf("err %v, JSON %s", err, buf.String())
				}
				return
			}
			var rangeErr *schedule.DateRangeError
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &rangeErr) {
				t.Fatalf("err = %v\nwant %q", err, tc.want)
			}
			// A Report built by hand is checked when written.
			res, err := schedule.Analyze(s)
			if err != nil {
				t.Fatal(err)
			}
			clock, err := schedule.NewClock(s.StartDate, nil)
			if err != nil {
				t.Fatal(err)
			}
			rep = &render.Report{Schedule: s, Result: res, Clock: clock}
			for name, write := range map[string]func(io.Writer) error{"json": rep.WriteJSON, "table": rep.WriteTable} {
				var buf bytes.Buffer
				if err := write(&buf); !errors.As(err, &rangeErr) || buf.Len() > 0 {
					t.Errorf("%s: err %v, wrote %q", name, err, buf.String())
				}
			}
		})
	}
}

// The JSON report is always JSON: a time that is not finite is an error
// and nothing is written.
func TestJSONReportNeverWritesInfOrNaN(t *testing.T) {
	s := &schedule.Schedule{Activities: []schedule.Activity{{ID: "A", Name: "a", Duration: "1"}, {ID: "B", Name: "b", Duration: "1"}}}
	tests := []struct {
		name string
		set  func(*schedule.Result)
		want string
	}{
		{"project +Inf", func(r *schedule.Result) { r.ProjectDuration = math.Inf(1) }, "project duration +Inf is not a finite number"},
		{"late start NaN", func(r *schedule.Result) { r.LS[1] = math.NaN() }, `activity "B": a CPM time of NaN is not a finite number`},
		{"float -Inf", func(r *schedule.Result) { r.TotalFloat[0] = math.Inf(-1) }, `activity "A": a CPM time of -Inf`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := schedule.Analyze(s)
			if err != nil {
				t.Fatal(err)
			}
			tc.set(res)
			var buf bytes.Buffer
			err = (&render.Report{Schedule: s, Result: res}).WriteJSON(&buf)
			if err == nil || !strings.Contains(err.Error(), tc.want) || buf.Len() > 0 {
				t.Errorf("err = %v, wrote %q; want %q", err, buf.String(), tc.want)
			}
		})
	}
	// Huge but finite times are written as numbers, not rounded to Inf.
	res, _ := schedule.Analyze(s)
	res.ProjectDuration, res.EF[1] = 1e305, 1e305 // 1e305 * 1e6 overflows
	var buf bytes.Buffer
	if err := (&render.Report{Schedule: s, Result: res}).WriteJSON(&buf); err != nil || !json.Valid(buf.Bytes()) {
		t.Errorf("err %v, JSON %s", err, buf.String())
	}
}

// A live programme's report carries its fields and flags negative float;
// the dates are the engine's own, each activity on its calendar.
func TestJSONReportOfALiveProgramme(t *testing.T) {
	s := &schedule.Schedule{
		Name: "Live", StartDate: "2026-03-02", DataDate: "2026-03-09",
		Calendars: map[string]*schedule.Calendar{"7d": {Name: "7-day", Workdays: schedule.WeekdayNames[:]}},
		Options:   &schedule.Options{Tool: schedule.P6},
		Activities: []schedule.Activity{
			{ID: "A", Name: "Excavate", Duration: "5", ActualStart: "2026-03-02", ActualFinish: "2026-03-06"},
			{ID: "B", Name: "Cure", Duration: "7", Calendar: "7d"},
			{ID: "C", Name: "Handover", Duration: "0", Constraint: &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-03-12"}},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"},
			{ID: "R2", Type: schedule.FS, Predecessor: "B", Successor: "C"},
		},
	}
	var out bytes.Buffer
	if err := report(t, s).WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	var got struct {
		CriticalPath []string `json:"critical_path"`
		Activities   []map[string]any
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	a, b, c := got.Activities[0], got.Activities[1], got.Activities[2]
	for _, check := range []struct {
		what      string
		got, want any
	}{
		{"A's actual finish", a["actual_finish"], "2026-03-06"},
		{"B's calendar", b["calendar"], "7d"},
		{"B's early start (the data date)", b["early_start_date"], "2026-03-09T08:00:00"},
		{"B's early finish (seven days straight)", b["early_finish_date"], "2026-03-15T17:00:00"},
		{"C's constraint", c["constraint"], map[string]any{"type": "finish_on_or_before", "date": "2026-03-12"}},
		{"C's negative float", c["negative_float"], true},
		{"A's negative float", a["negative_float"], nil},
	} {
		if !reflect.DeepEqual(check.got, check.want) {
			t.Errorf("%s: got %v, want %v", check.what, check.got, check.want)
		}
	}
	if slices.Contains(got.CriticalPath, "A") {
		t.Errorf("the finished activity A is on the critical path %v", got.CriticalPath)
	}
}
