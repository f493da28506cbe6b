package workflows

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
)

// StartPortfolio checks in and starts a portfolio as id. The children's
// workflow IDs are known at once (DispatchWorkflowID of each
// schedule): that is what async mode prints.
func StartPortfolio(ctx context.Context, c client.Client, id string, in PortfolioInput) (client.WorkflowRun, PortfolioInput, error) {
	if err := checkName("author", in.Author); err != nil {
		return nil, in, err
	}
	in, err := NormalizePortfolio(in)
	if err != nil {
		return nil, in, err
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: TaskQueue,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
	}, PortfolioWorkflow, in)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil, in, fmt.Errorf("portfolio %s is already running", id)
	}
	return run, in, err
}

// QueryPortfolioStatus asks a portfolio for every child's stage.
func QueryPortfolioStatus(ctx context.Context, c client.Client, id string) (PortfolioStatus, error) {
	var st PortfolioStatus
	err := Query(ctx, c, id, "", PortfolioStatusQuery, &st)
	return st, err
}

// AwaitPortfolioReady waits, without polling, until no child of the
// portfolio is working (each awaits review or an answer, or has ended) or
// the portfolio ended.
func AwaitPortfolioReady(ctx context.Context, c client.Client, id string) (PortfolioStatus, error) {
	var st PortfolioStatus
	err := Update(ctx, c, id, "", PortfolioReadyUpdate, PortfolioReadyRequest{}, &st)
	return st, err
}

// ReviewPortfolio sends one review screen's decisions to the portfolio,
// which forwards (or, fail_fast, holds) each; a refusal is a
// *RefusedError.
func ReviewPortfolio(ctx context.Context, c client.Client, id string, r PortfolioReview) (PortfolioStatus, error) {
	var st PortfolioStatus
	if err := checkName("reviewer", r.Reviewer); err != nil {
		return st, err
	}
	for _, d := range r.Decisions {
		if err := CheckText("feedback", d.Feedback); err != nil {
			return st, err
		}
	}
	if err := Update(ctx, c, id, "", PortfolioReviewUpdate, r, &st); err != nil {
		return st, &RefusedError{What: "review", ID: id, Reason: RootCause(err)}
	}
	return st, nil
}

// AwaitPortfolioResult waits for a portfolio's outcome.
func AwaitPortfolioResult(ctx context.Context, c client.Client, id string) (PortfolioResult, error) {
	var res PortfolioResult
	if err := c.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil {
		return res, fmt.Errorf("portfolio %s: %s", id, RootCause(err))
	}
	return res, nil
}

// ChildProposal is one child's proposal, as the review screen shows it.
type ChildProposal struct {
	ScheduleID string   `json:"schedule_id"`
	WorkflowID string   `json:"workflow_id"`
	Proposal   Proposal `json:"proposal"`
}

// PortfolioProposals reads the proposal of every child of st that awaits
// review or an answer (ProposalQuery: nothing is added to the children's
// histories), in the portfolio's order.
func PortfolioProposals(ctx context.Context, c client.Client, st PortfolioStatus) ([]ChildProposal, error) {
	var out []ChildProposal
	for _, ch := range st.Children {
		if ch.Ended() || (ch.Stage != StageAwaitingReview && ch.Stage != StageAwaitingClarification) {
			continue
		}
		var p Proposal
		// The latest run: a child that continued as new is queried there.
		if err := Query(ctx, c, ch.WorkflowID, "", ProposalQuery, &p); err != nil {
			return out, err
		}
		out = append(out, ChildProposal{ScheduleID: ch.ScheduleID, WorkflowID: ch.WorkflowID, Proposal: p})
	}
	return out, nil
}
