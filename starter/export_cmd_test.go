package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The example building through MS Project XML and P6 XER and back: the CPM
// report is the same, and so is the schedule file.
func TestExportConvertsFilesBothWays(t *testing.T) {
	dir := t.TempDir()
	_, wantReport, errOut := runCLI(t, "schedule", "--file", "../examples/building.json", "--format", "json")
	if errOut != "" {
		t.Fatal(errOut)
	}
	code, wantJSON, errOut := runCLI(t, "export", "--file", "../examples/building.json", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []struct{ format, ext string }{{"mspdi", ".xml"}, {"xer", ".xer"}} {
		path := filepath.Join(dir, "building"+f.ext)
		code, out, errOut := runCLI(t, "export", "--file", "../examples/building.json", "--format", f.format, "-o", path)
		if code != 0 || out != "" || !strings.Contains(errOut, "wrote "+path+": 147 activities, 262 relationships") {
			t.Fatalf("%s: exit %d, stdout %q, stderr %q", f.format, code, out, errOut)
		}
		code, report, errOut := runCLI(t, "schedule", "--file", path, "--format", "json")
		if code != 0 || report != wantReport {
			t.Errorf("%s: schedule --format json differs from the original's (exit %d, %s)", f.format, code, errOut)
		}
		code, back, errOut := runCLI(t, "export", "--file", path, "--format", "json")
		if code != 0 || back != wantJSON {
			t.Errorf("%s: back to JSON differs (exit %d, %s)", f.format, code, errOut)
		}
	}
}

func TestExportStoredSchedule(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }
	if code, _, errOut := cli("import", "../examples/building.json", "--schedule", "building"); code != 0 {
		t.Fatal(errOut)
	}
	path := filepath.Join(t.TempDir(), "stored.xer")
	if code, _, errOut := cli("export", "--schedule", "building", "--format", "xer", "-o", path); code != 0 {
		t.Fatal(errOut)
	}
	// The exported file imports as another stored schedule with the same CPM.
	if code, _, errOut := cli("import", path, "--schedule", "again"); code != 0 {
		t.Fatal(errOut)
	}
	_, want, _ := cli("schedule", "--schedule", "building", "--format", "json")
	_, got, _ := cli("schedule", "--schedule", "again", "--format", "json")
	if got != want || !strings.Contains(got, `"project_duration": 167`) {
		t.Errorf("stored schedule after an XER round trip differs")
	}
	code, out, _ := cli("export", "--schedule", "building", "--format", "mspdi")
	if code != 0 || !strings.HasPrefix(out, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`) || !strings.Contains(out, "<Name>Sample building</Name>") {
		t.Errorf("MSPDI on stdout: exit %d, %.200s", code, out)
	}
	if code, _, errOut := cli("export", "--schedule", "nosuch", "--format", "json"); code != exitError || errOut == "" {
		t.Errorf("unknown schedule: exit %d, %q", code, errOut)
	}
}

func TestExportErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.xml")
	if err := os.WriteFile(bad, []byte(`<Project xmlns="http://schemas.microsoft.com/project"><Tasks><Task><UID>7</UID><Name>A</Name>`+
		`<PredecessorLink><PredecessorUID>7</PredecessorUID><Type>5</Type></PredecessorLink></Task></Tasks></Project>`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.xer")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export", "--file", bad, "--format", "xer", "-o", out}, exitError, bad + ": Task UID 7 (line 1): PredecessorLink 1: unknown Type 5"},
		{[]string{"export", "--file", "plan.mpp", "--format", "xer"}, exitError, `plan.mpp: unsupported schedule format ".mpp"; want .json, .xml (MS Project XML) or .xer (Primavera P6)`},
		{[]string{"export", "--format", "xer"}, exitUsage, "give one of --file and --schedule"},
		{[]string{"export", "--file", "a.json", "--schedule", "b"}, exitUsage, "give one of --file and --schedule"},
		{[]string{"export", "--file", "a.json", "--format", "pdf"}, exitUsage, `--format "pdf": want json, mspdi or xer`},
	}
	for _, tc := range tests {
		code, stdout, errOut := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, stdout, errOut, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an output file was written on error")
	}
}

// `schedule --file` reads MS Project XML like any schedule file.
func TestScheduleReadsMSPDI(t *testing.T) {
	code, out, errOut := runCLI(t, "schedule", "--file", "../../shared/data/mspdi/mspdirelations.xml", "--format", "json")
	if code != 0 || !strings.Contains(out, `"project_duration": 3`) || !strings.Contains(out, `"early_start_date": "2006-09-25T08:00:00"`) {
		t.Errorf("exit %d, %s%s", code, out, errOut)
	}
}
