package workflows

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Stages the parent gives a child besides the dispatch's own.
const (
	childStarting   = "starting"
	childReviewSent = "review_sent"
)

// PortfolioWorkflow delegates one prompt to one child DispatchWorkflow per
// schedule and applies the input's error strategy; see api_portfolio.go.
//
// Decisions, and why:
//   - Children keep their own workflow IDs (DispatchWorkflowID): a
//     schedule with an open dispatch refuses the child, which is that
//     schedule's error (naming the open dispatch) under the strategy. Such
//     a refusal is not retried: the open dispatch is someone's work in
//     progress and may wait for review for days.
//   - ParentClosePolicy: sync children are REQUEST_CANCEL (a parent
//     terminated or timed out leaves no provisional writes: its children
//     compensate), async children ABANDON (they are dispatches people
//     review on their own; killing the parent must not undo them).
//     Cancelling the portfolio (a request, not a termination) cancels
//     every child in both modes: the children's contexts derive from the
//     parent's.
//   - WaitForCancellation: a cancelled child is waited for, so the parent
//     ends only after every child has compensated, and its result says
//     how each ended.
//   - A child's end is taken from its result (the future), never from its
//     "done" stage signal, which may arrive after a retry has started the
//     same workflow ID again.
//   - fail_fast holds accepts (ChildStatus.Held) until every live child is
//     accepted, then forwards them together: a child failing in a later
//     feedback round can still cancel everything, and nothing is left
//     committed ("everything compensated").
func PortfolioWorkflow(ctx workflow.Context, in PortfolioInput) (*PortfolioResult, error) {
	p := &portfolio{}
	if err := p.setup(ctx, in); err != nil {
		return nil, err
	}
	return p.run(ctx)
}

// Change IDs of the portfolio's versioned behaviours (workflow.GetVersion),
// each version 1; histories recorded before replay the old branch, and
// they are kept (testdata/histories/portfolio/*_forward_to_run.json).
const (
	versionForwardLatestRun   = "portfolio-forward-latest-run"   // reviews go to the child's latest run
	versionNoForwardCancelled = "portfolio-no-forward-cancelled" // no held accept forwarded on a cancelled context
)

type portfolio struct {
	in     PortfolioInput
	id     string
	logger log.Logger

	stage     string
	children  []*ChildStatus // in input order
	cancels   []workflow.CancelFunc
	failing   string // the schedule whose failure triggered fail_fast
	cancelled bool   // the portfolio itself was cancelled
	decisions []PortfolioDecision
	result    string
	err       string
}

// NormalizePortfolio checks a PortfolioInput and fills its defaults; the
// CLI calls it before starting, the workflow again (a start by another
// client).
func NormalizePortfolio(in PortfolioInput) (PortfolioInput, error) {
	if strings.TrimSpace(in.Prompt) == "" {
		return in, errors.New("a portfolio needs a prompt")
	}
	var schedules []string
	for _, s := range in.Schedules {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if slices.Contains(schedules, s) {
			return in, fmt.Errorf("schedule %q is listed twice", s)
		}
		schedules = append(schedules, s)
	}
	if len(schedules) == 0 {
		return in, errors.New("a portfolio needs at least one schedule")
	}
	if len(schedules) > MaxPortfolioSchedules {
		return in, fmt.Errorf("a portfolio has at most %d schedules, not %d", MaxPortfolioSchedules, len(schedules))
	}
	in.Schedules = schedules
	if in.Mode == "" {
		in.Mode = PortfolioSync
	}
	if !slices.Contains(PortfolioModes, in.Mode) {
		return in, fmt.Errorf("mode %q: want one of %s", in.Mode, strings.Join(PortfolioModes, ", "))
	}
	if in.Strategy == "" {
		in.Strategy = StrategyFailFast
	}
	if !slices.Contains(Strategies, in.Strategy) {
		return in, fmt.Errorf("error strategy %q: want one of %s", in.Strategy, strings.Join(Strategies, ", "))
	}
	if in.AfterRetries == "" {
		in.AfterRetries = StrategyFailFast
	}
	if in.AfterRetries != StrategyFailFast && in.AfterRetries != StrategyContinueOnError {
		return in, fmt.Errorf("after retries %q: want fail_fast or continue_on_error", in.AfterRetries)
	}
	if in.MaxRetries < 0 {
		return in, fmt.Errorf("max retries %d: want 0 (the default, %d) or more", in.MaxRetries, DefaultMaxRetries)
	}
	if in.MaxRetries == 0 {
		in.MaxRetries = DefaultMaxRetries
	}
	in.MaxRetries = min(in.MaxRetries, MaxRetriesLimit)
	if in.RetryDelay < 0 {
		in.RetryDelay = 0
	}
	return in, nil
}

func (p *portfolio) setup(ctx workflow.Context, in PortfolioInput) error {
	in, err := NormalizePortfolio(in)
	if err != nil {
		return temporal.NewNonRetryableApplicationError(err.Error(), ErrTypeInvalidInput, nil)
	}
	in.Author = who(in.Author)
	p.in = in
	p.id = workflow.GetInfo(ctx).WorkflowExecution.ID
	p.logger = log.With(workflow.GetLogger(ctx), "Portfolio", p.id, "Strategy", in.Strategy, "Mode", in.Mode)
	p.stage = PortfolioRunning
	for _, s := range in.Schedules {
		p.children = append(p.children, &ChildStatus{ScheduleID: s, WorkflowID: DispatchWorkflowID(s), Stage: childStarting})
	}
	p.cancels = make([]workflow.CancelFunc, len(p.children))

	if err := workflow.SetQueryHandler(ctx, PortfolioStatusQuery, func() (PortfolioStatus, error) {
		return p.status(), nil
	}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandler(ctx, PortfolioReadyUpdate,
		func(ctx workflow.Context, _ PortfolioReadyRequest) (PortfolioStatus, error) {
			err := workflow.Await(ctx, func() bool {
				return p.stage == PortfolioDone || (p.stage == PortfolioRunning && p.status().Ready())
			})
			return p.status(), err
		}); err != nil {
		return err
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, PortfolioReviewUpdate,
		func(ctx workflow.Context, r PortfolioReview) (PortfolioStatus, error) {
			p.takeReview(ctx, r)
			return p.status(), nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, r PortfolioReview) error {
			_, err := p.targets(r)
			return err
		}},
	); err != nil {
		return err
	}
	onSignal(ctx, ChildStageSignal, p.takeStage)
	memo := map[string]any{
		"prompt": in.Prompt, "author": in.Author, "schedules": strings.Join(in.Schedules, ","),
		"mode": in.Mode, "strategy": in.Strategy,
	}
	if in.Name != "" {
		memo["portfolio"] = in.Name
	}
	if err := workflow.UpsertMemo(ctx, memo); err != nil {
		p.logger.Warn("Cannot set the memo", "Error", err)
	}
	return nil
}

// takeStage records a child's stage signal. "done" is left to the
// child's result; a child that has ended takes no more stages.
func (p *portfolio) takeStage(cs ChildStage) {
	for _, c := range p.children {
		if c.ScheduleID != cs.ScheduleID || c.WorkflowID != cs.WorkflowID {
			continue
		}
		if c.Ended() || cs.Stage == StageDone || cs.Stage == "" {
			return
		}
		c.Stage, c.Round = cs.Stage, cs.Round
		return
	}
	p.logger.Warn("Stage signal from an unknown child", "WorkflowID", cs.WorkflowID, "ScheduleID", cs.ScheduleID)
}

func (p *portfolio) run(ctx workflow.Context) (*PortfolioResult, error) {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	for i := range p.children {
		workflow.Go(ctx, func(gctx workflow.Context) { p.runChild(gctx, i) })
	}
	if err := workflow.Await(ctx, p.allEnded); err != nil {
		// The portfolio was cancelled: the children's contexts derive from
		// ctx, so each is cancelled too; wait for them to compensate.
		p.cancelled = true
		p.stage = PortfolioCancelling
		p.logger.Info("Portfolio cancelled: waiting for the children to compensate")
		if err := workflow.Await(dctx, p.allEnded); err != nil {
			return nil, err
		}
	}
	return p.finish(dctx)
}

func (p *portfolio) allEnded() bool {
	for _, c := range p.children {
		if !c.Ended() {
			return false
		}
	}
	return true
}

// failFast reports whether a failure (after any retries) cancels the
// other children.
func (p *portfolio) failFast() bool {
	return p.in.Strategy == StrategyFailFast || (p.in.Strategy == StrategyRetry && p.in.AfterRetries == StrategyFailFast)
}

// stopping reports whether no new child run may start.
func (p *portfolio) stopping() bool { return p.failing != "" || p.cancelled }

// runChild runs schedule i's child until it ends, retrying a failed run
// under the retry strategy. ctx is the goroutine's context (cancelled
// with the portfolio); it waits on a disconnected one of its own (a
// context belongs to one coroutine).
func (p *portfolio) runChild(ctx workflow.Context, i int) {
	dctx, dcancel := workflow.NewDisconnectedContext(ctx)
	defer dcancel()
	c := p.children[i]
	opts := workflow.ChildWorkflowOptions{
		WorkflowID:            c.WorkflowID,
		TaskQueue:             TaskQueue,
		WaitForCancellation:   true,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL,
	}
	if p.in.Mode == PortfolioAsync {
		opts.ParentClosePolicy = enumspb.PARENT_CLOSE_POLICY_ABANDON
	}
	in := DispatchInput{
		ScheduleID: c.ScheduleID, Prompt: p.in.Prompt, Author: p.in.Author,
		MaxRounds: p.in.MaxRounds, ReviewTimeout: p.in.ReviewTimeout, Parent: p.id,
	}
	for {
		if p.stopping() || ctx.Err() != nil {
			p.end(c, DispatchResult{Status: StatusCancelled, Reason: "not started: " + p.stopReason()}, "")
			return
		}
		c.Attempts++
		c.Stage, c.Round, c.RunID, c.Held = childStarting, 0, "", nil
		cctx, cancel := workflow.WithCancel(ctx)
		p.cancels[i] = cancel
		res, errMsg, locked := p.runOnce(workflow.WithChildOptions(cctx, opts), dctx, c, in)
		cancel()
		if res.Status == StatusFailed && p.in.Strategy == StrategyRetry && !locked && c.Attempts <= p.in.MaxRetries && !p.stopping() {
			c.Errors = append(c.Errors, fmt.Sprintf("attempt %d: %s", c.Attempts, errMsg))
			p.logger.Info("Child failed: retrying", "ScheduleID", c.ScheduleID, "Attempt", c.Attempts, "Error", errMsg)
			if p.in.RetryDelay > 0 {
				_ = workflow.Sleep(ctx, p.in.RetryDelay)
			}
			continue
		}
		p.end(c, res, errMsg)
		// A child that ended (rejected, say) may have been the last one
		// the held accepts waited for.
		p.releaseHeld(ctx)
		return
	}
}

// runOnce starts one run of a child and waits for its result. locked
// says the start was refused because the schedule has an open dispatch.
func (p *portfolio) runOnce(cctx, dctx workflow.Context, c *ChildStatus, in DispatchInput) (res DispatchResult, errMsg string, locked bool) {
	fut := workflow.ExecuteChildWorkflow(cctx, DispatchWorkflow, in)
	var exec workflow.Execution
	if err := fut.GetChildWorkflowExecution().Get(dctx, &exec); err != nil {
		var canceled *temporal.CanceledError
		switch {
		case temporal.IsWorkflowExecutionAlreadyStartedError(err):
			msg := fmt.Sprintf("schedule %q already has an open dispatch: %s", c.ScheduleID, c.WorkflowID)
			return DispatchResult{Status: StatusFailed, Error: msg}, msg, true
		case errors.As(err, &canceled):
			return DispatchResult{Status: StatusCancelled, Reason: "cancelled before it started: " + p.stopReason()}, "", false
		}
		msg := "starting the dispatch: " + err.Error()
		return DispatchResult{Status: StatusFailed, Error: msg}, msg, false
	}
	c.RunID = exec.RunID
	if err := fut.Get(dctx, &res); err != nil {
		var canceled *temporal.CanceledError
		if errors.As(err, &canceled) {
			return DispatchResult{Status: StatusCancelled, Reason: p.stopReason()}, "", false
		}
		msg := err.Error()
		return DispatchResult{Status: StatusFailed, Error: msg}, msg, false
	}
	if res.Status == StatusFailed {
		errMsg = res.Error
		if errMsg == "" {
			errMsg = "the dispatch failed"
		}
	}
	return res, errMsg, false
}

func (p *portfolio) stopReason() string {
	switch {
	case p.cancelled:
		return "the portfolio was cancelled"
	case p.failing != "":
		return fmt.Sprintf("fail_fast: schedule %q failed", p.failing)
	}
	return "cancelled"
}

// end records how a child ended and applies the strategy.
func (p *portfolio) end(c *ChildStatus, res DispatchResult, errMsg string) {
	c.Result, c.Stage, c.Held = res.Status, StageDone, nil
	c.Rounds, c.Reason, c.Changes = res.Rounds, res.Reason, len(res.Changes)+res.ChangesOmitted
	if res.Rounds > 0 {
		c.Round = res.Rounds
	}
	c.Error = errMsg
	if c.Error == "" {
		c.Error = res.Error
	}
	if c.Result == StatusCancelled && c.Reason == "" && p.stopping() {
		c.Reason = p.stopReason()
	}
	p.logger.Info("Child ended", "ScheduleID", c.ScheduleID, "Status", c.Result, "Attempts", c.Attempts)
	if c.Result == StatusFailed && p.failFast() && p.failing == "" && !p.cancelled {
		p.failing = c.ScheduleID
		p.stage = PortfolioCancelling
		p.logger.Info("fail_fast: cancelling the other children", "Failed", c.ScheduleID)
		for i, o := range p.children {
			if o != c && !o.Ended() && p.cancels[i] != nil {
				o.Held = nil
				p.cancels[i]()
			}
		}
	}
}

// targets resolves a review to the children it decides, or says why it
// is refused (the Update's validator).
func (p *portfolio) targets(r PortfolioReview) ([]int, error) {
	if p.stage != PortfolioRunning {
		return nil, fmt.Errorf("the portfolio is %s: no review is taken", p.stage)
	}
	if len(r.Decisions) == 0 {
		return nil, errors.New("the review has no decisions")
	}
	named := map[string]bool{}
	rest := -1
	var out []int
	for k, d := range r.Decisions {
		if !slices.Contains(Decisions, d.Decision) {
			return nil, fmt.Errorf("decision %q: want one of %s", d.Decision, strings.Join(Decisions, ", "))
		}
		if d.ScheduleID == "" {
			if rest >= 0 {
				return nil, errors.New("two decisions for every other schedule")
			}
			rest = k
			continue
		}
		if named[d.ScheduleID] {
			return nil, fmt.Errorf("two decisions for schedule %q", d.ScheduleID)
		}
		named[d.ScheduleID] = true
		i := slices.IndexFunc(p.children, func(c *ChildStatus) bool { return c.ScheduleID == d.ScheduleID })
		if i < 0 {
			return nil, fmt.Errorf("schedule %q is not in the portfolio", d.ScheduleID)
		}
		if err := p.reviewable(p.children[i], d); err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	for i, c := range p.children {
		if rest >= 0 && !named[c.ScheduleID] && c.AwaitingReview() {
			if err := p.reviewable(c, r.Decisions[rest]); err != nil {
				return nil, err
			}
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no schedule of the portfolio awaits review")
	}
	slices.Sort(out) // decisions are taken in the portfolio's order
	return out, nil
}

func (p *portfolio) reviewable(c *ChildStatus, d ScheduleDecision) error {
	switch {
	case c.Ended():
		return fmt.Errorf("schedule %q: its dispatch ended %s", c.ScheduleID, c.Result)
	case c.Held != nil:
		return fmt.Errorf("schedule %q: accepted already (held until every schedule is accepted)", c.ScheduleID)
	case c.Stage != StageAwaitingReview:
		return fmt.Errorf("schedule %q awaits no review (stage %s)", c.ScheduleID, c.Stage)
	case d.Decision == DecisionBack && c.Round <= 1:
		return fmt.Errorf("schedule %q: round 1 has no previous round to go back to", c.ScheduleID)
	}
	return nil
}

// takeReview holds or forwards each decision of a validated review.
func (p *portfolio) takeReview(ctx workflow.Context, r PortfolioReview) {
	idx, err := p.targets(r)
	if err != nil {
		p.logger.Warn("Review refused", "Error", err)
		return
	}
	reviewer := who(r.Reviewer)
	for _, i := range idx {
		c := p.children[i]
		k := slices.IndexFunc(r.Decisions, func(d ScheduleDecision) bool { return d.ScheduleID == c.ScheduleID })
		if k < 0 {
			k = slices.IndexFunc(r.Decisions, func(d ScheduleDecision) bool { return d.ScheduleID == "" })
		}
		d := r.Decisions[k]
		review := Review{Decision: d.Decision, Feedback: d.Feedback, Reviewer: reviewer, Round: c.Round}
		held := d.Decision == DecisionAccept && p.failFast()
		p.decisions = append(p.decisions, PortfolioDecision{
			ScheduleID: c.ScheduleID, Round: c.Round, Decision: d.Decision, Feedback: d.Feedback, Reviewer: reviewer, Held: held,
		})
		if held {
			c.Held = &review
			continue
		}
		p.forward(ctx, c, review)
	}
	p.releaseHeld(ctx)
}

// releaseHeld forwards the held accepts once every live child holds one
// (fail_fast).
func (p *portfolio) releaseHeld(ctx workflow.Context) {
	if p.stopping() {
		return
	}
	if ctx.Err() != nil && workflow.GetVersion(ctx, versionNoForwardCancelled, workflow.DefaultVersion, 1) >= 1 {
		return
	}
	held := false
	for _, c := range p.children {
		if c.Ended() {
			continue
		}
		if c.Held == nil {
			return
		}
		held = true
	}
	if !held {
		return
	}
	for _, c := range p.children {
		if !c.Ended() && c.Held != nil {
			r := *c.Held
			c.Held = nil
			p.forward(ctx, c, r)
		}
	}
}

// forward signals a review to the child. It names no run: a dispatch
// that continued as new (a long one) is the same child under a new run,
// and the review's Round keeps it from deciding anything but the round
// it was given for.
func (p *portfolio) forward(ctx workflow.Context, c *ChildStatus, r Review) {
	c.Stage = childReviewSent
	runID := "" // the child's latest run
	if workflow.GetVersion(ctx, versionForwardLatestRun, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		runID = c.RunID // histories recorded before: the run the portfolio started
	}
	f := workflow.SignalExternalWorkflow(ctx, c.WorkflowID, runID, ReviewSignal, r)
	schedule := c.ScheduleID
	workflow.Go(ctx, func(ctx workflow.Context) {
		if err := f.Get(ctx, nil); err != nil {
			p.logger.Warn("Cannot forward the review", "ScheduleID", schedule, "Error", err)
		}
	})
}

func (p *portfolio) finish(ctx workflow.Context) (*PortfolioResult, error) {
	res := &PortfolioResult{Decisions: slices.Clone(p.decisions)}
	for _, c := range p.children {
		res.Children = append(res.Children, *c)
		if c.Result == StatusFailed {
			res.Failed = append(res.Failed, c.ScheduleID)
		}
	}
	switch {
	case p.cancelled:
		res.Status = PortfolioCancelled
		res.Error = "the portfolio was cancelled: every unfinished dispatch was cancelled and compensated"
	case p.failing != "":
		c, _ := p.status().Child(p.failing)
		res.Status = PortfolioFailed
		res.Error = fmt.Sprintf("schedule %q failed: %s (fail_fast: the other dispatches were cancelled and compensated)", p.failing, c.Error)
	case len(res.Failed) > 0:
		res.Status = PortfolioPartial
		var msgs []string
		for _, s := range res.Failed {
			c, _ := p.status().Child(s)
			msgs = append(msgs, fmt.Sprintf("schedule %q failed: %s", s, c.Error))
		}
		res.Error = strings.Join(msgs, "; ")
	default:
		res.Status = PortfolioCompleted
	}
	p.result, p.err = res.Status, res.Error
	p.stage = PortfolioDone
	if err := workflow.UpsertMemo(ctx, map[string]any{"outcome": res.Status}); err != nil {
		p.logger.Warn("Cannot set the memo", "Error", err)
	}
	p.logger.Info("Portfolio done", "Status", res.Status)
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return nil, err
	}
	return res, nil
}

func (p *portfolio) status() PortfolioStatus {
	st := PortfolioStatus{
		ID: p.id, Name: p.in.Name, Prompt: p.in.Prompt, Mode: p.in.Mode, Strategy: p.in.Strategy,
		Stage: p.stage, Result: p.result, Error: p.err, Decisions: slices.Clone(p.decisions),
	}
	for _, c := range p.children {
		cc := *c
		cc.Errors = slices.Clone(c.Errors)
		st.Children = append(st.Children, cc)
	}
	return st
}
