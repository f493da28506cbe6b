package activities_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/risk"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

const scheduleID = "building"

func setup(t *testing.T) (*testsuite.TestActivityEnvironment, *activities.Activities, *schedule.Schedule) {
	t.Helper()
	c, s := storetest.EmbeddedBuilding(t, scheduleID)
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestActivityEnvironment()
	a := &activities.Activities{Stores: c, Planner: scope.Rules{}}
	env.RegisterActivity(a)
	return env, a, s
}

func graphDump(t *testing.T, a *activities.Activities) *store.GraphDump {
	t.Helper()
	d, err := a.Stores.Graph.Dump(context.Background(), scheduleID)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestApplyCompensateIdempotent(t *testing.T) {
	env, a, _ := setup(t)
	before := graphDump(t, a)
	ops := []schedule.Op{schedule.DissolveActivity("A008").WithScope("d/round-1/removals"), schedule.RemoveActivity("A003").WithScope("d/round-1/removals")}
	v, err := env.ExecuteActivity(a.ApplyOps, activities.ApplyInput{ScheduleID: scheduleID, Ops: ops})
	if err != nil {
		t.Fatal(err)
	}
	var res activities.ApplyResult
	if err := v.Get(&res); err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != 2 || res.Applied[0].Call == "" || len(res.Inverses) == 0 {
		t.Fatalf("apply result = %+v", res)
	}
	// A retried apply returns the recorded result and changes nothing more.
	v, err = env.ExecuteActivity(a.ApplyOps, activities.ApplyInput{ScheduleID: scheduleID, Ops: ops})
	if err != nil {
		t.Fatal(err)
	}
	var again activities.ApplyResult
	_ = v.Get(&again)
	if len(again.Inverses) != len(res.Inverses) || again.Inverses[0].ID != res.Inverses[0].ID {
		t.Error("a retried apply did not return the recorded inverses")
	}
	in := activities.CompensateInput{ScheduleID: scheduleID, Scope: "d/round-1", Inverses: res.Inverses}
	for range 2 { // the second run is a retry: a no-op
		if _, err := env.ExecuteActivity(a.Compensate, in); err != nil {
			t.Fatal(err)
		}
	}
	if after := graphDump(t, a); !equalDump(before, after) {
		t.Error("compensation did not restore the graph")
	}
}

func equalDump(x, y *store.GraphDump) bool {
	return x.Meta.Name == y.Meta.Name && slices.Equal(x.Nodes, y.Nodes) && slices.Equal(x.Edges, y.Edges)
}

func TestApplyOpsRefusedIsNonRetryable(t *testing.T) {
	env, a, _ := setup(t)
	_, err := env.ExecuteActivity(a.ApplyOps, activities.ApplyInput{ScheduleID: scheduleID, Ops: []schedule.Op{schedule.RemoveActivity("nope")}})
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeInvalidOp || !appErr.NonRetryable() {
		t.Fatalf("error = %v", err)
	}
}

func TestUnknownScheduleIsNonRetryable(t *testing.T) {
	env, a, _ := setup(t)
	_, err := env.ExecuteActivity(a.PlanRemovals, activities.PlanRequest{ScheduleID: "nope", Input: scope.PlanInput{Prompt: "delete activity A003"}})
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeScheduleNotFound || !appErr.NonRetryable() {
		t.Fatalf("error = %v", err)
	}
}

func TestComputeImpact(t *testing.T) {
	env, a, orig := setup(t)
	rb, err := schedule.Analyze(orig)
	if err != nil {
		t.Fatal(err)
	}
	crit := rb.CriticalPath()
	// Remove a critical activity with a non-zero duration.
	var target string
	for _, id := range crit {
		if act, _ := orig.Activity(id); act.Duration != "0" {
			target = id
			break
		}
	}
	v, err := env.ExecuteActivity(a.ApplyOps, activities.ApplyInput{ScheduleID: scheduleID, Ops: []schedule.Op{schedule.DissolveActivity(target)}})
	if err != nil {
		t.Fatal(err)
	}
	var res activities.ApplyResult
	_ = v.Get(&res)
	v, err = env.ExecuteActivity(a.ComputeImpact, activities.ImpactInput{ScheduleID: scheduleID, Inverses: res.Inverses})
	if err != nil {
		t.Fatal(err)
	}
	var imp schedule.Impact
	if err := v.Get(&imp); err != nil {
		t.Fatal(err)
	}
	after := orig.Clone()
	op := schedule.DissolveActivity(target)
	if _, err := schedule.Apply(after, &op); err != nil {
		t.Fatal(err)
	}
	ra, _ := schedule.Analyze(after)
	if imp.FinishBefore != rb.ProjectDuration || imp.FinishAfter != ra.ProjectDuration || imp.FinishAfter >= imp.FinishBefore {
		t.Errorf("finish %v -> %v, want %v -> %v (shorter)", imp.FinishBefore, imp.FinishAfter, rb.ProjectDuration, ra.ProjectDuration)
	}
	if !slices.Equal(imp.CriticalBefore, crit) || slices.Contains(imp.CriticalAfter, target) || len(imp.FloatChanged) == 0 {
		t.Errorf("impact = %+v", imp)
	}
	// Dissolving critical work: rated high for the work, with no logic cut.
	if rr := imp.RiskRating; rr == nil || rr.Level != schedule.RiskHigh || rr.FinishFromCutLogic || rr.Reasons[0].Kind != schedule.RiskCriticalDeleted {
		t.Errorf("risk rating = %+v, want high for the critical work deleted, no logic cut", rr)
	}
	// The schedule has duration distributions: the review shows the P80
	// finish of both versions, from the same iterations and seed.
	r := imp.Diff.Impact.Risk
	if r == nil {
		t.Fatal("no P80 impact on a schedule with distributions")
	}
	p80 := func(s *schedule.Schedule) float64 {
		m, err := risk.Compile(s)
		if err != nil {
			t.Fatal(err)
		}
		res, err := m.Run(risk.Options{Iterations: activities.ReviewRiskIterations, Seed: activities.ReviewRiskSeed})
		if err != nil {
			t.Fatal(err)
		}
		return res.P80
	}
	if want := p80(orig); math.Abs(r.P80Before-want) > 0.01 {
		t.Errorf("P80 before %v, want %v", r.P80Before, want)
	}
	if want := p80(after); math.Abs(r.P80After-want) > 0.01 || r.P80After >= r.P80Before || r.P80Before < r.P50Before {
		t.Errorf("P80 %v -> %v (P50 %v), want %v after, earlier", r.P80Before, r.P80After, r.P50Before, want)
	}
	if r.Iterations != activities.ReviewRiskIterations || r.P80DateBefore == "" {
		t.Errorf("risk impact = %+v", r)
	}
}

// TestInversesByReference: with ByReference the result leaves the inverses
// in the ledger; Compensate and ComputeImpact read them by op ID, with the
// same effect as the inverses themselves, and a retried compensation is a
// no-op.
func TestInversesByReference(t *testing.T) {
	env, a, _ := setup(t)
	before := graphDump(t, a)
	ops := []schedule.Op{schedule.DissolveActivity("A008").WithScope("d/round-1/removals"), schedule.RemoveActivity("A003").WithScope("d/round-1/removals")}
	v, err := env.ExecuteActivity(a.ApplyOps, activities.ApplyInput{ScheduleID: scheduleID, Ops: ops, ByReference: true})
	if err != nil {
		t.Fatal(err)
	}
	var res activities.ApplyResult
	if err := v.Get(&res); err != nil {
		t.Fatal(err)
	}
	if len(res.Applied) != 2 || len(res.Inverses) != 0 {
		t.Fatalf("apply result = %+v", res)
	}
	ids := []string{res.Applied[0].ID, res.Applied[1].ID}
	var byRef, inline schedule.Impact
	v, err = env.ExecuteActivity(a.ComputeImpact, activities.ImpactInput{ScheduleID: scheduleID, OpIDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	_ = v.Get(&byRef)
	recorded, err := a.Stores.Graph.Recorded(context.Background(), scheduleID, ids)
	if err != nil {
		t.Fatal(err)
	}
	inverses := append(slices.Clone(recorded[ids[0]].Inverse), recorded[ids[1]].Inverse...)
	v, err = env.ExecuteActivity(a.ComputeImpact, activities.ImpactInput{ScheduleID: scheduleID, Inverses: inverses})
	if err != nil {
		t.Fatal(err)
	}
	_ = v.Get(&inline)
	if byRef.FinishBefore != inline.FinishBefore || !slices.Equal(byRef.CriticalBefore, inline.CriticalBefore) {
		t.Errorf("impact by reference %+v, inline %+v", byRef, inline)
	}
	in := activities.CompensateInput{ScheduleID: scheduleID, Scope: "d/round-1", OpIDs: ids}
	for range 2 { // the second run is a retry: a no-op
		if _, err := env.ExecuteActivity(a.Compensate, in); err != nil {
			t.Fatal(err)
		}
	}
	if after := graphDump(t, a); !equalDump(before, after) {
		t.Error("compensation by reference did not restore the graph")
	}
	// An op the ledger does not hold has no known inverse: refused.
	_, err = env.ExecuteActivity(a.Compensate, activities.CompensateInput{ScheduleID: scheduleID, Scope: "d/round-2", OpIDs: []string{"nope"}})
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeNotRecorded {
		t.Errorf("compensating an unknown op: %v", err)
	}
}
