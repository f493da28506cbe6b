package workflows_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	updatepb "go.temporal.io/api/update/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// TestReviewRoundsOnDevServer: reviews naming their round, the proposal
// query and a progress watch on a real server, as the review web app uses
// them: two people on one proposal, a verdict on a superseded round, a
// page load and a watcher.
//
// With RECORD_VERSIONED_HISTORY=1 the superseded-round dispatch is saved
// as testdata/histories/dispatch_round_review.json, which the replay test
// replays (round-tagged reviews, a refused review signal, a watch).
func TestReviewRoundsOnDevServer(t *testing.T) {
	l := startLive(t)
	w := l.worker(scope.Rules{})
	defer func() { w.Stop() }()
	const survey = "delete activity Setting-out survey"

	t.Run("superseded_round", func(t *testing.T) {
		l.t = t
		const id = "rounds-superseded"
		l.importBuilding(id)
		run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: "delete activity Site hoarding", Author: "ann"})
		var p workflows.Proposal
		if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 1}, &p); err != nil {
			t.Fatal(err)
		}
		if p.Stage != workflows.StageAwaitingReview || p.Round != 1 || len(p.Changes) == 0 {
			t.Fatalf("proposal = %+v", p)
		}
		// A page load: the query answers with the same proposal.
		if q := l.proposalQuery(run); q.Stage != workflows.StageAwaitingReview || q.Round != 1 || len(q.Changes) != len(p.Changes) || q.Changes[0].Call != p.Changes[0].Call {
			t.Errorf("proposal query = %+v, the Update returned %+v", q, p)
		}
		// A watcher on the page of round 1, awaiting review.
		watch, err := l.c.UpdateWorkflow(l.ctx, client.UpdateWorkflowOptions{
			WorkflowID: run.GetID(), RunID: run.GetRunID(), UpdateName: workflows.ProposalUpdate,
			WaitForStage: client.WorkflowUpdateStageAccepted,
			Args:         []any{workflows.ProposalRequest{Stage: workflows.StageAwaitingReview, Round: 1}},
		})
		if err != nil {
			t.Fatal(err)
		}

		err = l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob", Round: 2}, nil)
		if err == nil || !strings.Contains(err.Error(), "round 2 has not been proposed (stage awaiting_review); the dispatch is on round 1") {
			t.Errorf("a review of round 2 while round 1 awaits: %v", err)
		}
		if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Feedback: survey, Reviewer: "alice", Round: 1}, nil); err != nil {
			t.Fatal(err)
		}
		var seen workflows.Proposal
		if err := watch.Get(l.ctx, &seen); err != nil {
			t.Fatalf("watch: %v", err)
		}
		if seen.Stage != workflows.StageCompensating || seen.Round != 1 {
			t.Errorf("the watch returned stage %q round %d, want compensating round 1", seen.Stage, seen.Round)
		}
		err = l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob", Round: 1}, nil)
		if err == nil || !strings.Contains(err.Error(), "round 1 was already decided: rejected with feedback by alice") {
			t.Errorf("bob's review of round 1 after alice's: %v", err)
		}

		if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 2}, &p); err != nil {
			t.Fatal(err)
		}
		if p.Stage != workflows.StageAwaitingReview || p.Round != 2 {
			t.Fatalf("round 2 proposal = %+v", p)
		}
		alice := workflows.Decision{Round: 1, Decision: workflows.DecisionReject, Feedback: survey, Reviewer: "alice"}
		if st := l.status(run); !st.AwaitingReview || st.Round != 2 || !slices.Equal(st.Decisions, []workflows.Decision{alice}) {
			t.Errorf("status in round 2 = %+v", st)
		}
		// The signal follows the same rules: a verdict on round 1 is
		// ignored, so carol's on round 2 is the one taken.
		if err := l.c.SignalWorkflow(l.ctx, run.GetID(), run.GetRunID(), workflows.ReviewSignal,
			workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob", Round: 1}); err != nil {
			t.Fatal(err)
		}
		if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "carol", Round: 2}, nil); err != nil {
			t.Fatalf("carol's review of round 2: %v", err)
		}
		res := l.result(run)
		want := []workflows.Decision{alice, {Round: 2, Decision: workflows.DecisionAccept, Reviewer: "carol"}}
		if res.Status != workflows.StatusAccepted || res.Rounds != 2 || res.Reviewer != "carol" || !slices.Equal(res.Decisions, want) {
			t.Fatalf("result = %+v", res)
		}
		l.saveIfRecording("dispatch_round_review", run)
	})

	// Two people accept and reject round 1 at once: the review the server
	// admitted first is taken, the other refused naming who decided. The
	// worker is stopped while both are sent, so their order is the order
	// the server admitted them in, not the order they reached the worker.
	t.Run("two_reviewers", func(t *testing.T) {
		l.t = t
		const id = "rounds-two-reviewers"
		l.importBuilding(id)
		run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: "delete activity Site hoarding", Author: "ann"})
		if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 1}, &workflows.Proposal{}); err != nil {
			t.Fatal(err)
		}
		w.Stop()
		send := func(updateID string, r workflows.Review) chan error {
			done := make(chan error, 1)
			go func() {
				h, err := l.c.UpdateWorkflow(l.ctx, client.UpdateWorkflowOptions{
					UpdateID: updateID, WorkflowID: run.GetID(), RunID: run.GetRunID(), UpdateName: workflows.ReviewUpdate,
					WaitForStage: client.WorkflowUpdateStageCompleted, Args: []any{r},
				})
				if err == nil {
					err = h.Get(l.ctx, nil)
				}
				done <- err
			}()
			return done
		}
		bob := send("bob-review", workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob", Round: 1})
		// Only once the server has admitted Bob's review (it answers a poll
		// for the update's admitted stage, where before it says not found)
		// is Alice's sent, so the order does not hang on how busy the
		// machine is or on another pending workflow task.
		deadline := time.Now().Add(30 * time.Second)
		for {
			_, err := l.c.WorkflowService().PollWorkflowExecutionUpdate(l.ctx, &workflowservice.PollWorkflowExecutionUpdateRequest{
				Namespace: "default",
				UpdateRef: &updatepb.UpdateRef{
					WorkflowExecution: &commonpb.WorkflowExecution{WorkflowId: run.GetID(), RunId: run.GetRunID()},
					UpdateId:          "bob-review",
				},
				WaitPolicy: &updatepb.WaitPolicy{LifecycleStage: enumspb.UPDATE_WORKFLOW_EXECUTION_LIFECYCLE_STAGE_ADMITTED},
			})
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("bob's review was not admitted within 30 s: %v", err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		alice := send("alice-review", workflows.Review{Decision: workflows.DecisionReject, Feedback: "keep the hoarding", Reviewer: "alice", Round: 1})
		time.Sleep(2 * time.Second)
		w = l.worker(scope.Rules{})
		if err := <-bob; err != nil {
			t.Fatalf("bob's review: %v", err)
		}
		if err := <-alice; err == nil || !strings.Contains(err.Error(), "round 1 was already decided: accepted by bob") {
			t.Errorf("alice's review: %v", err)
		}
		res := l.result(run)
		if res.Status != workflows.StatusAccepted || res.Reviewer != "bob" ||
			!slices.Equal(res.Decisions, []workflows.Decision{{Round: 1, Decision: workflows.DecisionAccept, Reviewer: "bob"}}) {
			t.Fatalf("result = %+v", res)
		}
	})
}

func (l *live) proposalQuery(run client.WorkflowRun) workflows.Proposal {
	l.t.Helper()
	v, err := l.c.QueryWorkflow(l.ctx, run.GetID(), run.GetRunID(), workflows.ProposalQuery)
	if err != nil {
		l.t.Fatal(err)
	}
	var p workflows.Proposal
	if err := v.Get(&p); err != nil {
		l.t.Fatal(err)
	}
	return p
}

func (l *live) status(run client.WorkflowRun) workflows.Status {
	l.t.Helper()
	v, err := l.c.QueryWorkflow(l.ctx, run.GetID(), run.GetRunID(), workflows.StatusQuery)
	if err != nil {
		l.t.Fatal(err)
	}
	var st workflows.Status
	if err := v.Get(&st); err != nil {
		l.t.Fatal(err)
	}
	return st
}
