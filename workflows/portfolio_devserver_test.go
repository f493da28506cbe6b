package workflows_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/config/configtest"
	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// flaky is the rules planner with failures injected per schedule (by the
// schedule's name, which the tests set to its id). Every prompt also gets
// an additions step, so a failing schedule fails after its removals were
// applied: its compensation is real.
type flaky struct {
	scope.Rules
	mu sync.Mutex
	// failures left per schedule: -1 fails for ever; feedback fails only
	// the rounds planned with feedback.
	fails    map[string]int
	feedback map[string]bool
	calls    map[string]int
	// step is where the schedule's planner fails: "additions" (default,
	// after the removals were applied) or "removals" (nothing applied).
	step map[string]string
}

const flakyMarker = "(flaky additions step)"

func newFlaky() *flaky {
	return &flaky{fails: map[string]int{}, feedback: map[string]bool{}, calls: map[string]int{}, step: map[string]string{}}
}

func (f *flaky) set(id string, fails int, onFeedback bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fails[id], f.feedback[id] = fails, onFeedback
}

func (f *flaky) Separate(ctx context.Context, prompt string) (scope.Separation, error) {
	sep, err := f.Rules.Separate(ctx, prompt)
	if err == nil && strings.TrimSpace(sep.Additions) == "" {
		sep.Additions = flakyMarker
	}
	return sep, err
}

// failNow reports whether step of schedule id fails now, counting the
// failure.
func (f *flaky) failNow(id, step string, in scope.PlanInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[id]++
	left := f.fails[id]
	if f.step[id] == "" && step != "additions" || f.step[id] != "" && f.step[id] != step {
		return nil
	}
	if left == 0 || (f.feedback[id] && in.Feedback == "") {
		return nil
	}
	if left > 0 {
		f.fails[id] = left - 1
	}
	return &llm.Error{Kind: "refused", Message: "injected planner failure for " + id}
}

func (f *flaky) PlanRemovals(ctx context.Context, snap scope.Snapshot, in scope.PlanInput) (scope.Plan, error) {
	if err := f.failNow(snap.Schedule.Name, "removals", in); err != nil {
		return scope.Plan{}, err
	}
	return f.Rules.PlanRemovals(ctx, snap, in)
}

func (f *flaky) PlanAdditions(ctx context.Context, snap scope.Snapshot, in scope.PlanInput) (scope.Plan, error) {
	if err := f.failNow(snap.Schedule.Name, "additions", in); err != nil {
		return scope.Plan{}, err
	}
	if strings.Contains(in.Prompt, flakyMarker) || in.Prompt == flakyMarker {
		return scope.Plan{}, nil
	}
	return f.Rules.PlanAdditions(ctx, snap, in)
}

// tiny is a three-activity chain named id.
func tiny(id string) *schedule.Schedule {
	return &schedule.Schedule{
		Name: id,
		Activities: []schedule.Activity{
			{ID: "A1", Name: "Excavate Level 1", Duration: "5"},
			{ID: "A2", Name: "Pour slab Level 1", Duration: "2"},
			{ID: "A3", Name: "Cure slab Level 1", Duration: "3"},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: "FS", Predecessor: "A1", Successor: "A2"},
			{ID: "R2", Type: "FS", Predecessor: "A2", Successor: "A3"},
		},
	}
}

const portfolioPrompt = "delete activity Cure slab Level 1"

// pfCase is one portfolio on three fresh schedules <prefix>-a, -b, -c.
type pfCase struct {
	l      *live
	ids    []string
	before map[string]string
}

func (l *live) portfolioCase(prefix string) *pfCase {
	l.t.Helper()
	pc := &pfCase{l: l, before: map[string]string{}}
	for _, s := range []string{"a", "b", "c"} {
		id := prefix + "-" + s
		if err := l.stores.Import(l.ctx, id, tiny(id), false, nil); err != nil {
			l.t.Fatal(err)
		}
		pc.ids = append(pc.ids, id)
		pc.before[id] = l.dump(id)
	}
	return pc
}

func (pc *pfCase) start(in workflows.PortfolioInput) string {
	pc.l.t.Helper()
	in.Schedules, in.Prompt, in.Author = pc.ids, portfolioPrompt, "ann"
	id := workflows.NewPortfolioID("")
	if _, _, err := workflows.StartPortfolio(pc.l.ctx, pc.l.c, id, in); err != nil {
		pc.l.t.Fatal(err)
	}
	return id
}

func (pc *pfCase) ready(id string) workflows.PortfolioStatus {
	pc.l.t.Helper()
	st, err := workflows.AwaitPortfolioReady(pc.l.ctx, pc.l.c, id)
	if err != nil {
		pc.l.t.Fatal(err)
	}
	return st
}

func (pc *pfCase) review(id, reviewer string, ds ...workflows.ScheduleDecision) workflows.PortfolioStatus {
	pc.l.t.Helper()
	st, err := workflows.ReviewPortfolio(pc.l.ctx, pc.l.c, id, workflows.PortfolioReview{Reviewer: reviewer, Decisions: ds})
	if err != nil {
		pc.l.t.Fatal(err)
	}
	return st
}

func (pc *pfCase) result(id string) workflows.PortfolioResult {
	pc.l.t.Helper()
	res, err := workflows.AwaitPortfolioResult(pc.l.ctx, pc.l.c, id)
	if err != nil {
		pc.l.t.Fatal(err)
	}
	return res
}

// expect checks each child's outcome and each schedule's stores: as
// before when its dispatch did not commit, the prompt's deletion when it
// did; and the two stores agree (what `autoscheduler verify` checks).
func (pc *pfCase) expect(res workflows.PortfolioResult, status string, outcomes ...string) {
	t := pc.l.t
	t.Helper()
	if res.Status != status {
		t.Errorf("portfolio %s (%s), want %s", res.Status, res.Error, status)
	}
	if len(res.Children) != len(pc.ids) {
		t.Fatalf("%d children, want %d", len(res.Children), len(pc.ids))
	}
	for i, id := range pc.ids {
		c := res.Children[i]
		if c.ScheduleID != id || c.WorkflowID != workflows.DispatchWorkflowID(id) {
			t.Errorf("child %d = %s %s", i, c.ScheduleID, c.WorkflowID)
		}
		if c.Result != outcomes[i] {
			t.Errorf("schedule %s ended %s (%s %s), want %s", id, c.Result, c.Error, c.Reason, outcomes[i])
		}
		s, err := pc.l.stores.Load(pc.l.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if outcomes[i] == workflows.StatusAccepted {
			if len(s.Activities) != 2 || slices.ContainsFunc(s.Activities, func(a schedule.Activity) bool { return a.ID == "A3" }) {
				t.Errorf("schedule %s accepted, yet holds %d activities", id, len(s.Activities))
			}
		} else if d := pc.l.dump(id); d != pc.before[id] {
			t.Errorf("schedule %s ended %s, yet its stores changed:\n%s\nwant\n%s", id, c.Result, d, pc.before[id])
		}
		if drift, err := pc.l.stores.Verify(pc.l.ctx, id); err != nil || len(drift) > 0 {
			t.Errorf("verify %s: %v %v", id, drift, err)
		}
	}
}

// sub points l at subtest t, with a deadline of its own: a stuck
// portfolio fails its subtest, not the whole run.
func (l *live) sub(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	l.t, l.ctx = t, ctx
}

// TestPortfolioOnDevServer: three schedules, one child's planner fails;
// each strategy on a real server, real children and the embedded store.
func TestPortfolioOnDevServer(t *testing.T) {
	l := startLive(t)
	portfolioScenarios(t, l, "", os.Getenv("RECORD_PORTFOLIO_HISTORY") == "1")
}

// TestPortfolioOnConfiguredServers: the same on Neo4j and Weaviate
// (NEO4J_URI and WEAVIATE_URL), schedules under a random prefix, deleted
// after.
func TestPortfolioOnConfiguredServers(t *testing.T) {
	cfg := configtest.Servers(t)
	l := startLive(t)
	c, err := cfg.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	l.stores = c
	x := fmt.Sprintf("s%06x-", rand.Uint32()&0xffffff)
	t.Cleanup(func() {
		for _, p := range []string{"ff", "ce", "rs", "rx", "rc", "fx", "fr", "lk", "cx"} {
			for _, s := range []string{"a", "b", "c"} {
				_ = c.DeleteSchedule(context.Background(), x+p+"-"+s)
			}
		}
	})
	portfolioScenarios(t, l, x, false)
}

// portfolioScenarios runs every strategy on schedules named x+"ff-a"...
func portfolioScenarios(t *testing.T, l *live, x string, record bool) {
	f := newFlaky()
	w := l.worker(f)
	defer w.Stop()

	t.Run("fail_fast", func(t *testing.T) {
		l.sub(t)
		pc := l.portfolioCase(x + "ff")
		f.set(x+"ff-b", -1, false)
		id := pc.start(workflows.PortfolioInput{Strategy: workflows.StrategyFailFast})
		res := pc.result(id)
		pc.expect(res, workflows.PortfolioFailed, workflows.StatusCancelled, workflows.StatusFailed, workflows.StatusCancelled)
		if !slices.Equal(res.Failed, []string{x + "ff-b"}) || !strings.Contains(res.Error, fmt.Sprintf("%q", x+"ff-b")) || !strings.Contains(res.Error, "injected planner failure") {
			t.Errorf("failed %v, error %q", res.Failed, res.Error)
		}
		// The children are the portfolio's children (the Web UI shows them
		// under it).
		d, err := l.c.DescribeWorkflowExecution(l.ctx, "dispatch-"+x+"ff-a", "")
		if err != nil {
			t.Fatal(err)
		}
		if p := d.GetWorkflowExecutionInfo().GetParentExecution(); p.GetWorkflowId() != id {
			t.Errorf("dispatch-ff-a's parent = %v, want %s", p, id)
		}
		// The query answers after the end too.
		st, err := workflows.QueryPortfolioStatus(l.ctx, l.c, id)
		if err != nil || st.Stage != workflows.PortfolioDone || st.Result != workflows.PortfolioFailed {
			t.Errorf("status %+v, %v", st, err)
		}
		if record {
			l.save("portfolio/portfolio_fail_fast", l.c.GetWorkflow(l.ctx, id, ""))
		}
	})

	t.Run("continue_on_error", func(t *testing.T) {
		l.sub(t)
		pc := l.portfolioCase(x + "ce")
		f.set(x+"ce-b", -1, false)
		id := pc.start(workflows.PortfolioInput{Strategy: workflows.StrategyContinueOnError})
		st := pc.ready(id)
		var stages []string
		for _, c := range st.Children {
			stages = append(stages, c.Stage+"/"+c.Result)
		}
		if want := []string{"awaiting_review/", "done/failed", "awaiting_review/"}; !slices.Equal(stages, want) {
			t.Fatalf("stages at ready = %v, want %v", stages, want)
		}
		props, err := workflows.PortfolioProposals(l.ctx, l.c, st)
		if err != nil || len(props) != 2 || len(props[0].Proposal.Changes) != 1 || props[1].ScheduleID != x+"ce-c" {
			t.Fatalf("proposals %+v, %v", props, err)
		}
		// A review of the failed schedule is refused.
		if _, err := workflows.ReviewPortfolio(l.ctx, l.c, id, workflows.PortfolioReview{Decisions: []workflows.ScheduleDecision{{ScheduleID: x + "ce-b", Decision: "accept"}}}); err == nil || !strings.Contains(err.Error(), "ended failed") {
			t.Errorf("review of the failed schedule: %v", err)
		}
		pc.review(id, "pm", workflows.ScheduleDecision{ScheduleID: x + "ce-a", Decision: "accept"}, workflows.ScheduleDecision{ScheduleID: x + "ce-c", Decision: "reject"})
		res := pc.result(id)
		pc.expect(res, workflows.PortfolioPartial, workflows.StatusAccepted, workflows.StatusFailed, workflows.StatusRejected)
		if !slices.Equal(res.Failed, []string{x + "ce-b"}) || len(res.Decisions) != 2 || res.Decisions[0].Reviewer != "pm" {
			t.Errorf("failed %v, decisions %+v", res.Failed, res.Decisions)
		}
		if record {
			l.save("portfolio/portfolio_continue_on_error", l.c.GetWorkflow(l.ctx, id, ""))
		}
	})

	t.Run("retry_then_succeed", func(t *testing.T) {
		l.sub(t)
		pc := l.portfolioCase(x + "rs")
		f.set(x+"rs-b", 1, false)
		id := pc.start(workflows.PortfolioInput{Strategy: workflows.StrategyRetry, MaxRetries: 2})
		st := pc.ready(id)
		if c, _ := st.Child(x + "rs-b"); c.Attempts != 2 || len(c.Errors) != 1 || c.Stage != workflows.StageAwaitingReview {
			t.Fatalf("rs-b at ready: %+v", c)
		}
		pc.review(id, "pm", workflows.ScheduleDecision{Decision: "accept"})
		res := pc.result(id)
		pc.expect(res, workflows.PortfolioCompleted, workflows.StatusAccepted, workflows.StatusAccepted, workflows.StatusAccepted)
		if record {
			l.save("portfolio/portfolio_retry", l.c.GetWorkflow(l.ctx, id, ""))
		}
	})

	t.Run("retry_exhausted", func(t *testing.T) {
		l.sub(t)
		pc := l.portfolioCase(x + "rx")
		f.set(x+"rx-b", -1, false)
		id := pc.start(workflows.PortfolioInput{Strategy: workflows.StrategyRetry, MaxRetries: 1})
		res := pc.result(id)
		pc.expect(res, workflows.PortfolioFailed, workflows.StatusCancelled, workflows.StatusFailed, workflows.StatusCancelled)
		if c := res.Children[1]; c.Attempts != 2 || len(c.Errors) != 1 {
			t.Errorf("rx-b: %+v", c)
		}
	})

	t.Run("retry_exhausted_then_continue", func(t *testing.T) {
		l.sub(t)
		pc := l.portfolioCase(x + "rc")
		f.set(x+"rc-b", -1, false)
		id := pc.start(workflows.PortfolioInput{Strategy: workflows.StrategyRetry, MaxRetries: 1, AfterRetries: workflows.StrategyContinueOnError})
		st := pc.ready(id)
		if c, _ := st.Child(x + "rc-b"); c.Attempts != 2 || c.Result != workflows.StatusFailed {
			t.Fatalf("rc-b at ready: %+v", c)
		}
		pc.review(id, "pm", workflows.ScheduleDecision{Decision: "accept"})
		pc.expect(pc.result(id), workflows.PortfolioPartial, workflows.StatusAccepted, workflows.StatusFailed, workflows.StatusAccepted)
	})

	// Another failure point and position: the first schedule's removals
	// step fails (nothing applied yet), continue_on_error, all the others
	// accepted.
	t.Run("first_fails_in_removals", func(t *testing.T) {
		l.sub(t)
		pc := l.portfolioCase(x + "fx")
		f.mu.Lock()
		f.step[x+"fx-a"] = "removals"
		f.mu.Unlock()
		f.set(x+"fx-a", -1, false)
		id := pc.start(workflows.PortfolioInput{Strategy: workflows.StrategyContinueOnError})
		pc.ready(id)
		pc.review(id, "pm", workflows.ScheduleDecision{Decision: "accept"})
		res := pc.result(id)
		pc.expect(res, workflows.PortfolioPartial, workflows.StatusFailed, workflows.StatusAccepted, workflows.StatusAccepted)
		if !strings.Contains(res.Children[0].Error, "injected planner failure") {
			t.Errorf("fx-a: %+v", res.Children[0])
		}
	})

	// fail_fast holds accepts: a failure in a later feedback round still
	// leaves every schedule as it was.
	t.Run("fail_fast_after_review", func(t *testing.T) {
		l.sub(t)
		pc := l.portfolioCase(x + "fr")
		f.set(x+"fr-b", -1, true)
		id := pc.start(workflows.PortfolioInput{})
		pc.ready(id)
		st := pc.review(id, "pm",
			workflows.ScheduleDecision{ScheduleID: x + "fr-b", Decision: "reject", Feedback: "delete activity Pour slab Level 1"},
			workflows.ScheduleDecision{Decision: "accept"})
		if a, _ := st.Child(x + "fr-a"); a.Held == nil {
			t.Errorf("fr-a's accept is not held: %+v", a)
		}
		res := pc.result(id)
		pc.expect(res, workflows.PortfolioFailed, workflows.StatusCancelled, workflows.StatusFailed, workflows.StatusCancelled)
	})

	// The lock: a schedule with an open dispatch refuses its child, which
	// is that schedule's error naming the open dispatch; async returns at
	// once.
	t.Run("lock_async", func(t *testing.T) {
		l.sub(t)
		pc := l.portfolioCase(x + "lk")
		open := l.start(workflows.DispatchInput{ScheduleID: x + "lk-c", Prompt: "delete activity Excavate Level 1", Author: "bob"})
		if err := l.update(open, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 1}, &workflows.Proposal{}); err != nil {
			t.Fatal(err)
		}
		openDump := l.dump(x + "lk-c")
		id := pc.start(workflows.PortfolioInput{Mode: workflows.PortfolioAsync, Strategy: workflows.StrategyContinueOnError})
		st := pc.ready(id)
		c, _ := st.Child(x + "lk-c")
		if c.Result != workflows.StatusFailed || !strings.Contains(c.Error, "already has an open dispatch: dispatch-"+x+"lk-c") {
			t.Fatalf("lk-c: %+v", c)
		}
		// The open dispatch is untouched (its provisional deletion stands).
		if l.dump(x+"lk-c") != openDump {
			t.Error("the portfolio changed the schedule of the open dispatch")
		}
		// Async: the children are reviewed on their own, directly.
		for _, s := range []string{x + "lk-a", x + "lk-b"} {
			if err := workflows.SendReview(l.ctx, l.c, workflows.DispatchWorkflowID(s), workflows.Review{Decision: "reject", Reviewer: "pm"}); err != nil {
				t.Fatal(err)
			}
		}
		res := pc.result(id)
		if res.Status != workflows.PortfolioPartial || !slices.Equal(res.Failed, []string{x + "lk-c"}) {
			t.Errorf("result %+v", res)
		}
		if err := workflows.SendReview(l.ctx, l.c, open.GetID(), workflows.Review{Decision: "reject", Reviewer: "bob"}); err != nil {
			t.Fatal(err)
		}
		if r := l.result(open); r.Status != workflows.StatusRejected {
			t.Fatalf("open dispatch: %+v", r)
		}
		pc.expect(res, workflows.PortfolioPartial, workflows.StatusRejected, workflows.StatusRejected, workflows.StatusFailed)
	})

	t.Run("cancel", func(t *testing.T) {
		l.sub(t)
		pc := l.portfolioCase(x + "cx")
		id := pc.start(workflows.PortfolioInput{Strategy: workflows.StrategyContinueOnError})
		pc.ready(id)
		if err := l.c.CancelWorkflow(l.ctx, id, ""); err != nil {
			t.Fatal(err)
		}
		pc.expect(pc.result(id), workflows.PortfolioCancelled, workflows.StatusCancelled, workflows.StatusCancelled, workflows.StatusCancelled)
	})
}
