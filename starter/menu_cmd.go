package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// menuItems is the seed design's CLI loop, in its order.
var menuItems = []string{
	"Add activity", "Delete activity", "Add relationship", "Delete relationship",
	"Dissolve activity", "Open prompt", "Run schedule", "Quit",
}

type menuOptions struct{ editEnv }

func newMenuCmd(f *Factory, runF func(context.Context, *menuOptions) error) *cobra.Command {
	opts := &menuOptions{editEnv: newEditEnv(f)}
	cmd := &cobra.Command{
		Use:   "menu --schedule ID",
		Short: "The interactive loop: add, delete, dissolve, link, prompt, schedule",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Schedule == "" {
				return usagef("menu: --schedule is required")
			}
			return cmdutil.RunOr(cmd, opts, runF, menuRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id")
	return cmd
}

func menuRun(ctx context.Context, opts *menuOptions) error {
	env := &opts.editEnv
	in := bufio.NewReader(env.io.In)
	ask := func(question string) (string, error) {
		fmt.Fprintf(env.io.ErrOut, "%s: ", question)
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return "", err
		}
		return strings.TrimSpace(line), nil
	}
	for {
		fmt.Fprintln(env.io.ErrOut)
		for i, item := range menuItems {
			fmt.Fprintf(env.io.ErrOut, "  %d. %s\n", i+1, item)
		}
		choice, err := ask("Choose")
		if err != nil {
			return nil // end of input: leave quietly
		}
		n, _ := strconv.Atoi(choice)
		if n == len(menuItems) || strings.EqualFold(choice, "quit") || strings.EqualFold(choice, "q") {
			return nil
		}
		if err := menuAction(ctx, env, n, ask, in); err != nil {
			fmt.Fprintf(env.io.ErrOut, "error: %v\n", err)
		}
	}
}

func menuAction(ctx context.Context, env *editEnv, n int, ask func(string) (string, error), in *bufio.Reader) error {
	answers := func(questions ...string) ([]string, error) {
		out := make([]string, len(questions))
		for i, q := range questions {
			a, err := ask(q)
			if err != nil {
				return nil, err
			}
			out[i] = a
		}
		return out, nil
	}
	byRef := func(op func(string) schedule.Op) error {
		a, err := answers("Activity (id or name)")
		if err != nil {
			return err
		}
		return env.editRef(ctx, a[0], op)
	}
	switch n {
	case 1:
		a, err := answers("Name", "Duration (working days)", "Description")
		if err != nil {
			return err
		}
		if _, err := schedule.ParseDuration(a[1]); err != nil {
			return err
		}
		id := schedule.DerivedID("menu-activity", env.Schedule, a[0], a[1], a[2])
		return env.edit(ctx, schedule.AddActivity(schedule.Activity{ID: id, Name: a[0], Duration: a[1], Description: a[2]}))
	case 2:
		return byRef(schedule.RemoveActivity)
	case 3:
		a, err := answers("Predecessor (id or name)", "Successor (id or name)", "Type (FS, SS, FF, SF)", "Lag (working days)")
		if err != nil {
			return err
		}
		t, err := schedule.ParseRelType(a[2])
		if err != nil {
			return err
		}
		lag := 0.0
		if a[3] != "" {
			if lag, err = strconv.ParseFloat(a[3], 64); err != nil {
				return fmt.Errorf("lag %q is not a number of working days", a[3])
			}
		}
		s, err := env.load(ctx)
		if err != nil {
			return err
		}
		p, err := cmdutil.ResolveActivity(s, a[0])
		if err != nil {
			return err
		}
		q, err := cmdutil.ResolveActivity(s, a[1])
		if err != nil {
			return err
		}
		id := schedule.DerivedID("menu-relationship", env.Schedule, p.ID, q.ID, string(t))
		return env.edit(ctx, schedule.AddRelationship(schedule.Relationship{ID: id, Type: t, Predecessor: p.ID, Successor: q.ID, Lag: lag}))
	case 4:
		a, err := answers("Relationship id")
		if err != nil {
			return err
		}
		return env.edit(ctx, schedule.RemoveRelationship(a[0]))
	case 5:
		return byRef(schedule.DissolveActivity)
	case 6:
		a, err := answers("Prompt")
		if err != nil {
			return err
		}
		// The review questions read from the menu's own input.
		return promptRun(ctx, &promptOptions{io: env.io, temporal: env.temporal, stores: env.stores, Prompt: a[0], Schedule: env.Schedule,
			Rounds: workflows.DefaultMaxRounds, Timeout: workflows.DefaultReviewTimeout, in: in})
	case 7:
		return scheduleTable(ctx, env.io.Out, env.stores, env.Schedule)
	}
	return errors.New("choose a number from the menu")
}
