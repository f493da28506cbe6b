package workflows

import (
	"fmt"
	"strconv"
	"time"
)

// Portfolio delegation (seed 001's delegate_tasks, on Temporal): one
// prompt, many schedules. A PortfolioWorkflow starts one child
// DispatchWorkflow per schedule (workflow ID DispatchWorkflowID, so the
// one-open-dispatch-per-schedule lock holds), follows each child's stage
// (ChildStageSignal), applies an error strategy when a child fails, and
// forwards reviews to the children (PortfolioReviewUpdate).

// Portfolio modes.
const (
	// PortfolioSync: the caller waits for every child's proposal
	// (PortfolioReadyUpdate) and reviews them on one screen, through the
	// parent. Children are cancelled (and compensate) when the parent
	// closes without them.
	PortfolioSync = "sync"
	// PortfolioAsync: the caller gets the children's ids at once and
	// reviews them when it likes (through the parent or on each child).
	// Children outlive a parent that is terminated (they are dispatches
	// people review on their own).
	PortfolioAsync = "async"
)

// Portfolio error strategies (seed 001's ErrorStrategy).
const (
	// StrategyFailFast: the first child that fails cancels the others —
	// they compensate and end cancelled — and the portfolio ends failed
	// naming that schedule. Accepts are held until every live child is
	// accepted, so a failure in a later feedback round still leaves
	// nothing committed.
	StrategyFailFast = "fail_fast"
	// StrategyContinueOnError: a failed child is reported; the others go
	// on to review.
	StrategyContinueOnError = "continue_on_error"
	// StrategyRetry: a failed child is started again (the same workflow
	// ID, once the failed run has closed and compensated) up to
	// MaxRetries times; then PortfolioInput.AfterRetries applies
	// (fail_fast unless it says continue_on_error: the seed throws once
	// the retries are spent).
	StrategyRetry = "retry"
)

// Strategies and Modes are the accepted values, in the order offered.
var (
	Strategies     = []string{StrategyFailFast, StrategyContinueOnError, StrategyRetry}
	PortfolioModes = []string{PortfolioSync, PortfolioAsync}
)

// Defaults and caps of PortfolioInput.
const (
	DefaultMaxRetries = 2
	// MaxRetriesLimit caps MaxRetries: a planner that failed ten times on
	// a schedule needs a person, not an eleventh run.
	MaxRetriesLimit = 10
	// MaxPortfolioSchedules caps the children of one portfolio (each is a
	// dispatch with its own history; the parent's history grows with
	// each child's stage signals).
	MaxPortfolioSchedules = 50
)

// Message names of the portfolio workflow.
const (
	// PortfolioStatusQuery returns PortfolioStatus: every child's stage.
	PortfolioStatusQuery = "status"
	// PortfolioReadyUpdate takes a PortfolioReadyRequest and returns the
	// PortfolioStatus once every child awaits review or an answer, or has
	// ended: the sync CLI waits for it without polling.
	PortfolioReadyUpdate = "ready"
	// PortfolioReviewUpdate takes a PortfolioReview and forwards each
	// decision to its child as a review signal (one audit point: the
	// parent's history holds every decision of the portfolio). The
	// validator refuses decisions for schedules that are not awaiting
	// review.
	PortfolioReviewUpdate = "review"
)

// Error types of portfolio failures.
const (
	ErrTypePortfolioEnded = "PortfolioEnded"
)

// PortfolioWorkflowID is a portfolio's workflow ID: "portfolio-" and the
// portfolio's name (or "adhoc") and a caller-chosen unique suffix (the
// CLI uses the start time). Children keep their own IDs
// (DispatchWorkflowID), which is what makes the lock hold.
func PortfolioWorkflowID(name, suffix string) string {
	if name == "" {
		name = "adhoc"
	}
	return fmt.Sprintf("portfolio-%s-%s", name, suffix)
}

// NewPortfolioID is a fresh portfolio workflow ID: the portfolio's name
// (or "adhoc") and the start time in base 36, so two portfolios of the
// same name started a moment apart do not collide (the children's IDs,
// not the parent's, carry the per-schedule lock).
func NewPortfolioID(name string) string {
	return PortfolioWorkflowID(name, strconv.FormatInt(time.Now().UnixNano(), 36))
}

// PortfolioInput starts a portfolio.
type PortfolioInput struct {
	// Name is the stored portfolio it was started from ("" for a list
	// given on the command line).
	Name      string   `json:"name,omitempty"`
	Schedules []string `json:"schedules"`
	Prompt    string   `json:"prompt"`
	Author    string   `json:"author"`
	// Mode is PortfolioSync (default) or PortfolioAsync.
	Mode string `json:"mode,omitempty"`
	// Strategy is fail_fast (default), continue_on_error or retry.
	Strategy string `json:"strategy,omitempty"`
	// MaxRetries is how often retry restarts a failed child
	// (DefaultMaxRetries when 0, at most MaxRetriesLimit).
	MaxRetries int `json:"max_retries,omitempty"`
	// AfterRetries is what retry does once a child's retries are spent:
	// fail_fast (default) or continue_on_error.
	AfterRetries string `json:"after_retries,omitempty"`
	// RetryDelay waits before each retry (0: none; the child's own
	// activities have already retried transient errors with back-off).
	RetryDelay time.Duration `json:"retry_delay,omitempty"`
	// MaxRounds and ReviewTimeout are passed to each child.
	MaxRounds     int           `json:"max_rounds,omitempty"`
	ReviewTimeout time.Duration `json:"review_timeout,omitempty"`
}

// Portfolio outcomes (PortfolioResult.Status).
const (
	// PortfolioCompleted: every child ended as people decided (accepted,
	// rejected, or cancelled at review) or timed out; none failed.
	PortfolioCompleted = "completed"
	// PortfolioPartial: some children failed (continue_on_error, or retry
	// then continue_on_error); the others ended as decided.
	PortfolioPartial = "partial"
	// PortfolioFailed: fail_fast: a child failed and the others were
	// cancelled and compensated.
	PortfolioFailed = "failed"
	// PortfolioCancelled: the portfolio itself was cancelled; every child
	// was cancelled and compensated.
	PortfolioCancelled = "cancelled"
)

// Stages of a portfolio (PortfolioStatus.Stage).
const (
	PortfolioRunning    = "running"
	PortfolioCancelling = "cancelling" // fail_fast triggered or the portfolio cancelled
	PortfolioDone       = "done"
)

// ChildStatus is one child as the parent knows it.
type ChildStatus struct {
	ScheduleID string `json:"schedule_id"`
	WorkflowID string `json:"workflow_id"`
	// RunID is the current attempt's run ("" before it started, or when
	// it could not start).
	RunID string `json:"run_id,omitempty"`
	// Stage is the child's dispatch stage (its last ChildStage signal),
	// "starting" before the first, "review_sent" between a forwarded
	// review and the child's next stage, "done" once it ended.
	Stage string `json:"stage"`
	Round int    `json:"round"`
	// Result is the child's DispatchResult.Status once it ended (failed
	// for a child that could not start).
	Result string `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
	// Reason is the child's DispatchResult.Reason.
	Reason string `json:"reason,omitempty"`
	Rounds int    `json:"rounds,omitempty"`
	// Changes counts the change records of the child's result.
	Changes int `json:"changes,omitempty"`
	// Attempts counts the runs started (retry starts more than one).
	Attempts int `json:"attempts"`
	// Held is an accept the parent holds (fail_fast) until every live
	// child is accepted.
	Held *Review `json:"held,omitempty"`
	// Errors are the errors of earlier attempts, in order.
	Errors []string `json:"errors,omitempty"`
}

// Ended reports whether the child has ended (its last attempt).
func (c ChildStatus) Ended() bool { return c.Result != "" }

// AwaitingReview reports whether the child's proposal awaits a decision
// the parent has not held or forwarded yet.
func (c ChildStatus) AwaitingReview() bool {
	return !c.Ended() && c.Held == nil && c.Stage == StageAwaitingReview
}

// PortfolioStatus is what the status query (and the ready and review
// Updates) return.
type PortfolioStatus struct {
	ID        string              `json:"id"`
	Name      string              `json:"name,omitempty"`
	Prompt    string              `json:"prompt"`
	Mode      string              `json:"mode"`
	Strategy  string              `json:"strategy"`
	Stage     string              `json:"stage"`
	Children  []ChildStatus       `json:"children"`
	Result    string              `json:"result,omitempty"`
	Error     string              `json:"error,omitempty"`
	Decisions []PortfolioDecision `json:"decisions,omitempty"`
}

// Ready reports whether no child is still working: each awaits review or
// an answer, holds an accept, or has ended.
func (s PortfolioStatus) Ready() bool {
	for _, c := range s.Children {
		if !c.Ended() && c.Held == nil && c.Stage != StageAwaitingReview && c.Stage != StageAwaitingClarification {
			return false
		}
	}
	return true
}

// Child returns the child of scheduleID.
func (s PortfolioStatus) Child(scheduleID string) (ChildStatus, bool) {
	for _, c := range s.Children {
		if c.ScheduleID == scheduleID {
			return c, true
		}
	}
	return ChildStatus{}, false
}

// PortfolioReadyRequest asks the ready Update to return once no child is
// working (PortfolioStatus.Ready) or the portfolio ended. A child a review
// was just forwarded to is working (stage review_sent) until it signals
// its next stage, so asking again right after a review does not return
// the screen just reviewed.
type PortfolioReadyRequest struct{}

// ScheduleDecision is a review of one child. ScheduleID "" stands for
// every child awaiting review that no other decision names.
type ScheduleDecision struct {
	ScheduleID string `json:"schedule_id,omitempty"`
	Decision   string `json:"decision"`
	Feedback   string `json:"feedback,omitempty"`
}

// PortfolioReview is one review screen's decisions.
type PortfolioReview struct {
	Reviewer  string             `json:"reviewer,omitempty"`
	Decisions []ScheduleDecision `json:"decisions"`
}

// PortfolioDecision is a decision as the parent took it (the audit
// trail): which child, which round, what, by whom, and whether it was
// held (fail_fast accepts) or forwarded.
type PortfolioDecision struct {
	ScheduleID string `json:"schedule_id"`
	Round      int    `json:"round"`
	Decision   string `json:"decision"`
	Feedback   string `json:"feedback,omitempty"`
	Reviewer   string `json:"reviewer"`
	Held       bool   `json:"held,omitempty"`
}

// PortfolioResult is how a portfolio ended. Outcomes are data.
type PortfolioResult struct {
	Status   string        `json:"status"`
	Children []ChildStatus `json:"children"`
	// Failed lists the schedules whose child failed, in input order.
	Failed []string `json:"failed,omitempty"`
	Error  string   `json:"error,omitempty"`
	// Decisions are the reviews the parent forwarded, in order.
	Decisions []PortfolioDecision `json:"decisions,omitempty"`
}
