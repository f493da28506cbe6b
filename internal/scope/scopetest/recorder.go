package scopetest

import (
	"context"
	"sync"

	"github.com/autoscheduler/autoscheduler/internal/scope"
)

// Recorder is a Planner that passes every call to Planner and records the
// planning steps' inputs, in call order: what a test compares between a
// dispatch and scope.PlanRound.
type Recorder struct {
	Planner scope.Planner

	mu       sync.Mutex
	separate int
	calls    []Call
}

// Call is one planning step as the planner saw it.
type Call struct {
	Kind  string // scope.StepRemovals or scope.StepAdditions
	Input scope.PlanInput
}

// Calls returns the recorded planning steps.
func (r *Recorder) Calls() []Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Call(nil), r.calls...)
}

// Separations counts the Separate calls.
func (r *Recorder) Separations() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.separate
}

// Reset forgets what was recorded.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.separate, r.calls = 0, nil
}

func (r *Recorder) Separate(ctx context.Context, prompt string) (scope.Separation, error) {
	r.mu.Lock()
	r.separate++
	r.mu.Unlock()
	return r.Planner.Separate(ctx, prompt)
}

func (r *Recorder) PlanRemovals(ctx context.Context, snap scope.Snapshot, in scope.PlanInput) (scope.Plan, error) {
	r.record(scope.StepRemovals, in)
	return r.Planner.PlanRemovals(ctx, snap, in)
}

func (r *Recorder) PlanAdditions(ctx context.Context, snap scope.Snapshot, in scope.PlanInput) (scope.Plan, error) {
	r.record(scope.StepAdditions, in)
	return r.Planner.PlanAdditions(ctx, snap, in)
}

func (r *Recorder) record(kind string, in scope.PlanInput) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, Call{Kind: kind, Input: in})
}
