package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// newPortfolioCmd is `autoscheduler portfolio`: stored lists of schedules
// and the portfolios started from them.
func newPortfolioCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "portfolio",
		Short: "Named lists of schedules, and portfolio dispatches (one prompt, a dispatch per schedule)",
		Long: "A portfolio delegates one prompt to one dispatch per schedule:\n" +
			"  autoscheduler prompt \"TEXT\" --schedules a,b,c   (or --portfolio NAME)\n" +
			"The commands here keep the named lists and follow and review running portfolios.",
	}
	cmd.AddCommand(newPortfolioSetCmd(f, nil), newPortfolioShowCmd(f, nil), newPortfolioDeleteCmd(f, nil),
		newPortfolioStatusCmd(f, nil), newPortfolioReviewCmd(f, nil))
	return cmd
}

type portfolioSetOptions struct {
	io     *cmdutil.IOStreams
	stores *config.Stores
	// Portfolio is the checked name and schedules.
	Portfolio store.Portfolio
}

func newPortfolioSetCmd(f *Factory, runF func(context.Context, *portfolioSetOptions) error) *cobra.Command {
	opts := &portfolioSetOptions{io: f.IOStreams, stores: f.Stores}
	return &cobra.Command{
		Use:   "set NAME SCHEDULE[,SCHEDULE...]...",
		Short: "Store (or replace) a named list of schedules",
		Args:  cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var ids []string
			for _, a := range args[1:] {
				ids = append(ids, strings.Split(a, ",")...)
			}
			pf, err := store.CheckPortfolio(store.Portfolio{Name: args[0], Schedules: ids})
			if err != nil {
				return usagef("portfolio set: %v", err)
			}
			opts.Portfolio = pf
			return cmdutil.RunOr(cmd, opts, runF, portfolioSetRun)
		},
	}
}

func portfolioSetRun(ctx context.Context, opts *portfolioSetOptions) error {
	pf := opts.Portfolio
	for _, id := range pf.Schedules {
		if err := checkSchedule(ctx, opts.stores, id); err != nil {
			return err
		}
	}
	if err := withPortfolios(ctx, opts.stores, func(ps store.PortfolioStore) error { return ps.PutPortfolio(ctx, pf) }); err != nil {
		return err
	}
	fmt.Fprintf(opts.io.Out, "portfolio %s: %s\n", pf.Name, strings.Join(pf.Schedules, ","))
	return nil
}

type portfolioShowOptions struct {
	io     *cmdutil.IOStreams
	stores *config.Stores
	// Name is the portfolio shown; "" shows them all.
	Name string
	JSON bool
}

func newPortfolioShowCmd(f *Factory, runF func(context.Context, *portfolioShowOptions) error) *cobra.Command {
	opts := &portfolioShowOptions{io: f.IOStreams, stores: f.Stores}
	cmd := &cobra.Command{
		Use:   "show [NAME]",
		Short: "Print one stored portfolio, or all",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Name = args[0]
			}
			return cmdutil.RunOr(cmd, opts, runF, portfolioShowRun)
		},
	}
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print {"portfolios": [{"name", "schedules"}]}`)
	return cmd
}

func portfolioShowRun(ctx context.Context, opts *portfolioShowOptions) error {
	var list []store.Portfolio
	if opts.Name != "" {
		pf, err := readPortfolio(ctx, opts.stores, opts.Name)
		if err != nil {
			return err
		}
		list = []store.Portfolio{pf}
	} else if err := withPortfolios(ctx, opts.stores, func(ps store.PortfolioStore) error {
		var err error
		list, err = ps.Portfolios(ctx)
		return err
	}); err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, map[string]any{"portfolios": cmdutil.NonNil(list)})
	}
	if len(list) == 0 {
		fmt.Fprintln(opts.io.ErrOut, "no portfolios (store one with `autoscheduler portfolio set NAME a,b,c`)")
	}
	for _, pf := range list {
		fmt.Fprintf(opts.io.Out, "%s: %s\n", pf.Name, strings.Join(pf.Schedules, ","))
	}
	return nil
}

type portfolioDeleteOptions struct {
	stores *config.Stores
	Name   string
}

func newPortfolioDeleteCmd(f *Factory, runF func(context.Context, *portfolioDeleteOptions) error) *cobra.Command {
	opts := &portfolioDeleteOptions{stores: f.Stores}
	return &cobra.Command{
		Use:   "delete NAME",
		Short: "Remove a stored portfolio (its schedules stay)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			return cmdutil.RunOr(cmd, opts, runF, portfolioDeleteRun)
		},
	}
}

func portfolioDeleteRun(ctx context.Context, opts *portfolioDeleteOptions) error {
	if _, err := readPortfolio(ctx, opts.stores, opts.Name); err != nil {
		return err
	}
	return withPortfolios(ctx, opts.stores, func(ps store.PortfolioStore) error { return ps.DeletePortfolio(ctx, opts.Name) })
}

type portfolioStatusOptions struct {
	io       *cmdutil.IOStreams
	temporal *temporalConfig
	ID       string
	JSON     bool
}

func newPortfolioStatusCmd(f *Factory, runF func(context.Context, *portfolioStatusOptions) error) *cobra.Command {
	opts := &portfolioStatusOptions{io: f.IOStreams, temporal: f.Temporal}
	cmd := &cobra.Command{
		Use:   "status PORTFOLIO-ID",
		Short: "Print every child dispatch's stage (the portfolio's status query)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			return cmdutil.RunOr(cmd, opts, runF, portfolioStatusRun)
		},
	}
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, "print the PortfolioStatus as JSON")
	return cmd
}

func portfolioStatusRun(ctx context.Context, opts *portfolioStatusOptions) error {
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := workflows.QueryPortfolioStatus(ctx, c, opts.ID)
	if err != nil {
		return err
	}
	return printStatusOr(opts.io, opts.JSON, st)
}

type portfolioReviewOptions struct {
	io        *cmdutil.IOStreams
	temporal  *temporalConfig
	ID        string
	Decision  string
	Schedules []string
	Feedback  string
	JSON      bool
}

func newPortfolioReviewCmd(f *Factory, runF func(context.Context, *portfolioReviewOptions) error) *cobra.Command {
	opts := &portfolioReviewOptions{io: f.IOStreams, temporal: f.Temporal}
	cmd := &cobra.Command{
		Use:   "review PORTFOLIO-ID accept|reject|redo|back|cancel [--schedule S]... [--feedback TEXT]",
		Short: "Decide the proposals awaiting review: all, or the --schedule ones",
		Long: "The decision goes to the portfolio, which forwards it to each child dispatch (one\n" +
			"audit point: the portfolio's history holds every decision). Under fail_fast an accept\n" +
			"is held until every schedule still open is accepted, then all commit together.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID, opts.Decision = args[0], args[1]
			switch opts.Decision {
			case workflows.DecisionAccept, workflows.DecisionReject, workflows.DecisionRedo, workflows.DecisionBack, workflows.DecisionCancel:
			default:
				return usagef("portfolio review: %q: want accept, reject, redo, back or cancel", opts.Decision)
			}
			if opts.Feedback != "" && opts.Decision != workflows.DecisionReject {
				return usagef("portfolio review: --feedback goes with reject")
			}
			return cmdutil.RunOr(cmd, opts, runF, portfolioReviewRun)
		},
	}
	cmd.Flags().StringSliceVar(&opts.Schedules, "schedule", nil, "decide only these schedules (repeatable or a,b; default: every one awaiting review)")
	cmd.Flags().StringVar(&opts.Feedback, "feedback", "", "with reject: plan another round with this feedback")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, "print the PortfolioStatus after the review as JSON")
	return cmd
}

func portfolioReviewRun(ctx context.Context, opts *portfolioReviewOptions) error {
	r := workflows.PortfolioReview{Reviewer: opts.temporal.who()}
	if len(opts.Schedules) == 0 {
		r.Decisions = []workflows.ScheduleDecision{{Decision: opts.Decision, Feedback: opts.Feedback}}
	}
	for _, s := range opts.Schedules {
		r.Decisions = append(r.Decisions, workflows.ScheduleDecision{ScheduleID: s, Decision: opts.Decision, Feedback: opts.Feedback})
	}
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := workflows.ReviewPortfolio(ctx, c, opts.ID, r)
	if err != nil {
		return err
	}
	return printStatusOr(opts.io, opts.JSON, st)
}

// printStatusOr prints a portfolio's status as JSON or as text.
func printStatusOr(io *cmdutil.IOStreams, asJSON bool, st workflows.PortfolioStatus) error {
	if asJSON {
		return cmdutil.WriteJSON(io.Out, st)
	}
	printStatus(io, st)
	return nil
}

func withPortfolios(ctx context.Context, stores *config.Stores, fn func(store.PortfolioStore) error) error {
	c, err := stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	ps, err := c.Portfolios()
	if err != nil {
		return err
	}
	return fn(ps)
}

func readPortfolio(ctx context.Context, stores *config.Stores, name string) (store.Portfolio, error) {
	var pf store.Portfolio
	err := withPortfolios(ctx, stores, func(ps store.PortfolioStore) error {
		var err error
		pf, err = ps.Portfolio(ctx, name)
		if errors.Is(err, store.ErrPortfolioNotFound) {
			return fmt.Errorf("no portfolio %q (store one with `autoscheduler portfolio set %s a,b,c`)", name, name)
		}
		return err
	})
	return pf, err
}

func printStatus(io *cmdutil.IOStreams, st workflows.PortfolioStatus) {
	line := fmt.Sprintf("%s: %s (%s, %s)", st.ID, st.Stage, st.Mode, st.Strategy)
	if st.Result != "" {
		line += ": " + st.Result
	}
	fmt.Fprintln(io.Out, line)
	writeChildren(io, st.Children)
}
