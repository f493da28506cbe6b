package workflows

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// Summary is what the visibility store says of a dispatch: one row of
// `dispatch list` (and its --json), one line of a schedule's history in
// the web app.
type Summary struct {
	ID       string    `json:"id"`
	RunID    string    `json:"run_id"`
	Schedule string    `json:"schedule,omitempty"`
	Open     bool      `json:"open"`
	Stage    string    `json:"stage,omitempty"`
	Outcome  string    `json:"outcome,omitempty"`
	Author   string    `json:"author,omitempty"`
	Prompt   string    `json:"prompt,omitempty"`
	Started  time.Time `json:"started"`
	Closed   time.Time `json:"closed,omitzero"`
	// Undone is set when this accepted run was taken back since (Undo):
	// Outcome stays what the dispatch ended as, State says "undone".
	Undone *UndoRecord `json:"undone,omitempty"`
}

// StateUndone is State of an accepted run taken back since.
const StateUndone = "undone"

// State is what the table's STATE column says: the outcome of a closed
// dispatch ("undone" for an accepted one taken back since), "open:
// <stage>" for an open one.
func (d Summary) State() string {
	if d.Open {
		if d.Stage == "" {
			return "open"
		}
		return "open: " + d.Stage
	}
	if d.Undone != nil {
		return StateUndone
	}
	return d.Outcome
}

// Detail is a dispatch described in full: what `dispatch show` prints
// (and its --json) and the web app's review page shows of a closed one.
type Detail struct {
	Summary
	Round   int             `json:"round,omitempty"`
	Status  *Status         `json:"status,omitempty"`
	Reviews []Review        `json:"reviews"`
	Changes []ChangeRecord  `json:"changes"`
	Result  *DispatchResult `json:"result,omitempty"`
	Failure string          `json:"failure,omitempty"`
	// QueryError says why an open dispatch could not be asked for its
	// status or changes.
	QueryError string `json:"query_error,omitempty"`
	// Impact is the CPM impact of a closed dispatch's last round, as its
	// ComputeImpact activity recorded it in the history (nil when that
	// round applied nothing): the evidence it was decided on.
	Impact *Impact `json:"impact,omitempty"`
}

// impactActivity is the activity whose results are a round's CPM impact.
const impactActivity = "ComputeImpact"

// List reads every page of the visibility list: the dispatches of
// scheduleID (all when empty), newest first.
func List(ctx context.Context, c client.Client, scheduleID string) ([]Summary, error) {
	query := "WorkflowType = 'DispatchWorkflow'"
	if scheduleID != "" {
		query += " AND ScheduleID = " + VisibilityString(scheduleID)
	}
	out, err := list(ctx, c, query)
	if err != nil {
		return nil, err
	}
	return out, markUndone(ctx, c, scheduleID, out)
}

// markUndone sets Undone on the accepted runs of list an undo took back:
// the completed undo executions (UndoWorkflowID) of scheduleID (all when
// empty), read from the visibility store in one query.
func markUndone(ctx context.Context, c client.Client, scheduleID string, list []Summary) error {
	accepted := map[[2]string]*Summary{}
	for i := range list {
		if d := &list[i]; !d.Open && d.Outcome == StatusAccepted {
			accepted[[2]string{d.ID, d.RunID}] = d
		}
	}
	if len(accepted) == 0 {
		return nil
	}
	query := "WorkflowType = 'EditWorkflow' AND ExecutionStatus = 'Completed' AND WorkflowId STARTS_WITH " + VisibilityString(undoPrefix)
	if scheduleID != "" {
		query += " AND ScheduleID = " + VisibilityString(scheduleID)
	}
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, PageSize: 100, NextPageToken: token})
		if err != nil && ctx.Err() == nil {
			// A visibility store without STARTS_WITH: each run's undo is
			// looked up by its ID instead.
			for _, d := range accepted {
				if d.Undone, err = Undone(ctx, c, d.ID, d.RunID); err != nil {
					return err
				}
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("listing undos: %w", err)
		}
		for _, e := range resp.Executions {
			memo := e.GetMemo().GetFields()
			d := accepted[[2]string{payloadString(memo[memoUndoes]), payloadString(memo[memoUndoesRun])}]
			if d == nil {
				continue
			}
			d.Undone = &UndoRecord{Edit: e.GetExecution().GetWorkflowId(), By: payloadString(memo[memoAuthor])}
			if e.GetCloseTime() != nil {
				d.Undone.At = e.GetCloseTime().AsTime()
			}
		}
		if token = resp.NextPageToken; len(token) == 0 {
			return nil
		}
	}
}

// ListOpen is every open dispatch (at most one per schedule).
func ListOpen(ctx context.Context, c client.Client) ([]Summary, error) {
	return list(ctx, c, "WorkflowType = 'DispatchWorkflow' AND ExecutionStatus = 'Running'")
}

func list(ctx context.Context, c client.Client, query string) ([]Summary, error) {
	var out []Summary
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query, PageSize: 100, NextPageToken: token})
		if err != nil {
			return nil, fmt.Errorf("listing dispatches: %w", err)
		}
		for _, e := range resp.Executions {
			d := summarize(e)
			if !d.Open && d.Outcome == "" {
				d.Outcome = legacyOutcome(ctx, c, e)
			}
			out = append(out, d)
		}
		if token = resp.NextPageToken; len(token) == 0 {
			return out, nil
		}
	}
}

// VisibilityString quotes s for a visibility query.
func VisibilityString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// summarize reads what the visibility record holds: search attributes
// (ScheduleID, DispatchStage, DispatchOutcome) and the memo (author,
// prompt).
func summarize(e *workflowpb.WorkflowExecutionInfo) Summary {
	d := Summary{
		ID: e.GetExecution().GetWorkflowId(), RunID: e.GetExecution().GetRunId(),
		Open:    e.GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_RUNNING,
		Started: e.GetStartTime().AsTime(),
	}
	if e.GetCloseTime() != nil {
		d.Closed = e.GetCloseTime().AsTime()
	}
	attrs := e.GetSearchAttributes().GetIndexedFields()
	d.Schedule = payloadString(attrs[ScheduleIDAttribute.GetName()])
	d.Stage = payloadString(attrs[DispatchStageAttribute.GetName()])
	if !d.Open {
		d.Outcome = payloadString(attrs[DispatchOutcomeAttribute.GetName()])
	}
	memo := e.GetMemo().GetFields()
	d.Author = payloadString(memo["author"])
	d.Prompt = payloadString(memo["prompt"])
	return d
}

// legacyOutcome is the outcome of a closed dispatch from before the
// DispatchOutcome attribute: its result's status when it completed, else
// its execution status.
func legacyOutcome(ctx context.Context, c client.Client, e *workflowpb.WorkflowExecutionInfo) string {
	switch e.GetStatus() {
	case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		var res DispatchResult
		if err := c.GetWorkflow(ctx, e.GetExecution().GetWorkflowId(), e.GetExecution().GetRunId()).Get(ctx, &res); err == nil && res.Status != "" {
			return res.Status
		}
		return "completed"
	case enums.WORKFLOW_EXECUTION_STATUS_FAILED:
		return StatusFailed
	case enums.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
		return StatusTimedOut
	case enums.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return StatusCancelled
	}
	return strings.ToLower(strings.TrimPrefix(e.GetStatus().String(), "WorkflowExecutionStatus"))
}

// payloadString decodes a string payload ("" when absent or not a string).
func payloadString(p *commonpb.Payload) string {
	var s string
	if p == nil || converter.GetDefaultDataConverter().FromPayload(p, &s) != nil {
		return ""
	}
	return s
}

// Describe reads a dispatch: the visibility record, the history
// (author, reviews, and for a closed one its result or failure) and, for
// an open one, the status and changes queries.
func Describe(ctx context.Context, c client.Client, id, runID string) (*Detail, error) {
	desc, err := c.DescribeWorkflowExecution(ctx, id, runID)
	if err != nil {
		return nil, fmt.Errorf("dispatch %s: %w", id, err)
	}
	info := desc.GetWorkflowExecutionInfo()
	d := &Detail{Summary: summarize(info), Reviews: []Review{}, Changes: []ChangeRecord{}}
	if err := readHistory(ctx, c, d); err != nil {
		return nil, err
	}
	if d.Open {
		d.Impact = nil // an open round's is the status query's
		// A run that has not registered its queries yet (or closed just
		// now) is still described, from its visibility record.
		var status Status
		var changes []ChangeRecord
		if err := Query(ctx, c, d.ID, d.RunID, StatusQuery, &status); err != nil {
			d.QueryError = err.Error()
			return d, nil
		}
		if err := Query(ctx, c, d.ID, d.RunID, ChangesQuery, &changes); err != nil {
			d.QueryError = err.Error()
		}
		d.Status, d.Stage, d.Round = &status, status.Stage, status.Round
		if changes != nil {
			d.Changes = changes
		}
		return d, nil
	}
	if d.Outcome == StatusAccepted || d.Result != nil && d.Result.Status == StatusAccepted {
		if d.Undone, err = Undone(ctx, c, d.ID, d.RunID); err != nil {
			return nil, err
		}
	}
	if d.Result != nil {
		d.Round = d.Result.Rounds
		if d.Result.Changes != nil {
			d.Changes = d.Result.Changes
		}
		if !slices.ContainsFunc(d.Changes, func(ch ChangeRecord) bool { return ch.Round == d.Round }) {
			d.Impact = nil // the impact read is an earlier round's
		}
		if d.Outcome == "" || d.Outcome == "completed" {
			d.Outcome = d.Result.Status
		}
	} else if d.Outcome == "" {
		d.Outcome = legacyOutcome(ctx, c, info)
	}
	return d, nil
}

// readHistory fills in the input (author, prompt), the reviews sent by
// Update or signal, and the result or failure of a closed run.
func readHistory(ctx context.Context, c client.Client, d *Detail) error {
	dc := converter.GetDefaultDataConverter()
	it := c.GetWorkflowHistory(ctx, d.ID, d.RunID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	impacts := map[int64]bool{} // the events that scheduled ComputeImpact
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return fmt.Errorf("dispatch %s: reading its history: %w", d.ID, err)
		}
		switch ev.GetEventType() {
		case enums.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			if ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() == impactActivity {
				impacts[ev.GetEventId()] = true
			}
		case enums.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			a := ev.GetActivityTaskCompletedEventAttributes()
			var imp Impact
			if impacts[a.GetScheduledEventId()] && dc.FromPayloads(a.GetResult(), &imp) == nil {
				d.Impact = &imp // the last round's is the last
			}
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
			var in DispatchInput
			if payloads := ev.GetWorkflowExecutionStartedEventAttributes().GetInput(); payloads != nil && dc.FromPayloads(payloads, &in) == nil {
				if d.Author == "" {
					d.Author = in.Author
				}
				if d.Prompt == "" {
					d.Prompt = in.Prompt
				}
				if d.Schedule == "" {
					d.Schedule = in.ScheduleID
				}
			}
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
			input := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes().GetAcceptedRequest().GetInput()
			if input.GetName() == ReviewUpdate {
				d.addReview(dc, input.GetArgs())
			}
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			if a := ev.GetWorkflowExecutionSignaledEventAttributes(); a.GetSignalName() == ReviewSignal {
				d.addReview(dc, a.GetInput())
			}
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
			var res DispatchResult
			if err := dc.FromPayloads(ev.GetWorkflowExecutionCompletedEventAttributes().GetResult(), &res); err == nil {
				d.Result = &res
			}
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
			d.Failure = failureMessage(ev.GetWorkflowExecutionFailedEventAttributes().GetFailure())
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
			d.Failure = "the workflow run timed out"
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
			d.Failure = "terminated: " + ev.GetWorkflowExecutionTerminatedEventAttributes().GetReason()
		}
	}
	return nil
}

func (d *Detail) addReview(dc converter.DataConverter, payloads *commonpb.Payloads) {
	var r Review
	if payloads != nil && dc.FromPayloads(payloads, &r) == nil && r.Decision != "" {
		d.Reviews = append(d.Reviews, r)
	}
}

// failureMessage is a failure's innermost message (the cause, not the
// wrappers around it).
func failureMessage(f *failurepb.Failure) string {
	for f.GetCause() != nil {
		f = f.GetCause()
	}
	return f.GetMessage()
}
