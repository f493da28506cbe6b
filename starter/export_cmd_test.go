package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
	if err := os.WriteFile(bad, []byte(`<Project xmlns="http://schemas.microsoft.com/project"><Tasks>`+
		`<Task><UID>7</UID><Name>A</Name><PredecessorLink><PredecessorUID>8</PredecessorUID></PredecessorLink></Task>`+
		`<Task><UID>8</UID><Name>B</Name><PredecessorLink><PredecessorUID>7</PredecessorUID></PredecessorLink></Task></Tasks></Project>`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.xer")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export", "--file", bad, "--format", "xer", "-o", out}, exitError, bad + ": the imported schedule is not valid: circular logic"},
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

// -o writes through a symbolic link to its target, keeps an existing file's
// mode, refuses anything but a regular file, and takes - for standard
// output (issue 12, item 4).
func TestExportOutputFile(t *testing.T) {
	dir := t.TempDir()
	export := func(out string) (int, string, string) {
		return runCLI(t, "export", "--file", "testdata/two.json", "--format", "json", "-o", out)
	}
	_, want, _ := runCLI(t, "export", "--file", "testdata/two.json", "--format", "json")

	// A 0600 file stays 0600.
	private := filepath.Join(dir, "private.json")
	if err := os.WriteFile(private, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := export(private); code != 0 {
		t.Fatal(errOut)
	}
	if fi, _ := os.Stat(private); fi.Mode().Perm() != 0o600 {
		t.Errorf("an existing 0600 file came back %v", fi.Mode().Perm())
	}
	if got, _ := os.ReadFile(private); string(got) != want {
		t.Errorf("the file holds %q", got)
	}
	// A new file is 0644.
	fresh := filepath.Join(dir, "fresh.json")
	if code, _, errOut := export(fresh); code != 0 {
		t.Fatal(errOut)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o644 {
		t.Errorf("a new file is %v, want 0644", fi.Mode().Perm())
	}

	// Through a link (relative, in another directory), the link kept.
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	target := filepath.Join(sub, "target.json")
	os.WriteFile(target, []byte("old"), 0o640)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("sub/target.json", link); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := export(link); code != 0 {
		t.Fatal(errOut)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced by a file")
	}
	if got, _ := os.ReadFile(target); string(got) != want {
		t.Errorf("the link's target was not written: %q", got)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Errorf("the target's mode came back %v, want 0640", fi.Mode().Perm())
	}
	// A dangling link creates its target.
	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink("sub/new.json", dangling)
	if code, _, errOut := export(dangling); code != 0 {
		t.Fatal(errOut)
	}
	if got, _ := os.ReadFile(filepath.Join(sub, "new.json")); string(got) != want {
		t.Errorf("the dangling link's target was not created")
	}

	// Not a regular file: refused, left as it was.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	toFIFO := filepath.Join(dir, "to-fifo")
	os.Symlink(fifo, toFIFO)
	refused := []string{sub, fifo, toFIFO}
	entries := 7
	// A device node of our own (a null device, 1:3), never the system's:
	// the code before the fix replaced it with a regular file.
	device := filepath.Join(dir, "null")
	if err := syscall.Mknod(device, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		refused = append(refused, device)
		entries++
	} else {
		t.Logf("no device node test (mknod: %v)", err)
	}
	for _, out := range refused {
		code, stdout, errOut := export(out)
		if code != exitError || stdout != "" || !strings.Contains(errOut, "is not a regular file") {
			t.Errorf("-o %s: exit %d, stderr %q", out, code, errOut)
		}
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
	if fi, err := os.Lstat(device); err == nil && fi.Mode()&os.ModeCharDevice == 0 {
		t.Error("the device node was replaced")
	}
	if list, _ := os.ReadDir(dir); len(list) != entries {
		t.Errorf("temporary files left behind: %d entries, want %d", len(list), entries)
	}

	// -o - is standard output.
	if code, out, errOut := export("-"); code != 0 || out != want || errOut != "" {
		t.Errorf("-o -: exit %d, stdout %.60q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("-o - wrote a file named -")
	}
}

// TestExportGivesTheFileBack: a P6 file imported and exported to its own
// format is the same file; after a change it is that file with the
// change, every table P6 wrote still there; to MS Project XML the export
// names what the file holds that MSPDI has no place for (issue 29).
func TestExportGivesTheFileBack(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }
	const file = "../../shared/data/real/percent-complete-8.4.xer"
	original, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := cli("import", file, "--schedule", "pc"); code != 0 || !strings.Contains(errOut, "kept as they are and written back on export: CURRTYPE 18, OBS 2") {
		t.Fatalf("import: exit %d: %s", code, errOut)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "pc.xer")
	code, out, errOut := cli("export", "--schedule", "pc", "--format", "xer", "-o", path, "--json")
	if code != 0 || !strings.Contains(out, `"as_imported":true`) || !strings.Contains(out, `"not_carried":[]`) {
		t.Fatalf("export --json: exit %d, %s %s", code, out, errOut)
	}
	if back, _ := os.ReadFile(path); string(back) != string(original) {
		t.Errorf("the unchanged schedule exported as XER is not the file imported (%d bytes, want %d)", len(back), len(original))
	}
	// A change made on the way through JSON (a move between stores): the
	// JSON file carries the P6 file, and import keeps it.
	code, js, errOut := cli("export", "--schedule", "pc", "--format", "json")
	if code != 0 || !strings.Contains(js, `"source": {`) {
		t.Fatalf("export to JSON: exit %d, %s", code, errOut)
	}
	js = strings.Replace(js, `"activities": [`, `"activities": [{"id": "A0999", "name": "Snagging walk", "duration": "3"},`, 1)
	edited := filepath.Join(dir, "pc.json")
	if err := os.WriteFile(edited, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := cli("import", edited, "--schedule", "pc", "--replace"); code != 0 {
		t.Fatalf("import the edited JSON: %s", errOut)
	}
	if code, _, errOut := cli("export", "--schedule", "pc", "--format", "xer", "-o", path); code != 0 || !strings.Contains(errOut, "percent-complete-8.4.xer as imported with the changes made here") {
		t.Fatalf("export after a change: exit %d, %s", code, errOut)
	}
	back, _ := os.ReadFile(path)
	for _, want := range []string{"Snagging walk", "%T\tCURRTYPE", "%T\tOBS"} {
		if !strings.Contains(string(back), want) {
			t.Errorf("the export after a change has no %q", want)
		}
	}
	xml := filepath.Join(dir, "pc.xml")
	code, out, errOut = cli("export", "--schedule", "pc", "--format", "mspdi", "-o", xml, "--json")
	if code != 0 || !strings.Contains(out, `"as_imported":false`) || strings.Contains(out, `"not_carried":[]`) {
		t.Errorf("export to MSPDI --json: exit %d, %s %s", code, out, errOut)
	}
	if code, _, errOut := cli("export", "--schedule", "pc", "--format", "mspdi", "-o", xml); code != 0 || !strings.Contains(errOut, "not carried to MSPDI") {
		t.Errorf("export to MSPDI says nothing of what it could not carry: exit %d, %s", code, errOut)
	}
	if code, _, errOut := cli("export", "--schedule", "pc", "--format", "xer", "--json"); code != exitUsage || !strings.Contains(errOut, "give the file to write with -o") {
		t.Errorf("--json without -o: exit %d, %s", code, errOut)
	}
}
