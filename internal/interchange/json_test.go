package interchange_test

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

const building = "../../examples/building.json"

func TestReadExampleBuilding(t *testing.T) {
	s, err := interchange.ReadFile(building)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Activities) < 120 {
		t.Errorf("%d activities, want at least 120", len(s.Activities))
	}
	types := map[schedule.RelType]int{}
	negative, positive := 0, 0
	for _, r := range s.Relationships {
		types[r.Type]++
		switch {
		case r.Lag < 0:
			negative++
		case r.Lag > 0:
			positive++
		}
	}
	for _, typ := range []schedule.RelType{schedule.FS, schedule.SS, schedule.FF, schedule.SF} {
		if types[typ] == 0 {
			t.Errorf("no %s relationships", typ)
		}
	}
	if negative == 0 || positive == 0 {
		t.Errorf("%d negative and %d positive lags, want some of each", negative, positive)
	}
	for level := 1; level <= 4; level++ {
		name := "Level " + string(rune('0'+level))
		n := 0
		for _, a := range s.Activities {
			if strings.Contains(a.Name, name) && strings.Contains(a.Description, name) {
				n++
			}
		}
		if n < 15 {
			t.Errorf("%s: %d activities name it in name and description, want >= 15", name, n)
		}
	}
	r, err := schedule.Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	// Fixed by the example's logic; also computed independently by
	// examples/gen_building.py.
	if r.ProjectDuration != 167 {
		t.Errorf("project duration = %g, want 167", r.ProjectDuration)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	s, err := interchange.ReadFile(building)
	if err != nil {
		t.Fatal(err)
	}
	s.Activities[0].Description = "quotes \" backslash \\ <tags> & unicode Étage — 二階"
	var buf bytes.Buffer
	if err := interchange.WriteJSON(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := interchange.ParseJSON(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(s)
	b, _ := json.Marshal(back)
	if !bytes.Equal(a, b) {
		t.Error("write then read changed the schedule")
	}
	var again bytes.Buffer
	if err := interchange.WriteJSON(&again, back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("writing is not stable")
	}
}

func TestReadJSONAcceptsConveniences(t *testing.T) {
	s, err := interchange.ParseJSON([]byte(`{"activities": [
		{"id": "A", "name": "Dig", "duration": 5},
		{"id": "B", "name": "Pour", "duration": "2.5"}],
		"relationships": [{"id": "R", "type": "fs", "predecessor": "A", "successor": "B"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Activities[0].Duration != "5" || s.Relationships[0].Type != schedule.FS || s.Relationships[0].Lag != 0 {
		t.Errorf("got %+v", s)
	}
}

func TestReadJSONErrorsNameFieldAndIndex(t *testing.T) {
	acts := `{"id": "A1", "name": "Dig", "duration": "5"}, {"id": "A2", "name": "Pour", "duration": "3"}`
	link := func(extra string) string {
		return `{"activities": [` + acts + `], "relationships": [
			{"id": "R0", "type": "FS", "predecessor": "A1", "successor": "A2"},
			{"id": "R1", "type": "SS", "predecessor": "A1", "successor": "A2"},
			{"id": "R2", "type": "FF", "predecessor": "A1", "successor": "A2"},` + extra + `]}`
	}
	tests := []struct {
		name, in, want string
	}{
		{"unknown successor", link(`{"id": "R3", "type": "FS", "predecessor": "A1", "successor": "A9"}`), `relationships[3].successor: unknown activity "A9"`},
		{"unknown predecessor", link(`{"id": "R3", "type": "FS", "predecessor": "Q", "successor": "A1"}`), `relationships[3].predecessor: unknown activity "Q"`},
		{"bad type", link(`{"id": "R3", "type": "XS", "predecessor": "A2", "successor": "A1"}`), `relationships[3].type: "XS" must be one of FS, SS, FF, SF`},
		{"lag as text", link(`{"id": "R3", "type": "SF", "predecessor": "A1", "successor": "A2", "lag": "two"}`), `relationships[3].lag: want a number, got a JSON string`},
		{"unknown field", link(`{"id": "R3", "type": "SF", "predecesor": "A1", "successor": "A2"}`), `relationships[3]: unknown field "predecesor"`},
		{"self-link", link(`{"id": "R3", "type": "SF", "predecessor": "A1", "successor": "A1"}`), `relationships[3]: self-link: activity "A1" cannot precede itself`},
		{"duplicate link", link(`{"id": "R3", "type": "FS", "predecessor": "A1", "successor": "A2", "lag": 3}`), `relationships[3]: duplicate FS link "A1" -> "A2" (also relationships[0])`},
		{"duplicate id", link(`{"id": "A1", "type": "SF", "predecessor": "A1", "successor": "A2"}`), `relationships[3].id: duplicate id "A1" (also activities[0].id)`},
		{"cycle", link(`{"id": "R3", "type": "SF", "predecessor": "A2", "successor": "A1"}`), `circular logic: "Dig" (A1) -> "Pour" (A2) -> "Dig" (A1)`},
		{"bad duration", `{"activities": [{"id": "A", "name": "Dig", "duration": "pert(5,3,1)"}], "relationships": []}`, `activities[0].duration: activity "A": duration "pert(5,3,1)": pert(a,m,b) needs a <= m <= b`},
		{"duration object", `{"activities": [{"id": "A", "name": "Dig", "duration": {}}], "relationships": []}`, `activities[0]`},
		{"missing name", `{"activities": [{"id": "A", "duration": "1"}], "relationships": []}`, `activities[0].name: missing name`},
		{"missing id", `{"activities": [{"name": "Dig", "duration": "1"}], "relationships": []}`, `activities[0].id: missing id`},
		{"activities not a list", `{"activities": {}, "relationships": []}`, `activities: want an array, got a JSON object`},
		{"bad start date", `{"start_date": "next monday", "activities": [], "relationships": []}`, `start_date: "next monday" is not a date`},
		{"bad workday", `{"calendar": {"workdays": ["Mon", "Frei"]}, "activities": [], "relationships": []}`, `calendar.workdays[1]: "Frei" is not a weekday`},
		{"unknown calendar field", `{"calendar": {"hourz": 8}, "activities": [], "relationships": []}`, `calendar: unknown field "hourz"`},
		{"bad hours", `{"calendar": {"hours": ["08:00-12:00", "8-5"]}, "activities": [], "relationships": []}`, `calendar.hours[1]: "8-5" is not a period like 08:00-12:00`},
		{"bad exception", `{"calendar": {"exceptions": [{"from": "2026-01-01"}, {"from": "2026-01-02", "to": "2026-01-01"}]}, "activities": [], "relationships": []}`, `calendar.exceptions[1].to: 2026-01-01 is before from 2026-01-02`},
		{"day hours on a day off", `{"calendar": {"day_hours": {"Sun": ["08:00-12:00"]}}, "activities": [], "relationships": []}`, `calendar.day_hours.Sun: Sun is not in workdays`},
		{"syntax", "{\"activities\": [\n  {\"id\": \"A\",, }]}", `line 2, column 14: invalid JSON`},
		{"truncated", `{"activities": [`, `the file ends before the schedule object is complete`},
		{"trailing data", `{"activities": [], "relationships": []} {}`, `unexpected data after the schedule object`},
		{"not an object", `[1, 2]`, `want an object, got a JSON array`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := interchange.ParseJSON([]byte(tc.in))
			if err == nil {
				t.Fatalf("no error; got %d activities", len(s.Activities))
			}
			if s != nil {
				t.Error("a schedule was returned with the error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q\nwant it to contain %q", err, tc.want)
			}
		})
	}
}

func TestReadJSONReportsSeveralProblems(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/bad.json"
	in := `{"activities": [{"id": "A", "name": "Dig", "duration": "five"}, {"id": "B", "name": "", "duration": "1"}],
		"relationships": [{"id": "R", "type": "FS", "predecessor": "A", "successor": "C"}]}`
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := interchange.ReadFile(path)
	want := path + ": 3 problems:\n" +
		"  activities[0].duration: activity \"A\": duration \"five\": \"five\" is not a number of working days\n" +
		"  activities[1].name: missing name\n" +
		"  relationships[0].successor: unknown activity \"C\""
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestReadFileRefusesUnknownExtension(t *testing.T) {
	if _, err := interchange.ReadFile("plan.mpp"); err == nil || !strings.Contains(err.Error(), `unsupported schedule format ".mpp"`) {
		t.Errorf("err = %v", err)
	}
}

func FuzzParseJSON(f *testing.F) {
	seed, err := os.ReadFile("testdata/small.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	live, err := os.ReadFile("testdata/live.json") // the live programme's fields
	if err != nil {
		f.Fatal(err)
	}
	f.Add(live)
	f.Add([]byte(`{"activities": [], "relationships": []}`))
	f.Add([]byte(`{"activities": [{"id": "A", "name": "x", "duration": 1}], "relationships": [{"id":"R","type":"FS","predecessor":"A","successor":"A"}]}`))
	// Hostile inputs of issue 12: huge and NaN-like values, control
	// characters in ids, names and descriptions.
	f.Add([]byte(`{"activities": [{"id": "A", "name": "a", "duration": "1e308"}, {"id": "B", "name": "b", "duration": "pert(1,2,1e308)"}], "relationships": [{"id": "R", "type": "FS", "predecessor": "A", "successor": "B", "lag": 1e308}]}`))
	f.Add([]byte(`{"activities": [{"id": "A", "name": "a", "duration": "100000"}, {"id": "B", "name": "b", "duration": "1"}], "relationships": [{"id": "R", "type": "SS", "predecessor": "A", "successor": "B", "lag": -100000}]}`))
	f.Add([]byte(`{"start_date": "2026-01-05", "activities": [{"id": "A", "name": "a", "duration": "80000"}, {"id": "B", "name": "b", "duration": "80000"}], "relationships": [{"id": "R", "type": "FS", "predecessor": "A", "successor": "B"}]}`))
	f.Add([]byte(`{"name": "P\r", "activities": [{"id": "A\u0000", "name": "a\tb\u0085", "description": "ok\ttab\nline\r\nbell\u0007", "duration": "1"}]}`))
	f.Add([]byte(`{"activities": [{"id": " A ", "name": "\u00a0\u2028\ufeff\ufffd", "description": "\r", "duration": "1"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := interchange.ParseJSON(data)
		if err != nil {
			if s != nil {
				t.Fatal("schedule returned with an error")
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		// Whatever is accepted must compute and survive a round trip.
		if _, err := schedule.Analyze(s); err != nil {
			t.Fatalf("accepted schedule does not compute: %v", err)
		}
		var buf bytes.Buffer
		if err := interchange.WriteJSON(&buf, s); err != nil {
			t.Fatal(err)
		}
		back, err := interchange.ParseJSON(buf.Bytes())
		if err != nil {
			t.Fatalf("re-reading written schedule: %v", err)
		}
		a, _ := json.Marshal(s)
		b, _ := json.Marshal(back)
		if !bytes.Equal(a, b) {
			t.Fatalf("round trip changed the schedule:\n%s\n%s", a, b)
		}
	})
}

// A live programme's file keeps every field through write and read.
func TestJSONKeepsTheLiveProgramme(t *testing.T) {
	s := &schedule.Schedule{
		Name: "Live", StartDate: "2026-03-02T07:00", DataDate: "2026-03-09",
		Calendar:  &schedule.Calendar{Hours: []string{"07:00-12:00", "12:30-17:00"}, HoursPerDay: 9.5},
		Calendars: map[string]*schedule.Calendar{"7d": {Name: "7-day", Workdays: schedule.WeekdayNames[:]}},
		Options:   &schedule.Options{Tool: schedule.P6, LagCalendar: schedule.Lag24Hour, Progress: schedule.ProgressOverride, Float: schedule.SmallestFloat},
		Activities: []schedule.Activity{
			{ID: "A", Name: "Dig <north>", Duration: "5", Type: schedule.ResourceDependent, Calendar: "7d",
				Constraint:          &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-02"},
				SecondaryConstraint: &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-03-20T17:00"},
				ActualStart:         "2026-03-02T07:00", Remaining: "2", PercentComplete: 60, WBS: "1.1",
				Codes: map[string]string{"Area": "North"}, Assignments: []schedule.Assignment{{Resource: "Crew", Units: 0.5, Work: "4", Calendar: "7d"}}},
			{ID: "B", Name: "Visit", Duration: "1", Manual: true, Start: "2026-03-04T07:00", Finish: "2026-03-04T17:00"},
			{ID: "C", Name: "Dry", Duration: "3ed", Type: schedule.LevelOfEffort},
		},
		Relationships: []schedule.Relationship{{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "C", Lag: 1}},
	}
	var buf bytes.Buffer
	if err := interchange.WriteJSON(&buf, s); err != nil {
		t.Fatal(err)
	}
	got, err := interchange.ParseJSON(buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(got, s) {
		t.Errorf("read back differs:\n got %+v\nwant %+v\n%s", got, s, buf.String())
	}
}
