// Package activities holds the Temporal activities of the dispatch and edit
// workflows: thin adapters from workflow calls to the stores, the planner
// and the CPM engine. Inputs and outputs are kept small (ids, ops and
// summaries, never whole schedules) so workflow histories stay small; each
// activity loads what it needs from the store.
package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/autoscheduler/autoscheduler/internal/changerisk"
	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// Application error types the workflows (and people reading histories) can
// tell apart. All of them are non-retryable.
const (
	ErrTypeInvalidOp        = "InvalidOp"
	ErrTypeScheduleNotFound = "ScheduleNotFound"
	ErrTypeCompensation     = "CompensationRefused"
	ErrTypeImpact           = "ImpactFailed"
	ErrTypeNotRecorded      = "NotRecorded"
	ErrTypePlanning         = "PlanningFailed"
	ErrTypeLLMBusy          = "LLMUnavailable"
	// ErrTypePromptTooLong: a prompt, feedback or answer over
	// scope.MaxPrompt characters, refused before anything is planned.
	ErrTypePromptTooLong = "PromptTooLong"
)

// Activities holds the dependencies of the activities. Workflows reference
// the methods through a nil *Activities.
type Activities struct {
	Stores  *store.Coordinator
	Planner scope.Planner
}

// PlanRequest asks for a plan against the stored schedule.
type PlanRequest struct {
	ScheduleID string          `json:"schedule_id"`
	Input      scope.PlanInput `json:"input"`
	// RemovedBy names the ops (application order) whose inverses are
	// Input.Removed, read from the graph store's ledger: a round that
	// deletes a whole building keeps them out of the payload.
	RemovedBy []string `json:"removed_by,omitempty"`
}

// ApplyInput is a batch of ops for one schedule, applied all or nothing.
type ApplyInput struct {
	ScheduleID string        `json:"schedule_id"`
	Ops        []schedule.Op `json:"ops"`
	// ByReference leaves the inverses out of the result: the graph store's
	// ledger holds each applied op with its inverse, so Compensate,
	// ComputeImpact and the planning steps read them by op ID instead
	// (Temporal refuses payloads over 2 MB; deleting 2,000 activities has
	// several thousand inverses).
	ByReference bool `json:"by_reference,omitempty"`
}

// ApplyResult is the ops as applied (IDs and calls filled) and their
// inverses in application order (undo applies them in reverse); Inverses
// is empty when the input asked ByReference.
type ApplyResult struct {
	Applied  []schedule.Op `json:"applied"`
	Inverses []schedule.Op `json:"inverses"`
}

// CompensateInput undoes earlier applies: Inverses in application order,
// as ApplyResult returns them, or — by reference — OpIDs, the applied ops
// in application order, whose inverses are read from the ledger. Scope
// (the dispatch and round) gives the compensating ops deterministic IDs so
// a retry is idempotent; both forms give the same IDs.
type CompensateInput struct {
	ScheduleID string        `json:"schedule_id"`
	Scope      string        `json:"scope"`
	Inverses   []schedule.Op `json:"inverses,omitempty"`
	OpIDs      []string      `json:"op_ids,omitempty"`
}

// ImpactInput asks for the CPM impact of the ops applied provisionally: the
// stored schedule is the "after"; "before" is it with the inverses undone —
// Inverses, or those of OpIDs read from the ledger (by reference).
type ImpactInput struct {
	ScheduleID string        `json:"schedule_id"`
	Inverses   []schedule.Op `json:"inverses,omitempty"`
	OpIDs      []string      `json:"op_ids,omitempty"`
}

// CommitInput names the ops being committed, the dispatch (workflow and
// run) that proposed them, who accepted them and when.
type CommitInput struct {
	ScheduleID string    `json:"schedule_id"`
	OpIDs      []string  `json:"op_ids"`
	Dispatch   string    `json:"dispatch,omitempty"`
	Reviewer   string    `json:"reviewer,omitempty"`
	At         time.Time `json:"at"`
}

// LoadSnapshot reads the stored schedule. Workflows should prefer the
// activities that load it themselves; this one is for small schedules and
// tools.
func (a *Activities) LoadSnapshot(ctx context.Context, scheduleID string) (*schedule.Schedule, error) {
	return a.load(ctx, scheduleID)
}

// SeparatePrompt splits the prompt into removals and additions. A prompt
// over scope.MaxPrompt fails without retry (PromptTooLong). Planning
// heartbeats, and stops when the activity is cancelled (the planners
// check their context as they go).
func (a *Activities) SeparatePrompt(ctx context.Context, prompt string) (scope.Separation, error) {
	if err := scope.CheckPrompt("prompt", prompt); err != nil {
		return scope.Separation{}, classifyPlanning(err)
	}
	defer keepAlive(ctx)()
	sep, err := a.Planner.Separate(ctx, prompt)
	return sep, classifyPlanning(err)
}

// PlanRemovals plans the removals against the current stored schedule.
func (a *Activities) PlanRemovals(ctx context.Context, req PlanRequest) (scope.Plan, error) {
	defer keepAlive(ctx)()
	return a.plan(ctx, req, a.Planner.PlanRemovals)
}

// PlanAdditions plans the additions against the current stored schedule.
func (a *Activities) PlanAdditions(ctx context.Context, req PlanRequest) (scope.Plan, error) {
	defer keepAlive(ctx)()
	return a.plan(ctx, req, a.Planner.PlanAdditions)
}

// plan runs one planning step against a fresh snapshot of the schedule.
// An input over scope.MaxPrompt fails without retry (PromptTooLong),
// before the snapshot is loaded.
func (a *Activities) plan(ctx context.Context, req PlanRequest, step func(context.Context, scope.Snapshot, scope.PlanInput) (scope.Plan, error)) (scope.Plan, error) {
	if err := req.Input.Check(); err != nil {
		return scope.Plan{}, classifyPlanning(err)
	}
	snap, err := a.snapshot(ctx, req.ScheduleID)
	if err != nil {
		return scope.Plan{}, err
	}
	if req.Input.Preferences == nil { // the schedule's preferences (activities/prefs.go)
		if req.Input.Preferences, err = a.preferences(ctx, req.ScheduleID); err != nil {
			return scope.Plan{}, err
		}
	}
	if len(req.RemovedBy) > 0 {
		removed, err := a.inversesOf(ctx, req.ScheduleID, req.RemovedBy)
		if err != nil {
			return scope.Plan{}, err
		}
		req.Input.Removed = append(removed, req.Input.Removed...)
	}
	plan, err := step(ctx, snap, req.Input)
	return plan, classifyPlanning(err)
}

// snapshot is the stored schedule with the stores' search over it.
func (a *Activities) snapshot(ctx context.Context, scheduleID string) (scope.Snapshot, error) {
	s, err := a.load(ctx, scheduleID)
	if err != nil {
		return scope.Snapshot{}, err
	}
	return scope.Snapshot{Schedule: s, Search: storeSearch{a.Stores, scheduleID}}, nil
}

// storeSearch is the coordinator's hybrid search bound to one schedule.
type storeSearch struct {
	stores     *store.Coordinator
	scheduleID string
}

func (s storeSearch) Search(ctx context.Context, text string, k int, kinds ...store.Kind) ([]store.Hit, error) {
	return s.stores.Search(ctx, s.scheduleID, text, k, kinds...)
}

// ApplyOps writes ops to both stores. It is idempotent by op ID: a retry
// gets the recorded result. Ops the engine refuses fail without retry.
func (a *Activities) ApplyOps(ctx context.Context, in ApplyInput) (ApplyResult, error) {
	defer keepAlive(ctx)()
	applied, inverses, err := a.Stores.ApplyOps(ctx, in.ScheduleID, in.Ops)
	if err != nil {
		return ApplyResult{}, classify(err, "applying ops")
	}
	if in.ByReference {
		inverses = nil
	}
	return ApplyResult{Applied: applied, Inverses: inverses}, nil
}

// inversesOf reads the inverses of applied ops from the graph store's
// ledger (store.Coordinator.Inverses): an op it does not hold fails
// without retry (NotRecorded), a store that cannot be read is retried.
func (a *Activities) inversesOf(ctx context.Context, scheduleID string, opIDs []string) ([]schedule.Op, error) {
	inverses, err := a.Stores.Inverses(ctx, scheduleID, opIDs, false)
	var missing *store.NotRecordedError
	switch {
	case errors.As(err, &missing):
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeNotRecorded, err)
	case err != nil:
		return nil, classify(err, "reading the ledger")
	}
	return inverses, nil
}

// Compensate applies the inverses in reverse order, in one all-or-nothing
// batch whose op IDs derive from in.Scope and the position, so a retried
// compensation is a no-op.
func (a *Activities) Compensate(ctx context.Context, in CompensateInput) (ApplyResult, error) {
	defer keepAlive(ctx)()
	inverses := in.Inverses
	if len(in.OpIDs) > 0 {
		var err error
		if inverses, err = a.inversesOf(ctx, in.ScheduleID, in.OpIDs); err != nil {
			return ApplyResult{}, err
		}
	}
	ops := schedule.CompensatingOps(in.Scope, inverses)
	if len(ops) == 0 {
		return ApplyResult{}, nil
	}
	applied, undo, err := a.Stores.ApplyOps(ctx, in.ScheduleID, ops)
	if err != nil {
		if errors.Is(err, schedule.ErrInvalidOp) {
			return ApplyResult{}, temporal.NewNonRetryableApplicationError(
				fmt.Sprintf("compensation refused (the schedule changed underneath the dispatch?): %v", err), ErrTypeCompensation, err)
		}
		return ApplyResult{}, classify(err, "compensating")
	}
	if len(in.OpIDs) > 0 {
		// By reference: the compensating ops are as large as the round.
		return ApplyResult{}, nil
	}
	return ApplyResult{Applied: applied, Inverses: undo}, nil
}

// MaxDiffEntries caps each list of the review diff an impact carries.
const MaxDiffEntries = 200

// HeartbeatInterval is how often store writes and planning steps report
// that their worker is alive; with the workflows' heartbeat timeout, a
// worker that dies inside one is noticed in seconds and the step retried
// elsewhere (it is idempotent), not after the whole start-to-close timeout
// (5 minutes for planning).
const HeartbeatInterval = 2 * time.Second

// keepAlive heartbeats until the returned stop is called.
func keepAlive(ctx context.Context) (stop func()) {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(HeartbeatInterval)
		defer tick.Stop()
		// No heartbeat at the start: a write that ends within the interval
		// never heartbeats, so none is left in flight (the SDK sends them
		// late) to fail against a finished activity.
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

// ComputeImpact compares the CPM results before and after the provisional
// changes (see ImpactInput).
func (a *Activities) ComputeImpact(ctx context.Context, in ImpactInput) (schedule.Impact, error) {
	defer keepAlive(ctx)()
	after, err := a.load(ctx, in.ScheduleID)
	if err != nil {
		return schedule.Impact{}, err
	}
	inverses := in.Inverses
	if len(in.OpIDs) > 0 {
		if inverses, err = a.inversesOf(ctx, in.ScheduleID, in.OpIDs); err != nil {
			return schedule.Impact{}, err
		}
	}
	before, err := schedule.Before(after, inverses)
	if err != nil {
		return schedule.Impact{}, temporal.NewNonRetryableApplicationError("impact: "+err.Error(), ErrTypeImpact, err)
	}
	rb, err := schedule.Analyze(before)
	if err != nil {
		return schedule.Impact{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("impact: CPM before: %v", err), ErrTypeImpact, err)
	}
	ra, err := schedule.Analyze(after)
	if err != nil {
		return schedule.Impact{}, temporal.NewNonRetryableApplicationError(fmt.Sprintf("impact: CPM after: %v", err), ErrTypeImpact, err)
	}
	imp := schedule.ImpactOf(before, after, rb, ra)
	if imp.Diff.Impact != nil {
		imp.Diff.Impact.Risk = riskImpact(before, after)
	}
	if imp.RiskRating, err = changerisk.Rate(before, after, rb, ra); err != nil {
		imp.RiskRating = changerisk.Unrated(err)
	}
	// A round that deletes a whole building must not overflow the history
	// (Temporal refuses payloads over 2 MB): lists beyond this are counted.
	imp.Diff.Cap(MaxDiffEntries)
	return imp, nil
}

// Commit makes a dispatch's changes final: the documents they touched are
// embedded again from the final schedule and both ledgers mark the ops
// committed (each entry keeps its change and inverse, for a later undo).
// It is idempotent: a retry keeps the first commit record.
func (a *Activities) Commit(ctx context.Context, in CommitInput) error {
	defer keepAlive(ctx)()
	err := a.Stores.Commit(ctx, in.ScheduleID, in.OpIDs, store.CommitRecord{Dispatch: in.Dispatch, Reviewer: in.Reviewer, At: in.At})
	if errors.Is(err, store.ErrNotRecorded) {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("committing: %v", err), ErrTypeNotRecorded, err)
	}
	if err != nil {
		return classify(err, "committing")
	}
	return nil
}

func (a *Activities) load(ctx context.Context, scheduleID string) (*schedule.Schedule, error) {
	s, err := a.Stores.Load(ctx, scheduleID)
	if err != nil {
		return nil, classify(err, "loading the schedule")
	}
	return s, nil
}

// classifyPlanning passes planner failures on for Temporal to retry,
// except those a retry cannot fix — text over scope.MaxPrompt, and LLM
// failures such as a refused key, a content filter, a model that keeps
// answering out of schema (or a reply over the size cap): those fail the
// step at once.
func classifyPlanning(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, scope.ErrTooLong) {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypePromptTooLong, err)
	}
	var le *llm.Error
	if !errors.As(err, &le) {
		return err
	}
	if !le.Retryable {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypePlanning, err)
	}
	// Honour the server's Retry-After instead of the policy's backoff.
	return temporal.NewApplicationErrorWithOptions(err.Error(), ErrTypeLLMBusy, temporal.ApplicationErrorOptions{Cause: err, NextRetryDelay: le.RetryAfter})
}

// classify marks failures that a retry cannot fix as non-retryable and
// passes the others (store or network trouble) through to be retried.
func classify(err error, what string) error {
	switch {
	case errors.Is(err, schedule.ErrInvalidOp):
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("%s: the ops were refused: %v", what, err), ErrTypeInvalidOp, err)
	case errors.Is(err, store.ErrNotFound):
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("%s: %v", what, err), ErrTypeScheduleNotFound, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}
