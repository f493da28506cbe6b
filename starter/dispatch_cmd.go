package main

import (
	"cmp"
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/dispatches"
	"github.com/autoscheduler/autoscheduler/internal/render"
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
	list, err := dispatches.List(ctx, c, opts.Schedule)
	if err != nil {
		return err
	}
	if opts.JSON {
		if list == nil {
			list = []dispatches.Summary{}
		}
		return writeJSON(opts.io.Out, map[string][]dispatches.Summary{"dispatches": list})
	}
	if len(list) == 0 {
		fmt.Fprintln(opts.io.ErrOut, "no dispatches")
		return nil
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tAUTHOR\tSTARTED\tRUN")
	for _, d := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", d.ID, d.State(), d.Author, d.Started.Local().Format("2006-01-02 15:04:05"), d.RunID)
	}
	return tw.Flush()
}

// dispatchShowOptions are the flags of `dispatch show`.
type dispatchShowOptions struct {
	io       *streams
	temporal *temporalConfig
	ID       string
	RunID    string
	JSON     bool
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
	d, err := dispatches.Describe(ctx, c, opts.ID, opts.RunID)
	if err != nil {
		return err
	}
	if opts.JSON {
		return writeJSON(opts.io.Out, d)
	}
	return printDispatch(opts.io, d)
}

// printDispatch writes d as text.
func printDispatch(io *streams, d *dispatches.Detail) error {
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
		call := ch.Call
		if ch.Op.Task != "" {
			call = "task " + ch.Op.Task + ": " + call
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\n", ch.Round, ch.Status, call)
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
