package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkIDs are the checks `check` runs, in order.
var checkIDs = []string{"missing_logic", "leads", "lags", "relationship_types", "high_float", "negative_float",
	"high_duration", "critical_path_test", "redundant_links", "dangling_starts", "dangling_finishes"}

// decodeChecks parses `check --json` strictly: exactly the documented
// keys, offenders an array (never null).
func decodeChecks(t *testing.T, out string) map[string]map[string]any {
	t.Helper()
	var doc map[string][]map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(doc) != 1 || doc["checks"] == nil {
		t.Fatalf("top level %v, want only checks", doc)
	}
	keys := []string{"count", "id", "name", "offender_names", "offenders", "passed", "threshold"}
	byID := map[string]map[string]any{}
	var ids []string
	for _, c := range doc["checks"] {
		var got []string
		for k := range c {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, keys) {
			t.Errorf("check keys %v, want %v", got, keys)
		}
		if _, ok := c["offenders"].([]any); !ok {
			t.Errorf("%v: offenders %v is not an array", c["id"], c["offenders"])
		}
		id := c["id"].(string)
		ids = append(ids, id)
		byID[id] = c
	}
	if !slices.Equal(ids, checkIDs) {
		t.Errorf("checks %v, want %v", ids, checkIDs)
	}
	return byID
}

// TestCheckJSONBuilding: building.json fails leads (10), lags (106),
// relationship_types (90 not FS), high_float (11) and redundant_links
// (R241, R244) — counted in internal/insight's TestCheckBuilding — and
// exits 1 after printing the report.
func TestCheckJSONBuilding(t *testing.T) {
	code, out, errOut := runCLI(t, "check", "--file", "../examples/building.json", "--json")
	if code != exitError || strings.TrimSpace(errOut) != "autoscheduler: check: 5 of 11 checks failed" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	checks := decodeChecks(t, out)
	want := map[string]struct {
		passed bool
		count  float64
	}{
		"missing_logic": {true, 0}, "leads": {false, 10}, "lags": {false, 106}, "relationship_types": {false, 90},
		"high_float": {false, 11}, "negative_float": {true, 0}, "high_duration": {true, 0}, "critical_path_test": {true, 0},
		"redundant_links": {false, 2}, "dangling_starts": {true, 0}, "dangling_finishes": {true, 4},
	}
	for id, w := range want {
		c := checks[id]
		if c["passed"] != w.passed || c["count"] != w.count || len(c["offenders"].([]any)) != int(w.count) {
			t.Errorf("%s: %v, want passed %v count %v", id, c, w.passed, w.count)
		}
	}
	if got := checks["redundant_links"]["offenders"]; !slices.Equal(got.([]any), []any{"R241", "R244"}) {
		t.Errorf("redundant links %v", got)
	}
	if got := checks["lags"]["threshold"]; got != "<= 5% of relationships (13 of 262)" {
		t.Errorf("lags threshold %q", got)
	}
	if !strings.Contains(out, `"offenders":[]`) || strings.Contains(out, "null") {
		t.Errorf("empty offenders should be []:\n%s", out)
	}
}

func TestCheckTable(t *testing.T) {
	code, out, errOut := runCLI(t, "check", "--file", "../examples/building.json")
	if code != exitError || !strings.Contains(errOut, "check: 5 of 11 checks failed") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		`Checks of "Sample building": 147 activities, 262 relationships; project start A001, finish A147`,
		"CHECK               RESULT  COUNT               THRESHOLD",
		"Leads               FAIL    10 of 262 (3.8%)    <= 0 relationships",
		"R017, R059, R076, R100, R118 and 5 more",
		"Redundant links     FAIL    2 of 262 (0.8%)     <= 0 relationships",
		"Dangling finishes   PASS    4 of 147 (2.7%)     <= 5% of activities (7 of 147)                         A029, A054, A079, A104",
		"Critical path test: A002 made 10 days longer: the finish moved 10 days (167 to 177)",
		"6 of 11 checks passed, 5 failed.",
		"Not applicable (see check --help): DCMA 5 Hard constraints (no date constraints: every date comes from logic); 9 Invalid dates (no data date: nothing has been statused);",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckThresholdFlags: loosened to what building.json has, every
// check passes and check exits 0. Lags 106 of 262 = 40.5% <= 41% (107);
// not FS 90 <= 35% of 262 (91); high float 11 <= 8% of 147 (11).
func TestCheckThresholdFlags(t *testing.T) {
	code, out, errOut := runCLI(t, "check", "--file", "../examples/building.json", "--json",
		"--max-leads", "10", "--max-lags", "41", "--min-fs", "65", "--max-high-float", "8", "--max-redundant", "2")
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for id, c := range decodeChecks(t, out) {
		if c["passed"] != true {
			t.Errorf("%s failed: %v", id, c)
		}
	}
	// Tighter day limits turn others into failures: a duration over 10
	// days (only A009 "Piling", pert(10,12,18): 12; two others are 10)
	// and float over 98 (A129's 99).
	code, out, _ = runCLI(t, "check", "--file", "../examples/building.json", "--json",
		"--high-duration", "10", "--max-high-duration", "0", "--high-float", "98", "--max-high-float", "0")
	checks := decodeChecks(t, out)
	if code != exitError || !slices.Equal(checks["high_duration"]["offenders"].([]any), []any{"A009"}) ||
		!slices.Equal(checks["high_float"]["offenders"].([]any), []any{"A129"}) {
		t.Errorf("exit %d, high_duration %v, high_float %v", code, checks["high_duration"], checks["high_float"])
	}
}

func TestCheckAllPassExitsZero(t *testing.T) {
	file := filepath.Join(t.TempDir(), "chain.json")
	chain := `{"name": "Chain", "activities": [
  {"id": "S", "name": "Start", "duration": "0"}, {"id": "A", "name": "Dig", "duration": "5"},
  {"id": "B", "name": "Pour", "duration": "3"}, {"id": "F", "name": "Finish", "duration": "0"}],
 "relationships": [{"id": "R1", "type": "FS", "predecessor": "S", "successor": "A", "lag": 0},
  {"id": "R2", "type": "FS", "predecessor": "A", "successor": "B", "lag": 0},
  {"id": "R3", "type": "FS", "predecessor": "B", "successor": "F", "lag": 0}]}`
	if err := os.WriteFile(file, []byte(chain), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "check", "--file", file)
	if code != exitOK || errOut != "" || !strings.Contains(out, "11 of 11 checks passed.") ||
		!strings.Contains(out, "Critical path test: A made 10 days longer: the finish moved 10 days (8 to 18)") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
}

func TestCheckUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"check"},
		{"check", "--file", "../examples/building.json", "--schedule", "building"},
		{"check", "--file", "../examples/building.json", "extra"},
		{"check", "--file", "../examples/building.json", "--min-fs", "120"},
		{"check", "--file", "../examples/building.json", "--max-lags", "-1"},
		{"check", "--file", "../examples/building.json", "--critical-path-delay", "0"},
		{"check", "--file", "../examples/building.json", "--max-leads", "-1"},
		{"check", "--file", "../examples/building.json", "--max-leads", "many"},
		{"check", "--file", "../examples/building.json", "--no-such-flag"},
	} {
		if code, out, errOut := runCLI(t, args...); code != exitUsage || out != "" {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
	// A file that is not there is an error, not a usage error.
	if code, _, errOut := runCLI(t, "check", "--file", "testdata/missing.json"); code != exitError {
		t.Errorf("missing file: exit %d %s", code, errOut)
	}
}

// TestCheckStoredSchedule: --schedule reads the stored schedule and gives
// the same report as the file it was imported from.
func TestCheckStoredSchedule(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	if code, _, errOut := runCLI(t, append([]string{"import", "../examples/building.json", "--schedule", "building"}, db...)...); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	code, stored, errOut := runCLI(t, append([]string{"check", "--schedule", "building", "--json"}, db...)...)
	if code != exitError {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, file, _ := runCLI(t, "check", "--file", "../examples/building.json", "--json")
	if stored != file {
		t.Errorf("stored:\n%s\nfile:\n%s", stored, file)
	}
	if code, _, errOut := runCLI(t, append([]string{"check", "--schedule", "nope"}, db...)...); code != exitError {
		t.Errorf("unknown schedule: exit %d %s", code, errOut)
	}
}

// TestCheckLiveProgramme: a statused P6 file (12 activities of 100 days,
// data date 24 Feb 2015; counted in internal/insight's
// TestLiveChecksRealFiles) gets invalid_dates besides the 11 checks,
// offenders with their names, and the points it lacks data for named with
// why.
func TestCheckLiveProgramme(t *testing.T) {
	const file = "../../shared/data/real/percent-complete-8.4.xer"
	code, out, errOut := runCLI(t, "check", "--file", file, "--json")
	if code != exitError || strings.TrimSpace(errOut) != "autoscheduler: check: 2 of 12 checks failed" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	var doc struct {
		Checks []struct {
			ID            string   `json:"id"`
			Passed        bool     `json:"passed"`
			Offenders     []string `json:"offenders"`
			OffenderNames []string `json:"offender_names"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range doc.Checks {
		ids = append(ids, c.ID)
		if len(c.OffenderNames) != len(c.Offenders) {
			t.Errorf("%s: %d names for %d offenders", c.ID, len(c.OffenderNames), len(c.Offenders))
		}
		if c.ID == "high_duration" && (len(c.OffenderNames) != 12 || c.OffenderNames[0] != "Duration 0%") {
			t.Errorf("high duration names %v", c.OffenderNames)
		}
	}
	if want := append(slices.Clone(checkIDs), "invalid_dates"); !slices.Equal(ids, want) {
		t.Errorf("checks %v, want %v", ids, want)
	}
	_, out, _ = runCLI(t, "check", "--file", file)
	for _, want := range []string{
		"Invalid dates       PASS    0 of 12 (0.0%)",
		"Not applicable (see check --help): DCMA 5 Hard constraints (no date constraints: every date comes from logic); " +
			"10 Resources (no activity carries a resource assignment); 11 Missed activities (no activity's baseline finish is before the data date); " +
			"13 Critical path length index (CPLI) (no deadline: no constraint gives the project finish float, so the index is always 1); " +
			"14 Baseline execution index (BEI) (no activity's baseline finish is before the data date).", // the planned dates are the baseline
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
