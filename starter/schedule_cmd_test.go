package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

func TestScheduleJSONReport(t *testing.T) {
	code, out, errOut := runCLI(t, "schedule", "--file", "testdata/two.json", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := `{"project_duration": 8, "critical_path": ["A1", "A2"],
 "activities": [
  {"id": "A1", "name": "Excavate Level 1", "duration": 5, "early_start": 0, "early_finish": 5, "late_start": 0, "late_finish": 5, "total_float": 0, "free_float": 0, "critical": true, "early_start_date": "2026-01-05T08:00:00", "early_finish_date": "2026-01-09T17:00:00", "late_start_date": "2026-01-05T08:00:00", "late_finish_date": "2026-01-09T17:00:00"},
  {"id": "A2", "name": "Pour \"slab\" Level 1", "duration": 2.5, "early_start": 5.5, "early_finish": 8, "late_start": 5.5, "late_finish": 8, "total_float": 0, "free_float": 0, "critical": true, "early_start_date": "2026-01-12T13:00:00", "early_finish_date": "2026-01-14T17:00:00", "late_start_date": "2026-01-12T13:00:00", "late_finish_date": "2026-01-14T17:00:00"}
]}
`
	if out != want {
		t.Errorf("report:\n%s\nwant:\n%s", out, want)
	}
}

func TestScheduleJSONReportOfExampleBuilding(t *testing.T) {
	code, out, errOut := runCLI(t, "schedule", "--file", "../examples/building.json", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		ProjectDuration float64  `json:"project_duration"`
		CriticalPath    []string `json:"critical_path"`
		Activities      []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if rep.ProjectDuration != 167 || len(rep.Activities) < 120 || len(rep.CriticalPath) == 0 {
		t.Fatalf("duration %g, %d activities, %d critical", rep.ProjectDuration, len(rep.Activities), len(rep.CriticalPath))
	}
	keys := []string{"critical", "duration", "early_finish", "early_finish_date", "early_start", "early_start_date", "free_float", "id",
		"late_finish", "late_finish_date", "late_start", "late_start_date", "name", "total_float"}
	for _, a := range rep.Activities {
		var got []string
		for k := range a {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, keys) {
			t.Fatalf("activity keys = %v, want %v", got, keys)
		}
	}
}

func TestScheduleTable(t *testing.T) {
	code, out, errOut := runCLI(t, "schedule", "--file", "testdata/two.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Project duration: 8 working days (Mon 2026-01-05 to Wed 2026-01-14); 2 of 2 activities critical",
		"A2  Pour \"slab\" Level 1  2.5  5.5  8   5.5  8   0   0   *     2026-01-12 13:00  2026-01-14 17:00",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestScheduleErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"activities": [{"id": "A", "name": "Dig", "duration": "1"}],
		"relationships": [{"id": "R", "type": "FS", "predecessor": "A", "successor": "A9"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"schedule", "--file", bad}, exitError, bad + `: relationships[0].successor: unknown activity "A9"`},
		{[]string{"schedule", "--file", "missing.json"}, exitError, "missing.json: no such file"},
		{[]string{"schedule"}, exitUsage, "give one of --file and --schedule"},
		{[]string{"schedule", "--file", bad, "--format", "xml"}, exitUsage, `--format "xml": want table, json, gantt-html or dot`},
		{[]string{"schedule", "--bogus"}, exitUsage, "unknown flag: --bogus"},
		{[]string{"schedule", "--file", bad, "--rules", "primavera"}, exitUsage, `--rules "primavera": want msproject or p6`},
		{[]string{"bogus"}, exitUsage, `unknown command "bogus"`},
	}
	for _, tc := range tests {
		code, out, errOut := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
		if out != "" {
			t.Errorf("%v: wrote to stdout on error: %q", tc.args, out)
		}
	}
}

func TestScheduleGanttHTML(t *testing.T) {
	code, out, errOut := runCLI(t, "schedule", "--file", "../examples/building.json", "--format", "gantt-html")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.HasSuffix(out, "</html>\n") {
		t.Fatalf("not an HTML page: %.80q ... %.40q", out, out[max(0, len(out)-40):])
	}
	var rep struct {
		CriticalPath []string `json:"critical_path"`
		Activities   []struct{ ID string }
	}
	_, js, _ := runCLI(t, "schedule", "--file", "../examples/building.json", "--format", "json")
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	bars := regexp.MustCompile(`<(?:rect|path) class="bar[ "]`).FindAllString(out, -1)
	crit := regexp.MustCompile(`<(?:rect|path) class="bar critical[ "]`).FindAllString(out, -1)
	if len(bars) != len(rep.Activities) || len(crit) != len(rep.CriticalPath) {
		t.Errorf("%d bars, %d critical; want %d and %d", len(bars), len(crit), len(rep.Activities), len(rep.CriticalPath))
	}
	for _, a := range rep.Activities {
		if !strings.Contains(out, ` data-id="`+a.ID+`"`) {
			t.Errorf("no bar for %s", a.ID)
		}
	}
	if strings.Contains(strings.ReplaceAll(out, `xmlns="http://www.w3.org/2000/svg"`, ""), "http") {
		t.Error("the page refers to a URL")
	}
}

func TestScheduleDOT(t *testing.T) {
	code, out, errOut := runCLI(t, "schedule", "--file", "testdata/two.json", "--format", "dot")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"digraph ", "rankdir=LR",
		`"A1" [label="Excavate Level 1\nA1 · 5 d\nES 0  EF 5  TF 0\n2026-01-05 – 2026-01-09"`,
		`"A2" [label="Pour \"slab\" Level 1\nA2 · 2.5 d\nES 5.5  EF 8  TF 0\n2026-01-12 – 2026-01-14"`,
		`"A1" -> "A2" [`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("DOT lacks %s:\n%s", want, out)
		}
	}
	if !strings.HasSuffix(out, "}\n") || strings.Count(out, " -> ") != 1 {
		t.Errorf("DOT:\n%s", out)
	}
}

// newTestStreams discards output: for commands run in the background.
func newTestStreams() *cmdutil.IOStreams {
	return &cmdutil.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}
}

// --rules schedules a programme by the other tool's rules: a finished
// activity with a successor is dated where MS Project dates it (its
// actual dates) or where P6 does (the data date).
func TestScheduleRules(t *testing.T) {
	file := filepath.Join(t.TempDir(), "live.json")
	if err := os.WriteFile(file, []byte(`{"start_date": "2026-03-02", "data_date": "2026-03-09", "options": {"tool": "p6"},
		"activities": [{"id": "A", "name": "Dig", "duration": "5", "actual_start": "2026-03-02", "actual_finish": "2026-03-06"},
		               {"id": "B", "name": "Pour", "duration": "2"}],
		"relationships": [{"id": "R", "type": "FS", "predecessor": "A", "successor": "B"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ rules, want string }{
		{"", `"early_start_date": "2026-03-09T08:00:00"`},
		{"msproject", `"early_start_date": "2026-03-02T08:00:00"`},
	} {
		args := []string{"schedule", "--file", file, "--format", "json"}
		if tc.rules != "" {
			args = append(args, "--rules", tc.rules)
		}
		code, out, errOut := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		first := strings.SplitN(strings.SplitN(out, "\n  {", 3)[1], "}", 2)[0] // activity A
		if !strings.Contains(first, tc.want) {
			t.Errorf("--rules %q: A is %s\nwant %s", tc.rules, first, tc.want)
		}
	}
}

// activity show lists what a live programme holds of an activity, and
// nothing more for a plain one.
func TestActivityLiveLines(t *testing.T) {
	s := &schedule.Schedule{Calendars: map[string]*schedule.Calendar{"7d": {Name: "7-day"}}}
	live := schedule.Activity{ID: "A", Name: "Cure", Duration: "7", Calendar: "7d", Type: schedule.ResourceDependent,
		Constraint:  &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-25"},
		ActualStart: "2026-03-09", Remaining: "2", PercentComplete: 60, WBS: "1.2", Codes: map[string]string{"Area": "North"},
		Assignments: []schedule.Assignment{{Resource: "Crew", Units: 0.5, Work: "3"}}}
	want := []string{"type: resource dependent", "calendar: 7-day (7d)", "constraint: start on or after 2026-03-25",
		"actual start: 2026-03-09", "remaining: 2", "complete: 60%", "WBS: 1.2", "code Area: North", "resource: Crew, 3 days of work at 50%"}
	if got := liveLines(s, live); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := liveLines(s, schedule.Activity{ID: "P", Name: "Plain", Duration: "1"}); got != nil {
		t.Errorf("a plain activity shows %q", got)
	}
}

// A damaged part of a file is a warning on stderr wherever the file is
// read, not only on import: schedule computes the rest and says what it
// left out.
func TestScheduleWarnsOfDamagedParts(t *testing.T) {
	file := filepath.Join(t.TempDir(), "damaged.xml")
	if err := os.WriteFile(file, []byte(`<?xml version="1.0" encoding="UTF-8"?>
<Project xmlns="http://schemas.microsoft.com/project"><Title>D</Title><StartDate>2026-03-02T08:00:00</StartDate>
<Tasks><Task><UID>1</UID><ID>1</ID><Name>A</Name><Duration>PT16H0M0S</Duration><ConstraintType>9</ConstraintType></Task></Tasks></Project>`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"schedule", "--file", file}, {"check", "--file", file}, {"export", "--file", file}} {
		code, out, errOut := runCLI(t, cmd...)
		if out == "" || !strings.Contains(errOut, `warning: `+file+`: Task UID 1 (line 3): ConstraintType: unknown code "9"`) {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q", cmd, code, len(out), errOut)
		}
	}
}
