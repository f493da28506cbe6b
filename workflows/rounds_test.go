package workflows_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

func TestDecisionSummary(t *testing.T) {
	for _, tc := range []struct {
		d    workflows.Decision
		want string
	}{
		{workflows.Decision{Round: 1, Decision: workflows.DecisionAccept, Reviewer: "bob"}, "accepted by bob"},
		{workflows.Decision{Round: 1, Decision: workflows.DecisionAccept, Feedback: "nice", Reviewer: "bob"}, "accepted by bob"},
		{workflows.Decision{Round: 2, Decision: workflows.DecisionReject, Reviewer: "carol"}, "rejected by carol"},
		{workflows.Decision{Round: 3, Decision: workflows.DecisionReject, Feedback: "not floor 3", Reviewer: "alice"}, "rejected with feedback by alice"},
		{workflows.Decision{Round: 1, Decision: workflows.DecisionRedo, Reviewer: "bob"}, "redone by bob"},
		{workflows.Decision{Round: 2, Decision: workflows.DecisionBack, Reviewer: "bob"}, "taken back to round 1 by bob"},
		{workflows.Decision{Round: 4, Decision: workflows.DecisionCancel, Reviewer: "bob"}, "cancelled by bob"},
	} {
		if got := tc.d.Summary(); got != tc.want {
			t.Errorf("%+v.Summary() = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// reviewStep sends a review at a moment of workflow time, by Update or
// signal; an Update is refused with a message holding refused, or taken
// when refused is "". decided is how many decisions the status query
// holds just before (sent at the same moment as the step before it, a
// step sees the status before that step's review).
type reviewStep struct {
	at      time.Duration
	signal  bool
	review  workflows.Review
	refused string
	decided int
}

// TestReviewRounds: a review names the round its reviewer saw; one for any
// other round than the awaiting one is refused (the signal ignored), and
// a round decided once is not decided again — the refusal names who
// decided it. Every round's decision reaches the status and the result.
func TestReviewRounds(t *testing.T) {
	const survey = "delete activity Setting-out survey"
	accept := func(round int, who string) workflows.Review {
		return workflows.Review{Decision: workflows.DecisionAccept, Round: round, Reviewer: who}
	}
	reject := func(round int, who, feedback string) workflows.Review {
		return workflows.Review{Decision: workflows.DecisionReject, Round: round, Reviewer: who, Feedback: feedback}
	}
	for _, tc := range []struct {
		name      string
		continued *workflows.DispatchState
		steps     []reviewStep
		status    string
		rounds    int
		decisions []workflows.Decision
	}{
		{
			name: "two_reviewers_one_round",
			steps: []reviewStep{
				{at: time.Hour, review: accept(1, "bob")},
				{at: time.Hour, review: reject(1, "alice", "keep the hoarding"), refused: "round 1 was already decided: accepted by bob"},
				// A client that does not say the round (the CLI, an old tab).
				{at: time.Hour, review: accept(0, "carol"), refused: "round 1 was already decided: accepted by bob"},
			},
			status: workflows.StatusAccepted, rounds: 1,
			decisions: []workflows.Decision{{Round: 1, Decision: workflows.DecisionAccept, Reviewer: "bob"}},
		},
		{
			name: "a_round_not_proposed",
			steps: []reviewStep{
				{at: time.Hour, review: accept(2, "bob"), refused: "round 2 has not been proposed (stage awaiting_review); the dispatch is on round 1"},
				{at: time.Hour, signal: true, review: accept(2, "bob")},
				{at: 2 * time.Hour, review: reject(1, "", "")},
			},
			status: workflows.StatusRejected, rounds: 1,
			decisions: []workflows.Decision{{Round: 1, Decision: workflows.DecisionReject, Reviewer: "unknown"}},
		},
		{
			name: "a_superseded_round",
			steps: []reviewStep{
				{at: time.Hour, review: reject(1, "alice", survey)},
				{at: 2 * time.Hour, decided: 1, review: accept(1, "bob"), refused: "round 1 was already decided: rejected with feedback by alice"},
				{at: 2 * time.Hour, decided: 1, signal: true, review: accept(1, "bob")},
				{at: 3 * time.Hour, decided: 1, review: accept(2, "bob")},
			},
			status: workflows.StatusAccepted, rounds: 2,
			decisions: []workflows.Decision{
				{Round: 1, Decision: workflows.DecisionReject, Feedback: survey, Reviewer: "alice"},
				{Round: 2, Decision: workflows.DecisionAccept, Reviewer: "bob"},
			},
		},
		{
			// A dispatch that continued as new before decisions were kept:
			// its earlier round has none to name.
			name:      "an_earlier_round_without_a_decision",
			continued: &workflows.DispatchState{Round: 2, Scope: workflows.DispatchWorkflowID(scheduleID) + "/older-run"},
			steps: []reviewStep{
				{at: time.Hour, review: accept(1, "bob"), refused: "round 1 is over (stage awaiting_review); the dispatch is on round 2"},
				{at: time.Hour, review: reject(-1, "bob", ""), refused: "round -1: rounds count from 1"},
				{at: 2 * time.Hour, review: reject(2, "carol", "")},
			},
			status: workflows.StatusRejected, rounds: 2,
			decisions: []workflows.Decision{{Round: 2, Decision: workflows.DecisionReject, Reviewer: "carol"}},
		},
		{
			name: "decided_while_compensating",
			steps: []reviewStep{
				{at: time.Hour, review: reject(1, "alice", survey)},
				// The same workflow task: round 1 is decided, round 2 not begun.
				{at: time.Hour, review: accept(0, "bob"), refused: "round 1 was already decided: rejected with feedback by alice"},
				{at: 2 * time.Hour, decided: 1, review: accept(0, "bob")},
			},
			status: workflows.StatusAccepted, rounds: 2,
			decisions: []workflows.Decision{
				{Round: 1, Decision: workflows.DecisionReject, Feedback: survey, Reviewer: "alice"},
				{Round: 2, Decision: workflows.DecisionAccept, Reviewer: "bob"},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			outcomes := make([]func() error, len(tc.steps))
			for i, s := range tc.steps {
				f.env.RegisterDelayedCallback(func() {
					if got := len(f.status().Decisions); got != s.decided {
						t.Errorf("step %d: the status holds %d decisions, want %d", i, got, s.decided)
					}
					if s.signal {
						f.env.SignalWorkflow(workflows.ReviewSignal, s.review)
						return
					}
					outcomes[i] = f.update(workflows.ReviewUpdate, s.review, nil)
				}, s.at)
			}
			res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding", Author: "ann", Continued: tc.continued})
			if res.Status != tc.status || res.Rounds != tc.rounds {
				t.Fatalf("result = %+v", res)
			}
			if !slices.Equal(res.Decisions, tc.decisions) {
				t.Errorf("decisions = %+v, want %+v", res.Decisions, tc.decisions)
			}
			for i, s := range tc.steps {
				if s.signal {
					continue
				}
				err := outcomes[i]()
				switch {
				case s.refused == "" && err != nil:
					t.Errorf("step %d (%+v) refused: %v", i, s.review, err)
				case s.refused != "" && (err == nil || !strings.Contains(err.Error(), s.refused)):
					t.Errorf("step %d (%+v): %v, want refused with %q", i, s.review, err, s.refused)
				}
			}
		})
	}
}

// TestReviewRoundsCarriedAcrossContinueAsNew: the decisions so far go
// into the next run's input and on to its result.
func TestReviewRoundsCarriedAcrossContinueAsNew(t *testing.T) {
	f := newFixture(t)
	f.env.SetContinueAsNewSuggested(true)
	f.env.RegisterDelayedCallback(func() {
		f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Feedback: "delete activity Setting-out survey", Reviewer: "alice", Round: 1}, nil)
	}, time.Hour)
	next := f.continued(workflows.DispatchInput{ScheduleID: scheduleID, Prompt: "delete activity Site hoarding", Author: "ann"})
	want := []workflows.Decision{{Round: 1, Decision: workflows.DecisionReject, Feedback: "delete activity Setting-out survey", Reviewer: "alice"}}
	if next.Continued == nil || !slices.Equal(next.Continued.Decisions, want) {
		t.Fatalf("continued input = %+v", next.Continued)
	}
	g := f.again()
	var stale, taken func() error
	g.env.RegisterDelayedCallback(func() {
		if st := g.status(); !slices.Equal(st.Decisions, want) {
			t.Errorf("status decisions of the new run = %+v", st.Decisions)
		}
		stale = g.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob", Round: 1}, nil)
		taken = g.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob", Round: 2}, nil)
	}, time.Hour)
	res := g.run(next)
	if res.Status != workflows.StatusAccepted || len(res.Decisions) != 2 || res.Decisions[1].Summary() != "accepted by bob" {
		t.Fatalf("result = %+v", res)
	}
	if err := stale(); err == nil || !strings.Contains(err.Error(), "round 1 was already decided: rejected with feedback by alice") {
		t.Errorf("a review of round 1 in the new run: %v", err)
	}
	if err := taken(); err != nil {
		t.Errorf("the review of round 2: %v", err)
	}
}

// continued runs in until it continues as new and returns the next run's
// input.
func (f *fixture) continued(in workflows.DispatchInput) workflows.DispatchInput {
	f.t.Helper()
	f.env.ExecuteWorkflow(workflows.DispatchWorkflow, in)
	var can *workflow.ContinueAsNewError
	if err := f.env.GetWorkflowError(); !errors.As(err, &can) {
		f.t.Fatalf("workflow error = %v, want continue-as-new", err)
	}
	var next workflows.DispatchInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		f.t.Fatal(err)
	}
	return next
}

// TestProposalQuery: the proposal query answers at once, whatever the
// stage, and says the stage.
func TestProposalQuery(t *testing.T) {
	f := newFixture(t)
	f.env.OnActivity(f.acts.PlanRemovals, mockAny, mockAny).After(time.Hour).Return(
		scope.Plan{Ops: []schedule.Op{schedule.RemoveActivity("A003")}}, nil)
	query := func() workflows.Proposal {
		var p workflows.Proposal
		f.query(workflows.ProposalQuery, &p)
		return p
	}
	f.env.RegisterDelayedCallback(func() {
		if p := query(); p.Stage != workflows.StagePlanningRemovals || p.Round != 1 || len(p.Changes) != 0 {
			t.Errorf("proposal while planning = %+v", p)
		}
	}, 30*time.Minute)
	f.env.RegisterDelayedCallback(func() {
		p := query()
		if p.Stage != workflows.StageAwaitingReview || p.Round != 1 || len(p.Changes) != 1 || p.Changes[0].Status != workflows.ChangeApplied || p.Impact == nil {
			t.Errorf("proposal awaiting review = %+v", p)
		}
		f.review(workflows.DecisionAccept, "")
	}, 2*time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding"})
	if res.Status != workflows.StatusAccepted {
		t.Fatalf("result = %+v", res)
	}
	if p := query(); p.Stage != workflows.StageDone || p.Round != 1 || len(p.Changes) != 1 || p.Changes[0].Status != workflows.ChangeCommitted {
		t.Errorf("proposal after the end = %+v", p)
	}
}

// TestProposalProgressWatch: a proposal Update with Stage returns when the
// dispatch leaves the stage (or, with Round, the round) the watcher saw,
// with the stage it is at; it does not return what the watcher has
// already seen, and it ends with the dispatch instead of holding it open.
func TestProposalProgressWatch(t *testing.T) {
	type review struct {
		at       time.Duration
		feedback string
	}
	for _, tc := range []struct {
		name       string
		slowCommit bool
		reviews    []review
		at         time.Duration // when the watch is sent
		req        workflows.ProposalRequest
		immediate  bool          // returns in the workflow task it came in
		wantStage  string        // "" when it fails
		wantRound  int           //
		wantErr    string        // error type when it fails
		timeout    time.Duration // the review timeout (a day when 0)
		status     string        // how the dispatch ends
	}{
		{
			name: "planning_to_applying", at: 30 * time.Minute,
			req:       workflows.ProposalRequest{Stage: workflows.StagePlanningRemovals, Round: 1},
			wantStage: workflows.StageApplyingRemovals, wantRound: 1,
			reviews: []review{{at: 2 * time.Hour}}, status: workflows.StatusAccepted,
		},
		{
			name: "a_stage_already_left", at: 90 * time.Minute,
			req:       workflows.ProposalRequest{Stage: workflows.StagePlanningRemovals},
			immediate: true, wantStage: workflows.StageAwaitingReview, wantRound: 1,
			reviews: []review{{at: 2 * time.Hour}}, status: workflows.StatusAccepted,
		},
		{
			name: "awaiting_review_waits_for_the_verdict", at: 90 * time.Minute,
			req:       workflows.ProposalRequest{Stage: workflows.StageAwaitingReview, Round: 1},
			wantStage: workflows.StageCommitting, wantRound: 1, slowCommit: true,
			reviews: []review{{at: 2 * time.Hour}}, status: workflows.StatusAccepted,
		},
		{
			name: "a_round_already_left", at: 3*time.Hour + 30*time.Minute,
			req:       workflows.ProposalRequest{Stage: workflows.StageAwaitingReview, Round: 1},
			immediate: true, wantStage: workflows.StageAwaitingReview, wantRound: 2,
			reviews: []review{{at: 90 * time.Minute, feedback: "delete activity Setting-out survey"}, {at: 4 * time.Hour}}, status: workflows.StatusAccepted,
		},
		{
			name: "ends_with_the_dispatch", at: 150 * time.Minute, slowCommit: true,
			req:     workflows.ProposalRequest{Stage: workflows.StageCommitting},
			wantErr: workflows.ErrTypeDispatchEnded,
			reviews: []review{{at: 2 * time.Hour}}, status: workflows.StatusAccepted,
		},
		{
			name: "a_review_timeout", at: 90 * time.Minute, timeout: time.Hour,
			req:       workflows.ProposalRequest{Stage: workflows.StageAwaitingReview, Round: 1},
			wantStage: workflows.StageCompensating, wantRound: 1,
			status: workflows.StatusTimedOut,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			// Planning takes an hour of workflow time, committing another.
			f.env.OnActivity(f.acts.PlanRemovals, mockAny, mockAny).After(time.Hour).Return(
				scope.Plan{Ops: []schedule.Op{schedule.RemoveActivity("A003")}}, nil)
			if tc.slowCommit {
				f.env.OnActivity(f.acts.Commit, mockAny, mockAny).After(time.Hour).Return(nil)
			}
			for _, r := range tc.reviews {
				decision := workflows.DecisionAccept
				if r.feedback != "" {
					decision = workflows.DecisionReject
				}
				f.env.RegisterDelayedCallback(func() { f.review(decision, r.feedback) }, r.at)
			}
			var p workflows.Proposal
			var watch func() error
			f.env.RegisterDelayedCallback(func() { watch = f.update(workflows.ProposalUpdate, tc.req, &p) }, tc.at)
			f.env.RegisterDelayedCallback(func() {
				err := watch()
				if finished := err == nil || !strings.Contains(err.Error(), "did not finish"); finished != tc.immediate {
					t.Errorf("a minute after the watch: finished %v (%v), want %v", finished, err, tc.immediate)
				}
			}, tc.at+time.Minute)
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 24 * time.Hour
			}
			res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding", ReviewTimeout: timeout})
			if res.Status != tc.status {
				t.Fatalf("result = %+v", res)
			}
			err := watch()
			if tc.wantErr != "" {
				if findAppError(err, tc.wantErr) == nil {
					t.Fatalf("watch: %v, want a %s error", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("watch: %v", err)
			}
			if p.Stage != tc.wantStage || p.Round != tc.wantRound {
				t.Errorf("watch returned stage %q round %d, want %q round %d", p.Stage, p.Round, tc.wantStage, tc.wantRound)
			}
		})
	}
}
