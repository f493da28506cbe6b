package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// baseline set, show and clear on a stored schedule (embedded store).
func TestBaselineSetShowClear(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }
	if code, _, errOut := cli("import", "../examples/building.json", "--schedule", "building"); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	if code, _, errOut := cli("baseline", "show", "building"); code != exitError || !strings.Contains(errOut, "no activity has a baseline") {
		t.Fatalf("show without a baseline: exit %d %s", code, errOut)
	}
	code, out, errOut := cli("baseline", "set", "building")
	if code != 0 || out != "baseline set on \"building\": 147 activities, 2026-01-05T08:00 to 2026-09-01T17:00\n" {
		t.Fatalf("set: exit %d %q %s", code, out, errOut)
	}
	if code, out, errOut := cli("verify", "--schedule", "building"); code != 0 || !strings.Contains(out, "ok: the stores agree") {
		t.Fatalf("verify after set: exit %d %s%s", code, out, errOut)
	}
	code, out, errOut = cli("baseline", "show", "building", "--json")
	if code != 0 {
		t.Fatalf("show --json: exit %d %s", code, errOut)
	}
	var got struct{ Variances []varianceRow }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Variances) != 147 {
		t.Fatalf("%d variances, want 147", len(got.Variances))
	}
	for _, v := range got.Variances {
		if *v.StartVariance != 0 || *v.FinishVariance != 0 || *v.DurationVariance != 0 || v.Start != v.BaselineStart {
			t.Fatalf("right after set, %s varies: %+v", v.ID, v)
		}
	}
	if code, out, _ := cli("baseline", "show", "building", "--behind"); code != 0 || out != "nothing finishes after its baseline finish\n" {
		t.Errorf("--behind right after set: exit %d %q", code, out)
	}
	if code, out, errOut := cli("baseline", "clear", "building"); code != 0 || out != "baseline cleared on \"building\": 147 activities\n" {
		t.Fatalf("clear: exit %d %q %s", code, out, errOut)
	}
	if code, _, errOut := cli("baseline", "show", "building"); code != exitError || !strings.Contains(errOut, "no activity has a baseline") {
		t.Errorf("show after clear: exit %d %s", code, errOut)
	}
	if code, _, errOut := cli("baseline", "set", "nope"); code != exitError || !strings.Contains(errOut, "schedule not found") {
		t.Errorf("set on a missing schedule: exit %d %s", code, errOut)
	}
	if code, _, errOut := cli("baseline", "show"); code != exitUsage || !strings.Contains(errOut, "give a stored schedule or --file") {
		t.Errorf("show with nothing: exit %d %s", code, errOut)
	}
}

// baseline show --behind on a file: the activities finishing after their
// baseline finish, the latest first, in the table and as JSON. Piling
// (5 days, baselined 5 Jan - 9 Jan) now takes 7: it and pile caps after
// it finish 2 working days late; the survey, off the path, is on time.
func TestBaselineShowBehind(t *testing.T) {
	file := filepath.Join(t.TempDir(), "update.json")
	doc := `{"name": "Update", "start_date": "2026-01-05",
 "activities": [
  {"id": "S", "name": "Survey", "duration": "2", "baseline_start": "2026-01-05T08:00", "baseline_finish": "2026-01-06T17:00", "baseline_duration": "2"},
  {"id": "P", "name": "Piling", "duration": "7", "baseline_start": "2026-01-05T08:00", "baseline_finish": "2026-01-09T17:00", "baseline_duration": "5"},
  {"id": "C", "name": "Pile caps", "duration": "3", "baseline_start": "2026-01-12T08:00", "baseline_finish": "2026-01-13T17:00", "baseline_duration": "2"}],
 "relationships": [{"id": "R1", "type": "FS", "predecessor": "P", "successor": "C"}]}`
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "baseline", "show", "--file", file, "--behind")
	if code != 0 {
		t.Fatalf("exit %d %s", code, errOut)
	}
	// Pile caps: Tue 13th baseline finish, now Fri 16th: 3 days late.
	want := "ID  NAME       BL START             START                VAR  BL FINISH            FINISH               VAR  BL DUR  DUR  VAR\n" +
		"C   Pile caps  2026-01-12T08:00:00  2026-01-14T08:00:00  +2   2026-01-13T17:00:00  2026-01-16T17:00:00  +3   2       3    +1\n" +
		"P   Piling     2026-01-05T08:00:00  2026-01-05T08:00:00  0    2026-01-09T17:00:00  2026-01-13T17:00:00  +2   5       7    +2\n"
	if out != want {
		t.Errorf("table:\n%s\nwant:\n%s", out, want)
	}
	code, out, _ = runCLI(t, "baseline", "show", "--file", file, "--behind", "--json")
	var got struct{ Variances []varianceRow }
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("--json: exit %d %v %s", code, err, out)
	}
	if len(got.Variances) != 2 || got.Variances[0].ID != "C" || *got.Variances[0].FinishVariance != 3 || got.Variances[1].ID != "P" {
		t.Errorf("--json: %s", out)
	}
}
