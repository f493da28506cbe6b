package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// portfolioOptions are the flags `prompt` takes for a portfolio: one prompt
// delegated to a dispatch per schedule (workflows.PortfolioWorkflow).
type portfolioOptions struct {
	Schedules  []string
	Name       string
	Mode       string
	OnError    string
	Retries    int
	AfterRetry string
}

func (p *portfolioOptions) set() bool { return len(p.Schedules) > 0 || p.Name != "" }

func bindPortfolioFlags(cmd *cobra.Command, p *portfolioOptions) {
	cmd.Flags().StringSliceVar(&p.Schedules, "schedules", nil, "delegate the prompt to these stored schedules (a,b,c): one dispatch each, under one portfolio")
	cmd.Flags().StringVar(&p.Name, "portfolio", "", "delegate the prompt to the schedules of a stored portfolio (`autoscheduler portfolio set`)")
	cmd.Flags().StringVar(&p.Mode, "mode", workflows.PortfolioSync, "with --schedules/--portfolio: sync (wait for every proposal, one review screen) or async (print the dispatches and return)")
	cmd.Flags().StringVar(&p.OnError, "on-error", workflows.StrategyFailFast, "with --schedules/--portfolio: fail_fast, continue_on_error or retry")
	cmd.Flags().IntVar(&p.Retries, "retries", 0, fmt.Sprintf("with --on-error retry: how often a failed dispatch is started again (0: %d)", workflows.DefaultMaxRetries))
	cmd.Flags().StringVar(&p.AfterRetry, "after-retries", workflows.StrategyFailFast, "with --on-error retry: fail_fast or continue_on_error once the retries are spent")
}

// checkPortfolioFlags refuses portfolio flags a single-schedule prompt
// would silently ignore, and --schedule with --schedules/--portfolio.
func checkPortfolioFlags(cmd *cobra.Command, opts *promptOptions) error {
	p := &opts.portfolio
	if !p.set() {
		for _, f := range []string{"mode", "on-error", "retries", "after-retries"} {
			if cmd.Flags().Changed(f) {
				return usagef("prompt: --%s needs --schedules or --portfolio", f)
			}
		}
		return nil
	}
	switch {
	case opts.Schedule != "":
		return usagef("prompt: --schedule and --schedules/--portfolio: give one")
	case len(p.Schedules) > 0 && p.Name != "":
		return usagef("prompt: --schedules and --portfolio: give one")
	case p.Mode != workflows.PortfolioSync && p.Mode != workflows.PortfolioAsync:
		return usagef("prompt: --mode %q: want sync or async", p.Mode)
	case p.OnError != workflows.StrategyFailFast && p.OnError != workflows.StrategyContinueOnError && p.OnError != workflows.StrategyRetry:
		return usagef("prompt: --on-error %q: want fail_fast, continue_on_error or retry", p.OnError)
	case p.AfterRetry != workflows.StrategyFailFast && p.AfterRetry != workflows.StrategyContinueOnError:
		return usagef("prompt: --after-retries %q: want fail_fast or continue_on_error", p.AfterRetry)
	case p.Retries < 0:
		return usagef("prompt: --retries %d: want 0 or more", p.Retries)
	case cmd.Flags().Changed("retries") && p.OnError != workflows.StrategyRetry:
		return usagef("prompt: --retries needs --on-error retry")
	}
	return nil
}

// portfolioSchedules resolves --schedules or --portfolio to schedule ids,
// each checked in the stores.
func portfolioSchedules(ctx context.Context, stores *config.Stores, p *portfolioOptions) ([]string, error) {
	ids := p.Schedules
	if p.Name != "" {
		if stores == nil {
			return nil, errors.New("prompt: --portfolio needs the stores")
		}
		pf, err := readPortfolio(ctx, stores, p.Name)
		if err != nil {
			return nil, err
		}
		ids = pf.Schedules
	}
	in, err := workflows.NormalizePortfolio(workflows.PortfolioInput{Schedules: ids, Prompt: "-"})
	if err != nil {
		return nil, usagef("prompt: %v", err)
	}
	for _, id := range in.Schedules {
		if err := checkSchedule(ctx, stores, id); err != nil {
			return nil, err
		}
	}
	return in.Schedules, nil
}

// promptPortfolioRun is `prompt --schedules|--portfolio`: start the
// portfolio, then (sync) review every proposal on one screen, round after
// round, until the portfolio ends; or (async, --no-wait) print the
// dispatches and return.
func promptPortfolioRun(ctx context.Context, opts *promptOptions) error {
	p := &opts.portfolio
	schedules, err := portfolioSchedules(ctx, opts.stores, p)
	if err != nil {
		return err
	}
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	id := workflows.NewPortfolioID(p.Name)
	mode := p.Mode
	if opts.NoWait {
		mode = workflows.PortfolioAsync
	}
	run, in, err := workflows.StartPortfolio(ctx, c, id, workflows.PortfolioInput{
		Name: p.Name, Schedules: schedules, Prompt: opts.Prompt, Author: opts.temporal.who(),
		Mode: mode, Strategy: p.OnError, MaxRetries: p.Retries, AfterRetries: p.AfterRetry,
		MaxRounds: opts.Rounds, ReviewTimeout: opts.Timeout,
	})
	if err != nil {
		return err
	}
	if in.Mode == workflows.PortfolioAsync {
		return printStarted(opts, run, in)
	}
	return reviewPortfolioLoop(ctx, opts, c, id)
}

func printStarted(opts *promptOptions, run client.WorkflowRun, in workflows.PortfolioInput) error {
	type child struct {
		Schedule string `json:"schedule"`
		Dispatch string `json:"dispatch"`
	}
	var children []child
	for _, s := range in.Schedules {
		children = append(children, child{s, workflows.DispatchWorkflowID(s)})
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, map[string]any{"portfolio": run.GetID(), "run_id": run.GetRunID(), "dispatches": children})
	}
	fmt.Fprintf(opts.io.Out, "started %s (run %s), %s, one dispatch per schedule:\n", run.GetID(), run.GetRunID(), in.Strategy)
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	for _, ch := range children {
		fmt.Fprintf(tw, "  %s\t%s\n", ch.Schedule, ch.Dispatch)
	}
	tw.Flush()
	fmt.Fprintf(opts.io.Out, "follow with `autoscheduler portfolio status %s`; review with `autoscheduler portfolio review %s accept|reject` or each dispatch with `autoscheduler review`\n", run.GetID(), run.GetID())
	return nil
}

// reviewPortfolioLoop waits until no child is working, answers questions,
// shows every proposal and sends the screen's decisions, until the
// portfolio ends.
func reviewPortfolioLoop(ctx context.Context, opts *promptOptions, c client.Client, id string) error {
	in := opts.in
	if in == nil {
		in = bufio.NewReader(opts.io.In)
	}
	shown := map[string]int{} // schedule -> round whose proposal was printed
	for {
		st, err := workflows.AwaitPortfolioReady(ctx, c, id)
		if err != nil || st.Stage == workflows.PortfolioDone {
			return printPortfolioResult(ctx, opts, c, id)
		}
		props, err := workflows.PortfolioProposals(ctx, c, st)
		if err != nil {
			return err
		}
		var asks, reviews []workflows.ChildProposal
		for _, cp := range props {
			switch {
			case cp.Proposal.AwaitingClarification:
				asks = append(asks, cp)
			case cp.Proposal.Stage == workflows.StageAwaitingReview:
				if ch, _ := st.Child(cp.ScheduleID); ch.Stage == workflows.StageAwaitingReview {
					reviews = append(reviews, cp)
				}
			}
		}
		for _, cp := range asks {
			if err := printProposal(opts, cp.WorkflowID, cp.Proposal); err != nil {
				return err
			}
			answer, err := askAnswer(opts, in, cp.WorkflowID, cp.Proposal)
			if errors.Is(err, errCancelAtQuestion) {
				// That schedule's dispatch ends cancelled; the others go on.
				if err := workflows.Cancel(ctx, c, cp.WorkflowID, "", opts.temporal.who()); err != nil {
					return err
				}
				continue
			}
			if err != nil {
				return err
			}
			if err := workflows.SendAnswer(ctx, c, cp.WorkflowID, answer, opts.temporal.who()); err != nil {
				return err
			}
		}
		if len(asks) > 0 || len(reviews) == 0 {
			// The parent hears of the children's new stages by signal: a
			// moment's wait keeps this from asking what was just answered.
			time.Sleep(100 * time.Millisecond)
			continue
		}
		printScreenHeader(opts, st)
		for _, cp := range reviews {
			if opts.JSON {
				if err := cmdutil.WriteJSON(opts.io.Out, map[string]any{"portfolio": id, "schedule": cp.ScheduleID, "dispatch": cp.WorkflowID, "proposal": cp.Proposal}); err != nil {
					return err
				}
				continue
			}
			fmt.Fprintf(opts.io.Out, "\n== %s ==\n", cp.ScheduleID)
			if shown[cp.ScheduleID] == cp.Proposal.Round {
				fmt.Fprintf(opts.io.Out, "Round %d of %s (as above)\n", cp.Proposal.Round, cp.WorkflowID)
				continue
			}
			shown[cp.ScheduleID] = cp.Proposal.Round
			if err := printProposal(opts, cp.WorkflowID, cp.Proposal); err != nil {
				return err
			}
		}
		review, err := decidePortfolio(opts, in, reviews)
		if err != nil {
			return err
		}
		if _, err := workflows.ReviewPortfolio(ctx, c, id, review); err != nil {
			return err
		}
	}
}

// printScreenHeader says, above the proposals, which schedules ended and
// which accepts are held.
func printScreenHeader(opts *promptOptions, st workflows.PortfolioStatus) {
	if opts.JSON {
		return
	}
	fmt.Fprintf(opts.io.Out, "Portfolio %s (%s): %q\n", st.ID, st.Strategy, st.Prompt)
	for _, ch := range st.Children {
		switch {
		case ch.Ended():
			line := fmt.Sprintf("  %s: %s", ch.ScheduleID, ch.Result)
			if ch.Error != "" {
				line += ": " + ch.Error
			}
			fmt.Fprintln(opts.io.Out, line)
		case ch.Held != nil:
			fmt.Fprintf(opts.io.Out, "  %s: accepted, held until every schedule is accepted (fail_fast)\n", ch.ScheduleID)
		}
	}
}

// decidePortfolio asks for the screen's decisions: accept all, reject
// all, reject all with feedback, or per schedule (each as `prompt` asks).
func decidePortfolio(opts *promptOptions, in *bufio.Reader, reviews []workflows.ChildProposal) (workflows.PortfolioReview, error) {
	r := workflows.PortfolioReview{Reviewer: opts.temporal.who()}
	all := func(d workflows.ScheduleDecision) (workflows.PortfolioReview, error) {
		for _, cp := range reviews {
			d.ScheduleID = cp.ScheduleID
			r.Decisions = append(r.Decisions, d)
		}
		return r, nil
	}
	if opts.Yes {
		return all(workflows.ScheduleDecision{Decision: workflows.DecisionAccept})
	}
	noAnswer := errors.New("no answer on standard input: pass --yes, or review later with `autoscheduler portfolio review`")
	for {
		fmt.Fprintf(opts.io.ErrOut, "\nAccept all, Reject all, reject all with Feedback, or decide Per schedule? [a/r/f/p] ")
		line, err := in.ReadString('\n')
		switch answer := strings.ToLower(strings.TrimSpace(line)); answer {
		case "a", "accept":
			return all(workflows.ScheduleDecision{Decision: workflows.DecisionAccept})
		case "r", "reject":
			return all(workflows.ScheduleDecision{Decision: workflows.DecisionReject})
		case "f", "feedback":
			fmt.Fprint(opts.io.ErrOut, "Feedback for every schedule's next round: ")
			feedback, ferr := in.ReadString('\n')
			if feedback = strings.TrimSpace(feedback); feedback != "" {
				return all(workflows.ScheduleDecision{Decision: workflows.DecisionReject, Feedback: feedback})
			}
			if ferr != nil {
				return r, noAnswer
			}
			fmt.Fprintln(opts.io.ErrOut, "No feedback given.")
			continue
		case "p", "per", "per schedule":
			for _, cp := range reviews {
				fmt.Fprintf(opts.io.ErrOut, "%s: ", cp.ScheduleID)
				rv, err := decide(opts, in, cp.Proposal.Round)
				if err != nil {
					return r, err
				}
				r.Decisions = append(r.Decisions, workflows.ScheduleDecision{ScheduleID: cp.ScheduleID, Decision: rv.Decision, Feedback: rv.Feedback})
			}
			return r, nil
		case "":
			if err != nil {
				return r, noAnswer
			}
		default:
			fmt.Fprintf(opts.io.ErrOut, "%q is not an answer: type a to accept all, r to reject all, f to reject all with feedback, p to decide per schedule.\n", answer)
		}
		if err != nil {
			return r, noAnswer
		}
	}
}

// printPortfolioResult waits for the portfolio's outcome and prints it;
// any child that did not end as a person chose (accepted or rejected)
// makes it an error (exit 1), as for one dispatch.
func printPortfolioResult(ctx context.Context, opts *promptOptions, c client.Client, id string) error {
	res, err := workflows.AwaitPortfolioResult(ctx, c, id)
	if err != nil {
		return err
	}
	return showPortfolioResult(opts.io, opts.JSON, id, res)
}

func showPortfolioResult(io *cmdutil.IOStreams, asJSON bool, id string, res workflows.PortfolioResult) error {
	if asJSON {
		if err := cmdutil.WriteJSON(io.Out, res); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(io.Out, "%s: %s\n", id, res.Status)
		writeChildren(io, res.Children)
	}
	if res.Status != workflows.PortfolioCompleted {
		return fmt.Errorf("portfolio %s %s: %s", id, res.Status, res.Error)
	}
	for _, ch := range res.Children {
		if err := outcomeErr(ch.WorkflowID, workflows.DispatchResult{Status: ch.Result, Rounds: ch.Rounds, Error: ch.Error}); err != nil {
			return fmt.Errorf("portfolio %s: %w", id, err)
		}
	}
	return nil
}

func writeChildren(io *cmdutil.IOStreams, children []workflows.ChildStatus) {
	tw := tabwriter.NewWriter(io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  SCHEDULE\tDISPATCH\tSTATE\tROUND\tATTEMPTS\tNOTE")
	for _, ch := range children {
		state := ch.Stage
		if ch.Ended() {
			state = ch.Result
		} else if ch.Held != nil {
			state = "accepted (held)"
		}
		note := ch.Error
		if note == "" {
			note = ch.Reason
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%d\t%s\n", ch.ScheduleID, ch.WorkflowID, strings.ReplaceAll(state, "_", " "), ch.Round, ch.Attempts, note)
	}
	tw.Flush()
}
