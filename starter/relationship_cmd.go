package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// newRelationshipCmd is `autoscheduler relationship`: direct edits of the
// logic, each an EditWorkflow.
func newRelationshipCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "relationship", Short: "List, add or delete relationships directly"}
	fl := bindEditFlags(cmd, `print JSON: list {"relationships": [...]}, add/delete {"edit", "applied": [ops]}`)
	cmd.AddCommand(newRelationshipAddCmd(f, fl, nil), newRelationshipDeleteCmd(f, fl, nil), newRelationshipListCmd(f, fl, nil))
	return cmd
}

type relationshipAddOptions struct {
	editEnv
	From, To, Type, ID string
	Lag                float64
}

func newRelationshipAddCmd(f *Factory, fl *editFlags, runF func(context.Context, *relationshipAddOptions) error) *cobra.Command {
	opts := &relationshipAddOptions{editEnv: newEditEnv(f)}
	cmd := &cobra.Command{
		Use:     "add --from ID|NAME --to ID|NAME [--type FS] [--lag DAYS]",
		Short:   "Add a relationship (FS, SS, FF or SF, lag in working days, may be negative)",
		Example: `  autoscheduler relationship add -s building --from "Pour slab Level 1" --to "Walls Level 1" --type SS --lag 2`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := fl.into(&opts.editEnv); err != nil {
				return err
			}
			if _, err := schedule.ParseRelType(opts.Type); err != nil {
				return usagef("relationship add: %v", err)
			}
			if opts.From == "" || opts.To == "" {
				return usagef("relationship add: --from and --to are required")
			}
			return cmdutil.RunOr(cmd, opts, runF, relationshipAddRun)
		},
	}
	cmd.Flags().StringVar(&opts.From, "from", "", "predecessor")
	cmd.Flags().StringVar(&opts.To, "to", "", "successor")
	cmd.Flags().StringVar(&opts.Type, "type", "FS", "FS, SS, FF or SF")
	cmd.Flags().Float64Var(&opts.Lag, "lag", 0, "lag in working days (negative: a lead)")
	cmd.Flags().StringVar(&opts.ID, "id", "", "relationship id (default: the next in the schedule's own numbering, e.g. R263)")
	return cmd
}

func relationshipAddRun(ctx context.Context, opts *relationshipAddOptions) error {
	t, err := schedule.ParseRelType(opts.Type)
	if err != nil {
		return usagef("relationship add: %v", err)
	}
	s, err := opts.load(ctx)
	if err != nil {
		return err
	}
	p, err := cmdutil.ResolveActivity(s, opts.From)
	if err != nil {
		return err
	}
	q, err := cmdutil.ResolveActivity(s, opts.To)
	if err != nil {
		return err
	}
	id := opts.ID
	if id == "" {
		next, ok := schedule.NextRelationshipID(s)
		if !ok {
			next = schedule.DerivedID("cli-relationship", opts.Schedule, p.ID, q.ID, string(t), fmt.Sprint(time.Now().UnixNano()))
		}
		id = next
	}
	return opts.edit(ctx, schedule.AddRelationship(schedule.Relationship{ID: id, Type: t, Predecessor: p.ID, Successor: q.ID, Lag: opts.Lag}))
}

type relationshipDeleteOptions struct {
	editEnv
	ID string
}

func newRelationshipDeleteCmd(f *Factory, fl *editFlags, runF func(context.Context, *relationshipDeleteOptions) error) *cobra.Command {
	opts := &relationshipDeleteOptions{editEnv: newEditEnv(f)}
	return &cobra.Command{
		Use: "delete ID", Short: "Delete a relationship", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := fl.into(&opts.editEnv); err != nil {
				return err
			}
			opts.ID = args[0]
			return cmdutil.RunOr(cmd, opts, runF, relationshipDeleteRun)
		},
	}
}

func relationshipDeleteRun(ctx context.Context, opts *relationshipDeleteOptions) error {
	return opts.edit(ctx, schedule.RemoveRelationship(opts.ID))
}

type relationshipListOptions struct{ editEnv }

func newRelationshipListCmd(f *Factory, fl *editFlags, runF func(context.Context, *relationshipListOptions) error) *cobra.Command {
	opts := &relationshipListOptions{editEnv: newEditEnv(f)}
	return &cobra.Command{
		Use: "list", Short: "List relationships", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := fl.into(&opts.editEnv); err != nil {
				return err
			}
			return cmdutil.RunOr(cmd, opts, runF, relationshipListRun)
		},
	}
}

func relationshipListRun(ctx context.Context, opts *relationshipListOptions) error {
	s, err := opts.load(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, map[string][]schedule.Relationship{"relationships": cmdutil.NonNil(s.Relationships)})
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTYPE\tLAG\tPREDECESSOR\tSUCCESSOR")
	for _, r := range s.Relationships {
		p, _ := s.Activity(r.Predecessor)
		q, _ := s.Activity(r.Successor)
		fmt.Fprintf(tw, "%s\t%s\t%g\t%s\t%s\n", r.ID, r.Type, r.Lag, p.Name, q.Name)
	}
	return tw.Flush()
}
