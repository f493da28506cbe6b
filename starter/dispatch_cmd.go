package main

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/workflows"
)

func newDispatchCmd(io *streams, tc *temporalConfig, env *editEnv) *cobra.Command {
	cmd := &cobra.Command{Use: "dispatch", Short: "List and inspect dispatches; undo an accepted one"}
	cmd.AddCommand(newDispatchListCmd(io, tc, nil), newDispatchShowCmd(io, tc, nil), newUndoCmd(env))
	return cmd
}

// dispatchListOptions are the flags of `dispatch list`.
type dispatchListOptions struct {
	io       *streams
	temporal *temporalConfig
	Schedule string
	JSON     bool
}

// dispatchSummary is one row of `dispatch list` (and its --json).
type dispatchSummary struct {
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
}

// state is what the table's STATE column says: the outcome of a closed
// dispatch, "open: <stage>" for an open one.
func (d dispatchSummary) state() string {
	if d.Open {
		if d.Stage == "" {
			return "open"
		}
		return "open: " + d.Stage
	}
	return d.Outcome
}

func newDispatchListCmd(io *streams, tc *temporalConfig, runF func(context.Context, *dispatchListOptions) error) *cobra.Command {
	opts := &dispatchListOptions{io: io, temporal: tc}
	cmd := &cobra.Command{
		Use:   "list [--schedule ID] [--json]",
		Short: "List dispatches, newest first, with their outcome and author",
		Long: "List every dispatch (all pages), newest first. STATE is the outcome of a closed dispatch —\n" +
			"accepted, rejected, cancelled, timed_out or failed — or the stage of an open one.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return dispatchListRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "only this schedule's dispatches")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, `print JSON: {"dispatches": [{id, run_id, schedule, open, stage, outcome, author, prompt, started, closed}]}`)
	return cmd
}

func dispatchListRun(ctx context.Context, opts *dispatchListOptions) error {
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	list, err := listDispatches(ctx, c, opts.Schedule)
	if err != nil {
		return err
	}
	if opts.JSON {
		if list == nil {
			list = []dispatchSummary{}
		}
		return writeJSON(opts.io.Out, map[string][]dispatchSummary{"dispatches": list})
	}
	if len(list) == 0 {
		fmt.Fprintln(opts.io.ErrOut, "no dispatches")
		return nil
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tAUTHOR\tSTARTED\tRUN")
	for _, d := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", d.ID, d.state(), d.Author, d.Started.Local().Format("2006-01-02 15:04:05"), d.RunID)
	}
	return tw.Flush()
}

// listDispatches reads every page of the visibility list.
func listDispatches(ctx context.Context, c client.Client, scheduleID string) ([]dispatchSummary, error) {
	query := "WorkflowType = 'DispatchWorkflow'"
	if scheduleID != "" {
		query += " AND ScheduleID = " + visibilityString(scheduleID)
	}
	var out []dispatchSummary
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

// visibilityString quotes s for a visibility query.
func visibilityString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// summarize reads what the visibility record holds: search attributes
// (ScheduleID, DispatchStage, DispatchOutcome) and the memo (author,
// prompt).
func summarize(e *workflowpb.WorkflowExecutionInfo) dispatchSummary {
	d := dispatchSummary{
		ID: e.GetExecution().GetWorkflowId(), RunID: e.GetExecution().GetRunId(),
		Open:    e.GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_RUNNING,
		Started: e.GetStartTime().AsTime(),
	}
	if e.GetCloseTime() != nil {
		d.Closed = e.GetCloseTime().AsTime()
	}
	attrs := e.GetSearchAttributes().GetIndexedFields()
	d.Schedule = payloadString(attrs[workflows.ScheduleIDAttribute.GetName()])
	d.Stage = payloadString(attrs[workflows.DispatchStageAttribute.GetName()])
	if !d.Open {
		d.Outcome = payloadString(attrs[workflows.DispatchOutcomeAttribute.GetName()])
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
		var res workflows.DispatchResult
		if err := c.GetWorkflow(ctx, e.GetExecution().GetWorkflowId(), e.GetExecution().GetRunId()).Get(ctx, &res); err == nil && res.Status != "" {
			return res.Status
		}
		return "completed"
	case enums.WORKFLOW_EXECUTION_STATUS_FAILED:
		return workflows.StatusFailed
	case enums.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
		return workflows.StatusTimedOut
	case enums.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return workflows.StatusCancelled
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

// dispatchShowOptions are the flags of `dispatch show`.
type dispatchShowOptions struct {
	io       *streams
	temporal *temporalConfig
	ID       string
	RunID    string
	JSON     bool
}

// dispatchDetail is what `dispatch show` prints (and its --json).
type dispatchDetail struct {
	dispatchSummary
	Round   int                       `json:"round,omitempty"`
	Status  *workflows.Status         `json:"status,omitempty"`
	Reviews []workflows.Review        `json:"reviews"`
	Changes []workflows.ChangeRecord  `json:"changes"`
	Result  *workflows.DispatchResult `json:"result,omitempty"`
	Failure string                    `json:"failure,omitempty"`
	// QueryError says why an open dispatch could not be asked for its
	// status or changes.
	QueryError string `json:"query_error,omitempty"`
}

func newDispatchShowCmd(io *streams, tc *temporalConfig, runF func(context.Context, *dispatchShowOptions) error) *cobra.Command {
	opts := &dispatchShowOptions{io: io, temporal: tc}
	cmd := &cobra.Command{
		Use:   "show DISPATCH-ID [--run RUN-ID] [--json]",
		Short: "Show a dispatch: author, stage or outcome, reviews and change records",
		Long: "Show a dispatch's latest run (or --run). An open one is asked for its stage and buffered\n" +
			"changes; a closed one is described from its history: outcome, rounds, reviews and changes.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return dispatchShowRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.RunID, "run", "", "the run to show (default: the latest)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, `print JSON: {id, run_id, open, stage, outcome, author, prompt, status, reviews, changes, result, failure}`)
	return cmd
}

func dispatchShowRun(ctx context.Context, opts *dispatchShowOptions) error {
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	d, err := describeDispatch(ctx, c, opts.ID, opts.RunID)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(opts.io.Out, d)
	}
	return printDispatch(opts.io, d)
}

// describeDispatch reads a dispatch: the visibility record, the history
// (author, reviews, and for a closed one its result or failure) and, for
// an open one, the status and changes queries.
func describeDispatch(ctx context.Context, c client.Client, id, runID string) (*dispatchDetail, error) {
	desc, err := c.DescribeWorkflowExecution(ctx, id, runID)
	if err != nil {
		return nil, fmt.Errorf("dispatch %s: %w", id, err)
	}
	info := desc.GetWorkflowExecutionInfo()
	d := &dispatchDetail{dispatchSummary: summarize(info), Reviews: []workflows.Review{}, Changes: []workflows.ChangeRecord{}}
	if err := readHistory(ctx, c, d); err != nil {
		return nil, err
	}
	if d.Open {
		// A run that has not registered its queries yet (or closed just
		// now) is still described, from its visibility record.
		var status workflows.Status
		var changes []workflows.ChangeRecord
		if err := query(ctx, c, d.ID, d.RunID, workflows.StatusQuery, &status); err != nil {
			d.QueryError = err.Error()
			return d, nil
		}
		if err := query(ctx, c, d.ID, d.RunID, workflows.ChangesQuery, &changes); err != nil {
			d.QueryError = err.Error()
		}
		d.Status, d.Stage, d.Round = &status, status.Stage, status.Round
		if changes != nil {
			d.Changes = changes
		}
		return d, nil
	}
	if d.Result != nil {
		d.Round = d.Result.Rounds
		if d.Result.Changes != nil {
			d.Changes = d.Result.Changes
		}
		if d.Outcome == "" || d.Outcome == "completed" {
			d.Outcome = d.Result.Status
		}
	} else if d.Outcome == "" {
		d.Outcome = legacyOutcome(ctx, c, info)
	}
	return d, nil
}

func query(ctx context.Context, c client.Client, id, runID, name string, into any) error {
	v, err := c.QueryWorkflow(ctx, id, runID, name)
	if err != nil {
		return fmt.Errorf("dispatch %s: query %s: %w", id, name, err)
	}
	return v.Get(into)
}

// readHistory fills in the input (author, prompt), the reviews sent by
// Update or signal, and the result or failure of a closed run.
func readHistory(ctx context.Context, c client.Client, d *dispatchDetail) error {
	dc := converter.GetDefaultDataConverter()
	it := c.GetWorkflowHistory(ctx, d.ID, d.RunID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return fmt.Errorf("dispatch %s: reading its history: %w", d.ID, err)
		}
		switch ev.GetEventType() {
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
			var in workflows.DispatchInput
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
			if input.GetName() == workflows.ReviewUpdate {
				d.addReview(dc, input.GetArgs())
			}
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			if a := ev.GetWorkflowExecutionSignaledEventAttributes(); a.GetSignalName() == workflows.ReviewSignal {
				d.addReview(dc, a.GetInput())
			}
		case enums.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
			var res workflows.DispatchResult
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

func (d *dispatchDetail) addReview(dc converter.DataConverter, payloads *commonpb.Payloads) {
	var r workflows.Review
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

// printDispatch writes d as text.
func printDispatch(io *streams, d *dispatchDetail) error {
	w := io.Out
	fmt.Fprintf(w, "%s (run %s)", d.ID, d.RunID)
	if d.Open {
		fmt.Fprintf(w, ": stage %s, round %d", d.Stage, d.Round)
		if d.Status != nil && d.Status.AwaitingReview {
			fmt.Fprint(w, ", awaiting review")
		}
	} else {
		fmt.Fprintf(w, ": %s", d.Outcome)
		if d.Round > 0 {
			fmt.Fprintf(w, " after %d round(s)", d.Round)
		}
	}
	fmt.Fprintln(w)
	if d.Author != "" {
		fmt.Fprintf(w, "  author: %s\n", d.Author)
	}
	if d.Prompt != "" {
		fmt.Fprintf(w, "  prompt: %q\n", d.Prompt)
	}
	for _, r := range d.Reviews {
		fmt.Fprintf(w, "  review: %s by %s", r.Decision, cmp.Or(r.Reviewer, "(unknown)"))
		if r.Feedback != "" {
			fmt.Fprintf(w, " with feedback %q", r.Feedback)
		}
		fmt.Fprintln(w)
	}
	if d.Result != nil && d.Result.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", d.Result.Error)
	}
	if d.Failure != "" {
		fmt.Fprintf(w, "  failure: %s\n", d.Failure)
	}
	if d.QueryError != "" {
		fmt.Fprintf(io.ErrOut, "autoscheduler: %s (shown from its search attributes)\n", d.QueryError)
	}
	if d.Status != nil && d.Status.AwaitingClarification {
		fmt.Fprintf(w, "The planner asks: %s\n(answer with `autoscheduler clarify %s \"ANSWER\"`)\n", d.Status.Question, d.ID)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, ch := range d.Changes {
		fmt.Fprintf(tw, "  %d\t%s\t%s\n", ch.Round, ch.Status, ch.Call)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if d.Status != nil && d.Status.Impact != nil && d.Status.Impact.Diff != nil {
		fmt.Fprintln(w)
		return d.Status.Impact.Diff.WriteText(w, render.DiffOptions{Color: io.OutIsTTY})
	}
	return nil
}
