package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// importOptions are the flags of `autoscheduler import`.
type importOptions struct {
	io             *streams
	stores         *config.Stores
	File           string
	Schedule       string
	Replace        bool
	AllowTruncated bool
}

func newImportCmd(io *streams, stores *config.Stores) *cobra.Command {
	opts := &importOptions{io: io, stores: stores}
	cmd := &cobra.Command{
		Use:   "import FILE --schedule ID",
		Short: "Store a schedule file in the graph and vector stores",
		Long: "Validate a schedule file and write it to the graph store (Neo4j or embedded) and the\n" +
			"vector store (Weaviate or embedded), two-phase: if the second write fails the first is undone.",
		Example: "  autoscheduler import examples/building.json --schedule building",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.File = args[0]
			if opts.Schedule == "" {
				return usagef("import: --schedule is required")
			}
			if err := store.CheckScheduleID(opts.Schedule); err != nil {
				return usagef("import: --schedule: %v", err)
			}
			return importRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "id to store the schedule under (letters, digits, '.', '_' and '-')")
	cmd.Flags().BoolVar(&opts.Replace, "replace", false, "overwrite a schedule already stored under that id")
	cmd.Flags().BoolVar(&opts.AllowTruncated, "allow-truncated", false, "read a P6 XER file that ends without its %E end marker (cut short) as far as it goes, with a warning, instead of refusing it")
	return cmd
}

func importRun(ctx context.Context, opts *importOptions) error {
	read, err := interchange.LoadWith(opts.File, interchange.Options{AllowTruncated: opts.AllowTruncated})
	if err != nil {
		if strings.Contains(err.Error(), "it looks truncated") && strings.EqualFold(filepath.Ext(opts.File), ".xer") && !opts.AllowTruncated {
			return fmt.Errorf("%w\n(to import what it holds anyway, knowing what is missing, run import again with --allow-truncated)", err)
		}
		return err
	}
	for _, w := range read.Warnings {
		fmt.Fprintf(opts.io.ErrOut, "warning: %s: %s\n", usertext.Terminal(opts.File), usertext.Terminal(w))
	}
	s := read.Schedule
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	start := time.Now()
	var progress func(done, total int)
	// The bar draws on stderr: only when someone watches it there.
	if isTTY(opts.io.ErrOut) {
		progress = progressBar(opts.io, "embedding")
	}
	if err := c.Import(ctx, opts.Schedule, s, opts.Replace, progress); err != nil {
		return err
	}
	fmt.Fprintf(opts.io.ErrOut, "imported %s as %q: %d activities, %d relationships in %s\n",
		opts.File, opts.Schedule, len(s.Activities), len(s.Relationships), time.Since(start).Round(time.Millisecond))
	return nil
}

// progressBar draws on stderr, overwriting one line; only for terminals.
func progressBar(io *streams, label string) func(done, total int) {
	return func(done, total int) {
		const width = 30
		filled := width * done / max(total, 1)
		fmt.Fprintf(io.ErrOut, "\r%s [%s%s] %d/%d", label, strings.Repeat("=", filled), strings.Repeat(" ", width-filled), done, total)
		if done >= total {
			fmt.Fprintln(io.ErrOut)
		}
	}
}

// searchOptions are the flags of `autoscheduler search`.
type searchOptions struct {
	io       *streams
	stores   *config.Stores
	Text     string
	Schedule string
	K        int
	Kind     string
	JSON     bool
}

func newSearchCmd(io *streams, stores *config.Stores) *cobra.Command {
	opts := &searchOptions{io: io, stores: stores}
	cmd := &cobra.Command{
		Use:   `search "TEXT" --schedule ID [-k 10] [--kind activity|relationship] [--json]`,
		Short: "Find activities and relationships by meaning (hybrid keyword + vector search)",
		Long: "Hybrid search (keywords and meaning) over a stored schedule's activities and relationships.\n" +
			"A query that names a kind lists that kind first: \"activities\", \"activity\", \"tasks\" rank\n" +
			"activities above relationships; \"relationships\", \"links\", \"dependencies\" the other way\n" +
			"round (the first kind named wins). --kind returns only that kind.",
		Example: `  autoscheduler search "activities on the first floor" --schedule building -k 5
  autoscheduler search "level 3 drywall" --schedule building --kind relationship --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Text = args[0]
			if strings.TrimSpace(opts.Text) == "" {
				return usagef("search: the query is empty: say what to look for")
			}
			if opts.Kind != "" && opts.Kind != string(store.ActivityKind) && opts.Kind != string(store.RelationshipKind) {
				return usagef("search: --kind %q: want activity or relationship", opts.Kind)
			}
			if opts.Schedule == "" {
				return usagef("search: --schedule is required")
			}
			if opts.K < 1 {
				return usagef("search: -k must be at least 1")
			}
			return searchRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id")
	cmd.Flags().IntVarP(&opts.K, "k", "k", 10, "number of results")
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "only activity or only relationship hits")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON: {\"results\": [{kind, id, name, score}]}")
	return cmd
}

func searchRun(ctx context.Context, opts *searchOptions) error {
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	var kinds []store.Kind
	if opts.Kind != "" {
		kinds = append(kinds, store.Kind(opts.Kind))
	}
	hits, err := c.Search(ctx, opts.Schedule, opts.Text, opts.K, kinds...)
	if err != nil {
		return err
	}
	if opts.JSON {
		if hits == nil {
			hits = []store.Hit{}
		}
		return writeJSON(opts.io.Out, map[string][]store.Hit{"results": hits})
	}
	if len(hits) == 0 {
		fmt.Fprintln(opts.io.ErrOut, "no results")
		return nil
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCORE\tKIND\tID\tNAME")
	for _, h := range hits {
		fmt.Fprintf(tw, "%.3f\t%s\t%s\t%s\n", h.Score, h.Kind, h.ID, h.Name)
	}
	return tw.Flush()
}

// errDrift makes verify exit non-zero after it has printed the drift.
var errDrift = errors.New("the stores disagree")

// verifyOutput is `verify --json`.
type verifyOutput struct {
	Schedule      string   `json:"schedule"`
	Agree         bool     `json:"agree"`
	Differences   []string `json:"differences"`
	Activities    int      `json:"activities"`
	Relationships int      `json:"relationships"`
}

func newVerifyCmd(io *streams, stores *config.Stores) *cobra.Command {
	var scheduleID string
	var asJSON, repair bool
	cmd := &cobra.Command{
		Use:   "verify --schedule ID [--repair] [--json]",
		Short: "Compare the graph and vector stores for a schedule; exit 1 on drift",
		Long: "Compare the graph and vector stores for a schedule; exit 1 on drift.\n\n" +
			"A write a dead process left half done is finished first (the graph store holds the old or the new\n" +
			"version whole; the documents are brought to match it). With --repair, a write whose process only\n" +
			"looks alive is finished too, and any drift found is mended from the graph store.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if scheduleID == "" {
				return usagef("verify: --schedule is required")
			}
			ctx := cmd.Context()
			c, err := stores.Open(ctx)
			if err != nil {
				return err
			}
			defer c.Close(ctx)
			if repair {
				intents, mended, err := c.Repair(ctx, scheduleID)
				if err != nil {
					return err
				}
				fmt.Fprintf(io.ErrOut, "repair: %d interrupted writes finished, %d differences mended\n", intents, len(mended))
			}
			drift, err := c.Verify(ctx, scheduleID)
			if err != nil {
				return err
			}
			out := verifyOutput{Schedule: scheduleID, Agree: len(drift) == 0, Differences: nonNil(drift)}
			if s, err := c.Load(ctx, scheduleID); err == nil {
				out.Activities, out.Relationships = len(s.Activities), len(s.Relationships)
			}
			switch {
			case asJSON:
				if err := writeJSON(io.Out, out); err != nil {
					return err
				}
			case out.Agree:
				fmt.Fprintf(io.Out, "ok: the stores agree on %q (%d activities, %d relationships)\n", scheduleID, out.Activities, out.Relationships)
			default:
				for _, line := range drift {
					fmt.Fprintln(io.Out, line)
				}
			}
			if !out.Agree {
				return fmt.Errorf("%w: %d differences in schedule %q", errDrift, len(drift), scheduleID)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&scheduleID, "schedule", "s", "", "stored schedule id")
	cmd.Flags().BoolVar(&repair, "repair", false, "finish interrupted writes even if their process looks alive, and mend drift from the graph store")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print JSON: {"schedule", "agree", "differences": [...], "activities", "relationships"}`)
	return cmd
}

// loadStoredSchedule reads a schedule from the configured stores.
func loadStoredSchedule(ctx context.Context, stores *config.Stores, scheduleID string) (*schedule.Schedule, error) {
	c, err := stores.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close(ctx)
	return c.Load(ctx, scheduleID)
}

// openDispatchFunc says which dispatch is open on a schedule ("" for
// none).
type openDispatchFunc func(ctx context.Context, scheduleID string) (string, error)

// deleteOptions are the flags of `autoscheduler schedule delete`.
type deleteOptions struct {
	io       *streams
	stores   *config.Stores
	Schedule string
	Force    bool
}

// newScheduleDeleteCmd is `schedule delete`. open finds a schedule's open
// dispatch; nil asks Temporal, as the root's flags and environment say.
func newScheduleDeleteCmd(io *streams, stores *config.Stores, open openDispatchFunc) *cobra.Command {
	opts := &deleteOptions{io: io, stores: stores}
	cmd := &cobra.Command{
		Use:   "delete SCHEDULE [--force]",
		Short: "Delete a stored schedule from the graph and vector stores",
		Long: "Delete a stored schedule: its graph, ledgers, documents and preferences, from both stores.\n" +
			"Deleting a schedule that is not stored does nothing. A schedule with an open dispatch is not\n" +
			"deleted: review, reject or cancel the dispatch first. --force deletes without asking Temporal\n" +
			"(when it cannot be reached and no dispatch can be open). Any stored id can be deleted, even one\n" +
			"import would now refuse.",
		Example: "  autoscheduler schedule delete building",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if opts.Schedule != "" && opts.Schedule != args[0] {
					return usagef("schedule delete: give the schedule once, as an argument or with --schedule")
				}
				opts.Schedule = args[0]
			}
			if !cmd.Flags().Changed("schedule") && len(args) == 0 {
				return usagef("schedule delete: which schedule? give its id")
			}
			if open == nil {
				open = temporalOpenDispatch(cmd)
			}
			return deleteRun(cmd.Context(), opts, open)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (or give it as the argument)")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "delete without checking Temporal for an open dispatch")
	return cmd
}

func deleteRun(ctx context.Context, opts *deleteOptions, open openDispatchFunc) error {
	id := opts.Schedule
	shown := usertext.Terminal(fmt.Sprintf("%q", id))
	if !opts.Force {
		d, err := open(ctx, id)
		if err != nil {
			return fmt.Errorf("schedule %s was not deleted: cannot check it for an open dispatch: %w\n(if no dispatch can be open on it, delete it with --force)", shown, err)
		}
		if d != "" {
			return fmt.Errorf("schedule %s was not deleted: dispatch %s is open on it; review, reject or cancel it first (autoscheduler review %s cancel)", shown, d, d)
		}
	}
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	existed, err := c.Delete(ctx, id)
	if err != nil {
		return fmt.Errorf("deleting schedule %s: %w", shown, err)
	}
	if !existed {
		fmt.Fprintf(opts.io.ErrOut, "schedule %s is not stored: nothing to delete\n", shown)
		return nil
	}
	fmt.Fprintf(opts.io.ErrOut, "deleted schedule %s from both stores\n", shown)
	return nil
}

// temporalOpenDispatch asks Temporal for a schedule's open dispatch,
// connecting as the root command's Temporal flags and environment say.
func temporalOpenDispatch(cmd *cobra.Command) openDispatchFunc {
	return func(ctx context.Context, scheduleID string) (string, error) {
		cfg := &temporalConfig{Temporal: config.TemporalFromEnv()}
		fs := pflag.NewFlagSet("temporal", pflag.ContinueOnError)
		cfg.Temporal.BindFlags(fs)
		var setErr error
		fs.VisitAll(func(f *pflag.Flag) {
			if in := cmd.Flag(f.Name); in != nil && in.Changed {
				setErr = errors.Join(setErr, fs.Set(f.Name, in.Value.String()))
			}
		})
		if setErr != nil {
			return "", setErr
		}
		tc, err := cfg.client()
		if err != nil {
			return "", err
		}
		defer tc.Close()
		return openDispatchOf(ctx, tc, scheduleID)
	}
}

// openDispatchOf is the id of the dispatch open on a schedule, "" if none.
func openDispatchOf(ctx context.Context, tc client.Client, scheduleID string) (string, error) {
	id := workflows.DispatchWorkflowID(scheduleID)
	desc, err := tc.DescribeWorkflowExecution(ctx, id, "")
	var missing *serviceerror.NotFound
	switch {
	case errors.As(err, &missing):
		return "", nil
	case err != nil:
		return "", err
	case desc.GetWorkflowExecutionInfo().GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_RUNNING:
		return id, nil
	}
	return "", nil
}

// listOptions are the flags of `autoscheduler schedule list`.
type listOptions struct {
	io     *streams
	stores *config.Stores
	JSON   bool
}

// scheduleListItem is one schedule of `schedule list --json`.
type scheduleListItem struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Activities    int     `json:"activities"`
	Relationships int     `json:"relationships"`
	Finish        float64 `json:"finish"`
	FinishDate    string  `json:"finish_date,omitempty"`
	FinishError   string  `json:"finish_error,omitempty"`
	Updated       string  `json:"updated,omitempty"`
}

func newScheduleListCmd(io *streams, stores *config.Stores) *cobra.Command {
	opts := &listOptions{io: io, stores: stores}
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the stored schedules: name, size, finish, last written",
		Long: "List the stored schedules with the summary each keeps (name, activities, relationships, CPM\n" +
			"finish, when last written): no schedule is loaded or computed, whatever their size.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return listRun(cmd.Context(), opts) },
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, `print {"schedules": [{"id", "name", "activities", "relationships", "finish", "finish_date", "updated"}]}`)
	return cmd
}

func listRun(ctx context.Context, opts *listOptions) error {
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	list, err := c.Schedules(ctx)
	if err != nil {
		return err
	}
	items := make([]scheduleListItem, 0, len(list))
	for _, info := range list {
		item := scheduleListItem{ID: info.ID, Name: info.Name, Activities: info.Activities, Relationships: info.Relationships}
		if sum := info.Summary; sum != nil {
			item.Finish, item.FinishDate, item.FinishError = sum.Finish, sum.FinishDate, sum.FinishError
			if !sum.Updated.IsZero() {
				item.Updated = sum.Updated.Format(time.RFC3339)
			}
		}
		items = append(items, item)
	}
	if opts.JSON {
		return writeJSON(opts.io.Out, map[string][]scheduleListItem{"schedules": items})
	}
	if len(items) == 0 {
		fmt.Fprintln(opts.io.ErrOut, "no schedules stored (autoscheduler import FILE --schedule ID stores one)")
		return nil
	}
	tw := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tACTIVITIES\tRELATIONSHIPS\tFINISH\tUPDATED")
	for _, it := range items {
		finish := strconv.FormatFloat(it.Finish, 'f', -1, 64) + " days"
		switch {
		case it.FinishError != "" && it.FinishDate == "":
			finish = "(cannot be computed)"
			if it.Finish > 0 {
				finish = strconv.FormatFloat(it.Finish, 'f', -1, 64) + " days"
			}
		case it.FinishDate != "":
			finish = it.FinishDate[:min(len(it.FinishDate), 10)] + " (" + finish + ")"
		}
		name, _ := schedule.Truncate(it.Name, 60)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", usertext.Terminal(it.ID), usertext.Terminal(name), it.Activities, it.Relationships, finish, it.Updated)
	}
	return tw.Flush()
}
