package interchange_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// richSchedule uses every calendar feature both formats can carry, links of
// every type, leads, decimal days and a distribution.
func richSchedule() *schedule.Schedule {
	return &schedule.Schedule{
		Name: "Rich", StartDate: "2026-03-02",
		Calendar: &schedule.Calendar{
			Workdays:    []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat"},
			Holidays:    []string{"2026-04-03", "2026-04-06"},
			Hours:       []string{"07:00-12:00", "12:30-16:00"},
			DayHours:    map[string][]string{"Sat": {"08:00-12:00"}},
			HoursPerDay: 8,
			Exceptions:  []schedule.CalendarException{{From: "2026-03-08", Working: true, Hours: []string{"09:00-13:00"}}},
		},
		Activities: []schedule.Activity{
			{ID: "A1", Name: "Excavate", Description: "Dig\twith \"care\" & <speed>\nline two", Duration: "5"},
			{ID: "A2", Name: "Pour", Description: "", Duration: "pert(1,2.5,6)"},
			{ID: "A3", Name: "Walls", Description: "Block walls", Duration: "4.25"},
			{ID: "A4", Name: "Done", Description: "Milestone", Duration: "0"},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A1", Successor: "A2", Lag: 2},
			{ID: "R2", Type: schedule.SS, Predecessor: "A2", Successor: "A3", Lag: -0.5},
			{ID: "R3", Type: schedule.FF, Predecessor: "A2", Successor: "A3", Lag: 1},
			{ID: "R4", Type: schedule.SF, Predecessor: "A1", Successor: "A4", Lag: 0.125},
			{ID: "R5", Type: schedule.FS, Predecessor: "A3", Successor: "A4"},
		},
	}
}

func loadBuilding(t *testing.T) *schedule.Schedule {
	t.Helper()
	s, err := interchange.ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRoundTrip: import(export(s)) == s for every format.
func TestRoundTrip(t *testing.T) {
	noCal := richSchedule()
	noCal.Calendar, noCal.StartDate = nil, ""
	named := richSchedule()
	named.Calendar = &schedule.Calendar{Workdays: []string{"Mon", "Tue", "Wed", "Thu"}, Exceptions: []schedule.CalendarException{
		{Name: "Shutdown", From: "2026-07-27", To: "2026-08-07"},
		{Name: "Catch-up", From: "2026-03-06", Working: true},
	}}
	schedules := map[string]*schedule.Schedule{"building": loadBuilding(t), "rich": richSchedule(), "no calendar or start": noCal, "named exceptions": named}
	for name, s := range schedules {
		for _, f := range interchange.Formats {
			if f == interchange.XER && name == "named exceptions" {
				continue // XER exceptions are dates without names; see TestXERExceptionsAreDates
			}
			t.Run(name+"/"+string(f), func(t *testing.T) {
				var buf bytes.Buffer
				if err := interchange.Write(&buf, s, f, nil); err != nil {
					t.Fatal(err)
				}
				back, _, err := interchange.Parse(buf.Bytes(), f)
				if err != nil {
					t.Fatalf("%v\n%s", err, buf.String())
				}
				if !reflect.DeepEqual(back, s) {
					t.Errorf("round trip differs: %s", firstDifference(back, s))
				}
			})
		}
	}
}

func TestXERExceptionsAreDates(t *testing.T) {
	s := richSchedule()
	s.Calendar = &schedule.Calendar{Exceptions: []schedule.CalendarException{
		{Name: "Shutdown", From: "2026-07-30", To: "2026-08-01"},
		{Name: "Catch-up", From: "2026-03-07", Working: true},
	}}
	var buf bytes.Buffer
	if err := interchange.WriteXER(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := interchange.ParseXER(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := &schedule.Calendar{Workdays: schedule.DefaultWorkdays, Holidays: []string{"2026-07-30", "2026-07-31", "2026-08-01"},
		Exceptions: []schedule.CalendarException{{From: "2026-03-07", Working: true}}}
	if !reflect.DeepEqual(back.Calendar, want) {
		t.Errorf("calendar %+v, want %+v", back.Calendar, want)
	}
}

// The CPM of a schedule is the same after a trip through each format.
func TestRoundTripKeepsCPM(t *testing.T) {
	s := loadBuilding(t)
	want, err := schedule.Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []interchange.Format{interchange.MSPDI, interchange.XER} {
		path := filepath.Join(t.TempDir(), "building"+f.Extension())
		if err := interchange.WriteFile(path, s, f, nil); err != nil {
			t.Fatal(err)
		}
		back, err := interchange.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := schedule.Analyze(back)
		if err != nil {
			t.Fatal(err)
		}
		if got.ProjectDuration != want.ProjectDuration || !reflect.DeepEqual(got.ES, want.ES) || !reflect.DeepEqual(got.TotalFloat, want.TotalFloat) {
			t.Errorf("%s: CPM differs after the round trip", f)
		}
	}
}

func TestWriteFileLeavesNothingOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.xml")
	if err := os.WriteFile(path, []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := richSchedule()
	bad.Relationships = append(bad.Relationships, schedule.Relationship{ID: "R9", Type: schedule.FS, Predecessor: "A4", Successor: "A1"})
	for _, f := range interchange.Formats {
		err := interchange.WriteFile(path, bad, f, nil)
		if err == nil || !strings.Contains(err.Error(), "circular logic") || !strings.Contains(err.Error(), "out.xml") {
			t.Errorf("%s: err = %v", f, err)
		}
		var buf bytes.Buffer
		if err := interchange.Write(&buf, bad, f, nil); err == nil || buf.Len() > 0 {
			t.Errorf("%s: Write wrote %d bytes, err %v", f, buf.Len(), err)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != "before" {
		t.Errorf("the file was changed: %q", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

// firstDifference shows where two schedules differ, in Go syntax so nil
// and empty are told apart.
func firstDifference(got, want *schedule.Schedule) string {
	if !reflect.DeepEqual(got.Calendar, want.Calendar) {
		return fmt.Sprintf("calendar\n got %#v\nwant %#v", got.Calendar, want.Calendar)
	}
	for i := range min(len(got.Activities), len(want.Activities)) {
		if !got.Activities[i].Equal(want.Activities[i]) {
			return fmt.Sprintf("activity %d\n got %#v\nwant %#v", i, got.Activities[i], want.Activities[i])
		}
	}
	for i := range min(len(got.Relationships), len(want.Relationships)) {
		if got.Relationships[i] != want.Relationships[i] {
			return fmt.Sprintf("relationship %d\n got %#v\nwant %#v", i, got.Relationships[i], want.Relationships[i])
		}
	}
	g, w := *got, *want
	g.Activities, g.Relationships, g.Calendar, w.Activities, w.Relationships, w.Calendar = nil, nil, nil, nil, nil, nil
	return fmt.Sprintf("%d/%d activities, %d/%d relationships, %#v / %#v", len(got.Activities), len(want.Activities), len(got.Relationships), len(want.Relationships), g, w)
}

// TestStartTimeRoundTrip: a project that starts at a time of day after the
// calendar's first working period (09:00 on a day worked from 07:00) keeps
// it through every format; one that starts at the day's first period stays
// a date.
func TestStartTimeRoundTrip(t *testing.T) {
	for _, start := range []string{"2026-03-02T09:00", "2026-03-02"} {
		s := richSchedule()
		s.StartDate = start
		for _, f := range []interchange.Format{interchange.JSON, interchange.MSPDI, interchange.XER} {
			var buf bytes.Buffer
			if err := interchange.Write(&buf, s, f, nil); err != nil {
				t.Fatalf("%s %s: %v", start, f, err)
			}
			back, _, err := interchange.Parse(buf.Bytes(), f)
			if err != nil {
				t.Fatalf("%s %s: %v", start, f, err)
			}
			if back.StartDate != start {
				t.Errorf("%s: %s gives back start_date %q", start, f, back.StartDate)
			}
		}
	}
}
