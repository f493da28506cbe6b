package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// promptOptions are the flags of `autoscheduler prompt`.
type promptOptions struct {
	io       *cmdutil.IOStreams
	temporal *temporalConfig
	// stores is where the schedule is checked before a dispatch starts
	// (nil: not checked).
	stores   *config.Stores
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
	// ctx, when set, ends a wait for a line of the terminal (an answer, a
	// review, feedback): SIGINT or SIGTERM cancels it (the root command's
	// signal.NotifyContext), where a read of standard input alone would
	// block on.
	ctx context.Context
	// portfolio: --schedules/--portfolio and their flags (prompt_portfolio.go).
	portfolio portfolioOptions
}

func newPromptCmd(f *Factory, runF func(context.Context, *promptOptions) error) *cobra.Command {
	opts := &promptOptions{io: f.IOStreams, temporal: f.Temporal, stores: f.Stores}
	cmd := &cobra.Command{
		Use:   `prompt "TEXT" --schedule ID`,
		Short: "Ask for a change in plain language, review the proposal, accept or reject",
		Long: "Start a dispatch: the planner turns the prompt into changes, which are applied\n" +
			"provisionally and shown with their CPM impact. Accept commits them; reject undoes\n" +
			"them; reject with feedback undoes them and plans another round.\n\n" +
			"A prompt that is only a question (\"what drives X\", \"what if X takes 5 more days\")\n" +
			"is answered offline as `autoscheduler ask` answers it, and no dispatch starts\n" +
			"(--json: {\"answer\": \"...\", \"activities\": [...]}).\n\n" +
			"The proposals and the outcome go to standard output, questions to standard error.\n" +
			"Exit status: 0 when the dispatch is accepted or rejected, 1 when it failed, timed out\n" +
			"or was cancelled (or on any error), 2 on a usage error.",
		Example: `  autoscheduler prompt "delete activity Final inspection" --schedule building
  autoscheduler prompt "delete activity Final inspection" --schedules tower-a,tower-b --on-error continue_on_error`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Prompt = strings.TrimSpace(args[0])
			if opts.Prompt == "" {
				return usagef("prompt: the prompt is empty: say what to change")
			}
			if err := scope.CheckPrompt("prompt", opts.Prompt); err != nil {
				return usagef("prompt: %v", err)
			}
			for _, a := range opts.Answers {
				if err := scope.CheckPrompt("answer", a); err != nil {
					return usagef("prompt: --answer: %v", err)
				}
			}
			opts.ctx = cmd.Context()
			if err := checkPortfolioFlags(cmd, opts); err != nil {
				return err
			}
			if opts.Schedule == "" && !opts.portfolio.set() {
				return usagef("prompt: --schedule is required")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			if opts.portfolio.set() {
				return promptPortfolioRun(cmd.Context(), opts)
			}
			return promptRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id")
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "accept the first proposal without asking")
	cmd.Flags().StringArrayVar(&opts.Answers, "answer", nil, "answer to the planner's question, if it asks (repeatable, in order)")
	cmd.Flags().BoolVar(&opts.NoWait, "no-wait", false, "start the dispatch and return; review later with `autoscheduler review`")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, "print JSON lines: each proposal as {dispatch, proposal}, then the DispatchResult (with --no-wait: {dispatch, run_id})")
	cmd.Flags().IntVar(&opts.Rounds, "max-rounds", workflows.DefaultMaxRounds, "rounds of reject-with-feedback before the dispatch gives up")
	cmd.Flags().DurationVar(&opts.Timeout, "review-timeout", workflows.DefaultReviewTimeout, "how long a proposal waits for review")
	bindPortfolioFlags(cmd, &opts.portfolio)
	return cmd
}

func promptRun(ctx context.Context, opts *promptOptions) (err error) {
	// Refuse what would only start a dispatch bound to fail.
	if strings.TrimSpace(opts.Prompt) == "" {
		return usagef("prompt: the prompt is empty: say what to change")
	}
	if err := scope.CheckPrompt("prompt", opts.Prompt); err != nil {
		return usagef("prompt: %v", err)
	}
	if opts.ctx == nil {
		opts.ctx = ctx
	}
	if err := checkSchedule(ctx, opts.stores, opts.Schedule); err != nil {
		return err
	}
	// A question is answered offline from the stored schedule: no
	// dispatch starts (it would only refuse it).
	if answered, err := answerPromptQuestion(ctx, opts); answered || err != nil {
		return err
	}
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	id := workflows.DispatchWorkflowID(opts.Schedule)
	run, err := workflows.Start(ctx, c, workflows.DispatchInput{
		ScheduleID: opts.Schedule, Prompt: opts.Prompt, Author: opts.temporal.who(),
		MaxRounds: opts.Rounds, ReviewTimeout: opts.Timeout, AutoAccept: opts.Yes && opts.NoWait,
	})
	var open *workflows.OpenError
	if errors.As(err, &open) {
		return fmt.Errorf("%w (review it with `autoscheduler review %s accept|reject`)", err, id)
	}
	if err != nil {
		return err
	}
	if opts.NoWait {
		if opts.JSON {
			return cmdutil.WriteJSON(opts.io.Out, map[string]string{"dispatch": id, "run_id": run.GetRunID()})
		}
		fmt.Fprintf(opts.io.Out, "started %s (run %s)\n", id, run.GetRunID())
		return nil
	}
	defer func() {
		if err != nil && ctx.Err() != nil {
			err = interrupted(id) // whatever the wait was, it was cut short
		}
	}()
	in := opts.in
	if in == nil {
		in = bufio.NewReader(opts.io.In)
	}
	for round := 1; ; round++ {
		proposal, err := workflows.AwaitProposal(ctx, c, id, run.GetRunID(), round)
		if err != nil {
			// The dispatch ended without (another) proposal: show how.
			return printResult(ctx, opts, run)
		}
		// The planner may ask before it proposes: answer, then wait again.
		for proposal.AwaitingClarification {
			if err := printProposal(opts, id, proposal); err != nil {
				return err
			}
			answer, err := askAnswer(opts, in, id, proposal)
			if errors.Is(err, errCancelAtQuestion) {
				// Cancel beside the choices: the dispatch ends cancelled.
				if err := workflows.Cancel(ctx, c, id, run.GetRunID(), opts.temporal.who()); err != nil {
					return err
				}
				fmt.Fprintf(opts.io.ErrOut, "%s: cancelling: taking back what it applied…\n", usertext.Terminal(id))
				return printResult(ctx, opts, run)
			}
			if err != nil {
				return err
			}
			if err := workflows.SendAnswer(ctx, c, id, answer, opts.temporal.who()); err != nil {
				return err
			}
			if proposal, err = workflows.AwaitProposal(ctx, c, id, run.GetRunID(), round); err != nil {
				return printResult(ctx, opts, run)
			}
		}
		if err := printProposal(opts, id, proposal); err != nil {
			return err
		}
		review, err := decide(opts, in, proposal.Round)
		if err != nil {
			return err
		}
		review.Reviewer, review.Round = opts.temporal.who(), proposal.Round
		if err := workflows.SendReview(ctx, c, id, review); err != nil {
			return err
		}
		// Feedback, redo and back go on to the next round; the rest end.
		switch {
		case review.Decision == workflows.DecisionRedo, review.Decision == workflows.DecisionBack:
		case review.Decision == workflows.DecisionAccept, review.Feedback == "":
			return printResult(ctx, opts, run)
		}
	}
}

// interrupted is the error of a `prompt` stopped by SIGINT or SIGTERM
// while it waited: the dispatch goes on, durable, without this terminal.
func interrupted(id string) error {
	return fmt.Errorf("interrupted: dispatch %s goes on without this terminal: follow it with `autoscheduler dispatch list`, review it with `autoscheduler review %s accept|reject`, or cancel it with `autoscheduler dispatch cancel %s`", id, id, id)
}

// readLine reads a line of in, or gives up with opts.ctx's error when
// that is done first (Ctrl-C at the prompt). The read given up on ends
// with the process.
func (opts *promptOptions) readLine(in *bufio.Reader) (string, error) {
	if opts.ctx == nil {
		return in.ReadString('\n')
	}
	if err := opts.ctx.Err(); err != nil {
		return "", err
	}
	type read struct {
		line string
		err  error
	}
	got := make(chan read, 1)
	go func() {
		line, err := in.ReadString('\n')
		got <- read{line, err}
	}()
	select {
	case r := <-got:
		return r.line, r.err
	case <-opts.ctx.Done():
		return "", opts.ctx.Err()
	}
}

// cancelledRead reports whether err is a terminal read cut short by
// opts.ctx.
func (opts *promptOptions) cancelledRead(err error) bool {
	return err != nil && opts.ctx != nil && opts.ctx.Err() != nil && errors.Is(err, opts.ctx.Err())
}

// errCancelAtQuestion is the person's "c" at the planner's question:
// cancel the dispatch rather than answer.
var errCancelAtQuestion = errors.New("cancel the dispatch")

// askAnswer takes the next --answer, or asks on standard input. When the
// question offers choices, a number (or, for a question that takes
// several, numbers separated by commas or spaces) picks them
// (pickChoices); "c" alone cancels the dispatch (errCancelAtQuestion);
// anything else is the answer in the person's words.
func askAnswer(opts *promptOptions, in *bufio.Reader, id string, p workflows.Proposal) (string, error) {
	if len(opts.Answers) > 0 {
		answer := opts.Answers[0]
		opts.Answers = opts.Answers[1:]
		picked, err := pickChoices(p.Choices, p.Several, answer)
		if err != nil {
			return "", fmt.Errorf("--answer %q: %w", answer, err)
		}
		return picked, nil
	}
	ask := "Your answer: "
	if n := len(p.Choices); n > 0 {
		ask = fmt.Sprintf("Your answer (1-%d, %syour own words, or c to cancel the dispatch): ", n, map[bool]string{true: "several numbers, ", false: ""}[p.Several])
	}
	for {
		fmt.Fprint(opts.io.ErrOut, ask)
		line, err := opts.readLine(in)
		if opts.cancelledRead(err) {
			return "", err
		}
		text := strings.TrimSpace(line)
		if strings.EqualFold(text, "c") {
			return "", errCancelAtQuestion
		}
		if cerr := scope.CheckPrompt("answer", text); cerr != nil {
			fmt.Fprintf(opts.io.ErrOut, "%v\n", cerr)
			if err == nil {
				continue
			}
			return "", cerr
		}
		picked, perr := pickChoices(p.Choices, p.Several, text)
		if perr != nil {
			fmt.Fprintf(opts.io.ErrOut, "%v\n", perr)
			if err == nil {
				continue
			}
			return "", perr
		}
		return answerOf(picked, err, id, p.Question)
	}
}

// answerOf is askAnswer's answer from the line read (and its error).
func answerOf(line string, err error, id, question string) (string, error) {
	if strings.TrimSpace(line) == "" {
		if err == nil {
			return "", errors.New("empty answer")
		}
		return "", fmt.Errorf("the planner asks: %s\nno answer on standard input: answer with `autoscheduler clarify %s \"ANSWER\"` (the dispatch waits)", question, id)
	}
	return strings.TrimSpace(line), nil
}

// decide asks the person, unless --yes decided already; an answer that is
// none of a, r, f, d (redo), b (back, from round 2) and c (cancel) is
// asked again, and so is empty feedback. The Reviewer is the caller's to
// fill.
func decide(opts *promptOptions, in *bufio.Reader, round int) (workflows.Review, error) {
	if opts.Yes {
		return workflows.Review{Decision: workflows.DecisionAccept}, nil
	}
	noAnswer := errors.New("no answer on standard input: pass --yes, or review later with `autoscheduler review`")
	for {
		back := ""
		if round > 1 {
			back = fmt.Sprintf(", b to go back to round %d", round-1)
		}
		fmt.Fprintf(opts.io.ErrOut, "Accept, Reject, or reject with Feedback? [a/r/f] (or d to redo%s, c to cancel) ", back)
		line, err := opts.readLine(in)
		if opts.cancelledRead(err) {
			return workflows.Review{}, err
		}
		answer := strings.ToLower(strings.TrimSpace(line))
		switch answer {
		case "d", "redo":
			return workflows.Review{Decision: workflows.DecisionRedo}, nil
		case "b", "back":
			if round > 1 {
				return workflows.Review{Decision: workflows.DecisionBack}, nil
			}
			fmt.Fprintln(opts.io.ErrOut, "Round 1 has no previous round to go back to.")
			if err != nil {
				return workflows.Review{}, noAnswer
			}
			continue
		case "c", "cancel":
			return workflows.Review{Decision: workflows.DecisionCancel}, nil
		case "a", "accept":
			return workflows.Review{Decision: workflows.DecisionAccept}, nil
		case "r", "reject":
			return workflows.Review{Decision: workflows.DecisionReject}, nil
		case "f", "feedback":
			fmt.Fprint(opts.io.ErrOut, "Feedback for the next round: ")
			feedback, ferr := opts.readLine(in)
			if opts.cancelledRead(ferr) {
				return workflows.Review{}, ferr
			}
			if feedback = strings.TrimSpace(feedback); feedback != "" {
				if cerr := scope.CheckPrompt("feedback", feedback); cerr != nil {
					fmt.Fprintf(opts.io.ErrOut, "%v: answer f again with shorter feedback, or r to reject without.\n", cerr)
					if ferr != nil {
						return workflows.Review{}, noAnswer
					}
					continue
				}
				return workflows.Review{Decision: workflows.DecisionReject, Feedback: feedback}, nil
			}
			if ferr != nil {
				return workflows.Review{}, noAnswer
			}
			fmt.Fprintln(opts.io.ErrOut, "No feedback given: answer f again with some, or r to reject without.")
			continue
		case "":
			if err != nil {
				return workflows.Review{}, noAnswer
			}
		default:
			fmt.Fprintf(opts.io.ErrOut, "%q is not an answer: type a to accept, r to reject, f to reject with feedback, d to redo, b to go back, c to cancel.\n", answer)
		}
		if err != nil {
			return workflows.Review{}, noAnswer
		}
	}
}

func printProposal(opts *promptOptions, id string, p workflows.Proposal) error {
	var rating *schedule.RiskRating
	if p.Impact != nil {
		rating = p.Impact.RiskRating
	}
	if opts.JSON {
		// The risk comes first here too (it is also in the proposal's impact).
		return cmdutil.WriteJSON(opts.io.Out, struct {
			Risk     *schedule.RiskRating `json:"risk,omitempty"`
			Dispatch string               `json:"dispatch"`
			Proposal workflows.Proposal   `json:"proposal"`
		}{rating, id, p})
	}
	if p.AwaitingClarification {
		fmt.Fprintf(opts.io.Out, "Round %d of %s: the planner asks: %s\n", p.Round, id, usertext.Terminal(p.Question))
		writeChoices(opts.io.Out, p.Choices, p.Several)
		return nil
	}
	fmt.Fprintf(opts.io.Out, "Round %d of %s:\n", p.Round, id)
	// The risk before anything else: what a reviewer must not miss.
	if err := render.WriteRiskRating(opts.io.Out, rating, render.DiffOptions{Color: opts.io.OutIsTTY}); err != nil {
		return err
	}
	// What the planner says about the reviewer's feedback comes first.
	notes := slices.Clone(p.Notes)
	slices.SortStableFunc(notes, func(a, b string) int { return cmp.Compare(feedbackNoteRank(a), feedbackNoteRank(b)) })
	for _, n := range notes {
		if feedbackNoteRank(n) == 0 {
			fmt.Fprintf(opts.io.Out, "  note: %s\n", usertext.Terminal(n))
		}
	}
	if len(p.Tasks) > 0 {
		writeTaskChanges(opts.io.Out, p)
	} else {
		tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
		for _, ch := range p.Changes {
			fmt.Fprintf(tw, "  %s\t%s\n", ch.Status, usertext.Terminal(ch.Call))
			if ch.Op.Source != "" {
				fmt.Fprintf(tw, "  \t    from %q\n", ch.Op.Source)
			}
		}
		tw.Flush()
	}
	if len(p.Changes) == 0 && len(p.Tasks) == 0 {
		fmt.Fprintln(opts.io.Out, "  (no changes)")
	}
	for _, n := range notes {
		if feedbackNoteRank(n) != 0 {
			fmt.Fprintf(opts.io.Out, "  note: %s\n", usertext.Terminal(n))
		}
	}
	if p.Question != "" {
		fmt.Fprintf(opts.io.Out, "  question: %s\n", usertext.Terminal(p.Question))
	}
	if im := p.Impact; im != nil && im.Diff != nil {
		fmt.Fprintln(opts.io.Out)
		return render.WriteComparison(opts.io.Out, im.Diff, render.DiffOptions{Color: opts.io.OutIsTTY, Limit: opts.DiffLimit, Rating: rating})
	}
	if im := p.Impact; im != nil {
		fmt.Fprintf(opts.io.Out, "  project finish: %s -> %s working days (%+g)\n", render.Days(im.FinishBefore), render.Days(im.FinishAfter), im.FinishAfter-im.FinishBefore)
		if len(im.FloatChanged) > 0 {
			fmt.Fprintf(opts.io.Out, "  total float changed for %d activities\n", len(im.FloatChanged))
		}
	}
	return nil
}

// printResult waits for the dispatch's outcome and prints it (data, on
// standard output); a failed, timed-out or cancelled dispatch is then an
// error (non-zero exit).
func printResult(ctx context.Context, opts *promptOptions, run client.WorkflowRun) error {
	var res workflows.DispatchResult
	if err := run.Get(ctx, &res); err != nil {
		return fmt.Errorf("dispatch %s: %s", run.GetID(), workflows.RootCause(err))
	}
	return showResult(opts.io, opts.JSON, run.GetID(), res)
}

// showResult prints a dispatch's result and turns a bad outcome into an
// error.
func showResult(io *cmdutil.IOStreams, asJSON bool, id string, res workflows.DispatchResult) error {
	if asJSON {
		if err := cmdutil.WriteJSON(io.Out, res); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(io.Out, "%s: %s after %d round(s)\n", usertext.Terminal(id), usertext.Terminal(res.Status), res.Rounds)
	}
	return outcomeErr(id, res)
}

// outcomeError is a dispatch that ended failed, timed out or cancelled.
type outcomeError struct {
	ID     string
	Result workflows.DispatchResult
}

func (e *outcomeError) Error() string {
	msg := fmt.Sprintf("dispatch %s %s after %d round(s)", e.ID, strings.ReplaceAll(e.Result.Status, "_", " "), e.Result.Rounds)
	if e.Result.Error != "" {
		msg += ": " + e.Result.Error
	}
	return msg
}

// outcomeErr is nil for the outcomes a person chose (accepted, rejected)
// and an *outcomeError for the others.
func outcomeErr(id string, res workflows.DispatchResult) error {
	switch res.Status {
	case workflows.StatusAccepted, workflows.StatusRejected:
		return nil
	}
	return &outcomeError{ID: id, Result: res}
}

// answerPromptQuestion answers a prompt that is only read-only questions
// ("what drives X", "what if X takes 5 days") from the stored schedule, as
// `ask` does, and reports whether it did; a prompt that asks for a change
// (even with a question in it) is left to the dispatch.
func answerPromptQuestion(ctx context.Context, opts *promptOptions) (bool, error) {
	if opts.stores == nil {
		return false, nil
	}
	v, err := loadView(ctx, opts.stores, opts.io.ErrOut, "", opts.Schedule)
	if err != nil {
		return false, err
	}
	ans, ok := insight.AnswerIfQuestion(v, opts.Prompt)
	if !ok {
		return false, nil
	}
	return true, printAnswer(opts.io, opts.JSON, ans)
}

// checkSchedule says whether scheduleID is in the configured stores.
func checkSchedule(ctx context.Context, stores *config.Stores, scheduleID string) error {
	if stores == nil {
		return nil
	}
	_, err := loadStoredSchedule(ctx, stores, scheduleID)
	return err
}

// feedbackNoteRank is 0 for a note about the reviewer's feedback, which
// the review screen shows above the changes.
func feedbackNoteRank(note string) int {
	if strings.HasPrefix(note, "your feedback") || strings.Contains(note, "in your feedback") {
		return 0
	}
	return 1
}
