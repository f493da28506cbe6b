package workflows_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/scope/scopetest"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// activityCounter counts started activities by type.
type activityCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (f *fixture) countActivities() *activityCounter {
	c := &activityCounter{n: map[string]int{}}
	f.env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.n[info.ActivityType.Name]++
	})
	return c
}

func (c *activityCounter) get(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[name]
}

// TestDispatchCancelDuringCommit: a cancellation that arrives while the
// commit runs does not interrupt it: the dispatch ends accepted, every
// change committed in both ledgers, nothing compensated.
func TestDispatchCancelDuringCommit(t *testing.T) {
	f := newFixture(t)
	count := f.countActivities()
	f.env.OnActivity(f.acts.Commit, mockAny, mockAny).After(time.Hour).Return(
		func(ctx context.Context, in activities.CommitInput) error { return f.acts.Commit(ctx, in) })
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionAccept, "") }, time.Hour)
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); st.Stage != workflows.StageCommitting {
			t.Errorf("stage at the cancellation = %s, want committing", st.Stage)
		}
		f.env.CancelWorkflow()
	}, 90*time.Minute)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt, Author: "ann"})
	if res.Status != workflows.StatusAccepted || res.Error != "" {
		t.Fatalf("result = %+v", res)
	}
	if got := statuses(res.Changes); !slices.Equal(got, []string{"committed", "committed", "committed"}) {
		t.Errorf("statuses = %v", got)
	}
	if n := count.get("Compensate"); n != 0 {
		t.Errorf("Compensate ran %d times", n)
	}
	if f.has("A003") || !f.hasName("Hoarding inspection") {
		t.Error("the accepted changes are not in the store")
	}
	f.committedInLedgers(res.Changes, "pm")
}

// TestDispatchCompensationRefused: when the stores refuse the
// compensation, the dispatch ends failed saying so, and its records stay
// applied (the schedule keeps them).
func TestDispatchCompensationRefused(t *testing.T) {
	f := newFixture(t)
	f.env.OnActivity(f.acts.Compensate, mockAny, mockAny).Return(activities.ApplyResult{},
		temporal.NewNonRetryableApplicationError("compensation refused (the schedule changed underneath the dispatch?): unknown activity", activities.ErrTypeCompensation, nil))
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionReject, "") }, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt})
	if res.Status != workflows.StatusFailed || !strings.Contains(res.Error, "compensating round 1") || !strings.Contains(res.Error, "compensation refused") {
		t.Fatalf("result = %+v", res)
	}
	if got := statuses(res.Changes); !slices.Equal(got, []string{"applied", "applied", "applied"}) {
		t.Errorf("statuses = %v", got)
	}
}

// TestDispatchClarifySignal: the answer may come as a signal; one sent
// when no question is open is dropped.
func TestDispatchClarifySignal(t *testing.T) {
	f := newFixture(t)
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); !st.AwaitingClarification {
			t.Errorf("status = %+v", st)
		}
		f.env.SignalWorkflow(workflows.ClarifySignal, workflows.Clarification{Answer: "Pour slab Level 2", Author: "pm"})
	}, time.Hour)
	f.env.RegisterDelayedCallback(func() {
		f.env.SignalWorkflow(workflows.ClarifySignal, workflows.Clarification{Answer: "nothing asked"})
		if st := f.status(); !st.AwaitingReview || st.Question != "" {
			t.Errorf("status after the answer = %+v", st)
		}
		f.review(workflows.DecisionAccept, "")
	}, 2*time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: "delete the pour"})
	if res.Status != workflows.StatusAccepted || calls(res.Changes) != `delete_activity(name="Pour slab Level 2")` {
		t.Fatalf("result = %+v\n%s", res, calls(res.Changes))
	}
}

// TestProposalUpdateAfterTheEnd: a proposal Update waiting for a round
// that never comes ends with a clear error when the dispatch ends; one
// sent after the end is refused.
func TestProposalUpdateAfterTheEnd(t *testing.T) {
	f := newFixture(t)
	var waiting func() error
	f.env.RegisterDelayedCallback(func() {
		waiting = f.update(workflows.ProposalUpdate, workflows.ProposalRequest{Round: 2}, nil)
		f.review(workflows.DecisionReject, "")
	}, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt})
	if res.Status != workflows.StatusRejected {
		t.Fatalf("result = %+v", res)
	}
	err := waiting()
	if appErr := findAppError(err, workflows.ErrTypeDispatchEnded); appErr == nil || !strings.Contains(err.Error(), "the dispatch ended: rejected") {
		t.Errorf("waiting proposal update: %v", err)
	}
}

// TestEditDuringDispatch: a direct edit while a dispatch is open is not
// refused; both write through the ledgers. An edit that leaves the
// dispatch's changes alone keeps its effect after the dispatch is
// compensated; one that removes what the dispatch added makes the
// compensation refuse (all or nothing), so the dispatch ends failed saying
// so — and in both cases the two stores agree.
func TestEditDuringDispatch(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(*schedule.Schedule) schedule.Op
		status string
	}{
		{"unrelated", func(*schedule.Schedule) schedule.Op { return schedule.RemoveActivity("A007") }, workflows.StatusRejected},
		{"overlapping", func(s *schedule.Schedule) schedule.Op {
			i := slices.IndexFunc(s.Activities, func(a schedule.Activity) bool { return a.Name == "Hoarding inspection" })
			return schedule.RemoveActivity(s.Activities[i].ID)
		}, workflows.StatusFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.env.RegisterDelayedCallback(func() {
				if _, err := f.edit(tc.edit(f.load())); err != nil {
					t.Errorf("edit during the dispatch: %v", err)
				}
				f.review(workflows.DecisionReject, "")
			}, time.Hour)
			res := f.run(workflows.DispatchInput{Prompt: acceptPrompt})
			if res.Status != tc.status {
				t.Fatalf("result = %+v", res)
			}
			if tc.status == workflows.StatusFailed && !strings.Contains(res.Error, "compensation refused") {
				t.Errorf("error = %q", res.Error)
			}
			if tc.status == workflows.StatusRejected && (f.has("A007") || !f.has("A003") || f.hasName("Hoarding inspection")) {
				t.Error("the store is not the original minus the edit")
			}
			if drift, err := f.stores.Verify(context.Background(), scheduleID); err != nil || len(drift) > 0 {
				t.Errorf("verify: %v %v", drift, err)
			}
		})
	}
}

// edit runs EditWorkflow on the fixture's stores in an environment of its
// own, as the CLI would while the fixture's dispatch is open.
func (f *fixture) edit(ops ...schedule.Op) (*workflows.EditResult, error) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetStartWorkflowOptions(clientStartOptions())
	env.RegisterActivity(f.acts)
	env.RegisterWorkflow(workflows.EditWorkflow)
	env.ExecuteWorkflow(workflows.EditWorkflow, workflows.EditInput{ScheduleID: scheduleID, Author: "ann", Ops: ops})
	if err := env.GetWorkflowError(); err != nil {
		return nil, err
	}
	var res workflows.EditResult
	return &res, env.GetWorkflowResult(&res)
}

// TestDispatchQuestionLimit: a planner that keeps asking gets
// MaxQuestionsPerStep answers; then its step is left out with a note and
// the round goes to review.
func TestDispatchQuestionLimit(t *testing.T) {
	f := newFixture(t)
	count := f.countActivities()
	f.env.OnActivity(f.acts.PlanRemovals, mockAny, mockAny).Return(scope.Plan{Question: "which one?", About: "it"}, nil)
	for i := range workflows.MaxQuestionsPerStep + 2 {
		f.env.RegisterDelayedCallback(func() {
			f.env.SignalWorkflow(workflows.ClarifySignal, workflows.Clarification{Answer: fmt.Sprint("answer ", i)})
		}, time.Duration(i+1)*time.Hour)
	}
	var proposal workflows.Proposal
	var done func() error
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); !st.AwaitingReview {
			t.Errorf("status after the answers = %+v", st)
		}
		done = f.update(workflows.ProposalUpdate, workflows.ProposalRequest{}, &proposal)
		f.review(workflows.DecisionAccept, "")
	}, 10*time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt})
	if res.Status != workflows.StatusAccepted || len(res.Changes) != 2 || strings.Contains(calls(res.Changes), "Site hoarding") || !strings.Contains(calls(res.Changes), "Hoarding inspection") {
		t.Fatalf("result = %+v\n%s", res, calls(res.Changes))
	}
	if n := count.get("PlanRemovals"); n != workflows.MaxQuestionsPerStep+1 {
		t.Errorf("PlanRemovals ran %d times, want %d", n, workflows.MaxQuestionsPerStep+1)
	}
	if err := done(); err != nil || !slices.ContainsFunc(proposal.Notes, func(n string) bool { return strings.Contains(n, "asked 5 questions") }) {
		t.Errorf("proposal = %+v, %v", proposal, err)
	}
}

// TestDispatchRoundLimit: MaxRounds is clamped to MaxRoundsLimit; the
// dispatch ends rejected there, saying why.
func TestDispatchRoundLimit(t *testing.T) {
	f := newFixture(t)
	for i := range workflows.MaxRoundsLimit + 5 {
		f.env.RegisterDelayedCallback(func() {
			f.env.SignalWorkflow(workflows.ReviewSignal, workflows.Review{Decision: workflows.DecisionReject, Feedback: "paint it red", Reviewer: "pm"})
		}, time.Duration(i+1)*time.Hour)
	}
	res := f.run(workflows.DispatchInput{Prompt: "paint it blue", MaxRounds: 50})
	if res.Status != workflows.StatusRejected || res.Rounds != workflows.MaxRoundsLimit || !strings.Contains(res.Reason, "round limit (20)") {
		t.Fatalf("result = %+v", res)
	}
}

// TestDispatchContinuesAsNew: when Temporal suggests it, a dispatch
// continues as new between rounds, carrying what the next round needs;
// the new run plans round 2 without separating the prompt again and ends
// with every round's records. A proposal Update waiting across the switch
// is told to ask again.
func TestDispatchContinuesAsNew(t *testing.T) {
	f := newFixture(t)
	f.env.SetContinueAsNewSuggested(true)
	var waiting func() error
	f.env.RegisterDelayedCallback(func() {
		waiting = f.update(workflows.ProposalUpdate, workflows.ProposalRequest{Round: 2}, nil)
		f.review(workflows.DecisionReject, "delete activity Setting-out survey")
	}, time.Hour)
	f.env.ExecuteWorkflow(workflows.DispatchWorkflow, workflows.DispatchInput{ScheduleID: scheduleID, Prompt: "delete activity Site hoarding", Author: "ann"})
	var can *workflow.ContinueAsNewError
	if err := f.env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("workflow error = %v, want continue-as-new", err)
	}
	if err := waiting(); findAppError(err, workflows.ErrTypeContinuedAsNew) == nil {
		t.Errorf("waiting proposal update: %v", err)
	}
	var next workflows.DispatchInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	c := next.Continued
	if c == nil || c.Round != 2 || c.Feedback != "delete activity Setting-out survey" || c.Separation == nil ||
		len(c.Previous) != 1 || !slices.Equal(statuses(c.Changes), []string{"compensated"}) ||
		!strings.HasPrefix(c.Scope, workflows.DispatchWorkflowID(scheduleID)+"/") || next.Prompt != "delete activity Site hoarding" {
		t.Fatalf("continued input = %+v / %+v", next, c)
	}

	// The new run, on the same stores.
	g := f.again()
	count := g.countActivities()
	g.env.RegisterDelayedCallback(func() {
		if st := g.status(); st.Round != 2 || !st.AwaitingReview {
			t.Errorf("status of the new run = %+v", st)
		}
		g.review(workflows.DecisionAccept, "")
	}, time.Hour)
	res := g.run(next)
	if res.Status != workflows.StatusAccepted || res.Rounds != 2 || !slices.Equal(statuses(res.Changes), []string{"compensated", "committed"}) {
		t.Fatalf("result = %+v", res)
	}
	if n := count.get("SeparatePrompt"); n != 0 {
		t.Errorf("the new run separated the prompt %d times", n)
	}
	if !g.has("A003") || g.has("A007") {
		t.Error("round 1 not compensated or round 2 not applied")
	}
	g.committedInLedgers(res.Changes, "pm")
	for _, ch := range res.Changes {
		if ch.Author != "ann" || ch.Reviewer != "pm" {
			t.Errorf("record %+v", ch)
		}
	}
}

// again is a new environment on f's stores and activities: the next run.
func (f *fixture) again() *fixture {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetStartWorkflowOptions(clientStartOptions())
	env.RegisterActivity(f.acts)
	env.RegisterWorkflow(workflows.DispatchWorkflow)
	env.RegisterWorkflow(workflows.EditWorkflow)
	return &fixture{t: f.t, env: env, stores: f.stores, acts: f.acts}
}

// TestDispatchSeparatesOnce: later rounds plan from the first round's
// separation.
func TestDispatchSeparatesOnce(t *testing.T) {
	f := newFixture(t)
	count := f.countActivities()
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionReject, "delete activity Setting-out survey") }, time.Hour)
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionAccept, "") }, 2*time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding"})
	if res.Status != workflows.StatusAccepted || res.Rounds != 2 {
		t.Fatalf("result = %+v", res)
	}
	if n := count.get("SeparatePrompt"); n != 1 {
		t.Errorf("SeparatePrompt ran %d times, want once", n)
	}
}

// TestDispatchRoundIsPlanRound: the planner sees the same steps with the
// same inputs in a dispatch (answer given to the clarify Update) as in
// scope.PlanRound answered the same way — what `plan` previews; and a
// multi-part prompt with a failing task and feedback naming tasks gives
// the same ops and task states in both (scope.RunRound is their one
// control flow).
func TestDispatchRoundIsPlanRound(t *testing.T) {
	t.Run("question", dispatchQuestionIsPlanRound)
	// Feedback naming tasks 2 and 4: the failed task is planned again.
	t.Run("tasks", func(t *testing.T) {
		dispatchTasksArePlanSteps(t, "task 2: 3 days, not 2; task 4: with no lag", "1:kept 2:planned 3:planned 4:failed 5:blocked")
	})
	// Feedback naming task 2 only: the task that failed is planned again
	// too, not "kept" by applying its undone ops again (replan-failed-tasks).
	t.Run("failed task not named", func(t *testing.T) {
		dispatchTasksArePlanSteps(t, "task 2: 3 days, not 2", "1:kept 2:planned 3:planned 4:failed 5:blocked")
	})
}

func dispatchQuestionIsPlanRound(t *testing.T) {
	const prompt = `delete activity Site hoarding; add activity "Crane check" 1 day after the pour`
	const answer = "Pour slab Level 2"
	rec := &scopetest.Recorder{Planner: scope.Rules{}}
	f := newFixtureWith(t, rec)
	before := f.load()
	f.env.RegisterDelayedCallback(func() {
		f.update(workflows.ClarifyUpdate, workflows.Clarification{Answer: answer}, nil)
	}, time.Hour)
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionReject, "") }, 2*time.Hour)
	if res := f.run(workflows.DispatchInput{Prompt: prompt}); res.Status != workflows.StatusRejected || len(res.Changes) != 3 {
		t.Fatalf("result = %+v\n%s", res, calls(res.Changes))
	}
	dispatched := rec.Calls()

	rec.Reset()
	in := scope.PlanInput{Prompt: prompt, Round: 1}
	r, err := scope.PlanRound(context.Background(), rec, before, in)
	if err != nil || r.Question == "" {
		t.Fatalf("round = %+v, %v", r, err)
	}
	in.Clarifications = []scope.Clarification{{About: r.About, Question: r.Question, Answer: answer}}
	rec.Reset()
	if r, err = scope.PlanRound(context.Background(), rec, before, in); err != nil || r.Question != "" {
		t.Fatalf("answered round = %+v, %v", r, err)
	}
	if got, want := describe(dispatched), describe(rec.Calls()); got != want {
		t.Errorf("dispatch steps:\n%s\nPlanRound steps:\n%s", got, want)
	}
}

// dispatchTasksArePlanSteps runs five tasks — the fourth fails after its
// removals step applied, the fifth depends on it — then feedback, through
// a dispatch and through scope.PlanRound and scope.PlanSteps: the
// planner's inputs, the ops, the task reports (round 2's are want2) and
// the notes are the same.
func dispatchTasksArePlanSteps(t *testing.T, feedback, want2 string) {
	const prompt = taskPrompt + "; make painting on level 3 follow drywall taping level 3 instead of suspended ceilings level 3, " +
		"then shorten painting level 3 by 1 day"
	rec := &scopetest.Recorder{Planner: failingPlanner{word: "instead of"}}
	f := newFixtureWith(t, rec)
	before := f.load()
	var p1, p2 workflows.Proposal
	f.env.RegisterDelayedCallback(func() {
		f.query(workflows.ProposalQuery, &p1)
		f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Round: 1, Reviewer: "pm", Feedback: feedback}, nil)
	}, time.Hour)
	f.env.RegisterDelayedCallback(func() {
		f.query(workflows.ProposalQuery, &p2)
		f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Round: 2, Reviewer: "pm"}, nil)
	}, 2*time.Hour)
	if res := f.run(workflows.DispatchInput{Prompt: prompt}); res.Status != workflows.StatusAccepted || res.Rounds != 2 {
		t.Fatalf("result = %+v\n%s", res, calls(res.Changes))
	}
	if got := taskStatuses(p1.Tasks); got != "1:planned 2:planned 3:planned 4:failed 5:blocked" {
		t.Fatalf("round 1 tasks = %s", got)
	}
	if got := taskStatuses(p2.Tasks); got != want2 {
		t.Fatalf("round 2 tasks = %s, want %s", got, want2)
	}
	dispatched := rec.Calls()

	rec.Reset()
	ctx := context.Background()
	r1, err := scope.PlanRound(ctx, rec, before, scope.PlanInput{Prompt: prompt, Round: 1})
	if err != nil {
		t.Fatal(err)
	}
	sameRound(t, 1, p1, r1)
	// Round 2 plans from the separation with the feedback and the ops
	// round 1 left applied (not the failed task's, which were undone).
	var previous []schedule.Op
	for _, c := range p1.Changes {
		if c.Status == workflows.ChangeApplied {
			previous = append(previous, c.Op)
		}
	}
	r2, err := scope.PlanSteps(ctx, rec, before, scope.RoundInput{Separation: &r1.Separation, Feedback: feedback, Previous: previous, Round: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameRound(t, 2, p2, r2)
	if got, want := describe(dispatched), describe(rec.Calls()); got != want {
		t.Errorf("dispatch steps:\n%s\nPlanRound and PlanSteps steps:\n%s", got, want)
	}
}

// sameRound fails t unless the dispatch's proposal p shows round r: the
// ops applied (op IDs aside: the dispatch scopes them), the task reports
// and the notes. A failed task's error differs only in what wraps the
// planner's (the activity error); the dispatch's must hold PlanRound's.
func sameRound(t *testing.T, round int, p workflows.Proposal, r *scope.Round) {
	t.Helper()
	var got, want []schedule.Op
	for _, c := range p.Changes {
		if c.Status == workflows.ChangeApplied {
			got = append(got, c.Op)
		}
	}
	want = r.Ops
	if len(want) == 0 {
		t.Errorf("round %d applied nothing", round)
	}
	for _, ops := range [][]schedule.Op{got, want} {
		for i := range ops {
			ops[i].ID = ""
		}
	}
	if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
		t.Errorf("round %d ops:\ndispatch  %s\nPlanRound %s", round, g, w)
	}
	tasks, notes := slices.Clone(p.Tasks), slices.Clone(p.Notes)
	if len(tasks) != len(r.Tasks) {
		t.Fatalf("round %d: %d tasks in the dispatch, %d in PlanRound", round, len(tasks), len(r.Tasks))
	}
	for i, rep := range tasks {
		if rep.Error == r.Tasks[i].Error {
			continue
		}
		if r.Tasks[i].Error == "" || !strings.Contains(rep.Error, r.Tasks[i].Error) {
			t.Errorf("round %d task %s: error %q in the dispatch, %q in PlanRound", round, rep.ID, rep.Error, r.Tasks[i].Error)
		}
		for j := range notes {
			notes[j] = strings.ReplaceAll(notes[j], rep.Error, r.Tasks[i].Error)
		}
		tasks[i].Error = r.Tasks[i].Error
	}
	if g, w := jsonOf(t, tasks), jsonOf(t, r.Tasks); g != w {
		t.Errorf("round %d tasks:\ndispatch  %s\nPlanRound %s", round, g, w)
	}
	if g, w := jsonOf(t, notes), jsonOf(t, r.Notes); g != w {
		t.Errorf("round %d notes:\ndispatch  %s\nPlanRound %s", round, g, w)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// describe is the steps' inputs, with ops as their calls (IDs differ).
func describe(calls []scopetest.Call) string {
	var b strings.Builder
	for _, c := range calls {
		in := c.Input
		fmt.Fprintf(&b, "%s prompt=%q feedback=%q round=%d clarifications=%+v removed=[", c.Kind, in.Prompt, in.Feedback, in.Round, in.Clarifications)
		for _, op := range in.Removed {
			b.WriteString(op.Call + "; ")
		}
		b.WriteString("] previous=[")
		for _, op := range in.Previous {
			b.WriteString(op.Call + "; ")
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestDispatchRecordsPeople: who asked and who reviewed reach the result,
// the change records and the commit record; nobody named is "unknown".
func TestDispatchRecordsPeople(t *testing.T) {
	for _, tc := range []struct{ author, reviewer, wantAuthor, wantReviewer string }{
		{"ann", "pm", "ann", "pm"},
		{"", "", "unknown", "unknown"},
	} {
		t.Run(tc.wantAuthor, func(t *testing.T) {
			f := newFixture(t)
			var memos []map[string]any
			f.env.OnUpsertMemo(mock.Anything).Run(func(args mock.Arguments) {
				memos = append(memos, args.Get(0).(map[string]any))
			}).Return(nil)
			var outcome []string
			f.env.OnUpsertTypedSearchAttributes(mock.Anything).Run(func(args mock.Arguments) {
				outcome = append(outcome, fmt.Sprint(args...))
			}).Return(nil)
			f.env.RegisterDelayedCallback(func() {
				f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: tc.reviewer}, nil)
			}, time.Hour)
			res := f.run(workflows.DispatchInput{Prompt: acceptPrompt, Author: tc.author})
			if res.Status != workflows.StatusAccepted || res.Author != tc.wantAuthor || res.Reviewer != tc.wantReviewer {
				t.Fatalf("result = %+v", res)
			}
			for _, c := range res.Changes {
				if c.Author != tc.wantAuthor || c.Reviewer != tc.wantReviewer {
					t.Errorf("record %s: author %q reviewer %q", c.Call, c.Author, c.Reviewer)
				}
			}
			f.committedInLedgers(res.Changes, tc.wantReviewer)
			if len(memos) != 2 || memos[0]["author"] != tc.wantAuthor || memos[1]["reviewer"] != tc.wantReviewer || memos[1]["outcome"] != "accepted" {
				t.Errorf("memos = %v", memos)
			}
			if last := outcome[len(outcome)-1]; !strings.Contains(last, "DispatchOutcome") || !strings.Contains(last, "accepted") {
				t.Errorf("last search attribute upsert = %s", last)
			}
		})
	}
}
