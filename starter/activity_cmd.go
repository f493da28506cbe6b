package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// newActivityCmd is `autoscheduler activity`: direct edits of one
// activity, each an EditWorkflow.
func newActivityCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "activity", Short: "List, show, add, delete or dissolve activities directly"}
	fl := bindEditFlags(cmd, `print JSON: list {"activities": [...]}, show {"activity", "predecessors", "successors"}, add/delete/dissolve {"edit", "applied": [ops]}`)
	cmd.AddCommand(
		newActivityAddCmd(f, fl, nil),
		newActivityListCmd(f, fl, nil),
		newActivityShowCmd(f, fl, nil),
		newActivityRefCmd(f, fl, "delete", "Delete an activity and its relationships", schedule.RemoveActivity, nil),
		newActivityRefCmd(f, fl, "dissolve", "Remove an activity, linking its predecessors to its successors", schedule.DissolveActivity, nil),
	)
	return cmd
}

type activityAddOptions struct {
	editEnv
	Activity schedule.Activity
}

func newActivityAddCmd(f *Factory, fl *editFlags, runF func(context.Context, *activityAddOptions) error) *cobra.Command {
	opts := &activityAddOptions{editEnv: newEditEnv(f)}
	a := &opts.Activity
	cmd := &cobra.Command{
		Use:     "add --name NAME --duration DAYS [--description TEXT] [--id ID]",
		Short:   "Add an activity",
		Example: `  autoscheduler activity add -s building --name "Scaffold inspection Level 2" --duration 1`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := fl.into(&opts.editEnv); err != nil {
				return err
			}
			if a.Name == "" || a.Duration == "" {
				return usagef("activity add: --name and --duration are required")
			}
			if _, err := schedule.ParseDuration(a.Duration); err != nil {
				return usagef("activity add: %v", err)
			}
			return cmdutil.RunOr(cmd, opts, runF, activityAddRun)
		},
	}
	cmd.Flags().StringVar(&a.Name, "name", "", "activity name")
	cmd.Flags().StringVar(&a.Duration, "duration", "", `working days: "5", "2.5" or a distribution like "pert(3,5,9)"`)
	cmd.Flags().StringVar(&a.Description, "description", "", "what is done, where, by which trade")
	cmd.Flags().StringVar(&a.ID, "id", "", "activity id (default: the next in the schedule's own numbering, e.g. A148)")
	return cmd
}

func activityAddRun(ctx context.Context, opts *activityAddOptions) error {
	a := opts.Activity
	if a.ID == "" {
		// The next id in the schedule's own pattern (A148); a UUID only
		// when its ids follow none.
		s, err := opts.load(ctx)
		if err != nil {
			return err
		}
		id, ok := schedule.NextActivityID(s, "")
		if !ok {
			id = schedule.DerivedID("cli-activity", opts.Schedule, a.Name, fmt.Sprint(time.Now().UnixNano()))
		}
		a.ID = id
	}
	return opts.edit(ctx, schedule.AddActivity(a))
}

// activityRefOptions are delete and dissolve: an op on one activity.
type activityRefOptions struct {
	editEnv
	Ref string
	Op  func(id string) schedule.Op
}

func newActivityRefCmd(f *Factory, fl *editFlags, use, short string, op func(id string) schedule.Op, runF func(context.Context, *activityRefOptions) error) *cobra.Command {
	opts := &activityRefOptions{editEnv: newEditEnv(f), Op: op}
	return &cobra.Command{
		Use: use + " ID|NAME", Short: short, Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := fl.into(&opts.editEnv); err != nil {
				return err
			}
			opts.Ref = args[0]
			return cmdutil.RunOr(cmd, opts, runF, activityRefRun)
		},
	}
}

func activityRefRun(ctx context.Context, opts *activityRefOptions) error {
	return opts.editRef(ctx, opts.Ref, opts.Op)
}

type activityListOptions struct{ editEnv }

func newActivityListCmd(f *Factory, fl *editFlags, runF func(context.Context, *activityListOptions) error) *cobra.Command {
	opts := &activityListOptions{editEnv: newEditEnv(f)}
	return &cobra.Command{
		Use: "list", Short: "List activities", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := fl.into(&opts.editEnv); err != nil {
				return err
			}
			return cmdutil.RunOr(cmd, opts, runF, activityListRun)
		},
	}
}

func activityListRun(ctx context.Context, opts *activityListOptions) error {
	s, err := opts.load(ctx)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, map[string][]schedule.Activity{"activities": cmdutil.NonNil(s.Activities)})
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tDURATION\tNAME")
	for _, a := range s.Activities {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", a.ID, a.Duration, a.Name)
	}
	return tw.Flush()
}

type activityShowOptions struct {
	editEnv
	Ref string
}

func newActivityShowCmd(f *Factory, fl *editFlags, runF func(context.Context, *activityShowOptions) error) *cobra.Command {
	opts := &activityShowOptions{editEnv: newEditEnv(f)}
	return &cobra.Command{
		Use: "show ID|NAME", Short: "Show an activity and its logic", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := fl.into(&opts.editEnv); err != nil {
				return err
			}
			opts.Ref = args[0]
			return cmdutil.RunOr(cmd, opts, runF, activityShowRun)
		},
	}
}

// liveLines are what a live programme holds of an activity beyond its
// logic, one "field: value" line each, none for a plain activity.
func liveLines(s *schedule.Schedule, a schedule.Activity) []string {
	var lines []string
	add := func(field, v string) {
		if v != "" {
			lines = append(lines, field+": "+v)
		}
	}
	add("type", strings.ReplaceAll(string(a.Type), "_", " "))
	if a.Calendar != "" {
		name := a.Calendar
		if c := s.Calendars[a.Calendar]; c != nil && c.Name != "" {
			name = fmt.Sprintf("%s (%s)", c.Name, a.Calendar)
		}
		add("calendar", name)
	}
	for _, c := range []*schedule.Constraint{a.Constraint, a.SecondaryConstraint} {
		if c != nil {
			add("constraint", c.String())
		}
	}
	add("actual start", a.ActualStart)
	add("actual finish", a.ActualFinish)
	add("remaining", a.Remaining)
	if a.PercentComplete != 0 {
		add("complete", strconv.FormatFloat(a.PercentComplete, 'f', -1, 64)+"%")
	}
	if a.Manual {
		add("manually scheduled", a.Start+" to "+a.Finish)
	}
	add("WBS", a.WBS)
	for _, k := range slices.Sorted(maps.Keys(a.Codes)) {
		add("code "+k, a.Codes[k])
	}
	for _, as := range a.Assignments {
		if as.NonDriving {
			add("resource", as.Resource+" (assigned; does not drive the dates)")
			continue
		}
		units := ""
		if as.Units != 0 && as.Units != 1 {
			units = fmt.Sprintf(" at %s%%", strconv.FormatFloat(as.Units*100, 'f', -1, 64))
		}
		add("resource", fmt.Sprintf("%s, %s days of work%s", as.Resource, as.Work, units))
	}
	return lines
}

func activityShowRun(ctx context.Context, opts *activityShowOptions) error {
	s, err := opts.load(ctx)
	if err != nil {
		return err
	}
	a, err := cmdutil.ResolveActivity(s, opts.Ref)
	if err != nil {
		return err
	}
	out := opts.io.Out
	if opts.JSON {
		var before, after []schedule.Relationship
		for _, r := range s.Relationships {
			if r.Successor == a.ID {
				before = append(before, r)
			}
			if r.Predecessor == a.ID {
				after = append(after, r)
			}
		}
		return cmdutil.WriteJSON(out, map[string]any{"activity": a, "predecessors": cmdutil.NonNil(before), "successors": cmdutil.NonNil(after)})
	}
	fmt.Fprintf(out, "%s  %s\n  duration: %s working days\n", a.ID, a.Name, a.Duration)
	for _, line := range liveLines(s, a) {
		fmt.Fprintf(out, "  %s\n", line)
	}
	if a.Description != "" {
		fmt.Fprintf(out, "  %s\n", a.Description)
	}
	printLinks(out, s, func(r schedule.Relationship) bool { return r.Successor == a.ID }, "after")
	printLinks(out, s, func(r schedule.Relationship) bool { return r.Predecessor == a.ID }, "before")
	return nil
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
