package main

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

func newDispatchCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "dispatch", Short: "List, inspect and cancel dispatches; undo an accepted one"}
	cmd.AddCommand(newDispatchListCmd(f, nil), newDispatchShowCmd(f, nil), newDispatchCancelCmd(f, nil), newDispatchUndoCmd(f, nil))
	return cmd
}

// dispatchCancelOptions are the flags of `dispatch cancel`.
type dispatchCancelOptions struct {
	io       *cmdutil.IOStreams
	temporal *temporalConfig
	ID       string
	RunID    string
	JSON     bool
}

func newDispatchCancelCmd(f *Factory, runF func(context.Context, *dispatchCancelOptions) error) *cobra.Command {
	opts := &dispatchCancelOptions{io: f.IOStreams, temporal: f.Temporal}
	cmd := &cobra.Command{
		Use:   "cancel DISPATCH-ID [--run RUN-ID] [--json]",
		Short: "Cancel a dispatch at any stage: undo what it applied and end it cancelled",
		Long: "Cancel a dispatch whatever it is doing — planning, applying, waiting for an answer to the\n" +
			"planner's question or for review — recorded under --as. What its round applied is undone and it\n" +
			"ends cancelled; the command waits for that and prints the outcome.\n" +
			"Exit status: 0 when the dispatch ends cancelled; 1 when the cancel was refused (the dispatch\n" +
			"ended, or its round was accepted) or it ended otherwise; 2 on a usage error.",
		Example: "  autoscheduler dispatch cancel dispatch-building --as dana",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return cmdutil.RunOr(cmd, opts, runF, dispatchCancelRun)
		},
	}
	cmd.Flags().StringVar(&opts.RunID, "run", "", "the run to cancel (default: the latest)")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, "print the DispatchResult as JSON")
	return cmd
}

func dispatchCancelRun(ctx context.Context, opts *dispatchCancelOptions) error {
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	by := opts.temporal.who()
	if err := workflows.Cancel(ctx, c, opts.ID, opts.RunID, by); err != nil {
		return err
	}
	fmt.Fprintf(opts.io.ErrOut, "%s: cancel sent as %s; undoing what it applied\n", term(opts.ID), term(by))
	var res workflows.DispatchResult
	if err := c.GetWorkflow(ctx, opts.ID, opts.RunID).Get(ctx, &res); err != nil {
		return fmt.Errorf("dispatch %s: %s", opts.ID, workflows.RootCause(err))
	}
	err = showResult(opts.io, opts.JSON, opts.ID, res)
	if !opts.JSON && res.Reason != "" {
		fmt.Fprintf(opts.io.ErrOut, "%s\n", term(res.Reason))
	}
	switch {
	case res.Status == workflows.StatusCancelled:
		return nil // what the command asked for, not a failure
	case err != nil:
		return err
	}
	return fmt.Errorf("dispatch %s ended %s before the cancel was taken", opts.ID, res.Status)
}

// dispatchListOptions are the flags of `dispatch list`.
type dispatchListOptions struct {
	io       *cmdutil.IOStreams
	temporal *temporalConfig
	Schedule string
	JSON     bool
}

func newDispatchListCmd(f *Factory, runF func(context.Context, *dispatchListOptions) error) *cobra.Command {
	opts := &dispatchListOptions{io: f.IOStreams, temporal: f.Temporal}
	cmd := &cobra.Command{
		Use:   "list [--schedule ID] [--json]",
		Short: "List dispatches, newest first, with their outcome and author",
		Long: "List every dispatch (all pages), newest first. STATE is the outcome of a closed dispatch —\n" +
			"accepted, rejected, cancelled, timed_out or failed; undone for an accepted one taken back since\n" +
			"with `dispatch undo` or the web app — or the stage of an open one.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmdutil.RunOr(cmd, opts, runF, dispatchListRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "only this schedule's dispatches")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print JSON: {"dispatches": [{id, run_id, schedule, open, stage, outcome, state, author, prompt, started, closed, undone: {edit, by, at}}]}`)
	return cmd
}

func dispatchListRun(ctx context.Context, opts *dispatchListOptions) error {
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	list, err := workflows.List(ctx, c, opts.Schedule)
	if err != nil {
		return err
	}
	if opts.JSON {
		// state is the STATE column: what a script reads to tell an
		// undone run from an accepted one.
		type row struct {
			workflows.Summary
			State string `json:"state"`
		}
		rows := make([]row, len(list))
		for i, d := range list {
			rows[i] = row{Summary: d, State: d.State()}
		}
		return cmdutil.WriteJSON(opts.io.Out, map[string][]row{"dispatches": rows})
	}
	if len(list) == 0 {
		fmt.Fprintln(opts.io.ErrOut, "no dispatches")
		return nil
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tAUTHOR\tSTARTED\tRUN")
	for _, d := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", term(d.ID), term(d.State()), term(d.Author), d.Started.Local().Format("2006-01-02 15:04:05"), term(d.RunID))
	}
	return tw.Flush()
}

// dispatchShowOptions are the flags of `dispatch show`.
type dispatchShowOptions struct {
	io       *cmdutil.IOStreams
	temporal *temporalConfig
	ID       string
	RunID    string
	JSON     bool
}

func newDispatchShowCmd(f *Factory, runF func(context.Context, *dispatchShowOptions) error) *cobra.Command {
	opts := &dispatchShowOptions{io: f.IOStreams, temporal: f.Temporal}
	cmd := &cobra.Command{
		Use:   "show DISPATCH-ID [--run RUN-ID] [--json]",
		Short: "Show a dispatch: author, stage or outcome, reviews and change records",
		Long: "Show a dispatch's latest run (or --run). An open one is asked for its stage and buffered\n" +
			"changes; a closed one is described from its history: outcome, rounds, reviews and changes.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return cmdutil.RunOr(cmd, opts, runF, dispatchShowRun)
		},
	}
	cmd.Flags().StringVar(&opts.RunID, "run", "", "the run to show (default: the latest)")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print JSON: {id, run_id, open, stage, outcome, author, prompt, status, reviews, changes, result, failure}`)
	return cmd
}

func dispatchShowRun(ctx context.Context, opts *dispatchShowOptions) error {
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	d, err := workflows.Describe(ctx, c, opts.ID, opts.RunID)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, d)
	}
	return printDispatch(opts.io, d)
}

// term is s as a terminal shows it safely: what people typed and the
// stores and workflows hold (names, prompts, feedback, activity names in
// change records) is shown with its control characters escaped, never
// sent to the terminal; names stored before they were checked included.
var term = usertext.Terminal

// printDispatch writes d as text; everything it holds is shown through
// term (--json stays JSON, whose encoder escapes control characters).
func printDispatch(io *cmdutil.IOStreams, d *workflows.Detail) error {
	w := io.Out
	fmt.Fprintf(w, "%s (run %s)", term(d.ID), term(d.RunID))
	if d.Open {
		fmt.Fprintf(w, ": stage %s, round %d", term(d.Stage), d.Round)
		if d.Status != nil && d.Status.AwaitingReview {
			fmt.Fprint(w, ", awaiting review")
		}
	} else {
		fmt.Fprintf(w, ": %s", term(d.Outcome))
		if d.Round > 0 {
			fmt.Fprintf(w, " after %d round(s)", d.Round)
		}
		if u := d.Undone; u != nil {
			fmt.Fprintf(w, ", then undone")
			if u.By != "" {
				fmt.Fprintf(w, " by %s", term(u.By))
			}
			if !u.At.IsZero() {
				fmt.Fprintf(w, " at %s", u.At.Local().Format("2006-01-02 15:04:05"))
			}
			fmt.Fprintf(w, " (edit %s)", term(u.Edit))
		}
	}
	fmt.Fprintln(w)
	if d.Author != "" {
		fmt.Fprintf(w, "  author: %s\n", term(d.Author))
	}
	if d.Prompt != "" {
		fmt.Fprintf(w, "  prompt: %s\n", term(strconv.Quote(d.Prompt)))
	}
	for _, r := range d.Reviews {
		fmt.Fprintf(w, "  review: %s by %s", term(r.Decision), term(cmp.Or(r.Reviewer, "(unknown)")))
		if r.Feedback != "" {
			fmt.Fprintf(w, " with feedback %s", term(strconv.Quote(r.Feedback)))
		}
		fmt.Fprintln(w)
	}
	if d.Result != nil && d.Result.Reason != "" {
		fmt.Fprintf(w, "  reason: %s\n", term(d.Result.Reason))
	}
	if d.Result != nil && d.Result.Error != "" {
		fmt.Fprintf(w, "  error: %s\n", term(d.Result.Error))
	}
	if d.Failure != "" {
		fmt.Fprintf(w, "  failure: %s\n", term(d.Failure))
	}
	impact := d.Impact // a closed dispatch's last round, from its history
	if d.Status != nil {
		impact = d.Status.Impact
	}
	var rating *schedule.RiskRating
	if impact != nil {
		rating = impact.RiskRating
	}
	if err := render.WriteRiskRating(w, rating, render.DiffOptions{Color: io.OutIsTTY}); err != nil {
		return err
	}
	if d.QueryError != "" {
		fmt.Fprintf(io.ErrOut, "autoscheduler: %s (shown from its search attributes)\n", term(d.QueryError))
	}
	if d.Status != nil && d.Status.AwaitingClarification {
		fmt.Fprintf(w, "The planner asks: %s\n", term(d.Status.Question))
		writeChoices(w, d.Status.Choices, d.Status.Several)
		fmt.Fprintf(w, "(answer with `autoscheduler clarify %s \"ANSWER\"`, or cancel with `autoscheduler dispatch cancel %s`)\n", term(d.ID), term(d.ID))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, ch := range d.Changes {
		call := ch.Call
		if ch.Op.Task != "" {
			call = "task " + ch.Op.Task + ": " + call
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\n", ch.Round, term(ch.Status), term(call))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if impact != nil && impact.Diff != nil {
		fmt.Fprintln(w)
		return render.WriteComparison(w, impact.Diff, render.DiffOptions{Color: io.OutIsTTY, Rating: rating})
	}
	return nil
}
