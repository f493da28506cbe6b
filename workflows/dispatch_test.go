package workflows_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/scope/scopetest"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
	"github.com/autoscheduler/autoscheduler/workflows"
)

const scheduleID = "building"

// fixture is a test workflow environment whose activities run for real
// against an embedded store holding examples/building.json, planned by the
// offline rules planner (or the one a test passes to newFixtureWith).
type fixture struct {
	t       *testing.T
	env     *testsuite.TestWorkflowEnvironment
	stores  *store.Coordinator
	acts    *activities.Activities
	updates int
}

func newFixture(t *testing.T) *fixture { return newFixtureWith(t, scope.Rules{}) }

func newFixtureWith(t *testing.T, planner scope.Planner) *fixture {
	t.Helper()
	c, _ := storetest.EmbeddedBuilding(t, scheduleID)
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	env.SetStartWorkflowOptions(clientStartOptions())
	acts := &activities.Activities{Stores: c, Planner: planner}
	env.RegisterActivity(acts)
	env.RegisterWorkflow(workflows.DispatchWorkflow)
	env.RegisterWorkflow(workflows.EditWorkflow)
	return &fixture{t: t, env: env, stores: c, acts: acts}
}

// dump is the canonical content of both stores, for before/after equality.
func (f *fixture) dump() string { f.t.Helper(); return storetest.Dumps(f.t, f.stores, scheduleID) }

func (f *fixture) load() *schedule.Schedule {
	f.t.Helper()
	s, err := f.stores.Load(context.Background(), scheduleID)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

func (f *fixture) has(id string) bool {
	_, ok := f.load().Activity(id)
	return ok
}

func (f *fixture) hasName(name string) bool {
	return slices.ContainsFunc(f.load().Activities, func(a schedule.Activity) bool { return a.Name == name })
}

func (f *fixture) run(in workflows.DispatchInput) *workflows.DispatchResult {
	f.t.Helper()
	if in.ScheduleID == "" {
		in.ScheduleID = scheduleID
	}
	f.env.ExecuteWorkflow(workflows.DispatchWorkflow, in)
	if !f.env.IsWorkflowCompleted() {
		f.t.Fatal("workflow did not complete")
	}
	if err := f.env.GetWorkflowError(); err != nil {
		f.t.Fatalf("workflow error: %v", err)
	}
	var res workflows.DispatchResult
	if err := f.env.GetWorkflowResult(&res); err != nil {
		f.t.Fatal(err)
	}
	return &res
}

// update sends an Update and returns its outcome through the pointers.
func (f *fixture) update(name string, arg any, result any) func() error {
	var outcome error
	done := false
	f.updates++
	f.env.UpdateWorkflow(name, fmt.Sprintf("%s-%d", name, f.updates), &testsuite.TestUpdateCallback{
		OnReject: func(err error) { outcome, done = err, true },
		OnComplete: func(v any, err error) {
			outcome, done = err, true
			if err == nil && result != nil {
				b, _ := json.Marshal(v)
				_ = json.Unmarshal(b, result)
			}
		},
	}, arg)
	return func() error {
		if !done {
			return errors.New("update did not finish")
		}
		return outcome
	}
}

func (f *fixture) review(decision, feedback string) func() error {
	return f.update(workflows.ReviewUpdate, workflows.Review{Decision: decision, Feedback: feedback, Reviewer: "pm"}, nil)
}

func (f *fixture) query(name string, out any) {
	f.t.Helper()
	v, err := f.env.QueryWorkflow(name)
	if err != nil {
		f.t.Fatalf("query %s: %v", name, err)
	}
	if err := v.Get(out); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) status() workflows.Status {
	var st workflows.Status
	f.query(workflows.StatusQuery, &st)
	return st
}

func statuses(changes []workflows.ChangeRecord) []string {
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.Status
	}
	return out
}

func calls(changes []workflows.ChangeRecord) string {
	var out []string
	for _, c := range changes {
		out = append(out, c.Call)
	}
	return strings.Join(out, "\n")
}

const acceptPrompt = `delete activity Site hoarding and then add activity "Hoarding inspection" 2 days after "Mobilisation"`

func TestDispatchAccept(t *testing.T) {
	f := newFixture(t)
	var proposal workflows.Proposal
	var proposalDone func() error
	f.env.RegisterDelayedCallback(func() {
		proposalDone = f.update(workflows.ProposalUpdate, workflows.ProposalRequest{Round: 1}, &proposal)
	}, 0)
	var reviewDone func() error
	f.env.RegisterDelayedCallback(func() {
		st := f.status()
		if st.Stage != workflows.StageAwaitingReview || !st.AwaitingReview || st.Round != 1 || st.Impact == nil {
			t.Errorf("status during review = %+v", st)
		}
		var changes []workflows.ChangeRecord
		f.query(workflows.ChangesQuery, &changes)
		if got := statuses(changes); !slices.Equal(got, []string{"applied", "applied", "applied"}) {
			t.Errorf("changes during review = %v\n%s", got, calls(changes))
		}
		if !strings.Contains(calls(changes), `Site hoarding`) || !strings.Contains(calls(changes), "Hoarding inspection") {
			t.Errorf("calls:\n%s", calls(changes))
		}
		// Provisional: the stores hold the changes already.
		if f.has("A003") || !f.hasName("Hoarding inspection") {
			t.Error("the round's changes are not in the store during review")
		}
		reviewDone = f.review(workflows.DecisionAccept, "")
	}, time.Hour)

	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt, Author: "test"})
	if res.Status != workflows.StatusAccepted || res.Rounds != 1 || res.Error != "" {
		t.Fatalf("result = %+v", res)
	}
	if got := statuses(res.Changes); !slices.Equal(got, []string{"committed", "committed", "committed"}) {
		t.Errorf("statuses = %v", got)
	}
	if err := reviewDone(); err != nil {
		t.Errorf("review update: %v", err)
	}
	if err := proposalDone(); err != nil {
		t.Errorf("proposal update: %v", err)
	}
	if proposal.Round != 1 || len(proposal.Changes) != 3 || proposal.Impact == nil {
		t.Errorf("proposal = %+v", proposal)
	}
	if f.has("A003") || !f.hasName("Hoarding inspection") {
		t.Error("accepted changes are not in the store")
	}
	f.committedInLedgers(res.Changes, "pm")
}

// committedInLedgers checks that both stores' ledgers mark the committed
// changes committed, by reviewer, and the compensated ones (kept in the
// graph ledger as history, undone by their own compensating ops) not.
func (f *fixture) committedInLedgers(changes []workflows.ChangeRecord, reviewer string) {
	f.t.Helper()
	ctx := context.Background()
	var ids []string
	for _, c := range changes {
		ids = append(ids, c.Op.ID)
	}
	recorded, err := f.stores.Graph.Recorded(ctx, scheduleID, ids)
	if err != nil {
		f.t.Fatal(err)
	}
	vectors, err := f.stores.Vectors.Committed(ctx, scheduleID, ids)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range changes {
		rec, held := recorded[c.Op.ID]
		_, vcommitted := vectors[c.Op.ID]
		switch c.Status {
		case workflows.ChangeCommitted:
			if !held || rec.Committed == nil || rec.Committed.Reviewer != reviewer || !strings.HasPrefix(rec.Committed.Dispatch, workflows.DispatchWorkflowID(scheduleID)+"/") || len(rec.Inverse) == 0 {
				f.t.Errorf("%s: graph ledger entry %+v, want committed by %q in this dispatch with its inverse", c.Call, rec.Committed, reviewer)
			}
			if !vcommitted {
				f.t.Errorf("%s: not committed in the vector ledger", c.Call)
			}
		case workflows.ChangeCompensated:
			if (held && rec.Committed != nil) || vcommitted {
				f.t.Errorf("%s: compensated, yet committed in a ledger", c.Call)
			}
		}
	}
}

func TestDispatchRejectWithFeedbackThenAccept(t *testing.T) {
	f := newFixture(t)
	f.env.RegisterDelayedCallback(func() {
		f.env.SignalWorkflow(workflows.ReviewSignal, workflows.Review{Decision: workflows.DecisionReject, Feedback: "delete activity Setting-out survey", Reviewer: "pm"})
	}, time.Hour)
	var reviewDone func() error
	f.env.RegisterDelayedCallback(func() {
		st := f.status()
		if st.Round != 2 || !st.AwaitingReview {
			t.Errorf("status in round 2 = %+v", st)
		}
		var changes []workflows.ChangeRecord
		f.query(workflows.ChangesQuery, &changes)
		if got := statuses(changes); !slices.Equal(got, []string{"compensated", "applied"}) {
			t.Errorf("changes in round 2 = %v\n%s", got, calls(changes))
		}
		if !f.has("A003") || f.has("A007") {
			t.Error("round 1 not compensated or round 2 not applied")
		}
		reviewDone = f.review(workflows.DecisionAccept, "")
	}, 2*time.Hour)

	res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding", Author: "test"})
	if res.Status != workflows.StatusAccepted || res.Rounds != 2 {
		t.Fatalf("result = %+v", res)
	}
	if err := reviewDone(); err != nil {
		t.Fatal(err)
	}
	if got := statuses(res.Changes); !slices.Equal(got, []string{"compensated", "committed"}) {
		t.Errorf("statuses = %v", got)
	}
	f.committedInLedgers(res.Changes, "pm")
	// The store holds the original with only the survey removed.
	want, err := interchange.ReadFile("../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	op := schedule.RemoveActivity("A007")
	if _, err := schedule.Apply(want, &op); err != nil {
		t.Fatal(err)
	}
	if got := f.load(); !slices.Equal(ids(got), ids(want)) {
		t.Error("the store is not the original minus the survey")
	}
}

// ids lists a schedule's activity and relationship ids, sorted.
func ids(s *schedule.Schedule) []string {
	var out []string
	for _, a := range s.Activities {
		out = append(out, a.ID+" "+a.Name+" "+a.Duration)
	}
	for _, r := range s.Relationships {
		out = append(out, fmt.Sprintf("%s %s %s %s %g", r.ID, r.Type, r.Predecessor, r.Successor, r.Lag))
	}
	slices.Sort(out)
	return out
}

func TestDispatchRejectWithoutFeedbackRestoresStores(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.RegisterDelayedCallback(func() {
		if f.dump() == before {
			t.Error("nothing was applied provisionally")
		}
		f.review(workflows.DecisionReject, "")
	}, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt + "; dissolve activity Piling", Author: "test"})
	if res.Status != workflows.StatusRejected || res.Rounds != 1 {
		t.Fatalf("result = %+v", res)
	}
	if got := statuses(res.Changes); len(got) != 4 || slices.ContainsFunc(got, func(s string) bool { return s != "compensated" }) {
		t.Errorf("statuses = %v", got)
	}
	if after := f.dump(); after != before {
		t.Error("the stores differ from the pre-dispatch state after a rejection")
	}
	if drift, err := f.stores.Verify(context.Background(), scheduleID); err != nil || len(drift) > 0 {
		t.Errorf("verify: %v %v", drift, err)
	}
}

func TestDispatchReviewTimeout(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt, ReviewTimeout: 48 * time.Hour})
	if res.Status != workflows.StatusTimedOut {
		t.Fatalf("result = %+v", res)
	}
	if f.dump() != before {
		t.Error("the stores were not restored after the review timeout")
	}
}

func TestDispatchDefaultReviewTimeoutIsAWeek(t *testing.T) {
	f := newFixture(t)
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); !st.AwaitingReview {
			t.Errorf("not awaiting review after 6 days: %+v", st)
		}
	}, 6*24*time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt})
	if res.Status != workflows.StatusTimedOut {
		t.Fatalf("result = %+v", res)
	}
}

func TestDispatchCancel(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.RegisterDelayedCallback(func() { f.env.CancelWorkflow() }, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt})
	if res.Status != workflows.StatusCancelled {
		t.Fatalf("result = %+v", res)
	}
	if got := statuses(res.Changes); len(got) != 3 || slices.ContainsFunc(got, func(s string) bool { return s != "compensated" }) {
		t.Errorf("statuses = %v", got)
	}
	if f.dump() != before {
		t.Error("the stores were not restored after cancellation")
	}
}

func TestDispatchMaxRounds(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionReject, "delete activity Setting-out survey") }, time.Hour)
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionReject, "delete activity Mobilisation") }, 2*time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding", MaxRounds: 2})
	if res.Status != workflows.StatusRejected || res.Rounds != 2 {
		t.Fatalf("result = %+v", res)
	}
	if got := statuses(res.Changes); !slices.Equal(got, []string{"compensated", "compensated"}) {
		t.Errorf("statuses = %v", got)
	}
	if f.dump() != before {
		t.Error("the stores were not restored")
	}
}

func TestReviewRefusedWhenNotAwaiting(t *testing.T) {
	f := newFixture(t)
	// Planning takes an hour of workflow time, so a review at 30 minutes
	// arrives while nothing is awaited.
	f.env.OnActivity(f.acts.PlanRemovals, mockAny, mockAny).After(time.Hour).Return(
		scope.Plan{Ops: []schedule.Op{schedule.RemoveActivity("A003")}}, nil)
	var early func() error
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); st.Stage != workflows.StagePlanningRemovals || st.AwaitingReview {
			t.Errorf("status at 30m = %+v", st)
		}
		early = f.review(workflows.DecisionAccept, "")
		// A signal now is dropped, not kept for the review stage.
		f.env.SignalWorkflow(workflows.ReviewSignal, workflows.Review{Decision: workflows.DecisionAccept})
	}, 30*time.Minute)
	var bad, first, second func() error
	f.env.RegisterDelayedCallback(func() {
		if st := f.status(); !st.AwaitingReview {
			t.Errorf("the early signal was taken as a review: %+v", st)
		}
		bad = f.update(workflows.ReviewUpdate, workflows.Review{Decision: "maybe"}, nil)
		first = f.review(workflows.DecisionReject, "")
		second = f.review(workflows.DecisionAccept, "")
	}, 3*time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding"})
	if res.Status != workflows.StatusRejected {
		t.Fatalf("result = %+v", res)
	}
	if err := early(); err == nil || !strings.Contains(err.Error(), "no review is awaited") {
		t.Errorf("early review: %v", err)
	}
	if err := bad(); err == nil || !strings.Contains(err.Error(), "decision") {
		t.Errorf("bad decision: %v", err)
	}
	if err := first(); err != nil {
		t.Errorf("first review: %v", err)
	}
	if err := second(); err == nil {
		t.Error("a second review of the same proposal was accepted")
	}
}

func TestDispatchAutoAccept(t *testing.T) {
	f := newFixture(t)
	res := f.run(workflows.DispatchInput{Prompt: acceptPrompt, AutoAccept: true})
	if res.Status != workflows.StatusAccepted || len(res.Changes) != 3 {
		t.Fatalf("result = %+v", res)
	}
	if f.has("A003") || !f.hasName("Hoarding inspection") {
		t.Error("auto-accepted changes are not in the store")
	}
}

// TestDispatchClarification: an ambiguous name stops the round at
// awaiting_clarification with nothing of that step applied; the answer
// (an Update) continues the round, which then awaits review as usual.
func TestDispatchClarification(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	var asked workflows.Proposal
	var askedDone, refused, answered func() error
	f.env.RegisterDelayedCallback(func() {
		askedDone = f.update(workflows.ProposalUpdate, workflows.ProposalRequest{}, &asked)
	}, 0)
	f.env.RegisterDelayedCallback(func() {
		st := f.status()
		if st.Stage != workflows.StageAwaitingClarification || !st.AwaitingClarification || !strings.Contains(st.Question, `"the pour" matches 9 activities`) {
			t.Errorf("status while asking = %+v", st)
		}
		if len(st.Choices) != 9 || st.Choices[2] != (workflows.Choice{Label: "Pour slab Level 2 (A041)", Answer: "A041"}) {
			t.Errorf("the question's choices = %+v, want the 9 pours by name and id", st.Choices)
		}
		if f.dump() != before {
			t.Error("something was applied before the question was answered")
		}
		answered = f.update(workflows.ClarifyUpdate, workflows.Clarification{Answer: "Pour slab Level 2", Author: "pm"}, nil)
	}, time.Hour)
	var reviewDone func() error
	f.env.RegisterDelayedCallback(func() {
		st := f.status()
		if st.Stage != workflows.StageAwaitingReview || st.AwaitingClarification || st.Question != "" || st.Choices != nil {
			t.Errorf("status after the answer = %+v", st)
		}
		refused = f.update(workflows.ClarifyUpdate, workflows.Clarification{Answer: "no question now"}, nil)
		reviewDone = f.review(workflows.DecisionAccept, "")
	}, 2*time.Hour)

	res := f.run(workflows.DispatchInput{Prompt: "delete the pour"})
	if res.Status != workflows.StatusAccepted || calls(res.Changes) != `delete_activity(name="Pour slab Level 2")` {
		t.Fatalf("result = %+v\n%s", res, calls(res.Changes))
	}
	if err := refused(); err == nil || !strings.Contains(err.Error(), "no question is open") {
		t.Errorf("an answer with no open question: %v", err)
	}
	if err := askedDone(); err != nil || !asked.AwaitingClarification || !strings.Contains(asked.Question, "the pour") || len(asked.Choices) != 9 {
		t.Errorf("proposal while asking = %+v, %v", asked, err)
	}
	if err := answered(); err != nil {
		t.Errorf("clarify update: %v", err)
	}
	if err := reviewDone(); err != nil {
		t.Error(err)
	}
	if f.has("A041") || !f.has("A016") {
		t.Error("the store does not hold the answered deletion")
	}
}

// TestDispatchUnansweredQuestionTimesOut: the review timeout also bounds
// a question; what earlier steps applied is compensated.
func TestDispatchUnansweredQuestionTimesOut(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	res := f.run(workflows.DispatchInput{Prompt: "delete activity Site hoarding; add activity \"Crane check\" 1 day after the pour", ReviewTimeout: time.Hour})
	if res.Status != workflows.StatusTimedOut || !slices.Equal(statuses(res.Changes), []string{"compensated"}) {
		t.Fatalf("result = %+v", res)
	}
	if f.dump() != before {
		t.Error("stores not restored")
	}
}

// TestDispatchNotUnderstoodIsANote: what the planner cannot parse is shown
// at review, never guessed at.
func TestDispatchNotUnderstoodIsANote(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	var proposal workflows.Proposal
	var done func() error
	f.env.RegisterDelayedCallback(func() {
		done = f.update(workflows.ProposalUpdate, workflows.ProposalRequest{}, &proposal)
	}, time.Minute)
	f.env.RegisterDelayedCallback(func() { f.review(workflows.DecisionReject, "") }, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: "paint it blue"})
	if res.Status != workflows.StatusRejected || len(res.Changes) != 0 {
		t.Fatalf("result = %+v", res)
	}
	if err := done(); err != nil {
		t.Fatal(err)
	}
	if len(proposal.Notes) != 1 || !strings.Contains(proposal.Notes[0], "not understood") {
		t.Errorf("proposal = %+v", proposal)
	}
	if f.dump() != before {
		t.Error("stores changed")
	}
}

func TestDispatchInvalidOpFailsAndCompensates(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.OnActivity(f.acts.PlanAdditions, mockAny, mockAny).Return(scope.Plan{Ops: []schedule.Op{
		schedule.AddRelationship(schedule.Relationship{ID: "Rbad", Type: schedule.FS, Predecessor: "A002", Successor: "nope"}),
	}}, nil)
	// One request (a multi-part prompt would go on with its other tasks):
	// its removals are applied, its additions refused.
	res := f.run(workflows.DispatchInput{Prompt: `make painting level 3 follow drywall taping level 3 instead of suspended ceilings level 3`})
	if res.Status != workflows.StatusFailed || !strings.Contains(res.Error, "unknown activity") {
		t.Fatalf("result = %+v", res)
	}
	if got := statuses(res.Changes); !slices.Equal(got, []string{"compensated"}) {
		t.Errorf("statuses = %v", got)
	}
	if f.dump() != before {
		t.Error("the stores were not restored after the failure")
	}
}

func TestDispatchRefusesBadInput(t *testing.T) {
	f := newFixture(t)
	f.env.ExecuteWorkflow(workflows.DispatchWorkflow, workflows.DispatchInput{ScheduleID: scheduleID})
	var appErr *temporal.ApplicationError
	if err := f.env.GetWorkflowError(); !errors.As(err, &appErr) || appErr.Type() != workflows.ErrTypeInvalidInput {
		t.Fatalf("error = %v", err)
	}
}

func TestEditWorkflow(t *testing.T) {
	f := newFixture(t)
	f.env.ExecuteWorkflow(workflows.EditWorkflow, workflows.EditInput{ScheduleID: scheduleID, Author: "test",
		Ops: []schedule.Op{schedule.RemoveActivity("A003")}})
	if err := f.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res workflows.EditResult
	if err := f.env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != 1 || res.Applied[0].ID == "" || len(res.Inverses) == 0 || f.has("A003") {
		t.Fatalf("result = %+v", res)
	}
}

func TestEditWorkflowRefusedOp(t *testing.T) {
	f := newFixture(t)
	before := f.dump()
	f.env.ExecuteWorkflow(workflows.EditWorkflow, workflows.EditInput{ScheduleID: scheduleID,
		Ops: []schedule.Op{schedule.RemoveActivity("A003"), schedule.RemoveActivity("nope")}})
	if appErr := findAppError(f.env.GetWorkflowError(), activities.ErrTypeInvalidOp); appErr == nil || !appErr.NonRetryable() {
		t.Fatalf("error = %v", f.env.GetWorkflowError())
	}
	if f.dump() != before {
		t.Error("a refused edit changed the stores")
	}
}

// findAppError finds the application error of type typ in err's chain
// (errors.As would stop at the workflow's own wrapping error).
func findAppError(err error, typ string) *temporal.ApplicationError {
	for ; err != nil; err = errors.Unwrap(err) {
		var appErr *temporal.ApplicationError
		if errors.As(err, &appErr) && appErr.Type() == typ {
			return appErr
		}
		if appErr != nil {
			err = appErr
		}
	}
	return nil
}

// TestDispatchWithLLMPlanner is one dispatch end to end through the
// workflow with the LLM scope manager and a scripted OpenAI-compatible
// model: the real client, tool calls, structured output and the stores'
// own search. Token usage reaches the status query and the result.
func TestDispatchWithLLMPlanner(t *testing.T) {
	model := scopetest.NewModel(t)
	client, err := llm.New(model.Config())
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureWith(t, &scope.Manager{LLM: client})
	var reviewDone func() error
	f.env.RegisterDelayedCallback(func() {
		st := f.status()
		if !st.AwaitingReview || st.TokenUsage.Calls == 0 || st.TokenUsage.PromptTokens == 0 {
			t.Errorf("status during review = %+v", st)
		}
		reviewDone = f.review(workflows.DecisionAccept, "")
	}, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: "Make fitouts on floor 4 come after fitouts on floor 2 instead of floor 3", Author: "test"})
	want := `delete_relationship(type="SS", predecessor="Painting Level 3", successor="Painting Level 4", lag=5)
add_relationship(type="SS", predecessor="Painting Level 2", successor="Painting Level 4", lag=5)`
	if res.Status != workflows.StatusAccepted || calls(res.Changes) != want {
		t.Fatalf("result = %+v\n%s", res, calls(res.Changes))
	}
	if err := reviewDone(); err != nil {
		t.Fatal(err)
	}
	if u := model.Usage(); res.TokenUsage.Calls != u.Calls || res.TokenUsage.PromptTokens != u.PromptTokens {
		t.Errorf("token usage %+v, the model served %+v", res.TokenUsage, u)
	}
	f.committedInLedgers(res.Changes, "pm")
}
