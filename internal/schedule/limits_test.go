package schedule_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Durations, distribution parameters and lags beyond MaxDays, and lags
// that are not finite, are refused by Validate with the id, the value and
// the limit; MaxDays itself is accepted.
func TestValidateRefusesHugeValues(t *testing.T) {
	tests := []struct {
		name     string
		duration string  // of activity B
		lag      float64 // of R1, A -> B
		want     []string
	}{
		{"duration 1e308", "1e308", 0, []string{`activities[1].duration: activity "B": duration "1e308": 1e308 is beyond the limit of 100000 working days`}},
		{"duration just past", "100000.5", 0, []string{`activity "B"`, "100000.5 is beyond the limit of 100000"}},
		{"triangular max", "triangular(1,2,1e308)", 0, []string{`activity "B"`, "parameter 3: 1e308 is beyond the limit of 100000"}},
		{"normal sd", "normal(5,200000)", 0, []string{"parameter 2: 200000 is beyond the limit"}},
		{"lag 1e308", "1", 1e308, []string{`relationships[0].lag: relationship "R1": lag 1e+308 is beyond the limit of ±100000 working days`}},
		{"lead -1e308", "1", -1e308, []string{`relationship "R1": lag -1e+308 is beyond the limit of ±100000`}},
		{"lag just past", "1", 100000.25, []string{`lag 100000.25 is beyond`}},
		{"lag NaN", "1", math.NaN(), []string{`relationship "R1": lag NaN is not a finite number`}},
		{"lag Inf", "1", math.Inf(1), []string{`relationship "R1": lag +Inf is not a finite number`}},
		{"at the limits", "100000", -100000, nil},
		{"distribution at the limit", "pert(0,100000,100000)", 100000, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &schedule.Schedule{
				Activities:    []schedule.Activity{{ID: "A", Name: "a", Duration: "1"}, {ID: "B", Name: "b", Duration: tc.duration}},
				Relationships: []schedule.Relationship{{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B", Lag: tc.lag}},
			}
			for _, check := range []struct {
				name string
				run  func(*schedule.Schedule) error
			}{
				{"Validate", schedule.Validate},
				{"Compile", func(s *schedule.Schedule) error { _, err := schedule.Compile(s); return err }},
			} {
				err := check.run(s)
				if tc.want == nil {
					if err != nil {
						t.Errorf("%s: %v", check.name, err)
					}
					continue
				}
				if err == nil {
					t.Fatalf("%s accepted it", check.name)
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s: err = %v\nwant it to contain %q", check.name, err, w)
					}
				}
			}
		})
	}
}

// With the limits, CPM times stay finite and exact: a successor of a
// MaxDays activity keeps its duration, and the largest lead gives no
// negative late start.
func TestCPMAtTheLimits(t *testing.T) {
	s := &schedule.Schedule{
		Activities: []schedule.Activity{{ID: "A", Name: "a", Duration: "100000"}, {ID: "B", Name: "b", Duration: "5"}, {ID: "C", Name: "c", Duration: "2"}},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"},
			{ID: "R2", Type: schedule.SS, Predecessor: "A", Successor: "C", Lag: -100000},
		},
	}
	res, err := schedule.Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	if res.EF[1]-res.ES[1] != 5 || res.ProjectDuration != 100005 {
		t.Errorf("B runs %g to %g, project %g", res.ES[1], res.EF[1], res.ProjectDuration)
	}
	for i := range s.Activities {
		if res.LS[i] < 0 || res.ES[i] < 0 {
			t.Errorf("%s: ES %g LS %g", s.Activities[i].ID, res.ES[i], res.LS[i])
		}
	}
}

// floorsOp applies op to floors() and returns the error.
func floorsOp(op schedule.Op) error {
	_, err := schedule.Apply(floors(), &op)
	return err
}

func TestApplyRefusesHugeValues(t *testing.T) {
	tests := []struct {
		name string
		op   schedule.Op
		want string
	}{
		{"add activity", schedule.AddActivity(schedule.Activity{ID: "N", Name: "n", Duration: "1e308"}), `activity "N": duration "1e308": 1e308 is beyond the limit of 100000 working days`},
		{"add activity pert", schedule.AddActivity(schedule.Activity{ID: "N", Name: "n", Duration: "pert(1,2,1e9)"}), `activity "N": duration "pert(1,2,1e9)": parameter 3: 1e9 is beyond the limit`},
		{"update activity", schedule.UpdateActivity(schedule.Activity{ID: "S1", Name: "Pour slab Level 1", Duration: "100001"}), `activity "S1": duration "100001": 100001 is beyond the limit of 100000`},
		{"add relationship", schedule.AddRelationship(schedule.Relationship{ID: "n", Type: schedule.FS, Predecessor: "X", Successor: "F", Lag: 1e308}), `relationship "n": lag 1e+308 is beyond the limit of ±100000 working days`},
		{"add relationship NaN", schedule.AddRelationship(schedule.Relationship{ID: "n", Type: schedule.FS, Predecessor: "X", Successor: "F", Lag: math.NaN()}), `relationship "n": lag NaN is not a finite number`},
		{"update relationship", schedule.UpdateRelationship(schedule.Relationship{ID: "r2", Type: schedule.SS, Predecessor: "S1", Successor: "W1", Lag: -1e6}), `relationship "r2": lag -1e+06 is beyond the limit`},
		{"update relationship Inf", schedule.UpdateRelationship(schedule.Relationship{ID: "r2", Type: schedule.SS, Predecessor: "S1", Successor: "W1", Lag: math.Inf(-1)}), `relationship "r2": lag -Inf is not a finite number`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := floorsOp(tc.op)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, schedule.ErrInvalidOp) {
				t.Errorf("err = %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

// A schedule stored before the limits and the text rules may hold what they
// now refuse: an op that leaves such a field as it is works, and undo
// restores it exactly.
func TestOpsKeepLegacyValues(t *testing.T) {
	s := &schedule.Schedule{
		Activities: []schedule.Activity{
			{ID: "A", Name: "Old\tname", Duration: "1e308"},
			{ID: "B", Name: "b", Duration: "1"},
		},
		Relationships: []schedule.Relationship{{ID: "R", Type: schedule.FS, Predecessor: "A", Successor: "B", Lag: 1e9}},
	}
	before := mustJSON(t, s)
	ops := []schedule.Op{
		schedule.UpdateActivity(schedule.Activity{ID: "A", Name: "Old\tname", Description: "edited", Duration: "1e308"}),
		schedule.UpdateRelationship(schedule.Relationship{ID: "R", Type: schedule.SS, Predecessor: "A", Successor: "B", Lag: 1e9}),
		schedule.RemoveActivity("A"),
	}
	_, inverses, err := schedule.ApplyAll(s, ops)
	if err != nil {
		t.Fatal(err)
	}
	if err := schedule.Undo(s, inverses); err != nil {
		t.Fatal(err)
	}
	if after := mustJSON(t, s); after != before {
		t.Errorf("undo did not restore:\n%s\n%s", before, after)
	}
}

// Text rules: no control characters in ids and names; descriptions may hold
// tab, line feed and carriage return; valid UTF-8, no U+FFFE/U+FFFF.
func TestTextRules(t *testing.T) {
	tests := []struct {
		name string
		act  schedule.Activity
		rel  string // relationship id; "" for "R1"
		want string // "" when accepted
	}{
		{"plain", schedule.Activity{ID: "N", Name: "Étage 2 — « béton » 二階 🏗", Description: "line one\n\tline two\r\nend"}, "", ""},
		{"NUL in id", schedule.Activity{ID: "N\x00", Name: "n"}, "", `id "N\x00": control character U+0000 (NUL) at character 2; ids may not hold control characters`},
		{"DEL in id", schedule.Activity{ID: "N\x7f", Name: "n"}, "", "control character U+007F (DEL) at character 2"},
		{"C1 in id", schedule.Activity{ID: "é\u0085", Name: "n"}, "", "control character U+0085 at character 2"},
		{"tab in id", schedule.Activity{ID: "a\tb", Name: "n"}, "", "control character U+0009 (tab) at character 2"},
		{"bad UTF-8 in id", schedule.Activity{ID: "ab\xff", Name: "n"}, "", "invalid UTF-8 at character 3"},
		{"NUL in name", schedule.Activity{ID: "N", Name: "Dig\x00"}, "", `name "Dig\x00": control character U+0000 (NUL) at character 4; names may not hold control characters, tabs or line breaks`},
		{"tab in name", schedule.Activity{ID: "N", Name: "Dig\there"}, "", "control character U+0009 (tab) at character 4"},
		{"newline in name", schedule.Activity{ID: "N", Name: "Dig\n"}, "", "U+000A (line feed)"},
		{"C1 in name", schedule.Activity{ID: "N", Name: "Dig\u009b"}, "", "control character U+009B at character 4"},
		{"non-character in name", schedule.Activity{ID: "N", Name: "x\uFFFE"}, "", "non-character U+FFFE at character 2"},
		{"BEL in description", schedule.Activity{ID: "N", Name: "n", Description: "ring\a"}, "", `description "ring\a": control character U+0007 at character 5; descriptions may hold tabs and line breaks`},
		{"C1 in description", schedule.Activity{ID: "N", Name: "n", Description: "x\u0080"}, "", "control character U+0080 at character 2"},
		{"bad UTF-8 in description", schedule.Activity{ID: "N", Name: "n", Description: "\xc3"}, "", "invalid UTF-8 at character 1"},
		{"NUL in relationship id", schedule.Activity{ID: "N", Name: "n"}, "R\x00", `id "R\x00": control character U+0000 (NUL) at character 2`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.act.Duration = "1"
			rel := schedule.Relationship{ID: "R1", Type: schedule.FS, Predecessor: "X", Successor: tc.act.ID}
			if tc.rel != "" {
				rel.ID = tc.rel
			}
			// Validate: the readers and the stores check through it.
			s := floors()
			s.Activities = append(s.Activities, tc.act)
			s.Relationships = append(s.Relationships, rel)
			err := schedule.Validate(s)
			check(t, "Validate", err, tc.want)
			// The ops engine: the planner's path.
			s = floors()
			_, _, err = schedule.ApplyAll(s, []schedule.Op{schedule.AddActivity(tc.act), schedule.AddRelationship(rel)})
			check(t, "Apply", err, tc.want)
		})
	}
}

func check(t *testing.T, who string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v", who, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: err = %v\nwant it to contain %q", who, err, want)
	}
}

// The schedule's and calendar exceptions' names follow the name rule; the
// error names the field.
func TestValidateOtherNames(t *testing.T) {
	s := floors()
	s.Name = "Tower\x1b[31m"
	s.Calendar = &schedule.Calendar{Exceptions: []schedule.CalendarException{{Name: "Shut\ndown", From: "2026-07-27"}}}
	err := schedule.Validate(s)
	for _, want := range []string{"name: name \"Tower\\x1b[31m\": control character U+001B at character 6", "calendar.exceptions[0].name: name \"Shut\\ndown\": control character U+000A (line feed)"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant it to contain %q", err, want)
		}
	}
}

// Dates run for MaxCalendarDays from the start: past that, Start, Finish
// and Check give a DateRangeError instead of a date stuck at the range's
// end (2299-10-20 from a 2026-01-05 start).
func TestClockRange(t *testing.T) {
	clock, err := schedule.NewClock("2026-01-05", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		offset float64
		finish string // "" when past the range
	}{
		{0, "2026-01-05T08:00:00"},
		{5, "2026-01-09T17:00:00"},
		{70000, "2294-04-27T17:00:00"},
		{71430, "2299-10-20T17:00:00"}, // the range's last working minute
		{71430.01, ""},
		{100000, ""},
		{1e12, ""},
		{math.Inf(1), ""},
		{math.NaN(), ""},
	}
	for _, tc := range tests {
		got, err := clock.Finish(tc.offset)
		errStart := clock.Check(tc.offset)
		if tc.finish != "" {
			if err != nil || errStart != nil || got.Format(schedule.DateTimeLayout) != tc.finish {
				t.Errorf("Finish(%g) = %v, %v (Check %v); want %s", tc.offset, got, err, errStart, tc.finish)
			}
			continue
		}
		var rangeErr *schedule.DateRangeError
		if !errors.As(err, &rangeErr) || !errors.As(errStart, &rangeErr) {
			t.Errorf("Finish(%g) = %v, %v; want a DateRangeError", tc.offset, got, err)
			continue
		}
		if rangeErr.End.Format(time.DateOnly) != "2299-10-20" || !strings.Contains(err.Error(), "is past the calendar's range: dates run for 100000 calendar days from the start date, to 2299-10-20T17:00:00") {
			t.Errorf("err = %v", err)
		}
		if _, err := clock.Start(tc.offset); !errors.As(err, &rangeErr) {
			t.Errorf("Start(%g): err = %v", tc.offset, err)
		}
		// The old-signature forms keep their clamped answer.
		if got := clock.FinishAt(tc.offset).Format(time.DateOnly); got != "2299-10-20" {
			t.Errorf("FinishAt(%g) = %s", tc.offset, got)
		}
	}
}

// A calendar with no working time in its range cannot date anything.
func TestClockWithoutWorkingTime(t *testing.T) {
	cal := &schedule.Calendar{Exceptions: []schedule.CalendarException{{Name: "Closed", From: "2026-01-01", To: "9999-12-31"}}}
	_, err := schedule.NewClock("2026-01-05", cal)
	if err == nil || !strings.Contains(err.Error(), "calendar: no working time between the start date 2026-01-05 and 2299-10-20") {
		t.Errorf("err = %v", err)
	}
}
