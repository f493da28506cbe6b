package workflows_test

import (
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// TestTaskGraphOnDevServer runs a multi-part prompt on the real server:
// three tasks in round 1, feedback naming task 2, accept. With
// RECORD_VERSIONED_HISTORY=1 it is saved as
// testdata/histories/dispatch_task_graph.json, which TestReplayHistories
// replays.
func TestTaskGraphOnDevServer(t *testing.T) {
	l := startLive(t)
	w := l.worker(scope.Rules{})
	defer w.Stop()
	const id = "task-graph"
	l.importBuilding(id)
	run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: taskPrompt, Author: "ann"})
	proposal := func(round int) workflows.Proposal {
		var p workflows.Proposal
		if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: round}, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got := taskStatuses(proposal(1).Tasks); got != "1:planned 2:planned 3:planned" {
		t.Fatalf("round 1 tasks = %s", got)
	}
	if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Feedback: "task 2: 3 days, not 2", Reviewer: "bob", Round: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if got := taskStatuses(proposal(2).Tasks); got != "1:kept 2:planned 3:planned" {
		t.Fatalf("round 2 tasks = %s", got)
	}
	if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob", Round: 2}, nil); err != nil {
		t.Fatal(err)
	}
	res := l.result(run)
	if res.Status != workflows.StatusAccepted || res.Rounds != 2 {
		t.Fatalf("result = %+v", res)
	}
	after, err := l.stores.Load(l.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range after.Activities {
		if len(a.Name) > 13 && a.Name[:13] == "Fire-stopping" {
			n++
			if a.Duration != "3" {
				t.Errorf("%s lasts %s, want 3", a.Name, a.Duration)
			}
		}
	}
	if n != 4 {
		t.Errorf("%d fire-stopping activities, want 4", n)
	}
	l.saveIfRecording("dispatch_task_graph", run)
}

// TestRememberOnDevServer: feedback that only sets a preference plans the
// prompt again with it. With RECORD_VERSIONED_HISTORY=1 it is saved as
// testdata/histories/dispatch_remember.json.
func TestRememberOnDevServer(t *testing.T) {
	l := startLive(t)
	w := l.worker(scope.Rules{})
	defer w.Stop()
	const id = "remember"
	l.importBuilding(id)
	run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: "add a 2 day scaffold inspection after drywall board level 2", Author: "ann"})
	var p workflows.Proposal
	if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 1}, &p); err != nil {
		t.Fatal(err)
	}
	if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Feedback: "remember: use FS+1 for new inspections", Reviewer: "bob", Round: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 2}, &p); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range p.Changes {
		found = found || strings.Contains(c.Call, `successor="Scaffold inspection", lag=1`)
	}
	if !found {
		t.Errorf("round 2 has no FS+1 link into the inspection: %+v", p.Changes)
	}
	if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob", Round: 2}, nil); err != nil {
		t.Fatal(err)
	}
	if res := l.result(run); res.Status != workflows.StatusAccepted {
		t.Fatalf("result = %+v", res)
	}
	l.saveIfRecording("dispatch_remember", run)
}
