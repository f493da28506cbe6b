package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// risk on two normal(1,100000) activities reports what it can (schedule
// gives 2 days) and says which iterations ran past the calendar's range,
// instead of failing with no report (issue 26, item 12).
func TestRiskPastTheCalendarRange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wide.json")
	if err := os.WriteFile(path, []byte(`{"name": "Wide", "start_date": "2026-01-05", "activities": [
  {"id": "A", "name": "a", "duration": "normal(1,100000)"}, {"id": "B", "name": "b", "duration": "normal(1,100000)"}],
  "relationships": [{"id": "R", "type": "FS", "predecessor": "A", "successor": "B"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCLI(t, "schedule", "--file", path, "--format", "json"); code != 0 || !strings.Contains(out, `"project_duration": 2`) {
		t.Fatalf("schedule: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, "risk", "--file", path, "--iterations", "500")
	if code != 0 || !strings.Contains(out, "iterations finish past the calendar's range") || !strings.Contains(out, "P10") || !strings.Contains(out, "Tue 2026-01-06") {
		t.Fatalf("risk: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "risk", "--file", path, "--iterations", "500", "--format", "json")
	if code != 0 || !strings.Contains(out, `"past_calendar_range": {"iterations": `) || !strings.Contains(errOut, "of 500 iterations finish past the calendar's range") {
		t.Fatalf("risk --format json: exit %d\n%s\n%s", code, out, errOut)
	}
}
