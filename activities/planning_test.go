package activities_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

// TestPlanningTooLongIsNonRetryable: a dispatch input over scope.MaxPrompt
// — its prompt, feedback or an answer — fails its planning activity at
// once, without retry, saying why (PromptTooLong).
func TestPlanningTooLongIsNonRetryable(t *testing.T) {
	env, a, _ := setup(t)
	long := strings.Repeat("delete Painting Level 2. ", scope.MaxPrompt/25+1)
	check := func(what string, err error) {
		t.Helper()
		var appErr *temporal.ApplicationError
		if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypePromptTooLong || !appErr.NonRetryable() {
			t.Errorf("%s: error = %v", what, err)
		} else if !strings.Contains(err.Error(), "too long to plan") {
			t.Errorf("%s: %v does not say why", what, err)
		}
	}
	_, err := env.ExecuteActivity(a.SeparatePrompt, long)
	check("SeparatePrompt", err)
	_, err = env.ExecuteActivity(a.PlanRemovals, activities.PlanRequest{ScheduleID: scheduleID, Input: scope.PlanInput{Prompt: long}})
	check("PlanRemovals", err)
	_, err = env.ExecuteActivity(a.PlanAdditions, activities.PlanRequest{ScheduleID: scheduleID, Input: scope.PlanInput{Prompt: "add X", Feedback: long}})
	check("PlanAdditions feedback", err)
	_, err = env.ExecuteActivity(a.PlanAdditions, activities.PlanRequest{ScheduleID: scheduleID, Input: scope.PlanInput{Prompt: "delete the pour", Clarifications: []scope.Clarification{{Answer: long}}}})
	check("PlanAdditions answer", err)
}

// cancelledWhilePlanning is the rules planner whose activity is
// cancelled as the step starts, as Temporal cancels an activity's context
// when a heartbeat learns of the cancellation.
type cancelledWhilePlanning struct{ scope.Rules }

func (p cancelledWhilePlanning) PlanRemovals(ctx context.Context, snap scope.Snapshot, in scope.PlanInput) (scope.Plan, error) {
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	return p.Rules.PlanRemovals(ctx, snap, in)
}

// TestPlanningStopsWhenCancelled: a planning activity whose context is
// cancelled stops with the cancellation, not with a plan.
func TestPlanningStopsWhenCancelled(t *testing.T) {
	env, a, _ := setup(t)
	a.Planner = cancelledWhilePlanning{}
	v, err := env.ExecuteActivity(a.PlanRemovals, activities.PlanRequest{ScheduleID: scheduleID, Input: scope.PlanInput{Prompt: strings.Repeat("delete Painting Level 2; delete A003; ", 100)}})
	if err == nil {
		var plan scope.Plan
		_ = v.Get(&plan)
		t.Fatalf("a cancelled planning step returned a plan of %d ops", len(plan.Ops))
	}
	if !strings.Contains(err.Error(), "canceled") {
		t.Errorf("error = %v, want the cancellation", err)
	}
}
