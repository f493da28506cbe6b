package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// import refuses schedule ids that would be unreachable: "", ".", "..",
// path names (issue 26, item 9).
func TestImportRefusesBadScheduleIDs(t *testing.T) {
	db := embeddedArgs(t)
	for _, id := range []string{".", "..", "../x", "a/b", ".hidden", "two words", strings.Repeat("x", 129)} {
		code, _, errOut := runCLI(t, append([]string{"import", "../examples/building.json", "--schedule", id}, db...)...)
		if code != exitUsage || !strings.Contains(errOut, "import: --schedule: invalid schedule id") {
			t.Errorf("--schedule %q: exit %d %s", id, code, errOut)
		}
	}
	code, out, errOut := runCLI(t, append([]string{"schedule", "list", "--json"}, db...)...)
	if code != 0 || strings.TrimSpace(out) != `{"schedules":[]}` {
		t.Errorf("after refused imports: exit %d %q %s", code, out, errOut)
	}
}

// A P6 file cut short is refused by import with the line where it ends;
// --allow-truncated imports it with a warning naming what may be missing
// (issue 26, item 8).
func TestImportTruncatedXER(t *testing.T) {
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.xer")
	if code, _, errOut := cli("export", "--file", "../examples/building.json", "--format", "xer", "-o", whole); code != 0 {
		t.Fatal(errOut)
	}
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	// Cut after the 100th link, at a line end.
	lines := bytes.SplitAfter(data, []byte("\n"))
	at := 0
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte("%T\tTASKPRED")) {
			at = i + 2 + 100
		}
	}
	cut := filepath.Join(dir, "cut.xer")
	if err := os.WriteFile(cut, bytes.Join(lines[:at], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := cli("import", cut, "--schedule", "cut")
	if code != exitError || !strings.Contains(errOut, "without its %E end marker: it looks truncated") || !strings.Contains(errOut, "--allow-truncated") {
		t.Fatalf("import of a truncated file: exit %d %s", code, errOut)
	}
	if code, _, _ := cli("schedule", "--schedule", "cut"); code == 0 {
		t.Fatal("a refused import stored the schedule")
	}
	code, _, errOut = cli("import", cut, "--schedule", "cut", "--allow-truncated")
	if code != 0 || !strings.Contains(errOut, "warning: "+cut+": the file ends at line") || !strings.Contains(errOut, "table TASKPRED") ||
		!strings.Contains(errOut, "147 activities, 100 relationships") {
		t.Fatalf("--allow-truncated: exit %d %s", code, errOut)
	}
}

// `schedule list` reads the summaries; `schedule delete` removes a
// schedule from both stores, says when there was nothing to delete, and
// refuses while a dispatch is open (issue 26, items 9 and 11).
func TestScheduleListAndDelete(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }
	for _, id := range []string{"building", "two"} {
		file := map[string]string{"building": "../examples/building.json", "two": "testdata/two.json"}[id]
		if code, _, errOut := cli("import", file, "--schedule", id); code != 0 {
			t.Fatal(errOut)
		}
	}
	code, out, errOut := cli("schedule", "list", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var list struct {
		Schedules []scheduleListItem `json:"schedules"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(list.Schedules) != 2 || list.Schedules[0].ID != "building" || list.Schedules[0].Activities != 147 || list.Schedules[0].Finish != 167 ||
		!strings.HasPrefix(list.Schedules[0].FinishDate, "2026-") || list.Schedules[0].Updated == "" || list.Schedules[1].Finish != 8 {
		t.Fatalf("list: %+v", list.Schedules)
	}
	code, out, _ = cli("schedule", "list")
	if code != 0 || !strings.Contains(out, "building") || !strings.Contains(out, "(167 days)") || !strings.HasPrefix(out, "ID ") {
		t.Fatalf("list table: %s", out)
	}

	// Delete, with the dispatch check answered by the test.
	stores := config.StoresFromEnv()
	var errBuf bytes.Buffer
	io := &cmdutil.IOStreams{Out: &bytes.Buffer{}, ErrOut: &errBuf}
	deleteWith := func(open openDispatchFunc, args ...string) error {
		root := newScheduleDeleteCmd(&Factory{IOStreams: io, Stores: &stores}, func(ctx context.Context, opts *deleteOptions) error {
			opts.openDispatch = open
			return deleteRun(ctx, opts)
		})
		stores.BindFlags(root.Flags())
		root.SetArgs(append(args, db...))
		root.SetOut(&bytes.Buffer{})
		root.SetErr(&bytes.Buffer{})
		errBuf.Reset()
		return root.ExecuteContext(context.Background())
	}
	open := func(context.Context, string) (string, error) { return "dispatch-two", nil }
	if err := deleteWith(open, "two"); err == nil || !strings.Contains(err.Error(), `schedule "two" was not deleted: dispatch dispatch-two is open on it; review, reject or cancel it first`) {
		t.Fatalf("delete with an open dispatch: %v", err)
	}
	down := func(context.Context, string) (string, error) { return "", errors.New("cannot reach Temporal") }
	if err := deleteWith(down, "two"); err == nil || !strings.Contains(err.Error(), "cannot check it for an open dispatch: cannot reach Temporal") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("delete with Temporal down: %v", err)
	}
	none := func(context.Context, string) (string, error) { return "", nil }
	if err := deleteWith(none, "two"); err != nil || !strings.Contains(errBuf.String(), `deleted schedule "two" from both stores`) {
		t.Fatalf("delete: %v %s", err, errBuf.String())
	}
	if err := deleteWith(none, "two"); err != nil || !strings.Contains(errBuf.String(), `schedule "two" is not stored: nothing to delete`) {
		t.Fatalf("delete again: %v %s", err, errBuf.String())
	}
	// --force asks nothing of Temporal.
	if code, _, errOut := cli("schedule", "delete", "building", "--force"); code != 0 || !strings.Contains(errOut, `deleted schedule "building"`) {
		t.Fatalf("delete --force: exit %d %s", code, errOut)
	}
	if code, out, _ := cli("schedule", "list", "--json"); code != 0 || strings.Contains(out, `"id"`) {
		t.Fatalf("after the deletes: %s", out)
	}
	if code, _, errOut := cli("schedule", "--schedule", "building"); code != exitError || !strings.Contains(errOut, "schedule not found") {
		t.Fatalf("a deleted schedule: exit %d %s", code, errOut)
	}
	if code, _, errOut := cli("schedule", "delete"); code != exitUsage || !strings.Contains(errOut, "which schedule?") {
		t.Fatalf("delete without an id: exit %d %s", code, errOut)
	}
}

// export -o into a directory that does not exist names the path asked
// for, not the temporary file (issue 26, item 16).
func TestExportToAMissingDirectory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "nonexistent", "dir", "x.xer")
	code, _, errOut := runCLI(t, "export", "--file", "testdata/two.json", "--format", "xer", "-o", out)
	want := "cannot write " + out + ": the directory " + filepath.Dir(out) + " does not exist"
	if code != exitError || !strings.Contains(errOut, want) || strings.Contains(errOut, ".tmp") {
		t.Errorf("exit %d %q\nwant %q", code, errOut, want)
	}
}
