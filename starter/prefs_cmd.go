package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// prefsOutput is `prefs show|set --json`: the preferences as stored, and
// for set what it saved and could not read.
type prefsOutput struct {
	Schedule    string            `json:"schedule"`
	Preferences prefs.Preferences `json:"preferences"`
	Saved       []string          `json:"saved,omitempty"`
	Notes       []string          `json:"notes,omitempty"`
}

func newPrefsCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "prefs show|set --schedule ID",
		Short: "Show or set a schedule's planning preferences (default links, durations, naming, trades)",
		Long: "A schedule's planning preferences, kept with the schedule in both stores and used by the planners:\n" +
			"  link[:KIND]      default type and lag of new links without one (FS, FS+1, SS with 2 days lag);\n" +
			"                   with :KIND only for links into new activities of that kind (link:inspection=FS+1)\n" +
			"  lag[:KIND]       the default lag alone, in working days\n" +
			"  duration[:KIND]  default duration of new activities (3, 2 weeks, triangular(1,2,4))\n" +
			"  naming           names of new activities: {Trade} and {level}, or <Trade> and <n> (\"<Trade> Level <n>\")\n" +
			"  trades           the trade vocabulary, with synonyms: drywall=gypsum board|plasterboard, concrete\n" +
			"  trade            trades added to the vocabulary, same form\n" +
			"A value of none removes a preference. A reviewer's feedback saves them too: \"remember: use FS+1 for new inspections\".",
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newPrefsShowCmd(f, nil), newPrefsSetCmd(f, nil))
	return cmd
}

type prefsShowOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	Schedule string
	JSON     bool
}

func newPrefsShowCmd(f *Factory, runF func(context.Context, *prefsShowOptions) error) *cobra.Command {
	opts := &prefsShowOptions{io: f.IOStreams, stores: f.Stores}
	cmd := &cobra.Command{
		Use:     "show --schedule ID [--json]",
		Short:   "Print a schedule's planning preferences",
		Example: `  autoscheduler prefs show --schedule building`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Schedule == "" {
				return usagef("prefs show: --schedule is required")
			}
			return cmdutil.RunOr(cmd, opts, runF, prefsShowRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print JSON: {"schedule", "preferences": {"links", "durations", "naming", "trades"}}`)
	return cmd
}

func prefsShowRun(ctx context.Context, opts *prefsShowOptions) error {
	c, p, err := openPrefs(ctx, opts.stores, opts.Schedule)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	if v, ok, err := c.VectorPreferences(ctx, opts.Schedule); err == nil && ok && !prefs.Equal(v, p) {
		fmt.Fprintln(opts.io.ErrOut, "warning: the vector store's copy of these preferences differs (a write cut short): `prefs set` with any key rewrites both")
	}
	return printPrefs(opts.io, prefsOutput{Schedule: opts.Schedule, Preferences: p}, opts.JSON)
}

type prefsSetOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	Schedule string
	// Args are the key=value arguments.
	Args     []string
	Remember string
	JSON     bool
}

func newPrefsSetCmd(f *Factory, runF func(context.Context, *prefsSetOptions) error) *cobra.Command {
	opts := &prefsSetOptions{io: f.IOStreams, stores: f.Stores}
	cmd := &cobra.Command{
		Use:   "set --schedule ID key=value [key=value ...] [--remember TEXT] [--json]",
		Short: "Set a schedule's planning preferences",
		Example: `  autoscheduler prefs set --schedule building link=FS+1 duration=3
  autoscheduler prefs set --schedule building link:inspection=FS+1 naming="<Trade> Level <n>"
  autoscheduler prefs set --schedule building trades="drywall=gypsum board|plasterboard, concrete"
  autoscheduler prefs set --schedule building --remember "use FS+1 for new inspections"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			if opts.Schedule == "" {
				return usagef("prefs set: --schedule is required")
			}
			if len(args) == 0 && strings.TrimSpace(opts.Remember) == "" {
				return usagef("prefs set: nothing to set: give key=value arguments (keys: %s) or --remember TEXT", prefs.Keys)
			}
			if err := usertext.Line("--remember", opts.Remember, usertext.MaxDescription); err != nil {
				return usagef("prefs set: %v", err)
			}
			// Every argument is checked before anything is stored.
			var check prefs.Preferences
			for _, a := range args {
				if err := prefs.SetArg(&check, a); err != nil {
					return usagef("prefs set: %v", err)
				}
			}
			return cmdutil.RunOr(cmd, opts, runF, prefsSetRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id")
	cmd.Flags().StringVar(&opts.Remember, "remember", "", `a preference in words, as a reviewer writes it: "use FS+1 for new inspections"`)
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print JSON: {"schedule", "preferences", "saved", "notes"}`)
	return cmd
}

func prefsSetRun(ctx context.Context, opts *prefsSetOptions) error {
	out := prefsOutput{Schedule: opts.Schedule}
	var stmts []prefs.Statement
	if strings.TrimSpace(opts.Remember) != "" {
		var rest string
		stmts, rest, out.Notes = prefs.Remember(opts.Remember)
		if len(stmts) == 0 && len(out.Notes) == 0 {
			// --remember says it is a preference: read it as one.
			stmts, rest, out.Notes = prefs.Remember("remember: " + opts.Remember)
		}
		if rest != "" {
			out.Notes = append(out.Notes, fmt.Sprintf("%q: not a preference, nothing saved: %s", rest, prefs.RememberHint))
		}
		if len(stmts) == 0 {
			return fmt.Errorf("prefs set --remember: nothing saved: %s", strings.Join(out.Notes, "; "))
		}
	}
	c, p, err := openPrefs(ctx, opts.stores, opts.Schedule)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	for _, a := range opts.Args {
		if err := prefs.SetArg(&p, a); err != nil {
			return usagef("prefs set: %v", err)
		}
	}
	if err := prefs.Apply(&p, stmts); err != nil {
		return err
	}
	// Written even when unchanged, so both stores hold them again.
	if err := c.SetPreferences(ctx, opts.Schedule, p); err != nil {
		return prefsError(opts.Schedule, err)
	}
	out.Preferences = p
	for _, st := range stmts {
		out.Saved = append(out.Saved, st.Summary)
	}
	if !opts.JSON {
		for _, s := range out.Saved {
			fmt.Fprintf(opts.io.ErrOut, "saved: %s\n", usertext.Terminal(s))
		}
		for _, n := range out.Notes {
			fmt.Fprintf(opts.io.ErrOut, "note: %s\n", usertext.Terminal(n))
		}
	}
	return printPrefs(opts.io, out, opts.JSON)
}

// openPrefs opens the stores and reads a schedule's preferences; the
// caller closes c.
func openPrefs(ctx context.Context, stores *config.Stores, scheduleID string) (*store.Coordinator, prefs.Preferences, error) {
	c, err := stores.Open(ctx)
	if err != nil {
		return nil, prefs.Preferences{}, err
	}
	p, err := c.Preferences(ctx, scheduleID)
	if err != nil {
		c.Close(ctx)
		return nil, prefs.Preferences{}, prefsError(scheduleID, err)
	}
	return c, p, nil
}

// prefsError says plainly that a schedule is not stored.
func prefsError(scheduleID string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no schedule %q is stored: import it first (autoscheduler import FILE --schedule %s)", scheduleID, scheduleID)
	}
	return err
}

// printPrefs prints the preferences as a table, control characters in
// what is stored (preferences saved before values were checked) escaped;
// --json prints them as stored (JSON escapes control characters).
func printPrefs(io *cmdutil.IOStreams, out prefsOutput, asJSON bool) error {
	if asJSON {
		return cmdutil.WriteJSON(io.Out, out)
	}
	_, err := fmt.Fprint(io.Out, usertext.TerminalText(out.Preferences.String()))
	return err
}
