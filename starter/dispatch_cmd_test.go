package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// The dispatch commands against a real dev server: validation before a
// dispatch starts, outcomes and exit statuses, who did what, and `dispatch
// show` on closed dispatches, described from their history (issue 12,
// items 8, 13 and 14).
func TestDispatchCommandsOnARealServer(t *testing.T) {
	db, dev := devOnEmbedded(t, "../examples/building.json", "building")
	cli := cliAt(dev.frontend, "--db", db, "--neo4j-uri=", "--weaviate-url=")
	listed := func() []workflows.Summary {
		t.Helper()
		code, out, errOut := cli("", "dispatch", "list", "--json")
		var list struct{ Dispatches []workflows.Summary }
		if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil {
			t.Fatalf("dispatch list --json: exit %d %v %s", code, err, errOut)
		}
		return list.Dispatches
	}

	// Refused before anything starts.
	if code, out, errOut := cli("", "prompt", "delete activity Handover", "-s", "nosuch"); code != exitError || out != "" || !strings.Contains(errOut, `schedule not found: "nosuch"`) || strings.Contains(errOut, "workflow") {
		t.Errorf("unknown schedule: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := cli("", "prompt", "", "-s", "building"); code != exitUsage || !strings.Contains(errOut, "the prompt is empty") {
		t.Errorf("empty prompt: exit %d, %s", code, errOut)
	}
	if got := listed(); len(got) != 0 {
		t.Fatalf("refused prompts started dispatches: %+v", got)
	}

	// Rejected at the interactive review, after one bad answer.
	code, out, errOut := cli("maybe\nr\n", "prompt", "delete activity Handover", "-s", "building", "--as", "alice")
	if code != exitOK || !strings.HasSuffix(out, "dispatch-building: rejected after 1 round(s)\n") || !strings.Contains(errOut, `"maybe" is not an answer`) {
		t.Fatalf("prompt, rejected: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = cli("", "dispatch", "show", "dispatch-building")
	for _, want := range []string{": rejected after 1 round(s)", "author: alice", `prompt: "delete activity Handover"`, "review: reject by alice", `compensated  delete_activity(name="Handover")`} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("dispatch show of a closed dispatch lacks %q: exit %d\n%s%s", want, code, out, errOut)
		}
	}

	// Timed out: nobody reviewed within --review-timeout.
	if code, out, errOut := cli("", "prompt", "delete activity Handover", "-s", "building", "--no-wait", "--review-timeout", "2s", "--as", "bob"); code != exitOK || !strings.HasPrefix(out, "started dispatch-building") {
		t.Fatalf("prompt --no-wait: exit %d %s%s", code, out, errOut)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		if got := listed(); len(got) == 2 && !got[0].Open {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the dispatch never timed out")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if code, _, errOut := cli("", "review", "dispatch-building", "accept"); code != exitError || !strings.Contains(errOut, "review of dispatch-building refused") {
		t.Errorf("review after the timeout: exit %d %s", code, errOut)
	}
	code, out, _ = cli("", "dispatch", "show", "dispatch-building", "--json")
	var d workflows.Detail
	if err := json.Unmarshal([]byte(out), &d); code != exitOK || err != nil || d.Outcome != "timed_out" || d.Author != "bob" || d.Result == nil || len(d.Reviews) != 0 {
		t.Errorf("dispatch show --json of the timed-out dispatch: exit %d %v\n%s", code, err, out)
	}
	got := listed()
	if got[0].Outcome != "timed_out" || got[0].Author != "bob" || got[1].Outcome != "rejected" || got[1].Author != "alice" {
		t.Errorf("dispatch list: %+v", got)
	}
	code, out, _ = cli("", "dispatch", "list")
	if code != exitOK || !strings.Contains(out, "timed_out") || !strings.Contains(out, "rejected") || strings.Contains(out, "completed") {
		t.Errorf("dispatch list:\n%s", out)
	}
	if err := dev.stop(); err != nil {
		t.Fatal(err)
	}
}
