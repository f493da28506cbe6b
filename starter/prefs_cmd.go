package main

import (
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

func newPrefsCmd(io *streams, stores *config.Stores) *cobra.Command {
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
	cmd.AddCommand(newPrefsShowCmd(io, stores), newPrefsSetCmd(io, stores))
	return cmd
}

func newPrefsShowCmd(io *streams, stores *config.Stores) *cobra.Command {
	var scheduleID string
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "show --schedule ID [--json]",
		Short:   "Print a schedule's planning preferences",
		Example: `  autoscheduler prefs show --schedule building`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if scheduleID == "" {
				return usagef("prefs show: --schedule is required")
			}
			ctx := cmd.Context()
			c, err := stores.Open(ctx)
			if err != nil {
				return err
			}
			defer c.Close(ctx)
			p, err := c.Preferences(ctx, scheduleID)
			if err != nil {
				return prefsError(scheduleID, err)
			}
			if v, ok, err := c.VectorPreferences(ctx, scheduleID); err == nil && ok && !prefs.Equal(v, p) {
				fmt.Fprintln(io.ErrOut, "warning: the vector store's copy of these preferences differs (a write cut short): `prefs set` with any key rewrites both")
			}
			return printPrefs(io, prefsOutput{Schedule: scheduleID, Preferences: p}, asJSON)
		},
	}
	cmd.Flags().StringVarP(&scheduleID, "schedule", "s", "", "stored schedule id")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print JSON: {"schedule", "preferences": {"links", "durations", "naming", "trades"}}`)
	return cmd
}

func newPrefsSetCmd(io *streams, stores *config.Stores) *cobra.Command {
	var scheduleID, remember string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "set --schedule ID key=value [key=value ...] [--remember TEXT] [--json]",
		Short: "Set a schedule's planning preferences",
		Example: `  autoscheduler prefs set --schedule building link=FS+1 duration=3
  autoscheduler prefs set --schedule building link:inspection=FS+1 naming="<Trade> Level <n>"
  autoscheduler prefs set --schedule building trades="drywall=gypsum board|plasterboard, concrete"
  autoscheduler prefs set --schedule building --remember "use FS+1 for new inspections"`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if scheduleID == "" {
				return usagef("prefs set: --schedule is required")
			}
			if len(args) == 0 && strings.TrimSpace(remember) == "" {
				return usagef("prefs set: nothing to set: give key=value arguments (keys: %s) or --remember TEXT", prefs.Keys)
			}
			if err := usertext.Line("--remember", remember, usertext.MaxDescription); err != nil {
				return usagef("prefs set: %v", err)
			}
			// Every argument is checked before anything is stored.
			var check prefs.Preferences
			for _, a := range args {
				if err := prefs.SetArg(&check, a); err != nil {
					return usagef("prefs set: %v", err)
				}
			}
			out := prefsOutput{Schedule: scheduleID}
			var stmts []prefs.Statement
			if strings.TrimSpace(remember) != "" {
				var rest string
				stmts, rest, out.Notes = prefs.Remember(remember)
				if len(stmts) == 0 && len(out.Notes) == 0 {
					// --remember says it is a preference: read it as one.
					stmts, rest, out.Notes = prefs.Remember("remember: " + remember)
				}
				if rest != "" {
					out.Notes = append(out.Notes, fmt.Sprintf("%q: not a preference, nothing saved: %s", rest, prefs.RememberHint))
				}
				if len(stmts) == 0 {
					return fmt.Errorf("prefs set --remember: nothing saved: %s", strings.Join(out.Notes, "; "))
				}
			}
			ctx := cmd.Context()
			c, err := stores.Open(ctx)
			if err != nil {
				return err
			}
			defer c.Close(ctx)
			p, err := c.Preferences(ctx, scheduleID)
			if err != nil {
				return prefsError(scheduleID, err)
			}
			for _, a := range args {
				if err := prefs.SetArg(&p, a); err != nil {
					return usagef("prefs set: %v", err)
				}
			}
			if err := prefs.Apply(&p, stmts); err != nil {
				return err
			}
			// Written even when unchanged, so both stores hold them again.
			if err := c.SetPreferences(ctx, scheduleID, p); err != nil {
				return prefsError(scheduleID, err)
			}
			out.Preferences = p
			for _, st := range stmts {
				out.Saved = append(out.Saved, st.Summary)
			}
			if !asJSON {
				for _, s := range out.Saved {
					fmt.Fprintf(io.ErrOut, "saved: %s\n", usertext.Terminal(s))
				}
				for _, n := range out.Notes {
					fmt.Fprintf(io.ErrOut, "note: %s\n", usertext.Terminal(n))
				}
			}
			return printPrefs(io, out, asJSON)
		},
	}
	cmd.Flags().StringVarP(&scheduleID, "schedule", "s", "", "stored schedule id")
	cmd.Flags().StringVar(&remember, "remember", "", `a preference in words, as a reviewer writes it: "use FS+1 for new inspections"`)
	cmd.Flags().BoolVar(&asJSON, "json", false, `print JSON: {"schedule", "preferences", "saved", "notes"}`)
	return cmd
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
func printPrefs(io *streams, out prefsOutput, asJSON bool) error {
	if asJSON {
		return cmdutil.WriteJSON(io.Out, out)
	}
	_, err := fmt.Fprint(io.Out, usertext.TerminalText(out.Preferences.String()))
	return err
}
