package workflows_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// callsOf returns the calls of round's change records, in order.
func callsOf(changes []workflows.ChangeRecord, round int) []string {
	var out []string
	for _, c := range changes {
		if c.Round == round {
			out = append(out, c.Call)
		}
	}
	return out
}

// idsOf returns the op IDs of round's change records.
func idsOf(changes []workflows.ChangeRecord, round int) []string {
	var out []string
	for _, c := range changes {
		if c.Round == round {
			out = append(out, c.Op.ID)
		}
	}
	return out
}

// TestReviewActions: redo, back and cancel at review (the "review-actions"
// version). Each is a round's decision; the stores end as specified.
func TestReviewActions(t *testing.T) {
	const survey = "delete activity Setting-out survey"
	review := func(decision string, round int, feedback string) workflows.Review {
		return workflows.Review{Decision: decision, Round: round, Reviewer: "bob", Feedback: feedback}
	}

	t.Run("cancel", func(t *testing.T) {
		f := newFixture(t)
		before := f.dump()
		var taken func() error
		f.env.RegisterDelayedCallback(func() { taken = f.update(workflows.ReviewUpdate, review(workflows.DecisionCancel, 1, ""), nil) }, time.Hour)
		res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding", Author: "ann"})
		if err := taken(); err != nil {
			t.Fatalf("cancel: %v", err)
		}
		if res.Status != workflows.StatusCancelled || res.Rounds != 1 || res.Reviewer != "bob" || res.Error != "" {
			t.Fatalf("result = %+v", res)
		}
		if !strings.Contains(res.Reason, "cancelled at review of round 1 by bob") {
			t.Errorf("reason = %q", res.Reason)
		}
		if len(res.Decisions) != 1 || res.Decisions[0].Summary() != "cancelled by bob" || res.Decisions[0].Round != 1 {
			t.Errorf("decisions = %+v", res.Decisions)
		}
		if got := statuses(res.Changes); len(got) == 0 || slices.ContainsFunc(got, func(s string) bool { return s != workflows.ChangeCompensated }) {
			t.Errorf("change statuses = %v, want all compensated", got)
		}
		if f.dump() != before {
			t.Error("the stores changed: a cancelled dispatch leaves them as they were")
		}
	})

	t.Run("redo", func(t *testing.T) {
		f := newFixture(t)
		var redo, accept func() error
		var p2 workflows.Proposal
		f.env.RegisterDelayedCallback(func() { redo = f.update(workflows.ReviewUpdate, review(workflows.DecisionRedo, 1, ""), nil) }, time.Hour)
		f.env.RegisterDelayedCallback(func() {
			f.query(workflows.ProposalQuery, &p2)
			accept = f.update(workflows.ReviewUpdate, review(workflows.DecisionAccept, 2, ""), nil)
		}, 2*time.Hour)
		res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding", Author: "ann"})
		if err := redo(); err != nil {
			t.Fatalf("redo: %v", err)
		}
		if err := accept(); err != nil {
			t.Fatalf("accept of round 2: %v", err)
		}
		if res.Status != workflows.StatusAccepted || res.Rounds != 2 {
			t.Fatalf("result = %+v", res)
		}
		if p2.Round != 2 || p2.Stage != workflows.StageAwaitingReview || len(p2.Changes) == 0 {
			t.Errorf("round 2 proposal = %+v", p2)
		}
		want := []workflows.Decision{
			{Round: 1, Decision: workflows.DecisionRedo, Reviewer: "bob"},
			{Round: 2, Decision: workflows.DecisionAccept, Reviewer: "bob"},
		}
		if !slices.Equal(res.Decisions, want) || res.Decisions[0].Summary() != "redone by bob" {
			t.Errorf("decisions = %+v", res.Decisions)
		}
		// The same prompt planned again: the same calls, fresh op IDs.
		c1, c2 := callsOf(res.Changes, 1), callsOf(res.Changes, 2)
		if len(c1) == 0 || !slices.Equal(c1, c2) {
			t.Errorf("round 1 calls %v, round 2 calls %v: want the same", c1, c2)
		}
		for _, id := range idsOf(res.Changes, 2) {
			if slices.Contains(idsOf(res.Changes, 1), id) {
				t.Errorf("op %s is in both rounds", id)
			}
		}
		for _, c := range res.Changes {
			want := workflows.ChangeCompensated
			if c.Round == 2 {
				want = workflows.ChangeCommitted
			}
			if c.Status != want {
				t.Errorf("round %d %s: %s, want %s", c.Round, c.Call, c.Status, want)
			}
		}
		if f.hasName("Site hoarding") {
			t.Error("Site hoarding is still in the schedule")
		}
		f.committedInLedgers(res.Changes, "bob")
	})

	t.Run("back", func(t *testing.T) {
		f := newFixture(t)
		steps := []func() error{}
		var p3 workflows.Proposal
		send := func(at time.Duration, r workflows.Review) {
			i := len(steps)
			steps = append(steps, nil)
			f.env.RegisterDelayedCallback(func() {
				if r.Decision == workflows.DecisionAccept {
					f.query(workflows.ProposalQuery, &p3)
				}
				steps[i] = f.update(workflows.ReviewUpdate, r, nil)
			}, at)
		}
		send(time.Hour, review(workflows.DecisionReject, 1, survey))
		send(2*time.Hour, review(workflows.DecisionBack, 2, ""))
		send(3*time.Hour, review(workflows.DecisionAccept, 3, ""))
		res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding", Author: "ann"})
		for i, s := range steps {
			if err := s(); err != nil {
				t.Fatalf("review %d: %v", i, err)
			}
		}
		if res.Status != workflows.StatusAccepted || res.Rounds != 3 {
			t.Fatalf("result = %+v", res)
		}
		if got := res.Decisions[1].Summary(); got != "taken back to round 1 by bob" {
			t.Errorf("round 2 decision = %q", got)
		}
		c1, c2, c3 := callsOf(res.Changes, 1), callsOf(res.Changes, 2), callsOf(res.Changes, 3)
		if len(c1) == 0 || !slices.Equal(c1, c3) || slices.Equal(c1, c2) {
			t.Errorf("calls: round 1 %v, round 2 %v, round 3 %v: want round 3 = round 1 ≠ round 2", c1, c2, c3)
		}
		for _, id := range idsOf(res.Changes, 3) {
			if slices.Contains(idsOf(res.Changes, 1), id) {
				t.Errorf("op %s is in rounds 1 and 3", id)
			}
		}
		if p3.Round != 3 || p3.Impact == nil || len(p3.Notes) == 0 || !strings.Contains(strings.Join(p3.Notes, " "), "round 1's proposal again, taken back by bob") {
			t.Errorf("round 3 proposal = %+v", p3)
		}
		if f.hasName("Site hoarding") || !f.hasName("Setting-out survey") {
			t.Errorf("want Site hoarding deleted and Setting-out survey kept (round 1's proposal)")
		}
		f.committedInLedgers(res.Changes, "bob")
	})

	t.Run("refusals", func(t *testing.T) {
		f := newFixture(t)
		type step struct {
			r       workflows.Review
			refused string
			out     func() error
		}
		steps := []*step{
			{r: review(workflows.DecisionBack, 1, ""), refused: "back: round 1 has no previous round to go back to"},
			{r: review("maybe", 1, ""), refused: `decision "maybe": must be one of accept, reject, redo, back, cancel`},
			{r: review(workflows.DecisionRedo, 1, ""), refused: "redo: the round limit (1) is reached; accept, reject or cancel round 1"},
			{r: review(workflows.DecisionCancel, 1, "")},
			{r: review(workflows.DecisionAccept, 1, ""), refused: "round 1 was already decided: cancelled by bob"},
		}
		f.env.RegisterDelayedCallback(func() {
			for _, s := range steps {
				s.out = f.update(workflows.ReviewUpdate, s.r, nil)
			}
		}, time.Hour)
		res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding", MaxRounds: 1})
		if res.Status != workflows.StatusCancelled {
			t.Fatalf("result = %+v", res)
		}
		for i, s := range steps {
			err := s.out()
			switch {
			case s.refused == "" && err != nil:
				t.Errorf("step %d (%+v) refused: %v", i, s.r, err)
			case s.refused != "" && (err == nil || !strings.Contains(err.Error(), s.refused)):
				t.Errorf("step %d (%+v): %v, want refused with %q", i, s.r, err, s.refused)
			}
		}
	})
}

// TestReviewActionsBackAcrossContinueAsNew: a back taken when the history
// is long carries the ops to re-apply into the next run.
func TestReviewActionsBackAcrossContinueAsNew(t *testing.T) {
	f := newFixture(t)
	f.env.RegisterDelayedCallback(func() {
		f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Feedback: "delete activity Setting-out survey", Reviewer: "alice", Round: 1}, nil)
	}, time.Hour)
	f.env.RegisterDelayedCallback(func() {
		f.env.SetContinueAsNewSuggested(true)
		f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionBack, Reviewer: "bob", Round: 2}, nil)
	}, 2*time.Hour)
	next := f.continued(workflows.DispatchInput{ScheduleID: scheduleID, Prompt: "delete activity Site hoarding", Author: "ann"})
	c := next.Continued
	if c == nil || c.Round != 3 || c.Back == nil || c.Back.Round != 1 || c.Back.Reviewer != "bob" || len(c.Back.Ops) == 0 {
		t.Fatalf("continued input = %+v", c)
	}
	g := f.again()
	g.env.RegisterDelayedCallback(func() {
		g.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "carol", Round: 3}, nil)
	}, time.Hour)
	res := g.run(next)
	if res.Status != workflows.StatusAccepted || res.Rounds != 3 {
		t.Fatalf("result = %+v", res)
	}
	if g.hasName("Site hoarding") || !g.hasName("Setting-out survey") {
		t.Errorf("want Site hoarding deleted and Setting-out survey kept")
	}
}

// TestReviewActionsNotInOlderDispatches: a dispatch that began before the
// "review-actions" version refuses redo, back and cancel as it always did.
func TestReviewActionsNotInOlderDispatches(t *testing.T) {
	f := newFixture(t)
	f.env.OnGetVersion("review-actions", workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	var redo, reject func() error
	f.env.RegisterDelayedCallback(func() {
		redo = f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionRedo, Reviewer: "bob"}, nil)
		reject = f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Reviewer: "bob"}, nil)
	}, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding"})
	if err := redo(); err == nil || !strings.Contains(err.Error(), `decision "redo": must be "accept" or "reject"`) {
		t.Errorf("redo in an older dispatch: %v", err)
	}
	if err := reject(); err != nil || res.Status != workflows.StatusRejected {
		t.Errorf("reject: %v, result %+v", err, res)
	}
}
