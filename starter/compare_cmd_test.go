package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// changedBuilding writes a copy of the example building with Mobilisation
// (A002, critical, 5 d) lengthened to 9 d, and returns its path.
func changedBuilding(t *testing.T) string {
	return editedBuilding(t, "building-v2.json", "", map[string]map[string]any{"A002": {"duration": "9"}})
}

// editedBuilding writes the example building as name, statused to
// dataDate (unless ""), with edit applied to its activities by id, and
// returns its path.
func editedBuilding(t *testing.T, name, dataDate string, edit map[string]map[string]any) string {
	t.Helper()
	raw, err := os.ReadFile("../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	if dataDate != "" {
		s["data_date"] = dataDate
	}
	for _, a := range s["activities"].([]any) {
		act := a.(map[string]any)
		for k, v := range edit[act["id"].(string)] {
			act[k] = v
		}
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCompareTwoFiles(t *testing.T) {
	v2 := changedBuilding(t)
	code, out, errOut := runCLI(t, "compare", "../examples/building.json", v2)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Comparing ../examples/building.json with " + v2,
		"The finish moved 4 working days later",
		"Mobilisation +4 d (duration 5 -> 9) drove it through",
		"~ Mobilisation (A002): duration 5 -> 9",
		"Activities: 0 added, 0 removed, 1 changed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	code, out, errOut = runCLI(t, "compare", "../examples/building.json", v2, "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var rep struct {
		Finish struct {
			Days      float64 `json:"days"`
			Direction string  `json:"direction"`
			Causes    []struct {
				ID   string  `json:"id"`
				Days float64 `json:"days"`
			} `json:"causes"`
		} `json:"finish"`
		Changed []struct {
			ID string `json:"id"`
		} `json:"activities_changed"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Finish.Days != 4 || rep.Finish.Direction != "later" || len(rep.Finish.Causes) != 1 || rep.Finish.Causes[0].ID != "A002" ||
		len(rep.Changed) != 1 || rep.Changed[0].ID != "A002" {
		t.Errorf("JSON: %+v", rep)
	}

	code, out, _ = runCLI(t, "compare", "../examples/building.json", v2, "--format", "html")
	if code != 0 || !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.Contains(out, "Mobilisation &#43;4 d") {
		t.Errorf("html: exit %d, %.300s", code, out)
	}
}

// A real P6 file compared with itself changes nothing, and with a
// stored copy (the stored: form) neither.
func TestCompareSameFileAndStored(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	code, out, errOut := runCLI(t, "compare", "../examples/building.json", "../examples/building.json")
	if code != 0 || !strings.Contains(out, "The finish did not move") || !strings.Contains(out, "Activities: 0 added, 0 removed, 0 changed") {
		t.Errorf("same file: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, append([]string{"import", "../examples/building.json", "--schedule", "building"}, db...)...); code != 0 {
		t.Fatal(errOut)
	}
	code, out, errOut = runCLI(t, append([]string{"compare", "stored:building", changedBuilding(t)}, db...)...)
	if code != 0 || !strings.Contains(out, "Comparing building with") || !strings.Contains(out, "The finish moved 4 working days later") {
		t.Errorf("stored vs file: exit %d\n%s%s", code, out, errOut)
	}
}

func TestCompareUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compare", "a.json"}, exitUsage, "give two versions"},
		{[]string{"compare", "a.json", "b.json", "--format", "pdf"}, exitUsage, `--format "pdf"`},
		{[]string{"compare", "a.json", "b.json", "--limit", "-1"}, exitUsage, "--limit -1"},
		{[]string{"compare", "missing.json", "../examples/building.json"}, exitError, "missing.json"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	// Flags reach the options as given.
	var got *compareOptions
	cmd := newCompareCmd(&Factory{}, func(_ context.Context, o *compareOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"x.xer", "stored:y", "--format", "json", "--limit", "5"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Before != "x.xer" || got.After != "stored:y" || got.Format != "json" || got.Limit != 5 {
		t.Errorf("options = %+v", got)
	}
}

func TestIsFile(t *testing.T) {
	for arg, want := range map[string]bool{
		"../examples/building.json": true, "plan.xer": true, "dir/plan": true, "building": false, "stored:plan.xer": false,
	} {
		if got := isFile(arg); got != want {
			t.Errorf("isFile(%q) = %v, want %v", arg, got, want)
		}
	}
}
