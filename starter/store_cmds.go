package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// importOptions are the flags of `autoscheduler import`.
type importOptions struct {
	io       *streams
	stores   *config.Stores
	File     string
	Schedule string
	Replace  bool
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
			return importRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "id to store the schedule under")
	cmd.Flags().BoolVar(&opts.Replace, "replace", false, "overwrite a schedule already stored under that id")
	return cmd
}

func importRun(ctx context.Context, opts *importOptions) error {
	s, err := interchange.ReadFile(opts.File)
	if err != nil {
		return err
	}
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
