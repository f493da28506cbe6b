package workflows_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/workflows"
	"github.com/autoscheduler/autoscheduler/workflows/workflowstest"
)

// TestClientCancelOnDevServer: Cancel — what the CLI's `dispatch cancel` and
// the web app's cancel button call — ends a dispatch that waits for an
// answer (issue 26, item 14): what it applied is undone, it ends
// cancelled by who sent it, and `dispatch show` lists the cancel. A
// reject then is refused pointing to the cancel; a name with control
// characters is refused before anything is sent; a second cancel is
// refused.
func TestClientCancelOnDevServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal dev server")
	}
	e := workflowstest.Start(t, workflowstest.Options{Import: map[string]string{"building": "../examples/building.json"}, Planner: scope.Rules{}})
	c, stores := e.Client, e.Stores
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	run, err := workflows.Start(ctx, c, workflows.DispatchInput{ScheduleID: "building", Author: "ann",
		Prompt: `delete activity Site hoarding; add activity "Crane check" 1 day after the pour`})
	if err != nil {
		t.Fatal(err)
	}
	id := run.GetID()
	p, err := workflows.AwaitProposal(ctx, c, id, "", 1)
	if err != nil || !p.AwaitingClarification || len(p.Changes) != 1 {
		t.Fatalf("proposal = %+v, %v; want a question after one removal", p, err)
	}
	var refused *workflows.RefusedError
	err = workflows.SendReview(ctx, c, id, workflows.Review{Decision: workflows.DecisionReject, Reviewer: "bob"})
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "answer it, or cancel the dispatch") {
		t.Errorf("a reject while a question is open: %v", err)
	}
	var bad *usertext.Error
	if err := workflows.Cancel(ctx, c, id, "", "Mallory\x1b]0;TITLE\a\x1b[2J"); !errors.As(err, &bad) || bad.Field != "reviewer" {
		t.Errorf("a cancel by a name with escapes: %v, want a *usertext.Error", err)
	}
	if err := workflows.Cancel(ctx, c, id, run.GetRunID(), "carol"); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	var res workflows.DispatchResult
	if err := c.GetWorkflow(ctx, id, run.GetRunID()).Get(ctx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != workflows.StatusCancelled || res.Reason != "cancelled by carol while awaiting clarification (round 1)" ||
		len(res.Changes) != 1 || res.Changes[0].Status != workflows.ChangeCompensated {
		t.Fatalf("result = %+v", res)
	}
	after, err := stores.Load(ctx, "building")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := after.Activity("A003"); !ok {
		t.Error("the removal was not undone")
	}
	d, err := workflows.Describe(ctx, c, id, run.GetRunID())
	if err != nil {
		t.Fatal(err)
	}
	if d.Outcome != workflows.StatusCancelled || len(d.Reviews) != 1 || d.Reviews[0].Decision != workflows.DecisionCancel || d.Reviews[0].Reviewer != "carol" {
		t.Errorf("described: outcome %q, reviews %+v", d.Outcome, d.Reviews)
	}
	if err := workflows.Cancel(ctx, c, id, run.GetRunID(), "carol"); !errors.As(err, &refused) || refused.What != "cancel" {
		t.Errorf("a cancel of an ended dispatch: %v", err)
	}
}

// fakeClient scripts the two calls Cancel and Start make; any other
// panics (the embedded nil interface).
type fakeClient struct {
	client.Client
	updateErr  error
	updates    []client.UpdateWorkflowOptions
	cancelled  []string
	started    int
	cancelFail error
}

func (f *fakeClient) UpdateWorkflow(_ context.Context, opts client.UpdateWorkflowOptions) (client.WorkflowUpdateHandle, error) {
	f.updates = append(f.updates, opts)
	return nil, f.updateErr
}

func (f *fakeClient) CancelWorkflow(_ context.Context, id, runID string) error {
	f.cancelled = append(f.cancelled, id+"/"+runID)
	return f.cancelFail
}

func (f *fakeClient) ExecuteWorkflow(context.Context, client.StartWorkflowOptions, any, ...any) (client.WorkflowRun, error) {
	f.started++
	return nil, errors.New("not started")
}

// TestCancelOldRuns: a run from before cancel at any stage refuses a
// cancel outside review (its error type, or an older worker's words);
// Cancel then cancels it through Temporal's workflow cancellation. Other
// refusals stay refusals.
func TestCancelOldRuns(t *testing.T) {
	ctx := context.Background()
	for _, refusal := range []error{
		temporal.NewApplicationError("no review is awaited (stage planning_additions, round 1): this dispatch takes a cancel only at review", workflows.ErrTypeCancelAtReviewOnly),
		errors.New("no review is awaited (stage awaiting_clarification, round 1)"),
		errors.New(`decision "cancel": must be "accept" or "reject"`),
	} {
		f := &fakeClient{updateErr: refusal}
		if err := workflows.Cancel(ctx, f, "dispatch-building", "run-1", "carol"); err != nil {
			t.Errorf("cancel refused with %q: %v, want the workflow cancelled", refusal, err)
		}
		if len(f.cancelled) != 1 || f.cancelled[0] != "dispatch-building/run-1" {
			t.Errorf("refused with %q: cancelled %v", refusal, f.cancelled)
		}
		r := f.updates[0]
		if r.UpdateName != workflows.ReviewUpdate || r.RunID != "run-1" || r.Args[0] != (workflows.Review{Decision: workflows.DecisionCancel, Reviewer: "carol"}) {
			t.Errorf("update sent: %+v", r)
		}
	}
	f := &fakeClient{updateErr: temporal.NewApplicationError("round 1 was already decided: accepted by bob", workflows.ErrTypeNoReview)}
	var refused *workflows.RefusedError
	if err := workflows.Cancel(ctx, f, "dispatch-building", "", "carol"); !errors.As(err, &refused) || !strings.Contains(err.Error(), "cancel of dispatch-building refused: round 1 was already decided: accepted by bob") || len(f.cancelled) != 0 {
		t.Errorf("a cancel of an accepted round: %v, cancelled %v", err, f.cancelled)
	}
	// A review other than a cancel is never turned into one.
	f = &fakeClient{updateErr: errors.New("no review is awaited (stage planning_additions, round 1)")}
	if err := workflows.SendReview(ctx, f, "dispatch-building", workflows.Review{Decision: workflows.DecisionReject}); !errors.As(err, &refused) || len(f.cancelled) != 0 {
		t.Errorf("a reject while planning: %v, cancelled %v", err, f.cancelled)
	}
}

// TestNamesRefusedBeforeSending: every way a name or text reaches a
// dispatch refuses control and invisible characters with a
// *usertext.Error naming the field, before anything is sent.
func TestNamesRefusedBeforeSending(t *testing.T) {
	ctx := context.Background()
	f := &fakeClient{}
	for _, bad := range []string{"\x1b]0;TITLE\a\x1b[2J", "\u009b2J", "\x7f", "\r", "\u202e", "\u200b", "\xff"} {
		var e *usertext.Error
		checks := map[string]error{
			"author (start)": func() error {
				_, err := workflows.Start(ctx, f, workflows.DispatchInput{ScheduleID: "b", Prompt: "x", Author: "ann" + bad})
				return err
			}(),
			"reviewer (review)": workflows.SendReview(ctx, f, "d", workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob" + bad}),
			"feedback (review)": workflows.SendReview(ctx, f, "d", workflows.Review{Decision: workflows.DecisionReject, Reviewer: "bob", Feedback: "no" + bad}),
			"reviewer (cancel)": workflows.Cancel(ctx, f, "d", "", "carol"+bad),
			"author (answer)":   workflows.SendAnswer(ctx, f, "d", "A041", "pm"+bad),
			"answer (answer)":   workflows.SendAnswer(ctx, f, "d", "A041"+bad, "pm"),
			"author (edit)": func() error {
				_, _, err := workflows.Edit(ctx, f, "b", "ann"+bad, []schedule.Op{schedule.RemoveActivity("A003")})
				return err
			}(),
			"author (portfolio)": func() error {
				_, _, err := workflows.StartPortfolio(ctx, f, "p", workflows.PortfolioInput{Author: "ann" + bad})
				return err
			}(),
			"reviewer (portfolio review)": func() error {
				_, err := workflows.ReviewPortfolio(ctx, f, "p", workflows.PortfolioReview{Reviewer: "bob" + bad})
				return err
			}(),
		}
		for what, err := range checks {
			field := strings.Fields(what)[0]
			if !errors.As(err, &e) || e.Field != field {
				t.Errorf("%s with %q: %v, want a *usertext.Error for %s", what, bad, err, field)
			}
		}
	}
	if len(f.updates) != 0 || f.started != 0 {
		t.Errorf("sent: %d updates, %d starts", len(f.updates), f.started)
	}
	// Feedback and answers keep their lines and tabs; too long is
	// scope's error.
	if err := workflows.CheckText("feedback", "keep the roof\n\tand the crane"); err != nil {
		t.Errorf("two lines of feedback: %v", err)
	}
	if err := workflows.CheckText("answer", strings.Repeat("x", scope.MaxPrompt+1)); !errors.Is(err, scope.ErrTooLong) {
		t.Errorf("an answer over MaxPrompt: %v", err)
	}
}
