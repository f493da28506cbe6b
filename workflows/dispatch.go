package workflows

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

// Error types of workflow-level failures.
const (
	ErrTypeInvalidInput  = "InvalidInput"
	ErrTypeNoReview      = "NoReviewAwaited"
	ErrTypeNoQuestion    = "NoQuestionOpen"
	ErrTypeDispatchEnded = "DispatchEnded"
	// ErrTypeCancelAtReviewOnly: a cancel review sent to a run from before
	// cancel at any stage, at a stage other than review. Cancel
	// cancels such a run through Temporal's workflow cancellation instead.
	ErrTypeCancelAtReviewOnly = "CancelAtReviewOnly"
	// ErrTypeContinuedAsNew: a proposal Update waiting when the dispatch
	// continued as a new run; send it again (to the workflow ID, no run ID).
	ErrTypeContinuedAsNew = "ContinuedAsNew"
)

// Change IDs of the workflow's versioned behaviours (workflow.GetVersion).
// Each is version 1; histories recorded before it exist replay the old
// branch (DefaultVersion).
const (
	versionClarification  = "clarification-stage"
	versionCommitDetached = "commit-disconnected"   // commit survives cancellation
	versionBounded        = "bounded-dispatch"      // question and round caps, continue-as-new
	versionByReference    = "inverses-by-reference" // inverses stay in the ledger
	versionPeople         = "record-people"         // author and reviewer in memo and records
	versionOutcome        = "dispatch-outcome"      // DispatchOutcome search attribute
	versionReviewRace     = "review-at-timeout"     // a review taken as the timer fires wins
	versionSeparateOnce   = "separate-once"         // one separation per dispatch
	versionReviewActions  = "review-actions"        // redo, back and cancel at review
	versionTaskGraph      = "task-graph"            // multi-part prompts planned as tasks
	versionRemember       = "remember-preferences"  // "remember: …" in feedback saves preferences
	versionCancelAnywhere = "cancel-any-stage"      // a cancel review is taken at every stage
	versionReplanFailed   = "replan-failed-tasks"   // a failed task's undone ops are not the next round's
)

// versions says which versioned behaviours this run has.
type versions struct {
	clarifies, commitDetached, bounded, byReference, people, outcome, reviewRace, separateOnce bool
	reviewActions, taskGraph, remember, cancelAnywhere, replanFailed                           bool
}

func getVersions(ctx workflow.Context) versions {
	on := func(id string) bool { return workflow.GetVersion(ctx, id, workflow.DefaultVersion, 1) >= 1 }
	// clarifies is the workflow's version of the clarification step:
	// histories recorded before it existed showed questions at review.
	return versions{
		clarifies:      on(versionClarification),
		commitDetached: on(versionCommitDetached),
		bounded:        on(versionBounded),
		byReference:    on(versionByReference),
		people:         on(versionPeople),
		outcome:        on(versionOutcome),
		reviewRace:     on(versionReviewRace),
		separateOnce:   on(versionSeparateOnce),
		reviewActions:  on(versionReviewActions),
		taskGraph:      on(versionTaskGraph),
		remember:       on(versionRemember),
		cancelAnywhere: on(versionCancelAnywhere),
		replanFailed:   on(versionReplanFailed),
	}
}

// unknown is who a dispatch records when the caller did not say.
const unknown = "unknown"

func who(name string) string {
	if strings.TrimSpace(name) == "" {
		return unknown
	}
	return name
}

// a references the activities' methods; workflows never call them directly.
var a *activities.Activities

// plannerOptions: planning may call an LLM, which is slow and rate limited,
// and reads the stores: 8 attempts span about 3 minutes, so a store or a
// model server that restarts meanwhile costs a wait, not the dispatch. The
// steps heartbeat, so a worker that dies while planning is noticed in
// seconds rather than after the 5-minute start-to-close timeout.
func plannerOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Minute,
		HeartbeatTimeout:    4 * activities.HeartbeatInterval,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        2 * time.Second,
			BackoffCoefficient:     2,
			MaximumInterval:        time.Minute,
			MaximumAttempts:        8,
			NonRetryableErrorTypes: []string{activities.ErrTypeScheduleNotFound},
		},
	})
}

// storeOptions: store writes are short; a store that is down is retried
// for a while, a refused op never.
func storeOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 2 * time.Minute,
		// Store steps heartbeat (activities.HeartbeatInterval): a dead worker is
		// noticed in seconds and the idempotent write retried.
		HeartbeatTimeout: 4 * activities.HeartbeatInterval,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    30 * time.Second,
			MaximumAttempts:    10,
			NonRetryableErrorTypes: []string{
				activities.ErrTypeInvalidOp, activities.ErrTypeScheduleNotFound,
				activities.ErrTypeCompensation, activities.ErrTypeImpact,
			},
		},
	})
}

// DispatchWorkflow turns a prompt into changes, applies them provisionally,
// waits for review and commits or compensates; see DESIGN "Durable dispatch".
func DispatchWorkflow(ctx workflow.Context, in DispatchInput) (*DispatchResult, error) {
	w := new(dispatch)
	if err := w.setup(ctx, in); err != nil {
		return nil, err
	}
	if w.v.cancelAnywhere {
		// A cancel review taken outside review cancels the rounds' context
		// (takeReview): every stage then ends as Temporal's cancellation
		// ends it — compensated, cancelled. WithCancel adds no command.
		ctx, w.cancelRun = workflow.WithCancel(ctx)
	}
	return w.run(ctx)
}

// dispatch is the workflow's state; handlers read it, run changes it.
type dispatch struct {
	in     DispatchInput
	id     string
	scope  string // prefix of every op ID this run derives
	logger log.Logger

	stage    string
	round    int
	awaiting bool // a proposal is waiting for review
	pending  bool // a review was accepted and not yet acted on
	reviews  workflow.Channel
	asking   bool // a question is waiting for an answer
	answered bool // an answer was accepted and not yet acted on
	answers  workflow.Channel
	v        versions
	result   string
	// continuing releases waiting proposal Updates before continue-as-new.
	continuing bool

	sep      *scope.Separation // the dispatch's one separation (v.separateOnce)
	changes  []ChangeRecord
	omitted  int           // records earlier runs left out (continue-as-new)
	inverses []schedule.Op // of the current round, in application order
	applied  []string      // op IDs of the current round, in application order (v.byReference)
	usage    scope.TokenUsage
	impact   *Impact
	report   scope.RoundReport // the current round's notes, question and tasks
	carried  []string          // notes for the next round (preferences saved)
	reviewer string            // who gave the last review
	reason   string            // why the dispatch ended as it did, when not obvious
	// cancelRun cancels the rounds' context (v.cancelAnywhere); cancelling
	// is set once a cancel review was taken outside review, ending once
	// the dispatch compensates to end (rejected, timed out, failed).
	cancelRun          workflow.CancelFunc
	cancelling, ending bool
	// decisions are the reviews taken, one a round (takeReview); they add
	// no commands, so they need no version. A cancel taken outside review
	// is logged too, after the round's decision if it had one. (In runs
	// without reviewRace, a review taken as the timer fired is logged
	// though the round timed out.)
	decisions []Decision
}

func (w *dispatch) setup(ctx workflow.Context, in DispatchInput) error {
	if strings.TrimSpace(in.ScheduleID) == "" || strings.TrimSpace(in.Prompt) == "" {
		return temporal.NewNonRetryableApplicationError("a dispatch needs a schedule id and a prompt", ErrTypeInvalidInput, nil)
	}
	w.v = getVersions(ctx)
	if in.MaxRounds <= 0 {
		in.MaxRounds = DefaultMaxRounds
	}
	if w.v.bounded && in.MaxRounds > MaxRoundsLimit {
		in.MaxRounds = MaxRoundsLimit
	}
	if in.ReviewTimeout <= 0 {
		in.ReviewTimeout = DefaultReviewTimeout
	}
	w.in = in
	w.id = workflow.GetInfo(ctx).WorkflowExecution.ID
	// Op IDs are scoped by run, not only by workflow ID: the workflow ID is
	// reused by every dispatch of a schedule, and the same prompt in a later
	// dispatch must not be mistaken for a retry the ledgers already hold.
	w.scope = w.id + "/" + workflow.GetInfo(ctx).WorkflowExecution.RunID
	if c := in.Continued; c != nil {
		// A continued dispatch keeps its first run's scope: all its op IDs
		// and its commit record name one dispatch.
		w.scope, w.usage, w.changes, w.omitted, w.reviewer = c.Scope, c.Usage, c.Changes, c.ChangesOmitted, c.Reviewer
		w.decisions = slices.Clone(c.Decisions)
		if c.Separation != nil {
			sep := *c.Separation
			w.sep = &sep
		}
	}
	if w.v.people {
		in.Author = who(in.Author)
		w.in.Author = in.Author
	}
	w.logger = log.With(workflow.GetLogger(ctx), "ScheduleID", in.ScheduleID, "Author", in.Author)
	w.reviews = workflow.NewBufferedChannel(ctx, 1)
	w.answers = workflow.NewBufferedChannel(ctx, 1)

	if err := workflow.SetQueryHandler(ctx, ChangesQuery, func() ([]ChangeRecord, error) {
		return w.changes, nil
	}); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(ctx, StatusQuery, func() (Status, error) {
		return w.status(), nil
	}); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(ctx, ProposalQuery, func() (*Proposal, error) {
		return w.proposal(), nil
	}); err != nil {
		return err
	}
	if err := setTakeUpdate(ctx, ReviewUpdate, w.checkReview, w.takeReview, w.status); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, ProposalUpdate,
		func(ctx workflow.Context, req ProposalRequest) (*Proposal, error) {
			err := workflow.Await(ctx, func() bool { return w.proposalReady(req) })
			if err != nil {
				return nil, err
			}
			if w.stage == StageDone {
				return nil, temporal.NewApplicationError("the dispatch ended: "+w.result, ErrTypeDispatchEnded)
			}
			if w.continuing {
				return nil, temporal.NewApplicationError("the dispatch continued as a new run to keep its history small: ask again", ErrTypeContinuedAsNew)
			}
			return w.proposal(), nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, req ProposalRequest) error {
			if w.stage == StageDone {
				return fmt.Errorf("the dispatch ended: %s", w.result)
			}
			return nil
		}},
	); err != nil {
		return err
	}
	if err := setTakeUpdate(ctx, ClarifyUpdate, w.checkAnswer, w.takeAnswer, w.status); err != nil {
		return err
	}
	onSignal(ctx, ClarifySignal, func(c Clarification) {
		if err := w.takeAnswer(c); err != nil {
			w.logger.Warn("Clarify signal ignored", "Error", err)
		}
	})
	// Signals are drained as they come, so one sent when no review is
	// awaited is dropped rather than read by a later round.
	onSignal(ctx, ReviewSignal, func(r Review) {
		if err := w.takeReview(r); err != nil {
			w.logger.Warn("Review signal ignored", "Error", err)
		}
	})

	if err := workflow.UpsertTypedSearchAttributes(ctx, ScheduleIDAttribute.ValueSet(in.ScheduleID)); err != nil {
		w.logger.Warn("Cannot set the ScheduleID search attribute", "Error", err)
	}
	if err := workflow.UpsertMemo(ctx, map[string]any{"prompt": in.Prompt, "author": in.Author}); err != nil {
		w.logger.Warn("Cannot set the memo", "Error", err)
	}
	return nil
}

// setTakeUpdate registers update name: check is its validator, take takes
// the payload and the caller is answered status().
func setTakeUpdate[T any](ctx workflow.Context, name string, check, take func(T) error, status func() Status) error {
	return workflow.SetUpdateHandlerWithOptions(ctx, name,
		func(ctx workflow.Context, v T) (Status, error) {
			if err := take(v); err != nil {
				return Status{}, err
			}
			return status(), nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, v T) error { return check(v) }},
	)
}

// onSignal hands every signal sent on name to take as it comes, in a
// goroutine of its own, until the channel closes.
func onSignal[T any](ctx workflow.Context, name string, take func(T)) {
	ch := workflow.GetSignalChannel(ctx, name)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var v T
			if !ch.Receive(ctx, &v) {
				return
			}
			take(v)
		}
	})
}

func (w *dispatch) run(ctx workflow.Context) (*DispatchResult, error) {
	var feedback string
	var previous []schedule.Op
	// back is set when the round re-applies an earlier round's ops (a
	// review's "back") instead of planning.
	var back *backRound
	first := 1
	if c := w.in.Continued; c != nil {
		first, feedback, previous = c.Round, c.Feedback, c.Previous
		if c.Back != nil {
			b := *c.Back
			back = &b
		}
	}
	for round := first; ; round++ {
		w.round, w.impact, w.report = round, nil, scope.RoundReport{Notes: w.carried}
		w.carried = nil
		var err error
		if back != nil {
			err = w.reapply(ctx, *back)
		} else {
			err = w.propose(ctx, feedback, previous)
		}
		back = nil
		if errors.Is(err, errUnanswered) {
			return w.compensateAndFinish(ctx, StatusTimedOut)
		} else if err != nil {
			return w.abort(ctx, err)
		}
		previous = w.roundOps()
		if w.in.AutoAccept {
			if w.v.people {
				w.reviewer = w.in.Author + " (auto-accept)"
			}
			return w.commit(ctx, w.in.Author+" (auto-accept)")
		}
		review, err := w.awaitReview(ctx)
		switch {
		case err != nil:
			return w.abort(ctx, err)
		case review == nil:
			return w.compensateAndFinish(ctx, StatusTimedOut)
		}
		if w.v.people {
			review.Reviewer = who(review.Reviewer)
		}
		if !w.cancelling {
			w.reviewer = review.Reviewer
		}
		if w.v.remember && review.Feedback != "" && (review.Decision == DecisionAccept || review.Decision == DecisionReject) {
			// "remember: use FS+1 for new inspections" is kept in the
			// schedule's preferences; the rest of the feedback is planned.
			review.Feedback = w.remember(ctx, review)
			if review.Decision == DecisionReject && review.Feedback == "" {
				// Only preferences: the next round plans the prompt again
				// with them, as a redo would.
				w.logger.Info("Feedback only set preferences: planning again", "Round", round)
				if err := w.compensate(ctx); err != nil {
					return w.finish(ctx, StatusFailed, err)
				}
				feedback, previous = "", nil
				if round >= w.in.MaxRounds {
					w.reason = fmt.Sprintf("the round limit (%d) was reached: the preferences were saved, the prompt not planned again", w.in.MaxRounds)
					return w.finish(ctx, StatusRejected, nil)
				}
				continue
			}
		}
		switch review.Decision {
		case DecisionAccept:
			return w.commit(ctx, review.Reviewer)
		case DecisionCancel:
			w.logger.Info("Dispatch cancelled at review", "Round", round, "Reviewer", review.Reviewer)
			w.reason = fmt.Sprintf("cancelled at review of round %d by %s", round, who(review.Reviewer))
			return w.compensateAndFinish(ctx, StatusCancelled)
		case DecisionRedo, DecisionBack:
			// Checked by checkReview: only with v.reviewActions, below the
			// round limit, and back not on round 1.
			var next *backRound
			if review.Decision == DecisionBack {
				next = &backRound{Round: round - 1, Ops: w.opsOf(round - 1), Reviewer: who(review.Reviewer)}
			}
			w.logger.Info("Round taken "+review.Decision, "Round", round, "Reviewer", review.Reviewer)
			if err := w.compensate(ctx); err != nil {
				return w.finish(ctx, StatusFailed, err)
			}
			// Redo plans the prompt afresh: no feedback, no rejected proposal.
			feedback, previous, back = "", nil, next
			if w.v.bounded && workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
				return w.continueAsNew(ctx, round+1, feedback, previous, back)
			}
			continue
		}
		w.logger.Info("Proposal rejected", "Round", round, "Reviewer", review.Reviewer, "Feedback", review.Feedback)
		if review.Feedback != "" && round >= w.in.MaxRounds {
			w.reason = fmt.Sprintf("the round limit (%d) was reached: the last feedback was not planned", w.in.MaxRounds)
		}
		if review.Feedback == "" || round >= w.in.MaxRounds {
			return w.compensateAndFinish(ctx, StatusRejected)
		}
		if err := w.compensate(ctx); err != nil {
			return w.finish(ctx, StatusFailed, err)
		}
		feedback = review.Feedback
		if w.v.bounded && workflow.GetInfo(ctx).GetContinueAsNewSuggested() {
			return w.continueAsNew(ctx, round+1, feedback, previous, nil)
		}
	}
}

// remember saves the preferences a review's feedback asks to keep
// (v.remember) and returns the feedback left to plan. What was saved, and
// what could not be read, are notes of the next round. A store that cannot
// save them costs the preferences, not the dispatch: the whole feedback is
// then planned, with a note.
func (w *dispatch) remember(ctx workflow.Context, r *Review) string {
	var res activities.RememberResult
	err := workflow.ExecuteActivity(storeOptions(ctx), a.RememberPreferences, activities.RememberInput{
		ScheduleID: w.in.ScheduleID, Feedback: r.Feedback, Reviewer: r.Reviewer,
	}).Get(ctx, &res)
	if err != nil {
		w.logger.Warn("Preferences not saved", "Error", err)
		w.carried = append(w.carried, "the preferences in the feedback were not saved: "+err.Error())
		return r.Feedback
	}
	for _, s := range res.Saved {
		w.carried = append(w.carried, "preference saved for this schedule: "+s)
	}
	w.carried = append(w.carried, res.Notes...)
	return res.Rest
}

// backRound is what a round taken back re-applies: the ops an earlier
// round proposed (as its change records hold them).
type backRound = BackState

// opsOf returns the ops round proposed, in application order.
func (w *dispatch) opsOf(round int) []schedule.Op {
	var ops []schedule.Op
	for _, c := range w.changes {
		if c.Round == round {
			ops = append(ops, c.Op)
		}
	}
	return ops
}

// reapply is a round taken back (v.reviewActions): the earlier round's ops
// are applied again, with fresh op IDs scoped to this round, and the CPM
// impact computed, without planning.
func (w *dispatch) reapply(ctx workflow.Context, b BackState) error {
	w.report.Notes = append(w.report.Notes, fmt.Sprintf("Round %d is round %d's proposal again, taken back by %s.", w.round, b.Round, b.Reviewer))
	if w.v.taskGraph && w.sep != nil && w.sep.PlannedAsTasks() {
		w.report.Tasks = scope.NewTaskReports(w.sep.Tasks)
		for i := range w.report.Tasks {
			w.report.Tasks[i].Status = scope.TaskKept
		}
	}
	if len(b.Ops) > 0 {
		w.setStage(ctx, StageApplyingAdditions)
		opScope := fmt.Sprintf("%s/round-%d/back", w.scope, w.round)
		ops := make([]schedule.Op, len(b.Ops))
		for i, op := range b.Ops {
			ops[i] = op.WithScope(opScope)
		}
		if err := w.apply(ctx, ops); err != nil {
			return fmt.Errorf("re-applying round %d: %w", b.Round, err)
		}
	}
	return w.computeImpact(ctx)
}

// continueAsNew starts the dispatch afresh, between rounds (the last one
// compensated, so no applied inverses need carrying), with the state the
// next round needs. Waiting proposal Updates are told to ask again.
func (w *dispatch) continueAsNew(ctx workflow.Context, round int, feedback string, previous []schedule.Op, back *BackState) (*DispatchResult, error) {
	w.logger.Info("Continuing as new", "NextRound", round, "HistoryLength", workflow.GetInfo(ctx).GetCurrentHistoryLength())
	w.continuing = true
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return w.abort(ctx, err)
	}
	changes, omitted := capChanges(w.changes, w.omitted)
	next := w.in
	next.Continued = &DispatchState{
		Round: round, Scope: w.scope, Separation: w.sep, Feedback: feedback, Previous: previous,
		Changes: changes, ChangesOmitted: omitted, Usage: w.usage, Reviewer: w.reviewer,
		Decisions: slices.Clone(w.decisions), Back: back,
	}
	return nil, workflow.NewContinueAsNewError(ctx, DispatchWorkflow, next)
}

// capChanges keeps the latest MaxResultChanges records and counts the
// others with the omitted count so far.
func capChanges(changes []ChangeRecord, omitted int) ([]ChangeRecord, int) {
	if n := len(changes) - MaxResultChanges; n > 0 {
		return slices.Clone(changes[n:]), omitted + n
	}
	return changes, omitted
}

// propose runs a round up to the review: scope.RunRound, the round's
// control flow as scope.PlanRound runs it in memory, with the dispatch's
// effects (activities, the wait for an answer), then the CPM impact.
func (w *dispatch) propose(ctx workflow.Context, feedback string, previous []schedule.Op) error {
	w.setStage(ctx, StageSeparating)
	rin := scope.RoundInput{Feedback: feedback, Previous: previous, Round: w.round}
	if w.v.separateOnce {
		rin.Separation = w.sep // nil in the first round: separated then
	}
	old := scope.Legacy{NoTasks: !w.v.taskGraph, QuestionsAtReview: !w.v.clarifies, UnboundedQuestions: !w.v.bounded, KeepTasksWithoutOps: !w.v.replanFailed}
	if err := scope.RunRound(context.Background(), &roundEffects{w: w, ctx: ctx}, rin, old, &w.report); err != nil {
		return err
	}
	return w.computeImpact(ctx)
}

// roundEffects are a round's scope.RoundEffects in the dispatch: each
// planning and applying step an activity, with its stage shown first. They
// run on ctx (the context RunRound is given is not the workflow's).
type roundEffects struct {
	w   *dispatch
	ctx workflow.Context
	// Where the unit's (Begin) inverses, applied op IDs and change
	// records start in the round's.
	inverses, applied, changes int
}

// stepStages are each step kind's planning and applying stages.
var stepStages = map[string][2]string{
	scope.StepRemovals:  {StagePlanningRemovals, StageApplyingRemovals},
	scope.StepAdditions: {StagePlanningAdditions, StageApplyingAdditions},
	scope.StepKept:      {"", StageApplyingAdditions},
}

func (fx *roundEffects) Separate(context.Context) (scope.Separation, error) {
	var sep scope.Separation
	if err := workflow.ExecuteActivity(plannerOptions(fx.ctx), a.SeparatePrompt, fx.w.in.Prompt).Get(fx.ctx, &sep); err != nil {
		return scope.Separation{}, fmt.Errorf("separating the prompt: %w", err)
	}
	fx.w.usage = fx.w.usage.Add(sep.Usage)
	fx.w.sep = &sep
	return sep, nil
}

func (fx *roundEffects) Begin(string) {
	fx.inverses, fx.applied, fx.changes = len(fx.w.inverses), len(fx.w.applied), len(fx.w.changes)
}

func (fx *roundEffects) Plan(_ context.Context, st scope.Step, in scope.PlanInput) (scope.Plan, error) {
	w := fx.w
	fn := a.PlanRemovals
	if st.Kind == scope.StepAdditions {
		fn = a.PlanAdditions
	}
	w.setStage(fx.ctx, stepStages[st.Kind][0])
	// What the unit's removals took out: the additions step of "X
	// instead of Y" re-creates those links elsewhere.
	req := activities.PlanRequest{ScheduleID: w.in.ScheduleID, Input: in}
	if w.v.byReference {
		req.RemovedBy = slices.Clone(w.applied[fx.applied:])
	} else {
		req.Input.Removed = slices.Clone(w.inverses[fx.inverses:])
	}
	var plan scope.Plan
	if err := workflow.ExecuteActivity(plannerOptions(fx.ctx), fn, req).Get(fx.ctx, &plan); err != nil {
		return scope.Plan{}, fmt.Errorf("planning %s: %w", st.Kind, err)
	}
	w.usage = w.usage.Add(plan.Usage)
	return plan, nil
}

func (fx *roundEffects) Ask(_ context.Context, _ scope.Step, plan scope.Plan) (string, bool, error) {
	answer, err := fx.w.awaitAnswer(fx.ctx, plan)
	return answer, err == nil, err
}

// Apply applies ops with op IDs scoped to the round, the task and the step.
func (fx *roundEffects) Apply(_ context.Context, st scope.Step, task string, ops []schedule.Op) error {
	w := fx.w
	w.setStage(fx.ctx, stepStages[st.Kind][1])
	opScope := fmt.Sprintf("%s/round-%d/%s", w.scope, w.round, st.Kind)
	if task != "" {
		opScope = fmt.Sprintf("%s/round-%d/task-%s/%s", w.scope, w.round, task, st.Kind)
	}
	scoped := make([]schedule.Op, len(ops))
	for i, op := range ops {
		scoped[i] = op.WithScope(opScope)
	}
	if err := w.apply(fx.ctx, scoped); err != nil {
		if st.Kind == scope.StepKept {
			return fmt.Errorf("re-applying its ops: %w", err)
		}
		return fmt.Errorf("applying %s: %w", st.Kind, err)
	}
	return nil
}

// Fail compensates what a failed task applied (the round's changes from
// the unit's marks on), so a failed task leaves nothing behind.
func (fx *roundEffects) Fail(_ context.Context, t scope.Task, cause error) error {
	w := fx.w
	w.logger.Warn("Task failed", "Round", w.round, "Task", t.ID, "Error", cause)
	if len(w.inverses) == fx.inverses && len(w.applied) == fx.applied {
		return nil
	}
	dctx, cancel := workflow.NewDisconnectedContext(fx.ctx)
	defer cancel()
	w.setStage(dctx, StageCompensating)
	if err := w.compensateSince(dctx, fmt.Sprintf("%s/round-%d/task-%s", w.scope, w.round, t.ID), fx.inverses, fx.applied); err != nil {
		return fmt.Errorf("compensating task %s: %w", t.ID, err)
	}
	for i := fx.changes; i < len(w.changes); i++ {
		w.changes[i].Status = ChangeCompensated
	}
	return nil
}

// Ends: a cancellation or a question not answered in time ends the round.
func (fx *roundEffects) Ends(err error) bool {
	var canceled *temporal.CanceledError
	return fx.ctx.Err() != nil || errors.As(err, &canceled) || errors.Is(err, errUnanswered)
}

// compensateSince undoes what the round applied from the given marks on
// (the inverses, or by reference the op IDs), with inverse op IDs scoped
// to opScope, and drops it from the round. ctx must be disconnected, so a
// cancelled workflow still cleans up.
func (w *dispatch) compensateSince(ctx workflow.Context, opScope string, fromInverses, fromApplied int) error {
	in := activities.CompensateInput{ScheduleID: w.in.ScheduleID, Scope: opScope, Inverses: slices.Clone(w.inverses[fromInverses:])}
	if w.v.byReference {
		in.Inverses, in.OpIDs = nil, slices.Clone(w.applied[fromApplied:])
	}
	if err := workflow.ExecuteActivity(storeOptions(ctx), a.Compensate, in).Get(ctx, nil); err != nil {
		return err
	}
	w.inverses, w.applied = w.inverses[:fromInverses], w.applied[:fromApplied]
	return nil
}

// computeImpact computes the CPM impact of the round's changes, if any.
func (w *dispatch) computeImpact(ctx workflow.Context) error {
	if w.hasApplied() {
		in := activities.ImpactInput{ScheduleID: w.in.ScheduleID, Inverses: w.inverses}
		if w.v.byReference {
			in = activities.ImpactInput{ScheduleID: w.in.ScheduleID, OpIDs: w.applied}
		}
		var imp Impact
		if err := workflow.ExecuteActivity(storeOptions(ctx), a.ComputeImpact, in).Get(ctx, &imp); err != nil {
			return fmt.Errorf("computing the CPM impact: %w", err)
		}
		w.impact = &imp
	}
	return nil
}

// hasApplied reports whether the current round holds applied changes.
func (w *dispatch) hasApplied() bool { return len(w.inverses) > 0 || len(w.applied) > 0 }

// apply runs ApplyOps on a disconnected context: a write that cancellation
// interrupted could land without the workflow learning its inverses, so
// the workflow always waits for the outcome and observes cancellation at
// the next step.
func (w *dispatch) apply(ctx workflow.Context, ops []schedule.Op) error {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	var res activities.ApplyResult
	if err := workflow.ExecuteActivity(storeOptions(dctx), a.ApplyOps, activities.ApplyInput{
		ScheduleID: w.in.ScheduleID, Ops: ops, ByReference: w.v.byReference,
	}).Get(dctx, &res); err != nil {
		return err
	}
	w.inverses = append(w.inverses, res.Inverses...)
	for _, op := range res.Applied {
		if w.v.byReference {
			w.applied = append(w.applied, op.ID)
		}
		rec := ChangeRecord{Round: w.round, Op: op, Call: op.Call, Status: ChangeApplied}
		if w.v.people {
			rec.Author = w.in.Author
		}
		w.changes = append(w.changes, rec)
	}
	return nil
}

// awaitReview waits for a review, the review timeout or cancellation. It
// returns nil, nil on timeout.
func (w *dispatch) awaitReview(ctx workflow.Context) (*Review, error) {
	w.setStage(ctx, StageAwaitingReview)
	w.awaiting = true
	defer func() { w.awaiting, w.pending = false, false }()

	var review Review
	got, err := receiveWithin(ctx, w.reviews, w.in.ReviewTimeout, &review, w.v.reviewRace)
	if err != nil || got {
		return &review, err
	}
	w.logger.Info("Review timed out", "Round", w.round, "After", w.in.ReviewTimeout)
	return nil, nil
}

// receiveWithin receives one message from ch into v, unless timeout passes
// first (false) or ctx is cancelled (its error). With raceSafe, a message
// sent in the workflow task the timer fired in (an Update handler already
// told its caller "taken") wins over the timeout.
func receiveWithin(ctx workflow.Context, ch workflow.ReceiveChannel, timeout time.Duration, v any, raceSafe bool) (bool, error) {
	timerCtx, cancelTimer := workflow.WithCancel(ctx)
	defer cancelTimer()
	timer := workflow.NewTimer(timerCtx, timeout)
	got := false
	var timerErr error
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(ch, func(c workflow.ReceiveChannel, _ bool) {
		c.Receive(ctx, v)
		got = true
	})
	sel.AddFuture(timer, func(f workflow.Future) { timerErr = f.Get(timerCtx, nil) })
	sel.Select(ctx)
	switch {
	case got:
		return true, nil
	case ctx.Err() != nil:
		return false, ctx.Err()
	case raceSafe && timerErr == nil && ch.ReceiveAsync(v):
		return true, nil
	}
	return false, timerErr
}

// errUnanswered ends a round whose question was not answered in time.
var errUnanswered = errors.New("the question was not answered in time")

// awaitAnswer shows the plan's question with its choices (stage
// awaiting_clarification) and waits for an answer, the review timeout
// (errUnanswered) or cancellation. The choices are query state only: no
// command depends on them.
func (w *dispatch) awaitAnswer(ctx workflow.Context, plan scope.Plan) (string, error) {
	question := plan.Question
	w.setStage(ctx, StageAwaitingClarification)
	w.report.Question, w.report.Choices, w.report.Several, w.asking = question, plan.Choices, plan.Several, true
	defer func() {
		w.report.Question, w.report.Choices, w.report.Several, w.asking, w.answered = "", nil, false, false, false
	}()

	var answer Clarification
	got, err := receiveWithin(ctx, w.answers, w.in.ReviewTimeout, &answer, w.v.reviewRace)
	switch {
	case err != nil:
		return "", err
	case got:
		w.logger.Info("Question answered", "Round", w.round, "Question", question, "Answerer", answer.Author)
		return answer.Answer, nil
	}
	w.logger.Info("Question timed out", "Round", w.round, "After", w.in.ReviewTimeout)
	return "", errUnanswered
}

// checkAnswer is the clarify Update's validator.
func (w *dispatch) checkAnswer(c Clarification) error {
	if strings.TrimSpace(c.Answer) == "" {
		return errors.New("the answer is empty")
	}
	if w.cancelling {
		return fmt.Errorf("the dispatch is being cancelled: %s", w.reason)
	}
	if !w.asking || w.answered {
		return fmt.Errorf("no question is open (stage %s, round %d)", w.stage, w.round)
	}
	return nil
}

// takeAnswer hands a valid answer to the waiting planning step.
func (w *dispatch) takeAnswer(c Clarification) error {
	if err := w.checkAnswer(c); err != nil {
		return temporal.NewApplicationError(err.Error(), ErrTypeNoQuestion)
	}
	w.answered = true
	w.answers.SendAsync(c)
	return nil
}

// proposalReady says when a proposal Update returns: the dispatch ended
// or continues as new; or, without req.Stage, req.Round or a later round
// awaits review or an answer; or, with req.Stage (a progress watch), the
// dispatch is no longer at the stage — and, when req.Round is set, the
// round — the watcher saw. A proposal awaiting review is a stage too: a
// watch returns it unless it is the one the watcher already has.
func (w *dispatch) proposalReady(req ProposalRequest) bool {
	if w.stage == StageDone || w.continuing {
		return true
	}
	if req.Stage != "" {
		return w.stage != req.Stage || (req.Round > 0 && w.round > req.Round)
	}
	return w.round >= req.Round && ((w.awaiting && !w.pending) || (w.asking && !w.answered))
}

// checkReview is the review Update's validator (and the review signal's
// check). A review of a round other than the awaiting one is refused,
// naming who decided that round when someone did: two people reviewing
// one proposal, the second is told the first decided it.
func (w *dispatch) checkReview(r Review) error {
	action := w.v.reviewActions && (r.Decision == DecisionRedo || r.Decision == DecisionBack || r.Decision == DecisionCancel)
	switch {
	case r.Decision == DecisionAccept || r.Decision == DecisionReject || action:
	case w.v.reviewActions:
		return fmt.Errorf("decision %q: must be one of %s", r.Decision, strings.Join(Decisions, ", "))
	default:
		return fmt.Errorf("decision %q: must be %q or %q", r.Decision, DecisionAccept, DecisionReject)
	}
	if w.cancelling {
		return fmt.Errorf("the dispatch is being cancelled: %s", w.reason)
	}
	if r.Decision == DecisionCancel && w.cancelsOutsideReview() {
		return w.checkCancel(r)
	}
	round := r.Round
	if round == 0 {
		round = w.round
	}
	if action && round == w.round {
		switch {
		case r.Decision == DecisionBack && round <= 1:
			return fmt.Errorf("back: round %d has no previous round to go back to", round)
		case r.Decision != DecisionCancel && round >= w.in.MaxRounds:
			return fmt.Errorf("%s: the round limit (%d) is reached; accept, reject or cancel round %d", r.Decision, w.in.MaxRounds, round)
		}
	}
	if d, ok := w.decisionOf(round); ok {
		return fmt.Errorf("round %d was already decided: %s", round, d.Summary())
	}
	if err := w.checkRound(round); err != nil {
		return err
	}
	if !w.awaiting || w.pending {
		if r.Decision == DecisionCancel && w.v.reviewActions && !w.v.cancelAnywhere {
			return temporal.NewApplicationError(fmt.Sprintf("no review is awaited (stage %s, round %d): this dispatch takes a cancel only at review", w.stage, w.round), ErrTypeCancelAtReviewOnly)
		}
		if w.asking && !w.answered {
			return fmt.Errorf("no review is awaited (stage %s, round %d): the planner asked a question; answer it, or cancel the dispatch", w.stage, w.round)
		}
		return fmt.Errorf("no review is awaited (stage %s, round %d)", w.stage, w.round)
	}
	return nil
}

// checkRound refuses a review of any round but the current one.
func (w *dispatch) checkRound(round int) error {
	switch {
	case round < 0:
		return fmt.Errorf("round %d: rounds count from 1", round)
	case round < w.round:
		return fmt.Errorf("round %d is over (stage %s); the dispatch is on round %d", round, w.stage, w.round)
	case round > w.round:
		return fmt.Errorf("round %d has not been proposed (stage %s); the dispatch is on round %d", round, w.stage, w.round)
	}
	return nil
}

// cancelsOutsideReview says a cancel review is taken as a cancel of the
// dispatch (v.cancelAnywhere) rather than as the awaited review: no review
// is awaited now — the round is planning, applying, asking a question,
// or acting on a review taken.
func (w *dispatch) cancelsOutsideReview() bool {
	return w.v.cancelAnywhere && w.cancelRun != nil && !(w.awaiting && !w.pending)
}

// checkCancel is checkReview of a cancel outside review: refused when the
// dispatch ended, continues as a new run, or its round was decided in a
// way that ends it (accepted and being committed, rejected, cancelled);
// taken while it plans, applies, asks, or goes on to another round (a
// reject with feedback, a redo, a back).
func (w *dispatch) checkCancel(r Review) error {
	round := r.Round
	if round == 0 {
		round = w.round
	}
	switch {
	case w.stage == StageDone:
		return fmt.Errorf("the dispatch ended: %s", w.result)
	case w.continuing:
		return errors.New("the dispatch is continuing as a new run: send the cancel again")
	}
	if err := w.checkRound(round); err != nil {
		return err
	}
	if d, ok := w.decisionOf(w.round); ok && !w.goesOn(d) {
		return fmt.Errorf("round %d was already decided: %s", w.round, d.Summary())
	}
	if w.stage == StageCommitting {
		return fmt.Errorf("round %d is being committed: it can no longer be cancelled", w.round)
	}
	if w.ending {
		return fmt.Errorf("the dispatch is ending already (stage %s, round %d): what it applied is being undone", w.stage, w.round)
	}
	return nil
}

// goesOn says a round's decision leads to another round (which a cancel
// still stops): redo, back, or a reject with feedback below the round
// limit.
func (w *dispatch) goesOn(d Decision) bool {
	switch d.Decision {
	case DecisionRedo, DecisionBack:
		return true
	case DecisionReject:
		return d.Feedback != "" && d.Round < w.in.MaxRounds
	}
	return false
}

// decisionOf is the decision round took, if it took one.
func (w *dispatch) decisionOf(round int) (Decision, bool) {
	for _, d := range w.decisions {
		if d.Round == round {
			return d, true
		}
	}
	return Decision{}, false
}

// takeReview hands a valid review to the waiting round and logs it as the
// round's decision.
func (w *dispatch) takeReview(r Review) error {
	if err := w.checkReview(r); err != nil {
		return temporal.NewApplicationError(err.Error(), ErrTypeNoReview)
	}
	if r.Decision == DecisionCancel && w.cancelsOutsideReview() {
		w.cancel(r)
		return nil
	}
	w.pending = true
	w.decisions = append(w.decisions, Decision{Round: w.round, Decision: r.Decision, Feedback: r.Feedback, Reviewer: who(r.Reviewer)})
	w.reviews.SendAsync(r)
	return nil
}

// cancel takes a cancel review outside review (v.cancelAnywhere): it is
// logged as the round's decision, says why the dispatch ends, and cancels
// the rounds' context. Whatever the round is doing then ends as a
// cancellation does: a planning step or a wait (for an answer, for the
// next step) at once, a write once it lands; what the round applied is
// compensated and the dispatch ends cancelled (abort).
func (w *dispatch) cancel(r Review) {
	by := who(r.Reviewer)
	w.cancelling, w.reviewer = true, by
	w.decisions = append(w.decisions, Decision{Round: w.round, Decision: DecisionCancel, Reviewer: by})
	stage := strings.ReplaceAll(cmp.Or(w.stage, "starting"), "_", " ")
	w.reason = fmt.Sprintf("cancelled by %s while %s (round %d)", by, stage, w.round)
	w.logger.Info("Dispatch cancelled", "Round", w.round, "Stage", w.stage, "By", by)
	w.cancelRun()
}

// commit makes the round's changes final in both stores' ledgers, with who
// accepted them and when (workflow time, so a retry writes the same record).
func (w *dispatch) commit(ctx workflow.Context, reviewer string) (*DispatchResult, error) {
	w.setStage(ctx, StageCommitting)
	if w.v.commitDetached {
		// Like apply: a commit cancellation interrupted may have marked the
		// ops committed in a ledger already, and compensating them then
		// would undo an accepted change. Cancellation waits for the outcome.
		dctx, cancel := workflow.NewDisconnectedContext(ctx)
		defer cancel()
		ctx = dctx
	}
	var ids []string
	for _, c := range w.changes {
		if c.Round == w.round && c.Status == ChangeApplied {
			ids = append(ids, c.Op.ID)
		}
	}
	if err := workflow.ExecuteActivity(storeOptions(ctx), a.Commit, activities.CommitInput{
		ScheduleID: w.in.ScheduleID, OpIDs: ids,
		Dispatch: w.scope, Reviewer: reviewer, At: workflow.Now(ctx),
	}).Get(ctx, nil); err != nil {
		return w.abort(ctx, fmt.Errorf("committing: %w", err))
	}
	w.mark(ChangeApplied, ChangeCommitted)
	w.inverses, w.applied = nil, nil
	return w.finish(ctx, StatusAccepted, nil)
}

// compensate undoes the current round on a disconnected context, so a
// cancelled workflow still cleans up.
func (w *dispatch) compensate(ctx workflow.Context) error {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	w.setStage(dctx, StageCompensating)
	if !w.hasApplied() {
		return nil
	}
	if err := w.compensateSince(dctx, fmt.Sprintf("%s/round-%d", w.scope, w.round), 0, 0); err != nil {
		w.logger.Error("Compensation failed: the schedule keeps the round's changes", "Round", w.round, "Error", err)
		return fmt.Errorf("compensating round %d: %w", w.round, err)
	}
	w.mark(ChangeApplied, ChangeCompensated)
	w.inverses, w.applied = nil, nil
	return nil
}

func (w *dispatch) compensateAndFinish(ctx workflow.Context, status string) (*DispatchResult, error) {
	w.ending = true
	if err := w.compensate(ctx); err != nil {
		return w.finish(ctx, StatusFailed, err)
	}
	return w.finish(ctx, status, nil)
}

// abort compensates after a failed step or a cancellation.
func (w *dispatch) abort(ctx workflow.Context, cause error) (*DispatchResult, error) {
	w.ending = true
	status := StatusFailed
	var canceled *temporal.CanceledError
	if ctx.Err() != nil || errors.As(cause, &canceled) {
		status, cause = StatusCancelled, nil
	}
	if err := w.compensate(ctx); err != nil {
		return w.finish(ctx, StatusFailed, errors.Join(cause, err))
	}
	return w.finish(ctx, status, cause)
}

// finish ends the dispatch: outcomes are data, so it returns no error. It
// lets running handlers (a waiting proposal Update) finish first.
func (w *dispatch) finish(ctx workflow.Context, status string, cause error) (*DispatchResult, error) {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	w.result = status
	if w.v.outcome {
		w.stage = StageDone
		if err := workflow.UpsertTypedSearchAttributes(dctx, DispatchStageAttribute.ValueSet(StageDone), DispatchOutcomeAttribute.ValueSet(status)); err != nil {
			w.logger.Warn("Cannot set the DispatchStage and DispatchOutcome search attributes", "Error", err)
		}
		w.tellParent(dctx)
	} else {
		w.setStage(dctx, StageDone)
	}
	if w.v.people {
		memo := map[string]any{"outcome": status}
		if w.reviewer != "" {
			memo["reviewer"] = w.reviewer
		}
		if err := workflow.UpsertMemo(dctx, memo); err != nil {
			w.logger.Warn("Cannot set the memo", "Error", err)
		}
	}
	changes, omitted := capChanges(w.changes, w.omitted)
	res := &DispatchResult{
		Status: status, Rounds: w.round, Changes: changes, ChangesOmitted: omitted, TokenUsage: w.usage,
		Reason: w.reason, Decisions: slices.Clone(w.decisions),
	}
	if w.v.people {
		res.Author, res.Reviewer = w.in.Author, w.reviewer
	}
	if cause != nil {
		res.Error = cause.Error()
	}
	w.logger.Info("Dispatch done", "Status", status, "Rounds", w.round)
	if err := workflow.Await(dctx, func() bool { return workflow.AllHandlersFinished(dctx) }); err != nil {
		return nil, err
	}
	return res, nil
}

func (w *dispatch) setStage(ctx workflow.Context, stage string) {
	w.stage = stage
	if err := workflow.UpsertTypedSearchAttributes(ctx, DispatchStageAttribute.ValueSet(stage)); err != nil {
		w.logger.Warn("Cannot set the DispatchStage search attribute", "Error", err)
	}
	w.tellParent(ctx)
}

// tellParent signals a portfolio parent the dispatch's stage. The signal
// is not waited on: a parent that has ended has nothing to learn. Only
// children (DispatchInput.Parent, which no earlier dispatch had) send it,
// so it needs no version.
func (w *dispatch) tellParent(ctx workflow.Context) {
	if w.in.Parent == "" {
		return
	}
	workflow.SignalExternalWorkflow(ctx, w.in.Parent, "", ChildStageSignal, ChildStage{
		WorkflowID: w.id, ScheduleID: w.in.ScheduleID, Stage: w.stage, Round: w.round, Result: w.result,
	})
}

// mark moves the current round's records from one status to another,
// with who reviewed them (when a person did).
func (w *dispatch) mark(from, to string) {
	for i := range w.changes {
		if w.changes[i].Round == w.round && w.changes[i].Status == from {
			w.changes[i].Status = to
			if w.v.people {
				w.changes[i].Reviewer = w.reviewer
			}
		}
	}
}

// roundChanges returns the current round's records.
func (w *dispatch) roundChanges() []ChangeRecord {
	var out []ChangeRecord
	for _, c := range w.changes {
		if c.Round == w.round {
			out = append(out, c)
		}
	}
	return out
}

// roundOps are the ops the round left applied, the next round's
// previous: a failed task's compensated ops are not (they were, before
// replan-failed-tasks, and such a task was "kept" by applying them again).
func (w *dispatch) roundOps() []schedule.Op {
	var ops []schedule.Op
	for _, c := range w.roundChanges() {
		if w.v.replanFailed && c.Status == ChangeCompensated {
			continue
		}
		ops = append(ops, c.Op)
	}
	return ops
}

func (w *dispatch) status() Status {
	return Status{
		Stage: w.stage, Round: w.round, AwaitingReview: w.awaiting && !w.pending,
		AwaitingClarification: w.asking && !w.answered,
		Impact:                w.impact, TokenUsage: w.usage, Question: w.report.Question, Result: w.result,
		Choices: slices.Clone(w.report.Choices), Several: w.report.Several,
		Decisions: slices.Clone(w.decisions), Cancelling: w.cancelling && w.stage != StageDone,
	}
}

func (w *dispatch) proposal() *Proposal {
	changes, omitted := capChanges(w.roundChanges(), 0)
	return &Proposal{Stage: w.stage, AwaitingClarification: w.asking && !w.answered, Round: w.round, Changes: changes, ChangesOmitted: omitted, Impact: w.impact, Notes: w.report.Notes, Question: w.report.Question,
		Choices: slices.Clone(w.report.Choices), Several: w.report.Several, Tasks: slices.Clone(w.report.Tasks)}
}
