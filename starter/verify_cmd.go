package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

var errDrift = errors.New("the stores disagree")

// verifyOutput is `verify --json`.
type verifyOutput struct {
	Schedule      string   `json:"schedule"`
	Agree         bool     `json:"agree"`
	Differences   []string `json:"differences"`
	Activities    int      `json:"activities"`
	Relationships int      `json:"relationships"`
}

type verifyOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	Schedule string
	Repair   bool
	JSON     bool
}

func newVerifyCmd(f *Factory, runF func(context.Context, *verifyOptions) error) *cobra.Command {
	opts := &verifyOptions{io: f.IOStreams, stores: f.Stores}
	cmd := &cobra.Command{
		Use:   "verify --schedule ID [--repair] [--json]",
		Short: "Compare the graph and vector stores for a schedule; exit 1 on drift",
		Long: "Compare the graph and vector stores for a schedule; exit 1 on drift.\n\n" +
			"A write a dead process left half done is finished first (the graph store holds the old or the new\n" +
			"version whole; the documents are brought to match it). With --repair, a write whose process only\n" +
			"looks alive is finished too, and any drift found is mended from the graph store.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Schedule == "" {
				return usagef("verify: --schedule is required")
			}
			return cmdutil.RunOr(cmd, opts, runF, verifyRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id")
	cmd.Flags().BoolVar(&opts.Repair, "repair", false, "finish interrupted writes even if their process looks alive, and mend drift from the graph store")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print JSON: {"schedule", "agree", "differences": [...], "activities", "relationships"}`)
	return cmd
}

func verifyRun(ctx context.Context, opts *verifyOptions) error {
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	if opts.Repair {
		intents, mended, err := c.Repair(ctx, opts.Schedule)
		if err != nil {
			return err
		}
		fmt.Fprintf(opts.io.ErrOut, "repair: %d interrupted writes finished, %d differences mended\n", intents, len(mended))
	}
	drift, err := c.Verify(ctx, opts.Schedule)
	if err != nil {
		return err
	}
	out := verifyOutput{Schedule: opts.Schedule, Agree: len(drift) == 0, Differences: cmdutil.NonNil(drift)}
	if s, err := c.Load(ctx, opts.Schedule); err == nil {
		out.Activities, out.Relationships = len(s.Activities), len(s.Relationships)
	}
	switch {
	case opts.JSON:
		if err := cmdutil.WriteJSON(opts.io.Out, out); err != nil {
			return err
		}
	case out.Agree:
		fmt.Fprintf(opts.io.Out, "ok: the stores agree on %q (%d activities, %d relationships)\n", opts.Schedule, out.Activities, out.Relationships)
	default:
		for _, line := range drift {
			fmt.Fprintln(opts.io.Out, line)
		}
	}
	if !out.Agree {
		return fmt.Errorf("%w: %d differences in schedule %q", errDrift, len(drift), opts.Schedule)
	}
	return nil
}
