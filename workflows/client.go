package workflows

// The client side of the workflows (client*.go): the Temporal calls the
// CLI and the review web app both make — start a dispatch, wait for its
// proposal, review it, answer its question, list and describe dispatches,
// undo an accepted one, start and review a portfolio.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// OpenError is a dispatch refused because the schedule already has an
// open one (one open dispatch per schedule).
type OpenError struct{ ScheduleID, ID string }

func (e *OpenError) Error() string {
	return fmt.Sprintf("schedule %q already has an open dispatch: %s", e.ScheduleID, e.ID)
}

// checkName refuses a name recorded with what a person did (an author, a
// reviewer) that is no name: blank, over-long, or with control or
// invisible characters that would rewrite the terminal of whoever reads
// it (usertext.Name); the *usertext.Error names the field. "" is left to
// the workflow, which records "unknown".
func checkName(field, name string) error {
	if name == "" {
		return nil
	}
	return usertext.Name(field, name)
}

// CheckText refuses free text a person sends a dispatch — a review's
// feedback, an answer to the planner's question — that is over
// scope.MaxPrompt characters (scope.CheckPrompt's error, what naming it)
// or has control or invisible characters other than line breaks and tabs
// (a *usertext.Error naming what): it is planned, and shown to the other
// reviewers.
func CheckText(what, text string) error {
	if err := scope.CheckPrompt(what, text); err != nil {
		return err
	}
	return usertext.Text(what, text, scope.MaxPrompt)
}

// Start starts a dispatch; an open one on the same schedule is an
// *OpenError, an author that is no name or a prompt CheckText refuses a
// *usertext.Error or *scope.TooLongError (nothing started).
func Start(ctx context.Context, c client.Client, in DispatchInput) (client.WorkflowRun, error) {
	if err := checkName("author", in.Author); err != nil {
		return nil, err
	}
	if err := CheckText("prompt", in.Prompt); err != nil {
		return nil, err
	}
	id := DispatchWorkflowID(in.ScheduleID)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: TaskQueue,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
	}, DispatchWorkflow, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil, &OpenError{ScheduleID: in.ScheduleID, ID: id}
	}
	return run, err
}

// Update sends the Update name to the dispatch id (runID "" for its
// latest run) and waits for its result, decoded into out (nil: dropped).
func Update(ctx context.Context, c client.Client, id, runID, name string, arg, out any) error {
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: id, RunID: runID, UpdateName: name,
		WaitForStage: client.WorkflowUpdateStageCompleted, Args: []any{arg},
	})
	if err != nil {
		return err
	}
	return handle.Get(ctx, out)
}

// AwaitProposal waits, without polling, for the proposal of round (or a
// question asked while planning it).
func AwaitProposal(ctx context.Context, c client.Client, id, runID string, round int) (Proposal, error) {
	var proposal Proposal
	err := Update(ctx, c, id, runID, ProposalUpdate, ProposalRequest{Round: round}, &proposal)
	return proposal, err
}

// RefusedError is a review or an answer the dispatch did not take: no
// review awaited, a round another reviewer decided first, no question open.
type RefusedError struct {
	What   string // "review" or "answer"
	ID     string
	Reason string // the dispatch's words
}

func (e *RefusedError) Error() string {
	if e.What == "answer" {
		return fmt.Sprintf("answer to %s refused: %s", e.ID, e.Reason)
	}
	return fmt.Sprintf("%s of %s refused: %s", e.What, e.ID, e.Reason)
}

// SendReview sends a review by Update: a refusal is a *RefusedError; a
// reviewer that is no name, or feedback with control characters, a
// *usertext.Error (nothing sent). A cancel is taken at any stage, as
// Cancel takes it.
func SendReview(ctx context.Context, c client.Client, id string, review Review) error {
	return sendReview(ctx, c, id, "", review)
}

// Cancel cancels the dispatch id (runID "" for its latest run) in by's
// name at whatever stage it is: planning, applying, awaiting an answer to
// the planner's question, or awaiting review. What the round applied is
// compensated and the dispatch ends cancelled; its DispatchResult.Reason
// says who cancelled it and at which stage, and Decisions and `dispatch
// show` list the cancel as a review by by. Cancel returns once the
// dispatch has taken the cancel, before the compensation ends: wait for
// the outcome with c.GetWorkflow(ctx, id, runID).Get.
//
// A cancel the dispatch refuses is a *RefusedError saying why (it ended;
// its round was accepted and is being committed; it is being cancelled
// already); by that is no name is a *usertext.Error, nothing sent (""
// records "unknown"). A dispatch started before cancel at any stage
// existed is cancelled at review as before, and at any other stage by
// Temporal's workflow cancellation: it compensates and ends cancelled
// the same, but its history does not say by whom.
func Cancel(ctx context.Context, c client.Client, id, runID, by string) error {
	return sendReview(ctx, c, id, runID, Review{Decision: DecisionCancel, Reviewer: by})
}

func sendReview(ctx context.Context, c client.Client, id, runID string, review Review) error {
	if err := checkName("reviewer", review.Reviewer); err != nil {
		return err
	}
	if err := CheckText("feedback", review.Feedback); err != nil {
		return err
	}
	err := Update(ctx, c, id, runID, ReviewUpdate, review, nil)
	if err != nil && review.Decision == DecisionCancel && cancelsAtReviewOnly(err) {
		// A run from before cancel at any stage, not at review: Temporal's
		// cancellation, which every dispatch compensates and ends on.
		if cerr := c.CancelWorkflow(ctx, id, runID); cerr != nil {
			return &RefusedError{What: "cancel", ID: id, Reason: RootCause(cerr)}
		}
		return nil
	}
	if err != nil {
		what := "review"
		if review.Decision == DecisionCancel {
			what = "cancel"
		}
		return &RefusedError{What: what, ID: id, Reason: RootCause(err)}
	}
	return nil
}

// cancelsAtReviewOnly says a cancel was refused because the run takes one
// only at review: a run from before cancel at any stage (its own error
// type), a worker from before it ("no review is awaited"), or a run from
// before cancel was a review decision at all.
func cancelsAtReviewOnly(err error) bool {
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.Type() == ErrTypeCancelAtReviewOnly {
		return true
	}
	reason := RootCause(err)
	return strings.HasPrefix(reason, "no review is awaited") || strings.HasPrefix(reason, `decision "cancel"`)
}

// SendAnswer answers the dispatch's open question; a refusal is a
// *RefusedError; an author that is no name, or an answer with control
// characters, a *usertext.Error (nothing sent).
func SendAnswer(ctx context.Context, c client.Client, id, answer, author string) error {
	if err := checkName("author", author); err != nil {
		return err
	}
	if err := CheckText("answer", answer); err != nil {
		return err
	}
	if err := Update(ctx, c, id, "", ClarifyUpdate, Clarification{Answer: answer, Author: author}, nil); err != nil {
		return &RefusedError{What: "answer", ID: id, Reason: RootCause(err)}
	}
	return nil
}

// Query runs the query name on the dispatch id and decodes its result.
func Query(ctx context.Context, c client.Client, id, runID, name string, into any) error {
	v, err := c.QueryWorkflow(ctx, id, runID, name)
	if err != nil {
		return fmt.Errorf("dispatch %s: query %s: %w", id, name, err)
	}
	return v.Get(into)
}

// RootCause is the innermost message of a Temporal error chain ("schedule
// not found" rather than workflow error: activity error: application
// error: ...).
func RootCause(err error) string {
	var refused *RefusedError
	if errors.As(err, &refused) {
		return refused.Reason
	}
	last := err
	for e := err; e != nil; e = errors.Unwrap(e) {
		last = e
	}
	var app *temporal.ApplicationError
	if errors.As(last, &app) {
		return app.Message()
	}
	return last.Error()
}

// Edit applies ops directly through an EditWorkflow (no review) and
// returns its workflow id and result.
func Edit(ctx context.Context, c client.Client, scheduleID, author string, ops []schedule.Op) (string, EditResult, error) {
	if err := checkName("author", author); err != nil {
		return "", EditResult{}, err
	}
	id := fmt.Sprintf("edit-%s-%d", scheduleID, time.Now().UnixNano())
	var res EditResult
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: TaskQueue},
		EditWorkflow, EditInput{ScheduleID: scheduleID, Ops: ops, Author: author})
	if err != nil {
		return id, res, err
	}
	if err := run.Get(ctx, &res); err != nil {
		return id, res, fmt.Errorf("%s: %w", id, err)
	}
	return id, res, nil
}
