package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// reviewOptions are the flags of `autoscheduler review`.
type reviewOptions struct {
	io       *cmdutil.IOStreams
	temporal *temporalConfig
	ID       string
	Decision string
	Feedback string
	Round    int
	JSON     bool
}

func newReviewCmd(f *Factory, runF func(context.Context, *reviewOptions) error) *cobra.Command {
	opts := &reviewOptions{io: f.IOStreams, temporal: f.Temporal}
	cmd := &cobra.Command{
		Use:   "review DISPATCH-ID accept|reject|redo|back|cancel [--feedback TEXT] [--round N]",
		Short: "Accept, reject, redo, take back or cancel a dispatch's proposal",
		Long: "Send a review (recorded under --as, default the OS user) and, unless it carries feedback\n" +
			"or starts another round, wait for the commit or the compensation to finish and print the outcome.\n" +
			"  accept   commit the round's changes\n" +
			"  reject   undo them and end (with --feedback: plan another round with it)\n" +
			"  redo     undo them and plan the same prompt again as the next round\n" +
			"  back     undo them and propose the previous round's changes again as the next round\n" +
			"           (not on round 1)\n" +
			"  cancel   undo them and end the dispatch cancelled (at any stage: while it plans, applies or\n" +
			"           waits for an answer too, as `dispatch cancel` does)\n" +
			"Exit status: 0 when the dispatch ends accepted or rejected, 1 when it failed, timed out\n" +
			"or was cancelled, or the review was refused; 2 on a usage error.",
		Example: "  autoscheduler review dispatch-building accept\n" +
			"  autoscheduler review dispatch-building reject --feedback \"keep the roof works\"\n" +
			"  autoscheduler review dispatch-building redo\n" +
			"  autoscheduler review dispatch-building back --round 2\n" +
			"  autoscheduler review dispatch-building cancel",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.Decision = args[0], args[1]
			if !slices.Contains(workflows.Decisions, opts.Decision) {
				return usagef("review: decision %q: want one of %s", opts.Decision, strings.Join(workflows.Decisions, ", "))
			}
			if opts.Feedback != "" && opts.Decision != workflows.DecisionReject {
				return usagef("review: --feedback goes with reject")
			}
			if err := workflows.CheckText("feedback", opts.Feedback); err != nil {
				return usagef("review: %v", err)
			}
			if opts.Round < 0 {
				return usagef("review: --round %d: rounds count from 1", opts.Round)
			}
			if opts.Decision == workflows.DecisionBack && opts.Round == 1 {
				return usagef("review: back: round 1 has no previous round to go back to")
			}
			return cmdutil.RunOr(cmd, opts, runF, reviewRun)
		},
	}
	cmd.Flags().StringVar(&opts.Feedback, "feedback", "", "with reject: what to change in the next round")
	cmd.Flags().IntVar(&opts.Round, "round", 0, "the round you reviewed: refused if that round was already decided (by someone else, say) or is not the current one (default: whichever round awaits)")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, "print the DispatchResult as JSON")
	return cmd
}

func reviewRun(ctx context.Context, opts *reviewOptions) error {
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	review := workflows.Review{Decision: opts.Decision, Feedback: opts.Feedback, Reviewer: opts.temporal.who(), Round: opts.Round}
	if err := workflows.SendReview(ctx, c, opts.ID, review); err != nil {
		if strings.Contains(err.Error(), "the planner asked a question") {
			id := usertext.Terminal(opts.ID)
			return fmt.Errorf("%w (answer with `autoscheduler clarify %s \"ANSWER\"`, or cancel with `autoscheduler dispatch cancel %s`)", err, id, id)
		}
		return err
	}
	fmt.Fprintf(opts.io.ErrOut, "%s: %s sent as %s\n", usertext.Terminal(opts.ID), opts.Decision, usertext.Terminal(review.Reviewer))
	if opts.Feedback != "" || opts.Decision == workflows.DecisionRedo || opts.Decision == workflows.DecisionBack {
		// The next round is on its way; see it with `dispatch show`.
		next := "the next round is being planned"
		if opts.Decision == workflows.DecisionBack {
			next = "the next round applies the previous round's changes again"
		}
		fmt.Fprintf(opts.io.ErrOut, "%s: see `autoscheduler dispatch show %s`\n", next, usertext.Terminal(opts.ID))
		return nil
	}
	// Accept commits and reject compensates: wait for that to finish, so
	// the schedule is free for the next dispatch when we return.
	return printResult(ctx, &promptOptions{io: opts.io, JSON: opts.JSON}, c.GetWorkflow(ctx, opts.ID, ""))
}

type clarifyOptions struct {
	io       *cmdutil.IOStreams
	temporal *temporalConfig
	ID       string
	Answer   string
}

func newClarifyCmd(f *Factory, runF func(context.Context, *clarifyOptions) error) *cobra.Command {
	opts := &clarifyOptions{io: f.IOStreams, temporal: f.Temporal}
	return &cobra.Command{
		Use:     `clarify DISPATCH-ID "ANSWER"`,
		Short:   "Answer the question a dispatch's planner asked",
		Example: `  autoscheduler clarify dispatch-building "Pour slab Level 2"`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.Answer = args[0], args[1]
			if strings.TrimSpace(opts.Answer) == "" {
				return usagef("clarify: the answer is empty: say what the planner asked about")
			}
			if err := workflows.CheckText("answer", opts.Answer); err != nil {
				return usagef("clarify: %v", err)
			}
			return cmdutil.RunOr(cmd, opts, runF, clarifyRun)
		},
	}
}

func clarifyRun(ctx context.Context, opts *clarifyOptions) error {
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	if err := workflows.SendAnswer(ctx, c, opts.ID, opts.Answer, opts.temporal.who()); err != nil {
		return err
	}
	id := usertext.Terminal(opts.ID)
	fmt.Fprintf(opts.io.ErrOut, "%s: answer sent; the round goes on (see `autoscheduler dispatch show %s`)\n", id, id)
	return nil
}
