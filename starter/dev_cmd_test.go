package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// `autoscheduler dev` end to end: a real Temporal server and worker in
// process, on the embedded store, running an edit and a dispatch.
func TestDevRunsWorkflowsOnARealServer(t *testing.T) {
	db, dev := devOnEmbedded(t, "../examples/building.json", "building")
	ctx, tc, frontend := t.Context(), dev.client, dev.frontend

	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "edit-test", TaskQueue: workflows.TaskQueue},
		workflows.EditWorkflow, workflows.EditInput{ScheduleID: "building", Ops: []schedule.Op{schedule.RemoveActivity("A147")}})
	if err != nil {
		t.Fatal(err)
	}
	var edit workflows.EditResult
	if err := run.Get(ctx, &edit); err != nil {
		t.Fatal(err)
	}
	if len(edit.Applied) != 1 || edit.Applied[0].Call != `delete_activity(name="Handover")` || len(edit.Inverses) == 0 {
		t.Fatalf("edit result: %+v", edit)
	}

	run, err = tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflows.DispatchWorkflowID("building"), TaskQueue: workflows.TaskQueue},
		workflows.DispatchWorkflow, workflows.DispatchInput{ScheduleID: "building", Prompt: "delete activity Final inspection", AutoAccept: true})
	if err != nil {
		t.Fatal(err)
	}
	var dispatch workflows.DispatchResult
	if err := run.Get(ctx, &dispatch); err != nil {
		t.Fatal(err)
	}
	if dispatch.Status != workflows.StatusAccepted || len(dispatch.Changes) != 1 || !strings.Contains(dispatch.Changes[0].Call, "Final inspection") {
		t.Fatalf("dispatch result: %+v", dispatch)
	}
	cliPrompts(t, db, frontend)
	cliEdits(t, db, frontend)
	cliMenu(t, db, frontend)
	cliQuestion(t, db, frontend)
	if err := dev.stop(); err != nil {
		t.Fatalf("dev: %v", err)
	}
	code, out, _ := runCLI(t, "schedule", "--schedule", "building", "--db", db, "--neo4j-uri=", "--weaviate-url=")
	if code != 0 || strings.Contains(out, "Handover") || strings.Contains(out, "Final inspection") || !strings.Contains(out, "143 activities") {
		t.Fatalf("the stored schedule does not show both changes:\n%.300s", out)
	}
}

// runningDev is `autoscheduler dev` run by a test in the background.
type runningDev struct {
	client   client.Client
	frontend string
	// stop ends it and returns devRun's error; the test's end stops it
	// too.
	stop func() error
}

// startDev runs devRun with opts' io (default: discarded), stores and
// planning — the rest is set here: a free frontend port, no UI, the
// Temporal database in dir — and returns once it serves.
func startDev(t *testing.T, dir string, opts *devOptions) *runningDev {
	t.Helper()
	if opts.io == nil {
		opts.io = newTestStreams()
	}
	opts.Listen, opts.UIAddress, opts.TemporalDB = "127.0.0.1:0", "-", filepath.Join(dir, "temporal.db")
	d := &runningDev{}
	ready := make(chan struct{}, 1)
	opts.ready = func(c client.Client, addr, _, _ string) { d.client, d.frontend = c, addr; ready <- struct{}{} }
	ctx, cancel := context.WithCancel(context.Background())
	var runErr error
	exited := make(chan struct{})
	go func() { runErr = devRun(ctx, opts); close(exited) }()
	d.stop = sync.OnceValue(func() error { cancel(); <-exited; return runErr })
	t.Cleanup(func() { _ = d.stop() })
	select {
	case <-ready:
	case <-exited:
		t.Fatalf("dev stopped: %v", runErr)
	case <-time.After(2 * time.Minute):
		t.Fatal("dev did not start in 2 minutes")
	}
	return d
}

// devOnEmbedded imports file under each id into a new embedded store with
// the CLI and runs dev on it with the offline planner: the store's file
// and dev.
func devOnEmbedded(t *testing.T, file string, ids ...string) (db string, dev *runningDev) {
	t.Helper()
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	db = filepath.Join(dir, "store.db")
	for _, id := range ids {
		if code, _, errOut := runCLI(t, "import", file, "--schedule", id, "--db", db, "--neo4j-uri=", "--weaviate-url="); code != 0 {
			t.Fatalf("import %s as %s: %s", file, id, errOut)
		}
	}
	return db, startDev(t, dir, &devOptions{stores: &config.Stores{DBPath: db}})
}

// cliAt runs the CLI against the dev server at frontend, with flags after
// the command's and stdin given.
func cliAt(frontend string, flags ...string) func(stdin string, args ...string) (int, string, string) {
	return func(stdin string, args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(append(args, append([]string{"--temporal-address", frontend}, flags...)...),
			&cmdutil.IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut})
		return code, out.String(), errOut.String()
	}
}

// cliPrompts drives the prompt, review and dispatch commands against the
// running dev server.
func cliPrompts(t *testing.T, db, frontend string) {
	t.Helper()
	cli := func(args ...string) (int, string, string) {
		return runCLI(t, append(args, "--temporal-address", frontend, "--db", db, "--neo4j-uri=", "--weaviate-url=")...)
	}
	code, out, errOut := cli("prompt", "delete activity Site offices demobilisation", "--schedule", "building", "--yes")
	if code != 0 || !strings.Contains(out, `delete_activity(name="Site offices demobilisation")`) || !strings.Contains(out, "dispatch-building: accepted after 1 round(s)") {
		t.Fatalf("prompt --yes: exit %d\n%s%s", code, out, errOut)
	}
	// compare --dispatch: the schedule before the dispatch's changes (from
	// the ledger's inverses, on a copy) against now.
	if code, out, errOut := cli("compare", "--dispatch", "dispatch-building", "--format", "json"); code != 0 ||
		!regexp.MustCompile(`"activities_removed":\s*\[\s*\{[^\]]*"Site offices demobilisation"`).MatchString(out) || !regexp.MustCompile(`"activities_added":\s*\[\]`).MatchString(out) {
		t.Fatalf("compare --dispatch: exit %d\n%s%s", code, out, errOut)
	}
	// An accepted dispatch can be taken back from the ledger's inverses;
	// a second undo of the same run is refused, changes nothing and
	// prints no ops; `dispatch list` and `dispatch show` say undone.
	if code, out, errOut := cli("dispatch", "undo", "dispatch-building", "--as", "uma"); code != 0 || !strings.Contains(out, `add_activity(name="Site offices demobilisation"`) || !strings.Contains(errOut, "undone: 3 changes taken back") {
		t.Fatalf("undo: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := cli("dispatch", "undo", "dispatch-building"); code != exitError || out != "" || !strings.Contains(errOut, "was already undone by uma at ") || !strings.Contains(errOut, "nothing changed") {
		t.Fatalf("a second undo: exit %d, want %d and a refusal\n%s%s", code, exitError, out, errOut)
	}
	// The list reads the visibility store, which follows an execution's
	// close a moment later.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		code, out, errOut := cli("dispatch", "list", "--schedule", "building")
		if code == 0 && regexp.MustCompile(`(?m)^dispatch-building\s+undone\s`).MatchString(out) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("dispatch list after the undo: exit %d, want the run undone\n%s%s", code, out, errOut)
		}
	}
	if code, out, errOut := cli("dispatch", "show", "dispatch-building"); code != 0 || !strings.Contains(out, "accepted after 1 round(s), then undone by uma") || !strings.Contains(out, "Project finish:") {
		t.Fatalf("dispatch show after the undo: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runCLI(t, "activity", "show", "Site offices demobilisation", "-s", "building", "--db", db, "--neo4j-uri=", "--weaviate-url="); code != 0 || !strings.Contains(out, "after A143") {
		t.Fatalf("the undone activity is not back with its logic: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, _ := cli("prompt", "delete activity Site offices demobilisation", "--schedule", "building", "--yes"); code != 0 {
		t.Fatal("deleting it again after the undo")
	}
	if code, out, errOut := cli("prompt", "delete activity Snagging inspection", "--schedule", "building", "--no-wait"); code != 0 || !strings.HasPrefix(out, "started dispatch-building") {
		t.Fatalf("prompt --no-wait: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := cli("prompt", "delete activity Final cleaning", "--schedule", "building", "--no-wait"); code != exitError || !strings.Contains(errOut, `schedule "building" already has an open dispatch: dispatch-building`) {
		t.Fatalf("a second dispatch: exit %d %s", code, errOut)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, out, _ := cli("dispatch", "show", "dispatch-building")
		if strings.Contains(out, "awaiting review") && strings.Contains(out, `delete_activity(name="Snagging inspection")`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("dispatch show never showed the proposal awaiting review:\n%s", out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if code, out, errOut := cli("review", "dispatch-building", "reject"); code != 0 || !strings.Contains(errOut, "reject sent") {
		t.Fatalf("review: exit %d %s%s", code, out, errOut)
	}
	if code, _, errOut := cli("review", "dispatch-building", "accept"); code != exitError || !strings.Contains(errOut, "review of dispatch-building refused") {
		t.Fatalf("a review when none is awaited: exit %d %s", code, errOut)
	}
	if code, out, _ := cli("dispatch", "list", "--schedule", "building"); code != 0 || !strings.Contains(out, "dispatch-building") {
		t.Fatalf("dispatch list:\n%s", out)
	}
	// Every dispatch of a schedule reuses the workflow ID; the same prompt in
	// a later dispatch is new work, not a retry the ledgers already hold.
	for _, prompt := range []string{`add activity "Tea break" 1 days`, "delete activity Tea break", `add activity "Tea break" 1 days`} {
		if code, out, errOut := cli("prompt", prompt, "--schedule", "building", "--yes"); code != 0 || !strings.Contains(out, "accepted") {
			t.Fatalf("prompt %q: exit %d\n%s%s", prompt, code, out, errOut)
		}
	}
	if code, out, errOut := runCLI(t, "activity", "show", "Tea break", "-s", "building", "--db", db, "--neo4j-uri=", "--weaviate-url="); code != 0 || !strings.Contains(out, "Tea break") {
		t.Fatalf("the activity added by the third dispatch is missing: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, _ := cli("prompt", "delete activity Tea break", "--schedule", "building", "--yes"); code != 0 {
		t.Fatal("cleaning up the tea break")
	}
}

// cliEdits drives the direct-edit commands against the running dev server.
func cliEdits(t *testing.T, db, frontend string) {
	t.Helper()
	cli := func(args ...string) (int, string, string) {
		return runCLI(t, append(args, "-s", "building", "--temporal-address", frontend, "--db", db, "--neo4j-uri=", "--weaviate-url=")...)
	}
	steps := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"activity", "add", "--name", "Scaffold inspection Level 2", "--duration", "1", "--id", "N1"}, 0, `add_activity(name="Scaffold inspection Level 2", duration="1")`},
		{[]string{"relationship", "add", "--from", "Pour slab Level 2", "--to", "N1", "--type", "ss", "--lag", "2", "--id", "NR1"}, 0, `add_relationship(type="SS", predecessor="Pour slab Level 2", successor="Scaffold inspection Level 2", lag=2)`},
		{[]string{"activity", "show", "N1"}, 0, `after A041 "Pour slab Level 2" (SS, lag 2) [NR1]`},
		{[]string{"relationship", "add", "--from", "N1", "--to", "Pour slab Level 2"}, exitError, "circular logic"},
		{[]string{"relationship", "delete", "NR1"}, 0, `delete_relationship(type="SS", predecessor="Pour slab Level 2", successor="Scaffold inspection Level 2", lag=2)`},
		{[]string{"activity", "dissolve", "Defect rectification"}, 0, `dissolve_activity(name="Defect rectification")`},
		{[]string{"activity", "delete", "scaffold inspection level 2"}, 0, `delete_activity(name="Scaffold inspection Level 2")`},
		{[]string{"activity", "delete", "No such thing"}, exitError, `no activity with id or name "No such thing"`},
		{[]string{"activity", "list"}, 0, "Notice to proceed"},
		{[]string{"relationship", "list"}, 0, "R001"},
	}
	for _, st := range steps {
		code, out, errOut := cli(st.args...)
		if code != st.code || !strings.Contains(out+errOut, st.want) {
			t.Fatalf("%v: exit %d, want %d and %q\n%s%s", st.args, code, st.code, st.want, out, errOut)
		}
	}
}

func TestDemo(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	var out strings.Builder
	opts := &devOptions{
		io:     &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: io.Discard},
		stores: &config.Stores{DBPath: filepath.Join(dir, "unused.db")},
		Listen: "127.0.0.1:0", UIAddress: "-",
	}
	if err := demoRun(context.Background(), &demoOptions{devOptions: *opts, File: "../examples/building.json", Exit: true}); err != nil {
		t.Fatalf("demo: %v\n%s", err, out.String())
	}
	for _, want := range []string{
		`imported ../examples/building.json as "building": 147 activities, 262 relationships`,
		`applied  delete_relationship(type="SS", predecessor="Painting Level 3", successor="Painting Level 4", lag=5)`,
		`applied  add_relationship(type="SS", predecessor="Painting Level 2", successor="Painting Level 4", lag=5)`,
		"dispatch-building: accepted after 1 round(s)",
		`applied  delete_activity(name="Final fixtures Level 2")`,
		`-> reject with feedback "delete all drywall activities on the second floor"`,
		`Round 2 of dispatch-building:`,
		`applied  delete_activity(name="Drywall taping Level 2")`,
		"dispatch-building: accepted after 2 round(s)",
		`applied  add_activity(name="Excavation Level 1", duration="5")`,
		"dispatch-building: rejected after 1 round(s)",
		`applied  delete_activity(name="Setting-out survey")`,
		`the planner asks: "the pour" matches 9 activities`,
		`-> answer "Pour slab Level 3"`,
		`applied  delete_activity(name="Pour slab Level 3")`,
		"Project finish:",
		"of 143 activities critical",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q\n%s", want, out.String())
		}
	}
}

// cliMenu answers the interactive loop from a script.
func cliMenu(t *testing.T, db, frontend string) {
	t.Helper()
	script := strings.Join([]string{
		"1", "Menu check Level 3", "2", "Added from the menu", // add activity
		"3", "Pour slab Level 3", "Menu check Level 3", "fs", "1", // add relationship
		"5", "nonexistent", // dissolve: refused, the loop goes on
		"6", "delete activity Menu check Level 3", "a", // prompt, accepted
		"7", // schedule
		"8", // quit
	}, "\n") + "\n"
	var out, errOut strings.Builder
	code := run([]string{"menu", "-s", "building", "--temporal-address", frontend, "--db", db, "--neo4j-uri=", "--weaviate-url="},
		&cmdutil.IOStreams{In: strings.NewReader(script), Out: &out, ErrOut: &errOut})
	for _, want := range []string{
		`add_activity(name="Menu check Level 3", duration="2", description="Added from the menu")`,
		`add_relationship(type="FS", predecessor="Pour slab Level 3", successor="Menu check Level 3", lag=1)`,
		`delete_activity(name="Menu check Level 3")`,
		"dispatch-building: accepted after 1 round(s)",
		"Project duration:",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("menu output lacks %q", want)
		}
	}
	if code != 0 || !strings.Contains(errOut.String(), `error: no activity with id or name "nonexistent"`) {
		t.Errorf("menu: exit %d, stderr lacks the refused dissolve", code)
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	}
}

// cliQuestion answers the planner's question from its numbered pick list,
// then cancels a dispatch at its question with "c".
func cliQuestion(t *testing.T, db, frontend string) {
	t.Helper()
	cli := func(stdin string, args ...string) (int, string, string) {
		return cliAt(frontend, "--db", db, "--neo4j-uri=", "--weaviate-url=")(stdin, args...)
	}
	code, out, errOut := cli("3\nr\n", "prompt", "delete the pour", "--schedule", "building")
	third := regexp.MustCompile(`(?m)^\s+3\) (.+) \(\w+\)$`).FindStringSubmatch(out)
	if code != 0 || !strings.Contains(out, "Pick one") || third == nil || !strings.Contains(errOut, "Your answer (1-9, ") || !strings.Contains(errOut, "or c to cancel the dispatch): ") {
		t.Fatalf("the question's pick list: exit %d\n%s%s", code, out, errOut)
	}
	if want := `delete_activity(name="` + third[1] + `")`; !strings.Contains(out, want) || !strings.Contains(out, "dispatch-building: rejected") {
		t.Errorf("answering 3 should propose %s, then reject it:\n%s%s", want, out, errOut)
	}
	_, out, errOut = cli("c\n", "prompt", "delete the pour", "--schedule", "building")
	if !strings.Contains(out, "dispatch-building: cancelled") {
		t.Errorf("c at the question should cancel the dispatch:\n%s%s", out, errOut)
	}
}
