package workflows_test

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// fakeChildren stands in for DispatchWorkflow in the test environment:
// a schedule whose id ends in "bad" fails after planning, one ending in
// "flaky" fails its first run; the others await review (signal) and end
// accepted or rejected, or cancelled when cancelled.
type fakeChildren struct {
	mu     sync.Mutex
	starts map[string]int
}

func (f *fakeChildren) dispatch(ctx workflow.Context, in workflows.DispatchInput) (*workflows.DispatchResult, error) {
	f.mu.Lock()
	f.starts[in.ScheduleID]++
	n := f.starts[in.ScheduleID]
	f.mu.Unlock()
	id := workflow.GetInfo(ctx).WorkflowExecution.ID
	tell := func(stage string) {
		workflow.SignalExternalWorkflow(ctx, in.Parent, "", workflows.ChildStageSignal,
			workflows.ChildStage{WorkflowID: id, ScheduleID: in.ScheduleID, Stage: stage, Round: 1})
	}
	tell(workflows.StageSeparating)
	if err := workflow.Sleep(ctx, time.Second); err != nil {
		return &workflows.DispatchResult{Status: workflows.StatusCancelled, Rounds: 1}, nil
	}
	if strings.HasSuffix(in.ScheduleID, "bad") || (strings.HasSuffix(in.ScheduleID, "flaky") && n == 1) {
		return &workflows.DispatchResult{Status: workflows.StatusFailed, Rounds: 1, Error: "planning additions: injected failure"}, nil
	}
	tell(workflows.StageAwaitingReview)
	var r workflows.Review
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(workflow.GetSignalChannel(ctx, workflows.ReviewSignal), func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, &r) })
	sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) {})
	sel.Select(ctx)
	switch {
	case ctx.Err() != nil:
		return &workflows.DispatchResult{Status: workflows.StatusCancelled, Rounds: 1}, nil
	case r.Decision == workflows.DecisionAccept:
		return &workflows.DispatchResult{Status: workflows.StatusAccepted, Rounds: 1, Reviewer: r.Reviewer}, nil
	}
	return &workflows.DispatchResult{Status: workflows.StatusRejected, Rounds: 1, Reviewer: r.Reviewer}, nil
}

func newPortfolioEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakeChildren) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	f := &fakeChildren{starts: map[string]int{}}
	env.RegisterWorkflow(workflows.PortfolioWorkflow)
	env.RegisterWorkflowWithOptions(f.dispatch, workflow.RegisterOptions{Name: "DispatchWorkflow"})
	return env, f
}

func portfolioResult(t *testing.T, env *testsuite.TestWorkflowEnvironment) workflows.PortfolioResult {
	t.Helper()
	if !env.IsWorkflowCompleted() {
		t.Fatal("the portfolio did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var res workflows.PortfolioResult
	if err := env.GetWorkflowResult(&res); err != nil {
		t.Fatal(err)
	}
	return res
}

func outcomes(res workflows.PortfolioResult) []string {
	var out []string
	for _, c := range res.Children {
		out = append(out, c.Result)
	}
	return out
}

// update sends an Update from a delayed callback and records its error.
func update(env *testsuite.TestWorkflowEnvironment, after time.Duration, name string, arg any, out any, errp *error) {
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(name, name+after.String(), &testsuite.TestUpdateCallback{
			OnReject: func(err error) { *errp = err },
			OnAccept: func() {},
			OnComplete: func(v any, err error) {
				if err != nil {
					*errp = err
					return
				}
				if out != nil {
					if st, ok := v.(workflows.PortfolioStatus); ok {
						*(out.(*workflows.PortfolioStatus)) = st
					}
				}
			},
		}, arg)
	}, after)
}

func TestPortfolioFailFast(t *testing.T) {
	env, _ := newPortfolioEnv(t)
	env.ExecuteWorkflow(workflows.PortfolioWorkflow, workflows.PortfolioInput{
		Schedules: []string{"a", "b-bad", "c"}, Prompt: "delete activity X", Author: "ann",
	})
	res := portfolioResult(t, env)
	if res.Status != workflows.PortfolioFailed || !slices.Equal(outcomes(res), []string{"cancelled", "failed", "cancelled"}) {
		t.Fatalf("result %s %v: %s", res.Status, outcomes(res), res.Error)
	}
	if !slices.Equal(res.Failed, []string{"b-bad"}) || !strings.Contains(res.Error, `schedule "b-bad" failed: planning additions: injected failure`) {
		t.Errorf("failed %v, error %q", res.Failed, res.Error)
	}
	if c := res.Children[0]; !strings.Contains(c.Reason, `fail_fast: schedule "b-bad" failed`) || c.WorkflowID != "dispatch-a" {
		t.Errorf("child a: %+v", c)
	}
}

func TestPortfolioContinueOnError(t *testing.T) {
	env, _ := newPortfolioEnv(t)
	var ready, reviewed workflows.PortfolioStatus
	var readyErr, reviewErr, refused error
	update(env, time.Second/2, workflows.PortfolioReadyUpdate, workflows.PortfolioReadyRequest{}, &ready, &readyErr)
	// Refused: b failed, and "x" is no schedule of the portfolio.
	update(env, time.Minute, workflows.PortfolioReviewUpdate, workflows.PortfolioReview{Decisions: []workflows.ScheduleDecision{{ScheduleID: "b-bad", Decision: "accept"}}}, nil, &refused)
	var refusedX error
	update(env, time.Minute+time.Second, workflows.PortfolioReviewUpdate, workflows.PortfolioReview{Decisions: []workflows.ScheduleDecision{{ScheduleID: "x", Decision: "accept"}}}, nil, &refusedX)
	update(env, 2*time.Minute, workflows.PortfolioReviewUpdate, workflows.PortfolioReview{Reviewer: "pm", Decisions: []workflows.ScheduleDecision{
		{ScheduleID: "c", Decision: "reject"}, {Decision: "accept"},
	}}, &reviewed, &reviewErr)
	env.ExecuteWorkflow(workflows.PortfolioWorkflow, workflows.PortfolioInput{
		Schedules: []string{"a", "b-bad", "c"}, Prompt: "delete activity X", Strategy: workflows.StrategyContinueOnError,
	})
	res := portfolioResult(t, env)
	if readyErr != nil || reviewErr != nil {
		t.Fatal(readyErr, reviewErr)
	}
	if !ready.Ready() || ready.Children[0].Stage != workflows.StageAwaitingReview || ready.Children[1].Result != workflows.StatusFailed {
		t.Errorf("ready: %+v", ready)
	}
	if refused == nil || !strings.Contains(refused.Error(), `"b-bad": its dispatch ended failed`) {
		t.Errorf("review of the failed schedule: %v", refused)
	}
	if refusedX == nil || !strings.Contains(refusedX.Error(), "not in the portfolio") {
		t.Errorf("review of an unknown schedule: %v", refusedX)
	}
	if res.Status != workflows.PortfolioPartial || !slices.Equal(outcomes(res), []string{"accepted", "failed", "rejected"}) {
		t.Fatalf("result %s %v: %s", res.Status, outcomes(res), res.Error)
	}
	if len(res.Decisions) != 2 || res.Decisions[0].ScheduleID != "a" || res.Decisions[1].Decision != "reject" || res.Decisions[0].Reviewer != "pm" {
		t.Errorf("decisions %+v", res.Decisions)
	}
}

func TestPortfolioRetry(t *testing.T) {
	env, f := newPortfolioEnv(t)
	var err error
	update(env, time.Minute, workflows.PortfolioReviewUpdate, workflows.PortfolioReview{Decisions: []workflows.ScheduleDecision{{Decision: "accept"}}}, nil, &err)
	env.ExecuteWorkflow(workflows.PortfolioWorkflow, workflows.PortfolioInput{
		Schedules: []string{"a", "b-flaky", "c"}, Prompt: "p", Strategy: workflows.StrategyRetry,
	})
	res := portfolioResult(t, env)
	if err != nil {
		t.Fatal(err)
	}
	// fail_fast after retries holds accepts until all are accepted: then
	// all three commit.
	if res.Status != workflows.PortfolioCompleted || !slices.Equal(outcomes(res), []string{"accepted", "accepted", "accepted"}) {
		t.Fatalf("result %s %v: %s", res.Status, outcomes(res), res.Error)
	}
	if c := res.Children[1]; c.Attempts != 2 || len(c.Errors) != 1 || f.starts["b-flaky"] != 2 {
		t.Errorf("b-flaky: %+v, %d starts", c, f.starts["b-flaky"])
	}
}

func TestPortfolioRetryExhausted(t *testing.T) {
	for _, after := range []string{workflows.StrategyFailFast, workflows.StrategyContinueOnError} {
		t.Run(after, func(t *testing.T) {
			env, f := newPortfolioEnv(t)
			var err error
			update(env, time.Minute, workflows.PortfolioReviewUpdate, workflows.PortfolioReview{Decisions: []workflows.ScheduleDecision{{Decision: "accept"}}}, nil, &err)
			env.ExecuteWorkflow(workflows.PortfolioWorkflow, workflows.PortfolioInput{
				Schedules: []string{"a", "b-bad"}, Prompt: "p", Strategy: workflows.StrategyRetry, MaxRetries: 3, AfterRetries: after,
			})
			res := portfolioResult(t, env)
			want, status := []string{"cancelled", "failed"}, workflows.PortfolioFailed
			if after == workflows.StrategyContinueOnError {
				want, status = []string{"accepted", "failed"}, workflows.PortfolioPartial
			}
			if res.Status != status || !slices.Equal(outcomes(res), want) {
				t.Fatalf("result %s %v: %s", res.Status, outcomes(res), res.Error)
			}
			if c := res.Children[1]; c.Attempts != 4 || len(c.Errors) != 3 || f.starts["b-bad"] != 4 {
				t.Errorf("b-bad: %+v", c)
			}
		})
	}
}

// fail_fast holds an accept until every live child is accepted.
func TestPortfolioFailFastHoldsAccepts(t *testing.T) {
	env, _ := newPortfolioEnv(t)
	var first, second workflows.PortfolioStatus
	var err1, err2 error
	update(env, time.Minute, workflows.PortfolioReviewUpdate, workflows.PortfolioReview{Decisions: []workflows.ScheduleDecision{{ScheduleID: "a", Decision: "accept"}}}, &first, &err1)
	update(env, 2*time.Minute, workflows.PortfolioReviewUpdate, workflows.PortfolioReview{Decisions: []workflows.ScheduleDecision{{ScheduleID: "c", Decision: "accept"}}}, &second, &err2)
	env.ExecuteWorkflow(workflows.PortfolioWorkflow, workflows.PortfolioInput{Schedules: []string{"a", "c"}, Prompt: "p"})
	res := portfolioResult(t, env)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if a, _ := first.Child("a"); a.Held == nil || a.Stage != workflows.StageAwaitingReview {
		t.Errorf("a after the first review: %+v", a)
	}
	if a, _ := second.Child("a"); a.Held != nil || a.Stage != "review_sent" {
		t.Errorf("a after the second review: %+v", a)
	}
	if res.Status != workflows.PortfolioCompleted || !slices.Equal(outcomes(res), []string{"accepted", "accepted"}) || !res.Decisions[0].Held {
		t.Fatalf("result %+v", res)
	}
}

// A held accept is released when the last other child ends without
// accept (rejected): the rest commit.
func TestPortfolioHeldAcceptReleasedWhenTheOtherEnds(t *testing.T) {
	env, _ := newPortfolioEnv(t)
	var err1, err2 error
	update(env, time.Minute, workflows.PortfolioReviewUpdate, workflows.PortfolioReview{Decisions: []workflows.ScheduleDecision{{ScheduleID: "a", Decision: "accept"}}}, nil, &err1)
	update(env, 2*time.Minute, workflows.PortfolioReviewUpdate, workflows.PortfolioReview{Decisions: []workflows.ScheduleDecision{{Decision: "reject"}}}, nil, &err2)
	env.ExecuteWorkflow(workflows.PortfolioWorkflow, workflows.PortfolioInput{Schedules: []string{"a", "c"}, Prompt: "p"})
	res := portfolioResult(t, env)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if res.Status != workflows.PortfolioCompleted || !slices.Equal(outcomes(res), []string{"accepted", "rejected"}) {
		t.Fatalf("result %+v", res)
	}
}

func TestPortfolioCancelled(t *testing.T) {
	env, _ := newPortfolioEnv(t)
	env.RegisterDelayedCallback(env.CancelWorkflow, time.Minute)
	env.ExecuteWorkflow(workflows.PortfolioWorkflow, workflows.PortfolioInput{Schedules: []string{"a", "b"}, Prompt: "p", Mode: workflows.PortfolioAsync})
	res := portfolioResult(t, env)
	if res.Status != workflows.PortfolioCancelled || !slices.Equal(outcomes(res), []string{"cancelled", "cancelled"}) {
		t.Fatalf("result %+v", res)
	}
}

func TestPortfolioInvalidInput(t *testing.T) {
	for _, in := range []workflows.PortfolioInput{
		{Schedules: []string{"a", "a"}, Prompt: "p"},
		{Schedules: nil, Prompt: "p"},
		{Schedules: []string{"a"}, Prompt: " "},
		{Schedules: []string{"a"}, Prompt: "p", Strategy: "ignore"},
		{Schedules: []string{"a"}, Prompt: "p", Mode: "later"},
		{Schedules: []string{"a"}, Prompt: "p", Strategy: "retry", AfterRetries: "retry"},
	} {
		env, _ := newPortfolioEnv(t)
		env.ExecuteWorkflow(workflows.PortfolioWorkflow, in)
		if err := env.GetWorkflowError(); err == nil || !strings.Contains(err.Error(), workflows.ErrTypeInvalidInput) {
			t.Errorf("%+v: error %v", in, err)
		}
	}
}

// TestPortfolioReplay replays the recorded portfolio histories (kept under
// testdata/histories/portfolio/, apart from the dispatch histories that
// TestReplayHistories replays with only the dispatch workflows
// registered). The *_forward_to_run.json histories were recorded before
// the portfolio's versioned changes (versionForwardLatestRun, …) and are
// kept: new recordings go beside them, never over them. Record with
//
//	RECORD_PORTFOLIO_HISTORY=1 GOTOOLCHAIN=local go test -run TestPortfolioOnDevServer ./workflows/
func TestPortfolioReplay(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(historiesDir, "portfolio", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no portfolio histories recorded")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".json"), func(t *testing.T) {
			r := worker.NewWorkflowReplayer()
			r.RegisterWorkflow(workflows.PortfolioWorkflow)
			r.RegisterWorkflow(workflows.DispatchWorkflow)
			if err := r.ReplayWorkflowHistoryFromJSONFile(testLogger(t), path); err != nil {
				t.Fatalf("replaying %s: %v", path, err)
			}
		})
	}
}
