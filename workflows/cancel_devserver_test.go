package workflows_test

import (
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// TestCancelOnDevServer: a dispatch whose planner asked a question is
// cancelled by a cancel review on a real server ("cancel-any-stage"):
// the removal applied before the question is compensated, and it ends
// cancelled by who sent it.
//
// With RECORD_VERSIONED_HISTORY=1 it is saved as
// testdata/histories/dispatch_cancel_awaiting_answer.json, which the
// replay test replays.
func TestCancelOnDevServer(t *testing.T) {
	l := startLive(t)
	w := l.worker(scope.Rules{})
	defer w.Stop()
	const id = "cancel-asking"
	l.importBuilding(id)
	before := l.dump(id)
	run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: askPrompt, Author: "ann"})
	var p workflows.Proposal
	if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 1}, &p); err != nil {
		t.Fatal(err)
	}
	if !p.AwaitingClarification || len(p.Changes) != 1 {
		t.Fatalf("proposal = %+v, want a question after one removal", p)
	}
	err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Reviewer: "bob"}, nil)
	if err == nil || !strings.Contains(err.Error(), "answer it, or cancel the dispatch") {
		t.Errorf("a reject while asking: %v", err)
	}
	if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionCancel, Reviewer: "bob"}, nil); err != nil {
		t.Fatalf("the cancel was refused: %v", err)
	}
	res := l.result(run)
	if res.Status != workflows.StatusCancelled || res.Reviewer != "bob" || res.Reason != "cancelled by bob while awaiting clarification (round 1)" ||
		len(res.Decisions) != 1 || res.Decisions[0].Summary() != "cancelled by bob" {
		t.Fatalf("result = %+v", res)
	}
	if len(res.Changes) != 1 || res.Changes[0].Status != workflows.ChangeCompensated {
		t.Errorf("changes = %+v", res.Changes)
	}
	if l.dump(id) != before {
		t.Error("the stores changed")
	}
	l.saveIfRecording("dispatch_cancel_awaiting_answer", run)
}
