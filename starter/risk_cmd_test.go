package main

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// riskJSON runs `risk --format json` and decodes it.
func riskJSON(t *testing.T, args ...string) (map[string]any, string) {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"risk", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return got, out
}

func TestRiskJSON(t *testing.T) {
	got, out := riskJSON(t, "--file", "../examples/building.json", "--iterations", "3000", "--seed", "5")
	want := []string{"iterations", "seed", "deterministic_finish", "deterministic_finish_date", "deterministic_percentile", "mean", "sd",
		"p10", "p10_date", "p50", "p50_date", "p80", "p80_date", "p90", "p90_date", "criticality", "sensitivity"}
	for _, k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("no %q", k)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d keys, want %d:\n%s", len(got), len(want), out)
	}
	if got["iterations"] != 3000.0 || got["seed"] != 5.0 || got["deterministic_finish"] != 167.0 {
		t.Errorf("iterations %v seed %v deterministic %v", got["iterations"], got["seed"], got["deterministic_finish"])
	}
	if d := got["p80_date"].(string); !regexp.MustCompile(`^2026-\d\d-\d\dT\d\d:\d\d:00$`).MatchString(d) {
		t.Errorf("p80_date %q", d)
	}
	crit := got["criticality"].(map[string]any)
	if len(crit) != 147 || crit["A009"] != 1.0 {
		t.Errorf("criticality: %d activities, A009 %v", len(crit), crit["A009"])
	}
	sens := got["sensitivity"].(map[string]any)
	if s, _ := sens["A009"].(float64); s < 0.5 {
		t.Errorf("sensitivity of piling %v, want the top driver", sens["A009"])
	}
	// Same seed, different worker counts: byte-identical output.
	_, one := riskJSON(t, "--file", "../examples/building.json", "--iterations", "3000", "--seed", "5", "--workers", "1")
	_, three := riskJSON(t, "--file", "../examples/building.json", "--iterations", "3000", "--seed", "5", "--workers", "3")
	if one != out || three != out {
		t.Error("output depends on the number of workers")
	}
	_, other := riskJSON(t, "--file", "../examples/building.json", "--iterations", "3000", "--seed", "6")
	if other == out {
		t.Error("another seed gave the same output")
	}
}

func TestRiskTableAndHTML(t *testing.T) {
	code, out, errOut := runCLI(t, "risk", "--file", "../examples/building.json", "--iterations", "500")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, w := range []string{"Schedule risk: Sample building", "P10", "P90", "Top drivers", "A009"} {
		if !strings.Contains(out, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
	code, out, errOut = runCLI(t, "risk", "--file", "../examples/building.json", "--iterations", "500", "--format", "html", "--correlate", "trade")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.Contains(out, `<svg id="histogram"`) || !strings.Contains(out, `<svg id="scurve"`) ||
		!strings.Contains(out, "no trade has two activities with distributions") {
		t.Errorf("html page: %.1000s", out)
	}
	// Two drywall activities with distributions: correlated.
	file := filepath.Join(t.TempDir(), "drywall.json")
	os.WriteFile(file, []byte(`{"name": "Drywall", "activities": [
	 {"id": "D1", "name": "Drywall Level 1", "duration": "triangular(3,5,9)"},
	 {"id": "D2", "name": "Drywall Level 2", "duration": "pert(3,5,9)"}],
	 "relationships": [{"id": "R1", "type": "FS", "predecessor": "D1", "successor": "D2", "lag": 0}]}`), 0o644)
	code, out, errOut = runCLI(t, "risk", "--file", file, "--iterations", "500", "--correlate", "trade", "--correlation", "0.8")
	if code != 0 || !strings.Contains(out, "durations of one trade correlated (ρ = 0.8)") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
	got, _ := riskJSON(t, "--file", file, "--iterations", "500", "--correlate", "trade")
	if got["correlate"] != "trade" || got["correlation"] != 0.5 {
		t.Errorf("json correlate %v correlation %v", got["correlate"], got["correlation"])
	}
}

// TestRiskFixedDurations: a schedule without distributions still runs and
// says why P10 = P90.
func TestRiskFixedDurations(t *testing.T) {
	code, out, errOut := runCLI(t, "risk", "--file", "testdata/two.json", "--iterations", "10")
	if code != 0 || !strings.Contains(out, "Every duration is fixed") || !strings.Contains(out, "P10 = P90") {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	got, _ := riskJSON(t, "--file", "testdata/two.json", "--iterations", "10")
	if got["p10"] != 8.0 || got["p90"] != 8.0 || got["sd"] != 0.0 || got["p90_date"] != "2026-01-14T17:00:00" {
		t.Errorf("fixed: %v", got)
	}
}

func TestRiskUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"risk"},
		{"risk", "--file", "../examples/building.json", "--schedule", "x"},
		{"risk", "--file", "../examples/building.json", "--iterations", "0"},
		{"risk", "--file", "../examples/building.json", "--iterations", "-3"},
		{"risk", "--file", "../examples/building.json", "--format", "pdf"},
		{"risk", "--file", "../examples/building.json", "--correlate", "level"},
		{"risk", "--file", "../examples/building.json", "--correlate", "trade", "--correlation", "1.5"},
		{"risk", "--file", "../examples/building.json", "--correlation", "0.3"},
		{"risk", "--file", "../examples/building.json", "--seed", "abc"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "risk", "--file", "testdata/missing.json"); code != exitError {
		t.Errorf("missing file: exit %d %s", code, errOut)
	}
}

// TestRiskStoredSchedule: --schedule reads the stored schedule and gives
// the same result as the file it came from.
func TestRiskStoredSchedule(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	if code, _, errOut := runCLI(t, append([]string{"import", "../examples/building.json", "--schedule", "building"}, db...)...); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	stored, _ := riskJSON(t, append([]string{"--schedule", "building", "--iterations", "1000"}, db...)...)
	file, _ := riskJSON(t, "--file", "../examples/building.json", "--iterations", "1000")
	for _, k := range []string{"p10", "p50", "p90", "mean", "sd", "p50_date"} {
		if stored[k] != file[k] {
			t.Errorf("%s: stored %v, file %v", k, stored[k], file[k])
		}
	}
}

// TestRiskDumpSamples: the hidden --dump-samples writes a .npy matrix
// (iterations × activities) whose rows, run through CPM, are the
// iterations the report summarises (checked here by the durations' range;
// bench/risk/peer.py recomputes the percentiles from it).
func TestRiskDumpSamples(t *testing.T) {
	path := filepath.Join(t.TempDir(), "samples.npy")
	got, _ := riskJSON(t, "--file", "../examples/building.json", "--iterations", "50", "--dump-samples", path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(data[:8]) != "\x93NUMPY\x01\x00" {
		t.Fatalf("magic %q", data[:8])
	}
	hl := int(binary.LittleEndian.Uint16(data[8:10]))
	header := string(data[10 : 10+hl])
	if (10+hl)%64 != 0 || !strings.Contains(header, "'shape': (50, 147)") || !strings.HasSuffix(header, "\n") {
		t.Fatalf("header %q", header)
	}
	body := data[10+hl:]
	if len(body) != 50*147*8 {
		t.Fatalf("%d bytes of data", len(body))
	}
	// A009 (index 8) is piling: pert(10,12,18) in the example.
	for i := range 50 {
		d := math.Float64frombits(binary.LittleEndian.Uint64(body[(i*147+8)*8:]))
		if d < 10 || d > 18 {
			t.Fatalf("iteration %d: piling %v outside its PERT range", i, d)
		}
	}
	_ = got
}

// TestRiskNumpyPeerSameSamples: bench/risk/peer.py, given the durations
// the command sampled (--dump-samples), computes the same percentiles,
// mean, SD and criticality (item 3 of issue 17). It needs python3 with
// numpy; without them it skips, except under CI=true, where it fails.
func TestRiskNumpyPeerSameSamples(t *testing.T) {
	if err := exec.Command("python3", "-c", "import numpy").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but python3 cannot import numpy (%v): the numpy peer comparison must run", err)
		}
		t.Skip("python3 with numpy not available: skipping the numpy peer comparison")
	}
	dir := t.TempDir()
	npy := filepath.Join(dir, "samples.npy")
	got, _ := riskJSON(t, "--file", "../examples/building.json", "--iterations", "3000", "--seed", "9", "--dump-samples", npy)
	out, err := exec.Command("python3", "../bench/risk/peer.py", "../examples/building.json", "--samples", npy).Output()
	if err != nil {
		t.Fatalf("peer: %v", err)
	}
	var peer map[string]any
	if err := json.Unmarshal(out, &peer); err != nil {
		t.Fatalf("peer output: %v\n%s", err, out)
	}
	// The Go JSON rounds days to 6 decimals and shares to 4.
	for _, k := range []string{"mean", "sd", "p10", "p50", "p80", "p90"} {
		if d := math.Abs(got[k].(float64) - peer[k].(float64)); d > 1e-6 {
			t.Errorf("%s: Go %v, numpy %v", k, got[k], peer[k])
		}
	}
	gc, pc := got["criticality"].(map[string]any), peer["criticality"].(map[string]any)
	gs, ps := got["sensitivity"].(map[string]any), peer["sensitivity"].(map[string]any)
	for id, v := range gc {
		if math.Abs(v.(float64)-pc[id].(float64)) > 1e-4 {
			t.Errorf("criticality of %s: Go %v, numpy %v", id, v, pc[id])
		}
		if math.Abs(gs[id].(float64)-ps[id].(float64)) > 2e-4 {
			t.Errorf("sensitivity of %s: Go %v, numpy %v", id, gs[id], ps[id])
		}
	}
}
