package workflows

import (
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
)

// a references the activities' methods; workflows never call them directly.
var a *activities.Activities

// plannerOptions: planning may call an LLM, which is slow and rate limited.
func plannerOptions(ctx workflow.Context) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        2 * time.Second,
			BackoffCoefficient:     2,
			MaximumInterval:        time.Minute,
			MaximumAttempts:        5,
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
	// clarifies is the workflow's version of the clarification step:
	// histories recorded before it existed showed questions at review.
	clarifies bool
	result    string

	changes  []ChangeRecord
	inverses []schedule.Op // of the current round, in application order
	usage    scope.TokenUsage
	impact   *Impact
	notes    []string
	question string
}

func (w *dispatch) setup(ctx workflow.Context, in DispatchInput) error {
	if strings.TrimSpace(in.ScheduleID) == "" || strings.TrimSpace(in.Prompt) == "" {
		return temporal.NewNonRetryableApplicationError("a dispatch needs a schedule id and a prompt", ErrTypeInvalidInput, nil)
	}
	if in.MaxRounds <= 0 {
		in.MaxRounds = DefaultMaxRounds
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
	w.logger = log.With(workflow.GetLogger(ctx), "ScheduleID", in.ScheduleID, "Author", in.Author)
	w.reviews = workflow.NewBufferedChannel(ctx, 1)
	w.answers = workflow.NewBufferedChannel(ctx, 1)
	w.clarifies = workflow.GetVersion(ctx, "clarification-stage", workflow.DefaultVersion, 1) >= 1

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
	if err := workflow.SetUpdateHandlerWithOptions(ctx, ReviewUpdate,
		func(ctx workflow.Context, r Review) (Status, error) {
			if err := w.takeReview(r); err != nil {
				return Status{}, err
			}
			return w.status(), nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, r Review) error { return w.checkReview(r) }},
	); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, ProposalUpdate,
		func(ctx workflow.Context, req ProposalRequest) (*Proposal, error) {
			err := workflow.Await(ctx, func() bool {
				return w.stage == StageDone || (w.round >= req.Round && ((w.awaiting && !w.pending) || (w.asking && !w.answered)))
			})
			if err != nil {
				return nil, err
			}
			if w.stage == StageDone {
				return nil, temporal.NewApplicationError("the dispatch ended: "+w.result, ErrTypeDispatchEnded)
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
	if err := workflow.SetUpdateHandlerWithOptions(ctx, ClarifyUpdate,
		func(ctx workflow.Context, c Clarification) (Status, error) {
			if err := w.takeAnswer(c); err != nil {
				return Status{}, err
			}
			return w.status(), nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, c Clarification) error { return w.checkAnswer(c) }},
	); err != nil {
		return err
	}
	clarifications := workflow.GetSignalChannel(ctx, ClarifySignal)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var c Clarification
			if !clarifications.Receive(ctx, &c) {
				return
			}
			if err := w.takeAnswer(c); err != nil {
				w.logger.Warn("Clarify signal ignored", "Error", err)
			}
		}
	})
	// Signals are drained as they come, so one sent when no review is
	// awaited is dropped rather than read by a later round.
	signals := workflow.GetSignalChannel(ctx, ReviewSignal)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var r Review
			if !signals.Receive(ctx, &r) {
				return
			}
			if err := w.takeReview(r); err != nil {
				w.logger.Warn("Review signal ignored", "Error", err)
			}
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

func (w *dispatch) run(ctx workflow.Context) (*DispatchResult, error) {
	var feedback string
	var previous []schedule.Op
	for round := 1; ; round++ {
		w.round, w.impact, w.notes, w.question = round, nil, nil, ""
		if err := w.propose(ctx, feedback, previous); errors.Is(err, errUnanswered) {
			return w.compensateAndFinish(ctx, StatusTimedOut)
		} else if err != nil {
			return w.abort(ctx, err)
		}
		previous = w.roundOps()
		if w.in.AutoAccept {
			return w.commit(ctx, w.in.Author+" (auto-accept)")
		}
		review, err := w.awaitReview(ctx)
		switch {
		case err != nil:
			return w.abort(ctx, err)
		case review == nil:
			return w.compensateAndFinish(ctx, StatusTimedOut)
		case review.Decision == DecisionAccept:
			return w.commit(ctx, review.Reviewer)
		}
		w.logger.Info("Proposal rejected", "Round", round, "Reviewer", review.Reviewer, "Feedback", review.Feedback)
		if review.Feedback == "" || round >= w.in.MaxRounds {
			return w.compensateAndFinish(ctx, StatusRejected)
		}
		if err := w.compensate(ctx); err != nil {
			return w.finish(ctx, StatusFailed, err)
		}
		feedback = review.Feedback
	}
}

// propose runs a round's steps up to the review: separate, plan and apply
// removals, plan and apply additions, CPM impact.
func (w *dispatch) propose(ctx workflow.Context, feedback string, previous []schedule.Op) error {
	w.setStage(ctx, StageSeparating)
	var sep scope.Separation
	if err := workflow.ExecuteActivity(plannerOptions(ctx), a.SeparatePrompt, w.in.Prompt).Get(ctx, &sep); err != nil {
		return fmt.Errorf("separating the prompt: %w", err)
	}
	w.usage = w.usage.Add(sep.Usage)
	steps := []struct {
		plan, apply, kind, prompt string
		fn                        any
	}{
		{StagePlanningRemovals, StageApplyingRemovals, "removals", sep.Removals, a.PlanRemovals},
		{StagePlanningAdditions, StageApplyingAdditions, "additions", sep.Additions, a.PlanAdditions},
	}
	// The person's answers hold for the whole round: an activity named in
	// both steps (re-sequencing) is asked about once.
	var answers []scope.Clarification
	for _, st := range steps {
		if st.prompt == "" && feedback == "" {
			continue
		}
		w.setStage(ctx, st.plan)
		req := activities.PlanRequest{ScheduleID: w.in.ScheduleID, Input: scope.PlanInput{
			Prompt: st.prompt, Feedback: feedback, Previous: previous, Round: w.round,
			// What this round's removals took out: the additions step of
			// "X instead of Y" re-creates those links elsewhere.
			Removed:        slices.Clone(w.inverses),
			Clarifications: slices.Clone(answers),
		}}
		var plan scope.Plan
		for {
			plan = scope.Plan{} // decoding into the last plan would keep its question
			if err := workflow.ExecuteActivity(plannerOptions(ctx), st.fn, req).Get(ctx, &plan); err != nil {
				return fmt.Errorf("planning %s: %w", st.kind, err)
			}
			w.usage = w.usage.Add(plan.Usage)
			if plan.Question == "" || !w.clarifies {
				break
			}
			// The planner asks instead of guessing: nothing of this step is
			// applied until the person answers; then the step plans again.
			answer, err := w.awaitAnswer(ctx, plan.Question)
			if err != nil {
				return err
			}
			answers = append(answers, scope.Clarification{About: plan.About, Question: plan.Question, Answer: answer})
			req.Input.Clarifications = slices.Clone(answers)
			w.setStage(ctx, st.plan)
		}
		w.notes = append(w.notes, plan.Notes...)
		if plan.Question != "" {
			w.question = strings.TrimSpace(w.question + " " + plan.Question)
		}
		if len(plan.Ops) == 0 {
			continue
		}
		w.setStage(ctx, st.apply)
		opScope := fmt.Sprintf("%s/round-%d/%s", w.scope, w.round, st.kind)
		ops := make([]schedule.Op, len(plan.Ops))
		for i, op := range plan.Ops {
			ops[i] = op.WithScope(opScope)
		}
		if err := w.apply(ctx, ops); err != nil {
			return fmt.Errorf("applying %s: %w", st.kind, err)
		}
	}
	if len(w.inverses) > 0 {
		var imp Impact
		if err := workflow.ExecuteActivity(storeOptions(ctx), a.ComputeImpact, activities.ImpactInput{
			ScheduleID: w.in.ScheduleID, Inverses: w.inverses,
		}).Get(ctx, &imp); err != nil {
			return fmt.Errorf("computing the CPM impact: %w", err)
		}
		w.impact = &imp
	}
	return nil
}

// apply runs ApplyOps on a disconnected context: a write that cancellation
// interrupted could land without the workflow learning its inverses, so
// the workflow always waits for the outcome and observes cancellation at
// the next step.
func (w *dispatch) apply(ctx workflow.Context, ops []schedule.Op) error {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	var res activities.ApplyResult
	if err := workflow.ExecuteActivity(storeOptions(dctx), a.ApplyOps, activities.ApplyInput{
		ScheduleID: w.in.ScheduleID, Ops: ops,
	}).Get(dctx, &res); err != nil {
		return err
	}
	w.inverses = append(w.inverses, res.Inverses...)
	for _, op := range res.Applied {
		w.changes = append(w.changes, ChangeRecord{Round: w.round, Op: op, Call: op.Call, Status: ChangeApplied})
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
	got, err := receiveWithin(ctx, w.reviews, w.in.ReviewTimeout, &review)
	if err != nil || got {
		return &review, err
	}
	w.logger.Info("Review timed out", "Round", w.round, "After", w.in.ReviewTimeout)
	return nil, nil
}

// receiveWithin receives one message from ch into v, unless timeout passes
// first (false) or ctx is cancelled (its error).
func receiveWithin(ctx workflow.Context, ch workflow.ReceiveChannel, timeout time.Duration, v any) (bool, error) {
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
	}
	return false, timerErr
}

// errUnanswered ends a round whose question was not answered in time.
var errUnanswered = errors.New("the question was not answered in time")

// awaitAnswer shows question (stage awaiting_clarification) and waits for
// an answer, the review timeout (errUnanswered) or cancellation.
func (w *dispatch) awaitAnswer(ctx workflow.Context, question string) (string, error) {
	w.setStage(ctx, StageAwaitingClarification)
	w.question, w.asking = question, true
	defer func() { w.question, w.asking, w.answered = "", false, false }()

	var answer Clarification
	got, err := receiveWithin(ctx, w.answers, w.in.ReviewTimeout, &answer)
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

// checkReview is the review Update's validator.
func (w *dispatch) checkReview(r Review) error {
	if r.Decision != DecisionAccept && r.Decision != DecisionReject {
		return fmt.Errorf("decision %q: must be %q or %q", r.Decision, DecisionAccept, DecisionReject)
	}
	if !w.awaiting || w.pending {
		return fmt.Errorf("no review is awaited (stage %s, round %d)", w.stage, w.round)
	}
	return nil
}

// takeReview hands a valid review to the waiting round.
func (w *dispatch) takeReview(r Review) error {
	if err := w.checkReview(r); err != nil {
		return temporal.NewApplicationError(err.Error(), ErrTypeNoReview)
	}
	w.pending = true
	w.reviews.SendAsync(r)
	return nil
}

// commit makes the round's changes final in both stores' ledgers, with who
// accepted them and when (workflow time, so a retry writes the same record).
func (w *dispatch) commit(ctx workflow.Context, reviewer string) (*DispatchResult, error) {
	w.setStage(ctx, StageCommitting)
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
	w.inverses = nil
	return w.finish(ctx, StatusAccepted, nil)
}

// compensate undoes the current round on a disconnected context, so a
// cancelled workflow still cleans up.
func (w *dispatch) compensate(ctx workflow.Context) error {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	w.setStage(dctx, StageCompensating)
	if len(w.inverses) == 0 {
		return nil
	}
	if err := workflow.ExecuteActivity(storeOptions(dctx), a.Compensate, activities.CompensateInput{
		ScheduleID: w.in.ScheduleID,
		Scope:      fmt.Sprintf("%s/round-%d", w.scope, w.round),
		Inverses:   w.inverses,
	}).Get(dctx, nil); err != nil {
		w.logger.Error("Compensation failed: the schedule keeps the round's changes", "Round", w.round, "Error", err)
		return fmt.Errorf("compensating round %d: %w", w.round, err)
	}
	w.mark(ChangeApplied, ChangeCompensated)
	w.inverses = nil
	return nil
}

func (w *dispatch) compensateAndFinish(ctx workflow.Context, status string) (*DispatchResult, error) {
	if err := w.compensate(ctx); err != nil {
		return w.finish(ctx, StatusFailed, err)
	}
	return w.finish(ctx, status, nil)
}

// abort compensates after a failed step or a cancellation.
func (w *dispatch) abort(ctx workflow.Context, cause error) (*DispatchResult, error) {
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
	w.setStage(dctx, StageDone)
	res := &DispatchResult{Status: status, Rounds: w.round, Changes: w.changes, TokenUsage: w.usage}
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
}

// mark moves the current round's records from one status to another.
func (w *dispatch) mark(from, to string) {
	for i := range w.changes {
		if w.changes[i].Round == w.round && w.changes[i].Status == from {
			w.changes[i].Status = to
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

func (w *dispatch) roundOps() []schedule.Op {
	var ops []schedule.Op
	for _, c := range w.roundChanges() {
		ops = append(ops, c.Op)
	}
	return ops
}

func (w *dispatch) status() Status {
	return Status{
		Stage: w.stage, Round: w.round, AwaitingReview: w.awaiting && !w.pending,
		AwaitingClarification: w.asking && !w.answered,
		Impact:                w.impact, TokenUsage: w.usage, Question: w.question, Result: w.result,
	}
}

func (w *dispatch) proposal() *Proposal {
	return &Proposal{AwaitingClarification: w.asking && !w.answered, Round: w.round, Changes: w.roundChanges(), Impact: w.impact, Notes: w.notes, Question: w.question}
}
