package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// The portfolio commands against a real dev server on an embedded store:
// stored lists, flag checks, the sync review screen (one schedule locked
// by an open dispatch: continue_on_error reviews the others), and async
// with a review through the portfolio.
func TestPortfolioCommandsOnARealServer(t *testing.T) {
	db, dev := devOnEmbedded(t, "testdata/two.json", "pa", "pb", "pc")
	cli := cliAt(dev.frontend, "--db", db, "--neo4j-uri=", "--weaviate-url=")
	activities := func(id string) int {
		t.Helper()
		code, out, errOut := cli("", "schedule", "--schedule", id, "--format", "json")
		var rep struct{ Activities []any }
		if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
			t.Fatalf("schedule %s: %v %s", id, err, errOut)
		}
		return len(rep.Activities)
	}
	const prompt = "delete activity Excavate Level 1"

	// Stored lists.
	if code, out, errOut := cli("", "portfolio", "set", "towers", "pa,pb", "pc"); code != 0 || out != "portfolio towers: pa,pb,pc\n" {
		t.Fatalf("portfolio set: %d %q %s", code, out, errOut)
	}
	if code, _, errOut := cli("", "portfolio", "set", "bad", "pa,nosuch"); code != exitError || !strings.Contains(errOut, "nosuch") {
		t.Errorf("portfolio set with an unknown schedule: %d %s", code, errOut)
	}
	if code, out, _ := cli("", "portfolio", "show", "--json"); code != 0 || out != `{"portfolios":[{"name":"towers","schedules":["pa","pb","pc"]}]}`+"\n" {
		t.Errorf("portfolio show --json: %d %s", code, out)
	}

	// Flags refused before anything starts.
	for _, args := range [][]string{
		{"--schedule", "pa", "--schedules", "pb"},
		{"--schedule", "pa", "--mode", "async"},
		{"--schedules", "pa", "--on-error", "ignore"},
		{"--schedules", "pa,pa"},
		{"--schedules", "pa", "--retries", "2"},
	} {
		if code, _, errOut := cli("", append([]string{"prompt", prompt}, args...)...); code != exitUsage {
			t.Errorf("prompt %v: exit %d, %s", args, code, errOut)
		}
	}

	// pc has an open dispatch: its child cannot start (the lock).
	if code, out, errOut := cli("", "prompt", prompt, "--schedule", "pc", "--no-wait"); code != 0 {
		t.Fatalf("prompt pc: %s%s", out, errOut)
	}
	waitAwaiting(t, func(args ...string) (int, string, string) { return cli("", args...) }, "dispatch-pc")

	// Sync: one screen; per schedule: accept pa, reject pb.
	code, out, errOut := cli("p\na\nr\n", "prompt", prompt, "--portfolio", "towers", "--on-error", "continue_on_error", "--as", "pm")
	t.Logf("sync portfolio:\n%s\nstderr:\n%s", out, errOut)
	for _, want := range []string{
		`pc: failed: schedule "pc" already has an open dispatch: dispatch-pc`,
		"== pa ==", "Round 1 of dispatch-pa:", "== pb ==",
		"portfolio-towers-", ": partial\n", "dispatch-pa  accepted", "dispatch-pb  rejected", "dispatch-pc  failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sync portfolio output lacks %q:\n%s", want, out)
		}
	}
	if code != exitError || !strings.Contains(errOut, "partial") || !strings.Contains(errOut, "Accept all, Reject all") {
		t.Errorf("sync portfolio: exit %d, stderr %s", code, errOut)
	}
	if n := activities("pa"); n != 1 {
		t.Errorf("pa holds %d activities after its accept, want 1", n)
	}
	if n := activities("pb"); n != 2 {
		t.Errorf("pb holds %d activities after its reject, want 2", n)
	}
	// Sync, fail_fast: pc's lock fails the portfolio; pb is cancelled and
	// compensated.
	code, out, errOut = cli("", "prompt", prompt, "--schedules", "pb,pc")
	for _, want := range []string{": failed\n", "dispatch-pb  cancelled", "dispatch-pc  failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("fail_fast portfolio output lacks %q:\n%s", want, out)
		}
	}
	if code != exitError || !strings.Contains(errOut, `schedule "pc" failed: schedule "pc" already has an open dispatch`) {
		t.Errorf("fail_fast portfolio: exit %d, stderr %s", code, errOut)
	}
	if n := activities("pb"); n != 2 {
		t.Errorf("pb holds %d activities after fail_fast, want 2", n)
	}
	if code, out, errOut := cli("", "review", "dispatch-pc", "reject"); code != 0 {
		t.Fatalf("review dispatch-pc: %s%s", out, errOut)
	}
	if n := activities("pc"); n != 2 {
		t.Errorf("pc holds %d activities, want 2", n)
	}

	// Async: the dispatches at once, then the portfolio's status and
	// review (fail_fast: pc's accept is held until pb is decided).
	code, out, errOut = cli("", "prompt", prompt, "--schedules", "pb,pc", "--mode", "async", "--json")
	var started struct {
		Portfolio  string
		Dispatches []struct{ Schedule, Dispatch string }
	}
	if err := json.Unmarshal([]byte(out), &started); code != 0 || err != nil || len(started.Dispatches) != 2 || started.Dispatches[1].Dispatch != "dispatch-pc" {
		t.Fatalf("async: %d %v %s%s", code, err, out, errOut)
	}
	status := func() workflows.PortfolioStatus {
		t.Helper()
		code, out, errOut := cli("", "portfolio", "status", started.Portfolio, "--json")
		var st workflows.PortfolioStatus
		if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
			t.Fatalf("portfolio status: %v %s", err, errOut)
		}
		return st
	}
	deadline := time.Now().Add(time.Minute)
	for st := status(); !st.Ready(); st = status() {
		if time.Now().After(deadline) {
			t.Fatalf("the portfolio's children never awaited review: %+v", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code, out, errOut := cli("", "portfolio", "review", started.Portfolio, "accept", "--schedule", "pc"); code != 0 || !strings.Contains(out, "accepted (held)") {
		t.Fatalf("portfolio review accept pc: %d %s%s", code, out, errOut)
	}
	if code, out, errOut := cli("", "portfolio", "review", started.Portfolio, "accept", "--schedule", "pc"); code != exitError || !strings.Contains(errOut, "accepted already") {
		t.Errorf("a second accept of pc: %d %s%s", code, out, errOut)
	}
	if code, out, errOut := cli("", "portfolio", "review", started.Portfolio, "reject"); code != 0 {
		t.Fatalf("portfolio review reject: %s%s", out, errOut)
	}
	deadline = time.Now().Add(time.Minute)
	for st := status(); st.Stage != workflows.PortfolioDone; st = status() {
		if time.Now().After(deadline) {
			t.Fatalf("the portfolio never ended: %+v", st)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st := status(); st.Result != workflows.PortfolioCompleted || st.Children[0].Result != "rejected" || st.Children[1].Result != "accepted" {
		t.Errorf("async portfolio: %+v", st)
	}
	if activities("pb") != 2 || activities("pc") != 1 {
		t.Errorf("after the async portfolio: pb %d, pc %d activities", activities("pb"), activities("pc"))
	}
	if code, out, errOut := cli("", "verify", "--schedule", "pc"); code != 0 {
		t.Errorf("verify pc: %s%s", out, errOut)
	}
	if err := dev.stop(); err != nil {
		t.Fatal(err)
	}
}
