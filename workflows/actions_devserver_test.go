package workflows_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// TestReviewActionsOnDevServer: redo, back and cancel on a real server, as
// the CLI, the menu and the review page send them.
//
// With RECORD_VERSIONED_HISTORY=1 the redo-reject-back-accept dispatch is
// saved as testdata/histories/dispatch_review_actions.json, which the
// replay test replays (the "review-actions" version).
func TestReviewActionsOnDevServer(t *testing.T) {
	l := startLive(t)
	w := l.worker(scope.Rules{})
	defer w.Stop()

	t.Run("redo_back_accept", func(t *testing.T) {
		l.t = t
		const id = "actions-redo-back"
		l.importBuilding(id)
		run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: "delete activity Site hoarding", Author: "ann"})
		proposal := func(round int) workflows.Proposal {
			var p workflows.Proposal
			if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: round}, &p); err != nil {
				t.Fatal(err)
			}
			if p.Stage != workflows.StageAwaitingReview || p.Round != round {
				t.Fatalf("proposal = %+v, want round %d awaiting review", p, round)
			}
			return p
		}
		review := func(decision string, round int, feedback string) {
			if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: decision, Feedback: feedback, Reviewer: "bob", Round: round}, nil); err != nil {
				t.Fatalf("%s of round %d: %v", decision, round, err)
			}
		}
		p1 := proposal(1)
		err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionBack, Reviewer: "bob", Round: 1}, nil)
		if err == nil || !strings.Contains(err.Error(), "back: round 1 has no previous round to go back to") {
			t.Errorf("back on round 1: %v", err)
		}
		review(workflows.DecisionRedo, 1, "")
		p2 := proposal(2)
		review(workflows.DecisionReject, 2, "delete activity Setting-out survey")
		proposal(3)
		review(workflows.DecisionBack, 3, "")
		p4 := proposal(4)
		calls := func(p workflows.Proposal) []string {
			var out []string
			for _, c := range p.Changes {
				out = append(out, c.Call)
			}
			return out
		}
		if !slices.Equal(calls(p1), calls(p2)) || !slices.Equal(calls(p2), calls(p4)) {
			t.Errorf("calls: round 1 %v, round 2 %v, round 4 %v: want the same", calls(p1), calls(p2), calls(p4))
		}
		review(workflows.DecisionAccept, 4, "")
		res := l.result(run)
		var got []string
		for _, d := range res.Decisions {
			got = append(got, d.Summary())
		}
		want := []string{"redone by bob", "rejected with feedback by bob", "taken back to round 2 by bob", "accepted by bob"}
		if res.Status != workflows.StatusAccepted || res.Rounds != 4 || !slices.Equal(got, want) {
			t.Fatalf("result = %+v, decisions %v", res, got)
		}
		l.saveIfRecording("dispatch_review_actions", run)
	})

	t.Run("cancel", func(t *testing.T) {
		l.t = t
		const id = "actions-cancel"
		l.importBuilding(id)
		before := l.dump(id)
		run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: "delete activity Site hoarding", Author: "ann"})
		if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 1}, &workflows.Proposal{}); err != nil {
			t.Fatal(err)
		}
		if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionCancel, Reviewer: "bob", Round: 1}, nil); err != nil {
			t.Fatal(err)
		}
		res := l.result(run)
		if res.Status != workflows.StatusCancelled || res.Reviewer != "bob" || len(res.Decisions) != 1 || res.Decisions[0].Summary() != "cancelled by bob" {
			t.Fatalf("result = %+v", res)
		}
		if l.dump(id) != before {
			t.Error("the stores changed")
		}
	})
}
