package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// temporalConfig is where the CLI finds Temporal.
type temporalConfig struct {
	Address   string
	Namespace string
	// dial, when set, replaces client.Dial (tests hand in their client).
	dial func() (client.Client, error)
}

func (cfg *temporalConfig) bind(cmd *cobra.Command) {
	f := cmd.PersistentFlags()
	f.StringVar(&cfg.Address, "temporal-address", config.EnvOr("TEMPORAL_ADDRESS", "127.0.0.1:7233"), "Temporal frontend (env TEMPORAL_ADDRESS); `autoscheduler dev` runs one")
	f.StringVar(&cfg.Namespace, "namespace", config.EnvOr("TEMPORAL_NAMESPACE", "default"), "Temporal namespace (env TEMPORAL_NAMESPACE)")
}

func (cfg *temporalConfig) client() (client.Client, error) {
	if cfg.dial != nil {
		return cfg.dial()
	}
	c, err := client.Dial(client.Options{HostPort: cfg.Address, Namespace: cfg.Namespace, Logger: quietSDKLogger(&streams{ErrOut: io.Discard})})
	if err != nil {
		return nil, fmt.Errorf("cannot reach Temporal at %s (start one with `autoscheduler dev`): %w", cfg.Address, err)
	}
	return c, nil
}

// promptOptions are the flags of `autoscheduler prompt`.
type promptOptions struct {
	io       *streams
	temporal *temporalConfig
	Prompt   string
	Schedule string
	Yes      bool
	NoWait   bool
	JSON     bool
	Rounds   int
	Timeout  time.Duration
	// DiffLimit caps each list of the review's diff (0: all).
	DiffLimit int
	// Answers answer the planner's questions in order, before stdin does.
	Answers []string
	// in, when set, is where answers are read (the menu shares its own).
	in *bufio.Reader
}

func newPromptCmd(io *streams, tc *temporalConfig) *cobra.Command {
	opts := &promptOptions{io: io, temporal: tc}
	cmd := &cobra.Command{
		Use:   `prompt "TEXT" --schedule ID`,
		Short: "Ask for a change in plain language, review the proposal, accept or reject",
		Long: "Start a dispatch: the planner turns the prompt into changes, which are applied\n" +
			"provisionally and shown with their CPM impact. Accept commits them; reject undoes\n" +
			"them; reject with feedback undoes them and plans another round.",
		Example: `  autoscheduler prompt "delete activity Final inspection" --schedule building`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Prompt = args[0]
			if opts.Schedule == "" {
				return usagef("prompt: --schedule is required")
			}
			return promptRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id")
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "accept the first proposal without asking")
	cmd.Flags().StringArrayVar(&opts.Answers, "answer", nil, "answer to the planner's question, if it asks (repeatable, in order)")
	cmd.Flags().BoolVar(&opts.NoWait, "no-wait", false, "start the dispatch and return; review later with `autoscheduler review`")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print proposals and the result as JSON")
	cmd.Flags().IntVar(&opts.Rounds, "max-rounds", workflows.DefaultMaxRounds, "rounds of reject-with-feedback before the dispatch gives up")
	cmd.Flags().DurationVar(&opts.Timeout, "review-timeout", workflows.DefaultReviewTimeout, "how long a proposal waits for review")
	return cmd
}

func promptRun(ctx context.Context, opts *promptOptions) error {
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	id := workflows.DispatchWorkflowID(opts.Schedule)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID: id, TaskQueue: workflows.TaskQueue,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
	}, workflows.DispatchWorkflow, workflows.DispatchInput{
		ScheduleID: opts.Schedule, Prompt: opts.Prompt, Author: "cli",
		MaxRounds: opts.Rounds, ReviewTimeout: opts.Timeout, AutoAccept: opts.Yes && opts.NoWait,
	})
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return fmt.Errorf("schedule %q already has an open dispatch: %s (review it with `autoscheduler review %s accept|reject`)", opts.Schedule, id, id)
	}
	if err != nil {
		return err
	}
	if opts.NoWait {
		fmt.Fprintf(opts.io.Out, "started %s (run %s)\n", id, run.GetRunID())
		return nil
	}
	in := opts.in
	if in == nil {
		in = bufio.NewReader(opts.io.In)
	}
	for round := 1; ; round++ {
		proposal, err := awaitProposal(ctx, c, id, run.GetRunID(), round)
		if err != nil {
			// The dispatch ended without (another) proposal: show how.
			return printResult(ctx, opts, run)
		}
		// The planner may ask before it proposes: answer, then wait again.
		for proposal.AwaitingClarification {
			if err := printProposal(opts, id, proposal); err != nil {
				return err
			}
			answer, err := askAnswer(opts, in, id, proposal.Question)
			if err != nil {
				return err
			}
			if err := sendAnswer(ctx, c, id, answer); err != nil {
				return err
			}
			if proposal, err = awaitProposal(ctx, c, id, run.GetRunID(), round); err != nil {
				return printResult(ctx, opts, run)
			}
		}
		if err := printProposal(opts, id, proposal); err != nil {
			return err
		}
		review, err := decide(opts, in)
		if err != nil {
			return err
		}
		if err := sendReview(ctx, c, id, review); err != nil {
			return err
		}
		if review.Decision == "accept" || review.Feedback == "" {
			return printResult(ctx, opts, run)
		}
	}
}

// awaitProposal waits, without polling, for the proposal of round (or a
// question asked while planning it).
func awaitProposal(ctx context.Context, c client.Client, id, runID string, round int) (workflows.Proposal, error) {
	var proposal workflows.Proposal
	err := update(ctx, c, id, runID, workflows.ProposalUpdate, workflows.ProposalRequest{Round: round}, &proposal)
	return proposal, err
}

// update sends the Update name to the dispatch id (runID "" for its
// latest run) and waits for its result, decoded into out (nil: dropped).
func update(ctx context.Context, c client.Client, id, runID, name string, arg, out any) error {
	handle, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: id, RunID: runID, UpdateName: name,
		WaitForStage: client.WorkflowUpdateStageCompleted, Args: []any{arg},
	})
	if err != nil {
		return err
	}
	return handle.Get(ctx, out)
}

// askAnswer takes the next --answer, or asks on standard input.
func askAnswer(opts *promptOptions, in *bufio.Reader, id, question string) (string, error) {
	if len(opts.Answers) > 0 {
		answer := opts.Answers[0]
		opts.Answers = opts.Answers[1:]
		return answer, nil
	}
	fmt.Fprint(opts.io.ErrOut, "Your answer: ")
	line, err := in.ReadString('\n')
	if strings.TrimSpace(line) == "" {
		if err == nil {
			return "", errors.New("empty answer")
		}
		return "", fmt.Errorf("the planner asks: %s\nno answer on standard input: answer with `autoscheduler clarify %s \"ANSWER\"` (the dispatch waits)", question, id)
	}
	return strings.TrimSpace(line), nil
}

func sendAnswer(ctx context.Context, c client.Client, id, answer string) error {
	if err := update(ctx, c, id, "", workflows.ClarifyUpdate, workflows.Clarification{Answer: answer, Author: "cli"}, nil); err != nil {
		return fmt.Errorf("answer to %s refused: %w", id, err)
	}
	return nil
}

func newClarifyCmd(io *streams, tc *temporalConfig) *cobra.Command {
	return &cobra.Command{
		Use:     `clarify DISPATCH-ID "ANSWER"`,
		Short:   "Answer the question a dispatch's planner asked",
		Example: `  autoscheduler clarify dispatch-building "Pour slab Level 2"`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := tc.client()
			if err != nil {
				return err
			}
			defer c.Close()
			if err := sendAnswer(cmd.Context(), c, args[0], args[1]); err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "%s: answer sent; the round goes on (see `autoscheduler dispatch show %s`)\n", args[0], args[0])
			return nil
		},
	}
}

// decide asks the person, unless --yes decided already.
func decide(opts *promptOptions, in *bufio.Reader) (workflows.Review, error) {
	if opts.Yes {
		return workflows.Review{Decision: "accept", Reviewer: "cli"}, nil
	}
	fmt.Fprint(opts.io.ErrOut, "Accept, Reject, or reject with Feedback? [a/r/f] ")
	line, err := in.ReadString('\n')
	if err != nil && strings.TrimSpace(line) == "" {
		return workflows.Review{}, errors.New("no answer on standard input: pass --yes, or review later with `autoscheduler review`")
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "a", "accept":
		return workflows.Review{Decision: "accept", Reviewer: "cli"}, nil
	case "r", "reject":
		return workflows.Review{Decision: "reject", Reviewer: "cli"}, nil
	case "f", "feedback":
		fmt.Fprint(opts.io.ErrOut, "Feedback for the next round: ")
		feedback, _ := in.ReadString('\n')
		if strings.TrimSpace(feedback) == "" {
			return workflows.Review{}, errors.New("empty feedback: reject without feedback with r")
		}
		return workflows.Review{Decision: "reject", Feedback: strings.TrimSpace(feedback), Reviewer: "cli"}, nil
	}
	return workflows.Review{}, fmt.Errorf("answer %q: want a, r or f", strings.TrimSpace(line))
}

func sendReview(ctx context.Context, c client.Client, id string, review workflows.Review) error {
	if err := update(ctx, c, id, "", workflows.ReviewUpdate, review, nil); err != nil {
		return fmt.Errorf("review of %s refused: %w", id, err)
	}
	return nil
}

func printProposal(opts *promptOptions, id string, p workflows.Proposal) error {
	if opts.JSON {
		return json.NewEncoder(opts.io.Out).Encode(map[string]any{"dispatch": id, "proposal": p})
	}
	if p.AwaitingClarification {
		fmt.Fprintf(opts.io.Out, "Round %d of %s: the planner asks: %s\n", p.Round, id, p.Question)
		return nil
	}
	fmt.Fprintf(opts.io.Out, "Round %d of %s:\n", p.Round, id)
	// What the planner says about the reviewer's feedback comes first.
	notes := slices.Clone(p.Notes)
	slices.SortStableFunc(notes, func(a, b string) int { return cmp.Compare(feedbackNoteRank(a), feedbackNoteRank(b)) })
	for _, n := range notes {
		if feedbackNoteRank(n) == 0 {
			fmt.Fprintf(opts.io.Out, "  note: %s\n", n)
		}
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	for _, ch := range p.Changes {
		fmt.Fprintf(tw, "  %s\t%s\n", ch.Status, ch.Call)
		if ch.Op.Source != "" {
			fmt.Fprintf(tw, "  \t    from %q\n", ch.Op.Source)
		}
	}
	tw.Flush()
	if len(p.Changes) == 0 {
		fmt.Fprintln(opts.io.Out, "  (no changes)")
	}
	for _, n := range notes {
		if feedbackNoteRank(n) != 0 {
			fmt.Fprintf(opts.io.Out, "  note: %s\n", n)
		}
	}
	if p.Question != "" {
		fmt.Fprintf(opts.io.Out, "  question: %s\n", p.Question)
	}
	if im := p.Impact; im != nil && im.Diff != nil {
		fmt.Fprintln(opts.io.Out)
		return im.Diff.WriteText(opts.io.Out, render.DiffOptions{Color: opts.io.OutIsTTY, Limit: opts.DiffLimit})
	}
	if im := p.Impact; im != nil {
		fmt.Fprintf(opts.io.Out, "  project finish: %s -> %s working days (%+g)\n", render.Days(im.FinishBefore), render.Days(im.FinishAfter), im.FinishAfter-im.FinishBefore)
		if len(im.FloatChanged) > 0 {
			fmt.Fprintf(opts.io.Out, "  total float changed for %d activities\n", len(im.FloatChanged))
		}
	}
	return nil
}

func printResult(ctx context.Context, opts *promptOptions, run client.WorkflowRun) error {
	var res workflows.DispatchResult
	if err := run.Get(ctx, &res); err != nil {
		return fmt.Errorf("dispatch %s: %w", run.GetID(), err)
	}
	if opts.JSON {
		return json.NewEncoder(opts.io.Out).Encode(res)
	}
	fmt.Fprintf(opts.io.Out, "%s: %s after %d round(s)\n", run.GetID(), res.Status, res.Rounds)
	if res.Error != "" {
		fmt.Fprintf(opts.io.Out, "  %s\n", res.Error)
	}
	return nil
}

func newReviewCmd(io *streams, tc *temporalConfig) *cobra.Command {
	var feedback string
	cmd := &cobra.Command{
		Use:     "review DISPATCH-ID accept|reject [--feedback TEXT]",
		Short:   "Accept or reject a dispatch's proposal",
		Example: "  autoscheduler review dispatch-building reject --feedback \"keep the roof works\"",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			decision := args[1]
			if decision != "accept" && decision != "reject" {
				return usagef("review: decision %q: want accept or reject", decision)
			}
			if feedback != "" && decision == "accept" {
				return usagef("review: --feedback goes with reject")
			}
			c, err := tc.client()
			if err != nil {
				return err
			}
			defer c.Close()
			if err := sendReview(cmd.Context(), c, args[0], workflows.Review{Decision: decision, Feedback: feedback, Reviewer: "cli"}); err != nil {
				return err
			}
			fmt.Fprintf(io.Out, "%s: %s sent\n", args[0], decision)
			if feedback != "" {
				return nil // the next round is planning; `prompt`-style review comes with `dispatch show`
			}
			// Accept commits and reject compensates: wait for that to finish,
			// so the schedule is free for the next dispatch when we return.
			return printResult(cmd.Context(), &promptOptions{io: io}, c.GetWorkflow(cmd.Context(), args[0], ""))
		},
	}
	cmd.Flags().StringVar(&feedback, "feedback", "", "with reject: what to change in the next round")
	return cmd
}

func newDispatchCmd(io *streams, tc *temporalConfig, env *editEnv) *cobra.Command {
	cmd := &cobra.Command{Use: "dispatch", Short: "List and inspect dispatches"}
	var scheduleID string
	list := &cobra.Command{
		Use:   "list [--schedule ID]",
		Short: "List dispatches, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := tc.client()
			if err != nil {
				return err
			}
			defer c.Close()
			query := "WorkflowType = 'DispatchWorkflow'"
			if scheduleID != "" {
				query += fmt.Sprintf(" AND ScheduleID = %q", scheduleID)
			}
			resp, err := c.ListWorkflow(cmd.Context(), &workflowservice.ListWorkflowExecutionsRequest{Query: query, PageSize: 100})
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(io.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATUS\tSTARTED")
			for _, e := range resp.Executions {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Execution.WorkflowId, strings.ToLower(e.Status.String()), e.StartTime.AsTime().Local().Format("2006-01-02 15:04:05"))
			}
			return tw.Flush()
		},
	}
	list.Flags().StringVarP(&scheduleID, "schedule", "s", "", "only this schedule's dispatches")
	show := &cobra.Command{
		Use:   "show DISPATCH-ID",
		Short: "Show a dispatch's stage and its change records",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := tc.client()
			if err != nil {
				return err
			}
			defer c.Close()
			var status workflows.Status
			var changes []workflows.ChangeRecord
			for name, into := range map[string]any{workflows.StatusQuery: &status, workflows.ChangesQuery: &changes} {
				v, err := c.QueryWorkflow(cmd.Context(), args[0], "", name)
				if err != nil {
					return fmt.Errorf("dispatch %s: %w", args[0], err)
				}
				if err := v.Get(into); err != nil {
					return err
				}
			}
			fmt.Fprintf(io.Out, "%s: stage %s, round %d", args[0], status.Stage, status.Round)
			if status.AwaitingReview {
				fmt.Fprint(io.Out, ", awaiting review")
			}
			fmt.Fprintln(io.Out)
			if status.AwaitingClarification {
				fmt.Fprintf(io.Out, "The planner asks: %s\n(answer with `autoscheduler clarify %s \"ANSWER\"`)\n", status.Question, args[0])
			}
			tw := tabwriter.NewWriter(io.Out, 0, 0, 2, ' ', 0)
			for _, ch := range changes {
				fmt.Fprintf(tw, "  %d\t%s\t%s\n", ch.Round, ch.Status, ch.Call)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if status.Impact != nil && status.Impact.Diff != nil {
				fmt.Fprintln(io.Out)
				return status.Impact.Diff.WriteText(io.Out, render.DiffOptions{Color: io.OutIsTTY})
			}
			return nil
		},
	}
	cmd.AddCommand(list, show, newUndoCmd(env))
	return cmd
}

// feedbackNoteRank is 0 for a note about the reviewer's feedback, which
// the review screen shows above the changes.
func feedbackNoteRank(note string) int {
	if strings.HasPrefix(note, "your feedback") || strings.Contains(note, "in your feedback") {
		return 0
	}
	return 1
}
