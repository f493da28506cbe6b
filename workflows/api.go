// Package workflows holds the durable dispatch, edit and portfolio
// workflows, their public contract (task queue, workflow-ID helpers,
// message names and payloads, in api.go and api_portfolio.go) and the
// Temporal client calls the CLI and the web app make (client*.go).
package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

// TaskQueue is the task queue of the workflows and activities.
const TaskQueue = "autoscheduler"

// DispatchWorkflowID is the ID of a schedule's dispatch: one open dispatch
// per schedule, so a second submit fails naming the open one.
func DispatchWorkflowID(scheduleID string) string { return "dispatch-" + scheduleID }

// ScheduleOf is the schedule a dispatch id (dispatch-<schedule>) names:
// DispatchWorkflowID's inverse.
func ScheduleOf(id string) (string, bool) {
	scheduleID, ok := strings.CutPrefix(id, DispatchWorkflowID(""))
	return scheduleID, ok && scheduleID != ""
}

// Message names.
const (
	// ReviewSignal and ReviewUpdate carry a Review. The Update's validator
	// refuses a review when none is awaited, and one for a round other than
	// the awaiting one (Review.Round) — naming who decided that round
	// first when someone did; the signal is ignored then. A cancel is
	// taken at every stage (dispatches since "cancel-any-stage"): while
	// the round plans, applies or waits for an answer too, unless the
	// dispatch ended or its round was accepted (see Cancel).
	ReviewSignal = "review"
	ReviewUpdate = "review"
	// ProposalUpdate takes a ProposalRequest, waits until a proposal is
	// awaiting review (or, with ProposalRequest.Stage, until the stage
	// changes) and returns it: the CLI and the web app wait without
	// polling. Each Update is recorded in the dispatch's history, and
	// Temporal allows a workflow 2000 Updates in all and 10 in flight:
	// to show a page, use ProposalQuery.
	ProposalUpdate = "proposal"
	// ProposalQuery returns the current round's Proposal at once, whatever
	// the stage (Proposal.Stage says which): what a page load shows.
	// Queries add nothing to the history.
	ProposalQuery = "proposal"
	// ClarifySignal and ClarifyUpdate carry a Clarification: the answer to
	// the question a planning step asked (stage awaiting_clarification).
	// The Update's validator refuses an answer when no question is open.
	ClarifySignal = "clarify"
	ClarifyUpdate = "clarify"
	// ChangesQuery returns []ChangeRecord; StatusQuery returns Status.
	ChangesQuery = "changes"
	StatusQuery  = "status"
)

// Search attributes (Keyword) the Web UI lists and filters dispatches by.
var (
	ScheduleIDAttribute    = temporal.NewSearchAttributeKeyKeyword("ScheduleID")
	DispatchStageAttribute = temporal.NewSearchAttributeKeyKeyword("DispatchStage")
	// DispatchOutcomeAttribute is set when a dispatch ends, to its
	// DispatchResult.Status (accepted, rejected, cancelled, timed_out,
	// failed): `dispatch list` and the Web UI filter ended dispatches by
	// it (DispatchOutcome="rejected"). Dispatches that ended before it
	// existed, and running ones, do not have it.
	DispatchOutcomeAttribute = temporal.NewSearchAttributeKeyKeyword("DispatchOutcome")
)

// SearchAttributes are the attributes above with their types, for a server
// to register in the namespace these workflows run in.
func SearchAttributes() map[string]enums.IndexedValueType {
	return map[string]enums.IndexedValueType{
		ScheduleIDAttribute.GetName():      enums.INDEXED_VALUE_TYPE_KEYWORD,
		DispatchStageAttribute.GetName():   enums.INDEXED_VALUE_TYPE_KEYWORD,
		DispatchOutcomeAttribute.GetName(): enums.INDEXED_VALUE_TYPE_KEYWORD,
	}
}

// Defaults of DispatchInput.
const (
	DefaultMaxRounds     = 5
	DefaultReviewTimeout = 7 * 24 * time.Hour
)

// Caps that keep a dispatch's history and payloads bounded.
const (
	// MaxRoundsLimit clamps DispatchInput.MaxRounds: each round is a
	// handful of activities plus the records of its ops, and a proposal
	// rejected twenty times needs a new prompt, not a twenty-first round.
	// A dispatch whose last review has feedback at the limit ends
	// rejected with DispatchResult.Reason saying so.
	MaxRoundsLimit = 20
	// MaxQuestionsPerStep bounds the clarifying questions one planning step
	// asks in a round. A step still asking after that many answers is left
	// out of the round (nothing of it applied) with a note at review — the
	// reviewer rejects with feedback that names things exactly, or accepts
	// the rest. See scope.MaxQuestionsPerStep (the same cap in `plan`).
	MaxQuestionsPerStep = scope.MaxQuestionsPerStep
	// MaxResultChanges caps the change records a DispatchResult, a
	// Proposal and a continue-as-new input carry (Temporal refuses
	// payloads over 2 MB; a record is a few hundred bytes): the latest are
	// kept and ChangesOmitted counts the others. The changes query and the
	// stores' ledgers keep every change.
	MaxResultChanges = 1000
)

// DispatchInput starts a dispatch.
type DispatchInput struct {
	ScheduleID string `json:"schedule_id"`
	Prompt     string `json:"prompt"`
	Author     string `json:"author"`
	// MaxRounds bounds the review rounds (DefaultMaxRounds when 0).
	MaxRounds int `json:"max_rounds,omitempty"`
	// ReviewTimeout is how long a round waits for review before it is
	// compensated (DefaultReviewTimeout when 0).
	ReviewTimeout time.Duration `json:"review_timeout,omitempty"`
	// AutoAccept commits the first round without waiting for review.
	AutoAccept bool `json:"auto_accept,omitempty"`
	// Parent is the workflow ID of the portfolio dispatch that started this
	// one as its child ("" for a dispatch started on its own). The
	// dispatch signals it (ChildStageSignal) at every stage change, so the
	// parent's query shows each child's stage without querying children.
	Parent string `json:"parent,omitempty"`
	// Continued is set only by the dispatch itself when it continues as a
	// new run (a long dispatch's history grows past what Temporal
	// suggests): the state its next round starts from. Callers leave it nil.
	Continued *DispatchState `json:"continued,omitempty"`
}

// DispatchState is what a dispatch carries into its next run. It
// continues as new only between rounds, after the rejected round was
// compensated, so no applied changes (inverses) are open.
type DispatchState struct {
	// Round is the round the new run plans first.
	Round int `json:"round"`
	// Scope is the first run's op-ID scope (workflow and run ID): every op
	// and the commit record of the dispatch keep naming the first run.
	Scope string `json:"scope"`
	// Separation is the dispatch's one separation of the prompt (nil in a
	// dispatch that began before separations were kept).
	Separation *scope.Separation `json:"separation,omitempty"`
	// Feedback and Previous plan Round: the last review's feedback and the
	// ops it rejected.
	Feedback       string           `json:"feedback,omitempty"`
	Previous       []schedule.Op    `json:"previous,omitempty"`
	Changes        []ChangeRecord   `json:"changes,omitempty"`
	ChangesOmitted int              `json:"changes_omitted,omitempty"`
	Usage          scope.TokenUsage `json:"usage"`
	Reviewer       string           `json:"reviewer,omitempty"`
	// Decisions are the reviews of the rounds so far.
	Decisions []Decision `json:"decisions,omitempty"`
	// Back, when set, is the earlier round Round re-applies instead of
	// planning (the last review was "back").
	Back *BackState `json:"back,omitempty"`
}

// BackState is a round taken back: the round whose ops are re-applied,
// the ops, and who took it back.
type BackState struct {
	Round    int           `json:"round"`
	Ops      []schedule.Op `json:"ops,omitempty"`
	Reviewer string        `json:"reviewer"`
}

// Dispatch outcomes.
const (
	StatusAccepted  = "accepted"
	StatusRejected  = "rejected"
	StatusCancelled = "cancelled"
	StatusTimedOut  = "timed_out"
	StatusFailed    = "failed"
)

// DispatchResult is how a dispatch ended. Outcomes are data: a rejected or
// failed dispatch still completes, with Error saying why it failed.
type DispatchResult struct {
	Status string `json:"status"`
	Rounds int    `json:"rounds"`
	// Changes are the dispatch's change records, the latest
	// MaxResultChanges of them; ChangesOmitted counts the earlier ones.
	Changes        []ChangeRecord   `json:"changes"`
	ChangesOmitted int              `json:"changes_omitted,omitempty"`
	TokenUsage     scope.TokenUsage `json:"token_usage"`
	// Author is DispatchInput.Author ("unknown" when it was empty);
	// Reviewer who gave the last review ("<author> (auto-accept)" for an
	// auto-accepted dispatch, "unknown" for a review that did not say, ""
	// when none came).
	Author   string `json:"author,omitempty"`
	Reviewer string `json:"reviewer,omitempty"`
	// Reason says why the dispatch ended as it did when the status alone
	// does not (the round limit was reached).
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
	// Decisions are the reviews the rounds took, in order (none for an
	// auto-accepted dispatch or a round that timed out).
	Decisions []Decision `json:"decisions,omitempty"`
}

// Review decisions.
const (
	DecisionAccept = "accept"
	DecisionReject = "reject"
	// The review actions (dispatches since the "review-actions" version):
	// redo plans the same prompt again as the next round, without
	// feedback; back re-applies the previous round's proposal as the next
	// round, without planning (not on round 1); cancel compensates and
	// ends the dispatch cancelled — at any stage since "cancel-any-stage",
	// at review before. Redo and back are refused at the round limit.
	DecisionRedo   = "redo"
	DecisionBack   = "back"
	DecisionCancel = "cancel"
)

// Decisions are the review decisions, in the order they are offered.
var Decisions = []string{DecisionAccept, DecisionReject, DecisionRedo, DecisionBack, DecisionCancel}

// Review is a person's verdict on a proposal. Reject with Feedback starts
// another round planned with that feedback.
type Review struct {
	Decision string `json:"decision"`
	Feedback string `json:"feedback,omitempty"`
	Reviewer string `json:"reviewer,omitempty"`
	// Round is the round the reviewer saw (Proposal.Round). A review of
	// any other round than the one awaiting review is refused, so two
	// people reviewing the same proposal cannot both decide it, and a
	// verdict on a superseded round cannot decide the next one. 0 decides
	// whatever round is awaiting review.
	Round int `json:"round,omitempty"`
}

// Decision is the review a round took: who decided it, and how.
type Decision struct {
	Round    int    `json:"round"`
	Decision string `json:"decision"`
	Feedback string `json:"feedback,omitempty"`
	// Reviewer is Review.Reviewer ("unknown" when it was empty).
	Reviewer string `json:"reviewer"`
}

// Summary says how and by whom a round was decided: "accepted by bob",
// "rejected by carol", "rejected with feedback by alice".
func (d Decision) Summary() string {
	switch {
	case d.Decision == DecisionAccept:
		return "accepted by " + d.Reviewer
	case d.Decision == DecisionRedo:
		return "redone by " + d.Reviewer
	case d.Decision == DecisionBack:
		return fmt.Sprintf("taken back to round %d by %s", d.Round-1, d.Reviewer)
	case d.Decision == DecisionCancel:
		return "cancelled by " + d.Reviewer
	case d.Feedback != "":
		return "rejected with feedback by " + d.Reviewer
	}
	return "rejected by " + d.Reviewer
}

// Change record statuses.
const (
	ChangeApplied     = "applied"
	ChangeCompensated = "compensated"
	ChangeCommitted   = "committed"
)

// ChangeRecord is one buffered change: an op as applied to the stores.
// Author is who asked for it (the dispatch's author), Reviewer who
// accepted or rejected it (set once reviewed).
type ChangeRecord struct {
	Round    int         `json:"round"`
	Op       schedule.Op `json:"op"`
	Call     string      `json:"call"`
	Status   string      `json:"status"`
	Author   string      `json:"author,omitempty"`
	Reviewer string      `json:"reviewer,omitempty"`
}

// Stages of a dispatch, in the order a round goes through them.
const (
	StageSeparating        = "separating"
	StagePlanningRemovals  = "planning_removals"
	StageApplyingRemovals  = "applying_removals"
	StagePlanningAdditions = "planning_additions"
	StageApplyingAdditions = "applying_additions"
	// StageAwaitingClarification: a planning step asked a question (an
	// ambiguous name) and waits for the clarify signal or Update.
	StageAwaitingClarification = "awaiting_clarification"
	StageAwaitingReview        = "awaiting_review"
	StageCommitting            = "committing"
	StageCompensating          = "compensating"
	StageDone                  = "done"
)

// Status is what the status query returns.
type Status struct {
	Stage          string `json:"stage"`
	Round          int    `json:"round"`
	AwaitingReview bool   `json:"awaiting_review"`
	// AwaitingClarification: Question waits for an answer.
	AwaitingClarification bool             `json:"awaiting_clarification,omitempty"`
	Impact                *Impact          `json:"impact,omitempty"`
	TokenUsage            scope.TokenUsage `json:"token_usage"`
	Question              string           `json:"question,omitempty"`
	// Choices are the answers Question offers, Several whether an answer
	// may pick more than one (scope.Plan's): a pick list beside the text.
	Choices []Choice `json:"choices,omitempty"`
	Several bool     `json:"several,omitempty"`
	// Result is set once the stage is done.
	Result string `json:"result,omitempty"`
	// Decisions are the reviews of the rounds so far, in order.
	Decisions []Decision `json:"decisions,omitempty"`
	// Cancelling: a cancel was taken and the dispatch is compensating
	// what its round applied before it ends cancelled.
	Cancelling bool `json:"cancelling,omitempty"`
}

// Impact is the CPM effect of a round's changes (finish in working days,
// critical paths and changed floats as activity ids, and the comparison
// the review shows). It is the ComputeImpact activity's result, and
// activities cannot import this package (it imports them), so the domain
// defines it beside the comparison it carries (Diff, a schedule.Comparison)
// and this is its name in the dispatch's contract.
type Impact = schedule.Impact

// ProposalRequest asks for the proposal of Round or a later one (0: any):
// the Update returns once that round awaits review or an answer, or fails
// when the dispatch ends (ErrTypeDispatchEnded) or continues as a new run
// (ErrTypeContinuedAsNew: ask again).
//
// With Stage set, the Update is a progress watch: a watcher passes the
// stage it last saw (Proposal.Stage, or Status.Stage) and the round it
// saw it in, and the Update also returns as soon as the dispatch is no
// longer there — its stage differs from Stage, or (Round set) its round
// is past Round — with the Proposal of that moment (its Stage says where
// the dispatch now is). It does not return what the watcher already has:
// at Stage in Round (awaiting_review, say) it waits for the next change.
// A watch never holds the dispatch open: when the dispatch ends, it
// fails with ErrTypeDispatchEnded like any waiting proposal Update.
type ProposalRequest struct {
	Round int    `json:"round,omitempty"`
	Stage string `json:"stage,omitempty"`
}

// Clarification answers the open question of a dispatch.
type Clarification struct {
	Answer string `json:"answer"`
	Author string `json:"author,omitempty"`
}

// Proposal is a round's change set, awaiting review — or, with
// AwaitingClarification, the question a planning step needs answered
// first (Changes then holds what earlier steps of the round applied).
type Proposal struct {
	// Stage is the dispatch's stage when the proposal was returned:
	// awaiting_review or awaiting_clarification, or any other for a
	// progress watch (ProposalRequest.Stage) or ProposalQuery.
	Stage                 string         `json:"stage"`
	AwaitingClarification bool           `json:"awaiting_clarification,omitempty"`
	Round                 int            `json:"round"`
	Changes               []ChangeRecord `json:"changes"`
	ChangesOmitted        int            `json:"changes_omitted,omitempty"`
	Impact                *Impact        `json:"impact,omitempty"`
	Notes                 []string       `json:"notes,omitempty"`
	Question              string         `json:"question,omitempty"`
	// Choices and Several: what Question offers (Status's).
	Choices []Choice `json:"choices,omitempty"`
	Several bool     `json:"several,omitempty"`
	// Tasks report each task of a multi-part prompt in this round (each
	// change's Op.Task names its task); none for a prompt of one request.
	Tasks []TaskReport `json:"tasks,omitempty"`
}

// Choice is one answer a planner's question offers (scope.Choice).
type Choice = scope.Choice

// TaskReport is how a task of a multi-part prompt fared in a round:
// planned, kept (re-applied as it was), failed (with its error, nothing of
// it applied) or blocked (by the failed tasks it depends on).
type TaskReport = scope.TaskReport

// ChildStageSignal is what a dispatch started by a portfolio (a child,
// DispatchInput.Parent set) signals its parent at each stage change.
const ChildStageSignal = "child-stage"

// ChildStage is a child dispatch's stage as it signals it to its parent.
// Result is set with stage done (the DispatchResult.Status).
type ChildStage struct {
	WorkflowID string `json:"workflow_id"`
	ScheduleID string `json:"schedule_id"`
	Stage      string `json:"stage"`
	Round      int    `json:"round"`
	Result     string `json:"result,omitempty"`
}

// EditInput applies ops directly, without review.
type EditInput struct {
	ScheduleID string        `json:"schedule_id"`
	Ops        []schedule.Op `json:"ops"`
	Author     string        `json:"author"`
}

// EditResult is the ops as applied and their inverses (apply in reverse
// order to undo).
type EditResult struct {
	Applied  []schedule.Op `json:"applied"`
	Inverses []schedule.Op `json:"inverses"`
}
