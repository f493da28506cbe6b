package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// editEnv is what the direct-edit commands share: the stores to read the
// schedule from and Temporal to run the EditWorkflow on, so every change is
// an execution in the Web UI and lands in both stores' ledgers.
type editEnv struct {
	io       *streams
	stores   *config.Stores
	temporal *temporalConfig
	// JSON is --json: the commands print JSON instead of text.
	JSON bool
}

// jsonFlag binds --json on cmd and its subcommands.
func (e *editEnv) jsonFlag(cmd *cobra.Command, what string) {
	cmd.PersistentFlags().BoolVar(&e.JSON, "json", false, "print JSON: "+what)
}

// load reads the stored schedule.
func (e *editEnv) load(ctx context.Context, scheduleID string) (*schedule.Schedule, error) {
	return loadStoredSchedule(ctx, e.stores, scheduleID)
}

// edit runs ops through an EditWorkflow and prints what was applied.
func (e *editEnv) edit(ctx context.Context, scheduleID string, ops ...schedule.Op) error {
	c, err := e.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	id, res, err := workflows.Edit(ctx, c, scheduleID, e.temporal.who(), ops)
	if err != nil {
		return err
	}
	if e.JSON {
		applied := res.Applied
		if applied == nil {
			applied = []schedule.Op{}
		}
		return writeJSON(e.io.Out, map[string]any{"edit": id, "applied": applied})
	}
	for _, op := range res.Applied {
		fmt.Fprintln(e.io.Out, op.Call)
	}
	return nil
}

// editRef runs op on the activity ref names (an id or a name).
func (e *editEnv) editRef(ctx context.Context, scheduleID, ref string, op func(id string) schedule.Op) error {
	s, err := e.load(ctx, scheduleID)
	if err != nil {
		return err
	}
	target, err := resolve(s, ref)
	if err != nil {
		return err
	}
	return e.edit(ctx, scheduleID, op(target.ID))
}

// resolve finds one activity by id or by name (case-insensitive); an
// ambiguous name is an error listing the candidates, never a guess.
func resolve(s *schedule.Schedule, ref string) (schedule.Activity, error) {
	if a, ok := s.Activity(ref); ok {
		return a, nil
	}
	var found []schedule.Activity
	for _, a := range s.Activities {
		if strings.EqualFold(a.Name, ref) {
			found = append(found, a)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return schedule.Activity{}, fmt.Errorf("no activity with id or name %q", ref)
	}
	ids := make([]string, len(found))
	for i, a := range found {
		ids[i] = a.ID
	}
	return schedule.Activity{}, fmt.Errorf("%d activities are named %q (%s): give an id", len(found), ref, strings.Join(ids, ", "))
}

func newActivityCmd(env *editEnv) *cobra.Command {
	var scheduleID string
	cmd := &cobra.Command{Use: "activity", Short: "List, show, add, delete or dissolve activities directly"}
	cmd.PersistentFlags().StringVarP(&scheduleID, "schedule", "s", "", "stored schedule id")
	env.jsonFlag(cmd, `list {"activities": [...]}, show {"activity", "predecessors", "successors"}, add/delete/dissolve {"edit", "applied": [ops]}`)
	need := func() error {
		if scheduleID == "" {
			return usagef("activity: --schedule is required")
		}
		return nil
	}

	var a schedule.Activity
	add := &cobra.Command{
		Use:     "add --name NAME --duration DAYS [--description TEXT] [--id ID]",
		Short:   "Add an activity",
		Example: `  autoscheduler activity add -s building --name "Scaffold inspection Level 2" --duration 1`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := need(); err != nil {
				return err
			}
			if a.Name == "" || a.Duration == "" {
				return usagef("activity add: --name and --duration are required")
			}
			if _, err := schedule.ParseDuration(a.Duration); err != nil {
				return usagef("activity add: %v", err)
			}
			if a.ID == "" {
				a.ID = schedule.DerivedID("cli-activity", scheduleID, a.Name, fmt.Sprint(time.Now().UnixNano()))
			}
			return env.edit(cmd.Context(), scheduleID, schedule.AddActivity(a))
		},
	}
	add.Flags().StringVar(&a.Name, "name", "", "activity name")
	add.Flags().StringVar(&a.Duration, "duration", "", `working days: "5", "2.5" or a distribution like "pert(3,5,9)"`)
	add.Flags().StringVar(&a.Description, "description", "", "what is done, where, by which trade")
	add.Flags().StringVar(&a.ID, "id", "", "activity id (default: a new UUID)")

	byRef := func(use, short string, op func(id string) schedule.Op) *cobra.Command {
		return &cobra.Command{
			Use: use + " ID|NAME", Short: short, Args: cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				if err := need(); err != nil {
					return err
				}
				return env.editRef(cmd.Context(), scheduleID, args[0], op)
			},
		}
	}
	list := &cobra.Command{
		Use: "list", Short: "List activities", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := need(); err != nil {
				return err
			}
			s, err := env.load(cmd.Context(), scheduleID)
			if err != nil {
				return err
			}
			if env.JSON {
				return writeJSON(env.io.Out, map[string][]schedule.Activity{"activities": nonNil(s.Activities)})
			}
			tw := tabwriter.NewWriter(env.io.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tDURATION\tNAME")
			for _, a := range s.Activities {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", a.ID, a.Duration, a.Name)
			}
			return tw.Flush()
		},
	}
	show := &cobra.Command{
		Use: "show ID|NAME", Short: "Show an activity and its logic", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := need(); err != nil {
				return err
			}
			s, err := env.load(cmd.Context(), scheduleID)
			if err != nil {
				return err
			}
			a, err := resolve(s, args[0])
			if err != nil {
				return err
			}
			if env.JSON {
				var before, after []schedule.Relationship
				for _, r := range s.Relationships {
					if r.Successor == a.ID {
						before = append(before, r)
					}
					if r.Predecessor == a.ID {
						after = append(after, r)
					}
				}
				return writeJSON(env.io.Out, map[string]any{"activity": a, "predecessors": nonNil(before), "successors": nonNil(after)})
			}
			fmt.Fprintf(env.io.Out, "%s  %s\n  duration: %s working days\n", a.ID, a.Name, a.Duration)
			if a.Description != "" {
				fmt.Fprintf(env.io.Out, "  %s\n", a.Description)
			}
			printLinks(env.io.Out, s, func(r schedule.Relationship) bool { return r.Successor == a.ID }, "after")
			printLinks(env.io.Out, s, func(r schedule.Relationship) bool { return r.Predecessor == a.ID }, "before")
			return nil
		},
	}
	cmd.AddCommand(add, list, show,
		byRef("delete", "Delete an activity and its relationships", schedule.RemoveActivity),
		byRef("dissolve", "Remove an activity, linking its predecessors to its successors", schedule.DissolveActivity))
	return cmd
}

// printLinks lists an activity's relationships on one side.
func printLinks(w io.Writer, s *schedule.Schedule, match func(schedule.Relationship) bool, side string) {
	for _, r := range s.Relationships {
		if !match(r) {
			continue
		}
		other := r.Predecessor
		if side == "before" {
			other = r.Successor
		}
		o, _ := s.Activity(other)
		fmt.Fprintf(w, "  %s %s %q (%s, lag %s) [%s]\n", side, other, o.Name, r.Type, fmt.Sprint(r.Lag), r.ID)
	}
}

func newRelationshipCmd(env *editEnv) *cobra.Command {
	var scheduleID string
	cmd := &cobra.Command{Use: "relationship", Short: "List, add or delete relationships directly"}
	cmd.PersistentFlags().StringVarP(&scheduleID, "schedule", "s", "", "stored schedule id")
	env.jsonFlag(cmd, `list {"relationships": [...]}, add/delete {"edit", "applied": [ops]}`)
	need := func() error {
		if scheduleID == "" {
			return usagef("relationship: --schedule is required")
		}
		return nil
	}
	var from, to, typ, id string
	var lag float64
	add := &cobra.Command{
		Use:     "add --from ID|NAME --to ID|NAME [--type FS] [--lag DAYS]",
		Short:   "Add a relationship (FS, SS, FF or SF, lag in working days, may be negative)",
		Example: `  autoscheduler relationship add -s building --from "Pour slab Level 1" --to "Walls Level 1" --type SS --lag 2`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := need(); err != nil {
				return err
			}
			t, err := schedule.ParseRelType(typ)
			if err != nil {
				return usagef("relationship add: %v", err)
			}
			if from == "" || to == "" {
				return usagef("relationship add: --from and --to are required")
			}
			s, err := env.load(cmd.Context(), scheduleID)
			if err != nil {
				return err
			}
			p, err := resolve(s, from)
			if err != nil {
				return err
			}
			q, err := resolve(s, to)
			if err != nil {
				return err
			}
			if id == "" {
				id = schedule.DerivedID("cli-relationship", scheduleID, p.ID, q.ID, string(t), fmt.Sprint(time.Now().UnixNano()))
			}
			return env.edit(cmd.Context(), scheduleID, schedule.AddRelationship(schedule.Relationship{ID: id, Type: t, Predecessor: p.ID, Successor: q.ID, Lag: lag}))
		},
	}
	add.Flags().StringVar(&from, "from", "", "predecessor")
	add.Flags().StringVar(&to, "to", "", "successor")
	add.Flags().StringVar(&typ, "type", "FS", "FS, SS, FF or SF")
	add.Flags().Float64Var(&lag, "lag", 0, "lag in working days (negative: a lead)")
	add.Flags().StringVar(&id, "id", "", "relationship id (default: a new UUID)")
	del := &cobra.Command{
		Use: "delete ID", Short: "Delete a relationship", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := need(); err != nil {
				return err
			}
			return env.edit(cmd.Context(), scheduleID, schedule.RemoveRelationship(args[0]))
		},
	}
	list := &cobra.Command{
		Use: "list", Short: "List relationships", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := need(); err != nil {
				return err
			}
			s, err := env.load(cmd.Context(), scheduleID)
			if err != nil {
				return err
			}
			if env.JSON {
				return writeJSON(env.io.Out, map[string][]schedule.Relationship{"relationships": nonNil(s.Relationships)})
			}
			tw := tabwriter.NewWriter(env.io.Out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTYPE\tLAG\tPREDECESSOR\tSUCCESSOR")
			for _, r := range s.Relationships {
				p, _ := s.Activity(r.Predecessor)
				q, _ := s.Activity(r.Successor)
				fmt.Fprintf(tw, "%s\t%s\t%g\t%s\t%s\n", r.ID, r.Type, r.Lag, p.Name, q.Name)
			}
			return tw.Flush()
		},
	}
	cmd.AddCommand(add, del, list)
	return cmd
}

// nonNil is xs, or an empty slice for JSON's [] instead of null.
func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
