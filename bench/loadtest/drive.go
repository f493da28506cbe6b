package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// kind is what the reviewer does with a dispatch.
type kind int

const (
	accept   kind = iota // accept round 1
	reject               // reject round 1
	feedback             // reject round 1 with feedback, accept round 2
	clarify              // answer the planner's question, accept
)

func (k kind) String() string {
	return [...]string{"accept", "reject", "feedback", "clarify"}[k]
}

// kindOf spreads the kinds over a schedule's dispatches: 2 in 5 accepted
// as proposed, 1 in 5 rejected, 1 in 5 corrected by feedback, 1 in 5
// answering a question first.
func kindOf(schedule, seq int) kind {
	return [...]kind{accept, reject, feedback, accept, clarify}[(schedule+seq)%5]
}

// dispatchPlan is one dispatch and the state it must leave: the activity
// it adds (when kept), its duration and its predecessor.
type dispatchPlan struct {
	ScheduleID string
	Seq        int
	Kind       kind
	Activity   string
	// Expected when accepted.
	Duration    string
	Predecessor string
}

func planFor(scheduleID string, schedule, seq int) dispatchPlan {
	p := dispatchPlan{ScheduleID: scheduleID, Seq: seq, Kind: kindOf(schedule, seq),
		Activity: fmt.Sprintf("Load check %03d", seq), Duration: "2", Predecessor: "Defect rectification"}
	switch p.Kind {
	case feedback:
		p.Duration = "3"
	case clarify:
		p.Predecessor = "Roofing membrane"
	}
	return p
}

func (p dispatchPlan) prompt() string {
	if p.Kind == clarify {
		return fmt.Sprintf("add activity %q 2 days after the roof", p.Activity)
	}
	return fmt.Sprintf("add activity %q 2 days after %q", p.Activity, p.Predecessor)
}

// kept says whether the activity must exist after the dispatch.
func (p dispatchPlan) kept() bool { return p.Kind != reject }

// outcome is what happened to one dispatch.
type outcome struct {
	Plan dispatchPlan
	// ToProposal: submit -> the first proposal or question; ToCommitted:
	// the accept sent -> the dispatch's result returned.
	ToProposal, ToCommitted time.Duration
	Status                  string // the dispatch's result
	Err                     error  // the driver gave up: a lost dispatch
}

// patience bounds how long the driver retries one call through faults.
const patience = 3 * time.Minute

// retry calls f until it succeeds, ctx ends or patience runs out; a
// refusal (the dispatch said no: an application error from its Update
// validator or handler) is not retried.
func retry[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	deadline := time.Now().Add(patience)
	for {
		callCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
		v, err := f(callCtx)
		cancel()
		var refused *workflows.RefusedError
		var app *temporal.ApplicationError
		if err == nil || errors.As(err, &refused) || errors.As(err, &app) || ctx.Err() != nil || time.Now().After(deadline) {
			return v, err
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// drive runs one dispatch as a reviewer would and measures it.
func drive(ctx context.Context, c client.Client, p dispatchPlan) (out outcome) {
	out.Plan = p
	id := workflows.DispatchWorkflowID(p.ScheduleID)
	start := time.Now()
	mayHaveStarted := false
	_, err := retry(ctx, func(ctx context.Context) (struct{}, error) {
		_, err := workflows.Start(ctx, c, workflows.DispatchInput{ScheduleID: p.ScheduleID, Prompt: p.prompt(), Author: "loadtest"})
		var open *workflows.OpenError
		switch {
		case errors.As(err, &open) && mayHaveStarted:
			// A start retried after its reply was lost: ours is running
			// (the driver runs one dispatch per schedule at a time, and
			// cancels any it gives up on).
			err = nil
		case errors.As(err, &open):
			err = fmt.Errorf("%w (left by an earlier run?)", err)
		case err != nil:
			mayHaveStarted = true
		}
		return struct{}{}, err
	})
	if err != nil {
		out.Err = fmt.Errorf("start: %w", err)
		return out
	}
	// A dispatch the driver gives up on is cancelled (the workflow
	// compensates what it applied), so the schedule is free for the next.
	defer func() {
		if out.Err != nil {
			abandon(ctx, c, id)
		}
	}()
	proposal, err := awaitProposal(ctx, c, id, 1)
	if err != nil {
		out.Err = err
		return out
	}
	out.ToProposal = time.Since(start)
	if p.Kind == clarify {
		if proposal.Question == "" {
			out.Err = fmt.Errorf("expected a question, got %d change(s)", len(proposal.Changes))
			return out
		}
		if err := answer(ctx, c, id, p.Predecessor); err != nil {
			out.Err = err
			return out
		}
		if proposal, err = awaitProposal(ctx, c, id, 1); err != nil {
			out.Err = err
			return out
		}
	}
	if err := expectAdd(proposal, p.Activity, "2"); err != nil {
		out.Err = fmt.Errorf("round 1: %w", err)
		return out
	}
	switch p.Kind {
	case reject:
		err = review(ctx, c, id, workflows.Review{Decision: workflows.DecisionReject, Round: 1})
	case feedback:
		if err = review(ctx, c, id, workflows.Review{Decision: workflows.DecisionReject, Feedback: "3 days, not 2", Round: 1}); err != nil {
			break
		}
		if proposal, err = awaitProposal(ctx, c, id, 2); err != nil {
			break
		}
		if err = expectAdd(proposal, p.Activity, "3"); err != nil {
			err = fmt.Errorf("round 2: %w", err)
			break
		}
		fallthrough
	default:
		sent := time.Now()
		if err = review(ctx, c, id, workflows.Review{Decision: workflows.DecisionAccept, Round: proposal.Round}); err == nil {
			defer func() { out.ToCommitted = time.Since(sent) }()
		}
	}
	if err != nil {
		out.Err = err
		return out
	}
	res, err := retry(ctx, func(ctx context.Context) (workflows.DispatchResult, error) {
		var res workflows.DispatchResult
		err := c.GetWorkflow(ctx, id, "").Get(ctx, &res)
		return res, err
	})
	if err != nil {
		out.Err = fmt.Errorf("result: %w", err)
		return out
	}
	out.Status = res.Status
	want := workflows.StatusAccepted
	if p.Kind == reject {
		want = workflows.StatusRejected
	}
	if res.Status != want {
		out.Err = fmt.Errorf("ended %s (%s), want %s", res.Status, res.Error, want)
	}
	return out
}

func abandon(ctx context.Context, c client.Client, id string) {
	_, _ = retry(ctx, func(ctx context.Context) (struct{}, error) {
		if err := c.CancelWorkflow(ctx, id, ""); err != nil {
			var done *serviceerror.NotFound
			if !errors.As(err, &done) {
				return struct{}{}, err
			}
		}
		return struct{}{}, c.GetWorkflow(ctx, id, "").Get(ctx, nil)
	})
}

func awaitProposal(ctx context.Context, c client.Client, id string, round int) (workflows.Proposal, error) {
	p, err := retry(ctx, func(ctx context.Context) (workflows.Proposal, error) {
		return workflows.AwaitProposal(ctx, c, id, "", round)
	})
	if err != nil {
		return p, fmt.Errorf("proposal of round %d: %w", round, err)
	}
	return p, nil
}

// review sends a review; a refusal after a lost reply is checked against
// the dispatch's state rather than trusted or retried blindly.
func review(ctx context.Context, c client.Client, id string, r workflows.Review) error {
	_, err := retry(ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, workflows.Update(ctx, c, id, "", workflows.ReviewUpdate, r, nil)
	})
	if err == nil {
		return nil
	}
	if decided(ctx, c, id, r) {
		return nil
	}
	return fmt.Errorf("%s round %d: %w", r.Decision, r.Round, err)
}

// decided says whether the dispatch already took review r (its earlier
// attempt went through and only the reply was lost).
func decided(ctx context.Context, c client.Client, id string, r workflows.Review) bool {
	var st workflows.Status
	if err := workflows.Query(ctx, c, id, "", workflows.StatusQuery, &st); err != nil {
		return false
	}
	for _, d := range st.Decisions {
		if d.Round == r.Round && d.Decision == r.Decision {
			return true
		}
	}
	return st.Stage == workflows.StageDone
}

func answer(ctx context.Context, c client.Client, id, text string) error {
	_, err := retry(ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, workflows.Update(ctx, c, id, "", workflows.ClarifyUpdate, workflows.Clarification{Answer: text, Author: "loadtest"}, nil)
	})
	if err != nil {
		return fmt.Errorf("answer: %w", err)
	}
	return nil
}

// expectAdd checks that a proposal adds the activity with that duration.
func expectAdd(p workflows.Proposal, name, duration string) error {
	for _, ch := range p.Changes {
		if ch.Op.Activity != nil && ch.Op.Activity.Name == name {
			if ch.Op.Activity.Duration != duration {
				return fmt.Errorf("%s proposed with %s days, want %s", name, ch.Op.Activity.Duration, duration)
			}
			return nil
		}
	}
	var notes string
	if len(p.Notes) > 0 {
		notes = ": " + strings.Join(p.Notes, "; ")
	}
	return fmt.Errorf("no add of %s in %d change(s)%s%s", name, len(p.Changes), p.Question, notes)
}
