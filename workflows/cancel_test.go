package workflows_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// askPrompt applies a removal, then asks which pour the addition follows.
const askPrompt = `delete activity Site hoarding; add activity "Crane check" 1 day after the pour`

// cancel sends a cancel review by who (as workflows.Cancel does).
func (f *fixture) cancel(who string) func() error {
	return f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionCancel, Reviewer: who}, nil)
}

// checkCancelled checks a dispatch cancelled by who at stage: ended
// cancelled, every change compensated, the stores as before, the cancel
// logged as the round's decision and the reason saying who and where.
func (f *fixture) checkCancelled(res *workflows.DispatchResult, before, who, stage string, changes int) {
	f.t.Helper()
	if res.Status != workflows.StatusCancelled || res.Error != "" {
		f.t.Fatalf("result = %+v", res)
	}
	if got := statuses(res.Changes); len(got) != changes || slices.ContainsFunc(got, func(s string) bool { return s != workflows.ChangeCompensated }) {
		f.t.Errorf("statuses = %v, want %d compensated", got, changes)
	}
	if f.dump() != before {
		f.t.Error("the stores were not restored after the cancel")
	}
	if want := "cancelled by " + who + " while " + stage; !strings.HasPrefix(res.Reason, want) {
		f.t.Errorf("reason = %q, want %q…", res.Reason, want)
	}
	if n := len(res.Decisions); n == 0 || res.Decisions[n-1].Decision != workflows.DecisionCancel || res.Decisions[n-1].Reviewer != who {
		f.t.Errorf("decisions = %+v, want the cancel by %s last", res.Decisions, who)
	}
	if res.Reviewer != who {
		f.t.Errorf("reviewer = %q, want %q", res.Reviewer, who)
	}
}

// TestCancelWhileAwaitingAnswer: a dispatch whose planner asked a question
// is cancelled by a cancel review (issue 26, item 14): what the round
// applied before the question is compensated and it ends cancelled. A
// reject is refused, pointing to the answer or the cancel; an answer
// after the cancel is refused.
func TestCancelWhileAwaitingAnswer(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	var rejected, cancelled, late func() error
	var st workflows.Status
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); !st.AwaitingClarification || st.Stage != workflows.StageAwaitingClarification {
			t.Errorf("status before the cancel = %+v", st)
		}
		rejected = f.review(workflows.DecisionReject, "")
		cancelled = f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionCancel, Reviewer: "carol"}, &st)
		late = f.update(workflows.ClarifyUpdate, workflows.Clarification{Answer: "Pour slab Level 2", Author: "pm"}, nil)
	}, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: askPrompt})
	f.checkCancelled(res, before, "carol", "awaiting clarification", 1)
	if err := rejected(); err == nil || !strings.Contains(err.Error(), "no review is awaited") || !strings.Contains(err.Error(), "answer it, or cancel the dispatch") {
		t.Errorf("a reject while a question is open: %v", err)
	}
	if err := cancelled(); err != nil {
		t.Fatalf("the cancel was refused: %v", err)
	}
	if !st.Cancelling {
		t.Errorf("status the cancel returned = %+v, want cancelling", st)
	}
	if err := late(); err == nil || !strings.Contains(err.Error(), "being cancelled") {
		t.Errorf("an answer after the cancel: %v", err)
	}
}

// TestCancelBySignalWhileAwaitingAnswer: the review signal cancels too.
func TestCancelBySignalWhileAwaitingAnswer(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.RegisterDelayedCallback(func() {
		f.env.SignalWorkflow(workflows.ReviewSignal, workflows.Review{Decision: workflows.DecisionCancel, Reviewer: "dan"})
	}, time.Hour)
	f.checkCancelled(f.run(workflows.DispatchInput{Prompt: askPrompt}), before, "dan", "awaiting clarification", 1)
}

// TestCancelWhilePlanning: a cancel while a planning step runs (after the
// round's removals were applied) stops it and compensates.
func TestCancelWhilePlanning(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.OnActivity(f.acts.PlanAdditions, mockAny, mockAny).After(2 * time.Hour).Return(
		func(ctx context.Context, req activities.PlanRequest) (scope.Plan, error) {
			return f.acts.PlanAdditions(ctx, req)
		})
	var cancelled func() error
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); st.Stage != workflows.StagePlanningAdditions {
			t.Errorf("stage at the cancel = %s, want planning_additions", st.Stage)
		}
		cancelled = f.cancel("carol")
	}, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt})
	f.checkCancelled(res, before, "carol", "planning additions", 1)
	if err := cancelled(); err != nil {
		t.Error(err)
	}
}

// TestCancelWhileApplying: a write under way lands (its inverses must be
// known), then the round is compensated.
func TestCancelWhileApplying(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.OnActivity(f.acts.ApplyOps, mockAny, mockAny).After(time.Hour).Return(
		func(ctx context.Context, in activities.ApplyInput) (activities.ApplyResult, error) {
			return f.acts.ApplyOps(ctx, in)
		})
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); st.Stage != workflows.StageApplyingRemovals {
			t.Errorf("stage at the cancel = %s, want applying_removals", st.Stage)
		}
		f.cancel("carol")
	}, 30*time.Minute)
	f.checkCancelled(f.run(workflows.DispatchInput{Prompt: acceptPrompt}), before, "carol", "applying removals", 1)
}

// TestCancelWhileTheNextRoundPlans: after a reject with feedback, the
// cancel stops the next round; both decisions are logged.
func TestCancelWhileTheNextRoundPlans(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	// Planning takes an hour a step: round 1 awaits review at 1h, round 2
	// plans its removals from 90m to 150m.
	f.env.OnActivity(f.acts.PlanRemovals, mockAny, mockAny).After(time.Hour).Return(
		func(ctx context.Context, req activities.PlanRequest) (scope.Plan, error) {
			return f.acts.PlanRemovals(ctx, req)
		})
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionReject, "delete activity Mobilisation") }, 90*time.Minute)
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); st.Stage != workflows.StagePlanningRemovals || st.Round != 2 {
			t.Errorf("status at the cancel = %+v", st)
		}
		f.cancel("carol")
	}, 2*time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding"})
	f.checkCancelled(res, before, "carol", "planning removals", 1)
	if len(res.Decisions) != 2 || res.Decisions[0].Decision != workflows.DecisionReject || res.Rounds != 2 {
		t.Errorf("decisions = %+v, rounds %d", res.Decisions, res.Rounds)
	}
}

// TestCancelAtReviewIsTheReview: at review, a cancel is the round's
// review, as before cancel at any stage.
func TestCancelAtReviewIsTheReview(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.RegisterDelayedCallback(func() { f.cancel("carol") }, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt})
	if res.Status != workflows.StatusCancelled || res.Reason != "cancelled at review of round 1 by carol" || f.dump() != before {
		t.Fatalf("result = %+v", res)
	}
}

// TestCancelRefused: a cancel is refused once the round was accepted and
// is being committed, and a second cancel while the first compensates.
func TestCancelRefused(t *testing.T) {
	f := newFixture(t)
	f.env.OnActivity(f.acts.Commit, mockAny, mockAny).After(time.Hour).Return(
		func(ctx context.Context, in activities.CommitInput) error { return f.acts.Commit(ctx, in) })
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionAccept, "") }, time.Hour)
	var committing func() error
	f.env.RegisterDelayedCallback(func() { committing = f.cancel("carol") }, 90*time.Minute)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt})
	if res.Status != workflows.StatusAccepted {
		t.Fatalf("result = %+v", res)
	}
	if err := committing(); err == nil || !strings.Contains(err.Error(), "round 1 was already decided: accepted by pm") {
		t.Errorf("a cancel while committing: %v", err)
	}

	g := newFixture(t)
	g.env.OnActivity(g.acts.Compensate, mockAny, mockAny).After(time.Hour).Return(
		func(ctx context.Context, in activities.CompensateInput) (activities.ApplyResult, error) {
			return g.acts.Compensate(ctx, in)
		})
	var second func() error
	g.env.RegisterDelayedCallback(func() { g.cancel("carol") }, time.Hour)
	g.env.RegisterDelayedCallback(func() { second = g.cancel("dan") }, 90*time.Minute)
	if res := g.run(workflows.DispatchInput{Prompt: askPrompt}); res.Status != workflows.StatusCancelled || !strings.HasPrefix(res.Reason, "cancelled by carol") {
		t.Fatalf("result = %+v", res)
	}
	if err := second(); err == nil || !strings.Contains(err.Error(), "the dispatch is being cancelled: cancelled by carol") {
		t.Errorf("a second cancel: %v", err)
	}
}

// TestCancelBeforeTheVersion: a run from before cancel at any stage
// refuses a cancel outside review with ErrTypeCancelAtReviewOnly (the
// caller then cancels the workflow), and Temporal's cancellation ends it
// cancelled with the round compensated.
func TestCancelBeforeTheVersion(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.OnGetVersion("cancel-any-stage", workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	var refused func() error
	f.env.RegisterDelayedCallback(func() {
		refused = f.cancel("carol")
		f.env.CancelWorkflow()
	}, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: askPrompt})
	if res.Status != workflows.StatusCancelled || !slices.Equal(statuses(res.Changes), []string{workflows.ChangeCompensated}) || f.dump() != before {
		t.Fatalf("result = %+v", res)
	}
	var app *temporal.ApplicationError
	if err := refused(); !errors.As(err, &app) || app.Type() != workflows.ErrTypeCancelAtReviewOnly {
		t.Errorf("a cancel outside review in an old run: %v, want %s", err, workflows.ErrTypeCancelAtReviewOnly)
	}
}

// TestCancelRefusedWhileEnding: a round that timed out is being
// compensated to end timed out; a cancel then is refused rather than
// taken and ignored.
func TestCancelRefusedWhileEnding(t *testing.T) {
	f := newFixture(t)
	f.env.OnActivity(f.acts.Compensate, mockAny, mockAny).After(time.Hour).Return(
		func(ctx context.Context, in activities.CompensateInput) (activities.ApplyResult, error) {
			return f.acts.Compensate(ctx, in)
		})
	var late func() error
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); st.Stage != workflows.StageCompensating {
			t.Errorf("stage = %s, want compensating", st.Stage)
		}
		late = f.cancel("carol")
	}, 90*time.Minute)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt, ReviewTimeout: time.Hour})
	if res.Status != workflows.StatusTimedOut {
		t.Fatalf("result = %+v", res)
	}
	if err := late(); err == nil || !strings.Contains(err.Error(), "the dispatch is ending already") {
		t.Errorf("a cancel while a timed-out round is compensated: %v", err)
	}
}
