package interchange

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// TestUncarried: what a real P6 file holds that MSPDI cannot carry, and
// what a real MS Project file holds that XER cannot, are named with
// their counts; nothing is named for the file's own format, JSON, or a
// schedule without a source.
func TestUncarried(t *testing.T) {
	for _, c := range []struct {
		file string
		to   Format
		want []string
	}{
		{filepath.Join(realDataDir, "PredecessorCalendar.xer"), MSPDI, []string{
			"currencies (CURRTYPE): 18 rows",
			"responsibility structure (OBS): 1 row",
			"P6 scheduling options (SCHEDOPTIONS): 1 row",
		}},
		{filepath.Join(realDataDir, "mspdiresource.xml"), XER, []string{
			"outline code definitions (OutlineCodes): 10",
			"custom field definitions other than named text fields (ExtendedAttributes): 10 fields",
			"task timephased data, splits included (TimephasedData): on 1 task",
			"task costs (Cost, FixedCost, ActualCost, RemainingCost): on 3 tasks",
			"resource rates and costs (StandardRate, OvertimeRate, CostPerUse, Rates, Cost): on 4 resources",
			"resource details (EmailAddress, Initials, Group, Code, Notes): on 4 resources",
			"resource custom field values (ExtendedAttribute, OutlineCode): on 1 resource",
			"assignment baselines (Baseline): on 1 assignment",
			"assignment timephased data (TimephasedData): on 5 assignments",
			"assignment costs (Cost, ActualCost, RemainingCost): on 5 assignments",
			"calendars no task or carried resource uses: 2 calendars",
			"resources with no carried assignment (material and cost resources, unassigned ones): 1 resource",
			"assignments that do not drive their task's dates (to material or cost resources, contoured, on fixed-duration or manual tasks): 1 assignment",
		}},
		{filepath.Join(realDataDir, "task-dates-project2019-mspdi.xml"), XER, []string{
			"filters (Filters): 1",
			"groups (Groups): 2",
			"tables (Tables): 1",
			"VBA macros (VBAProjects): 1",
			"views (Views): 3",
			"custom field definitions other than named text fields (ExtendedAttributes): 10 fields",
			"task custom field values other than named text fields (ExtendedAttribute): on 10 tasks",
			"manually scheduled tasks' fixed dates (Manual), P6 schedules every activity: 10 tasks",
		}},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			data, err := os.ReadFile(c.file)
			if err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatal(err)
				}
				t.Skip(err)
			}
			from, _ := FormatOf(c.file)
			r, err := ParseWith(data, from, Options{KeepSource: true, Name: c.file})
			if err != nil {
				t.Fatal(err)
			}
			if got := Uncarried(r.Schedule, c.to); !slices.Equal(got, c.want) {
				t.Errorf("Uncarried to %s:\n got %q\nwant %q", c.to, got, c.want)
			}
			for _, f := range []Format{from, JSON} {
				if got := Uncarried(r.Schedule, f); got != nil {
					t.Errorf("Uncarried to %s (nothing is lost): %q", f, got)
				}
			}
			r.Schedule.Source = nil
			if got := Uncarried(r.Schedule, c.to); got != nil {
				t.Errorf("Uncarried without a source: %q", got)
			}
		})
	}
}

// TestUncarriedDamagedSource: a kept file that cannot be read again is
// said, not taken for one that holds nothing more.
func TestUncarriedDamagedSource(t *testing.T) {
	for _, src := range []*schedule.Source{
		{Format: "xer", Name: "a.xer", Gzip: []byte("not gzip")},
		KeepSource([]byte("PK\x03\x04 a zip, not an XER"), XER, "zip.xer"),
		KeepSource([]byte("<Project><Tasks>"), MSPDI, "cut.xml"),
	} {
		s := &schedule.Schedule{Source: src}
		to := MSPDI
		if src.Format == "mspdi" {
			to = XER
		}
		got := Uncarried(s, to)
		if len(got) != 1 || !strings.Contains(got[0], "could not be read") {
			t.Errorf("%s: Uncarried = %q, want one line saying the file could not be read", src.Name, got)
		}
	}
}

// TestCalendarFileIDs: a numeric key is the file's id, so it reads back
// the same; the project calendar is 1 unless a key takes it; other keys
// get the next free numbers.
func TestCalendarFileIDs(t *testing.T) {
	for _, c := range []struct {
		keys    []string
		project int
		want    map[string]int
	}{
		{nil, 1, map[string]int{}},
		{[]string{"2", "7"}, 1, map[string]int{"2": 2, "7": 7}},
		{[]string{"1", "2"}, 3, map[string]int{"1": 1, "2": 2}},
		{[]string{"night", "1", "02", "-3"}, 2, map[string]int{"1": 1, "-3": 3, "02": 4, "night": 5}},
	} {
		s := &schedule.Schedule{Calendars: map[string]*schedule.Calendar{}}
		for _, k := range c.keys {
			s.Calendars[k] = &schedule.Calendar{}
		}
		ids := calendarFileIDs(s)
		if ids.project != c.project || !maps.Equal(ids.id, c.want) {
			t.Errorf("keys %q: project %d, ids %v; want %d, %v", c.keys, ids.project, ids.id, c.project, c.want)
		}
	}
}

// TestWBSSegments: a path's levels as both readers join them again.
func TestWBSSegments(t *testing.T) {
	for path, want := range map[string][]string{
		"1.2.3":           {"1", "2", "3"},
		"Site/Block A":    {"Site/Block A"},
		"Site.Block A.L3": {"Site", "Block A", "L3"},
		"A..B":            {"A..B"},
		".A":              {".A"},
	} {
		got := wbsSegments(path)
		if !slices.Equal(got, want) || strings.Join(got, ".") != path {
			t.Errorf("wbsSegments(%q) = %q, want %q", path, got, want)
		}
	}
}
