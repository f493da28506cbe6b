package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// searchOptions are the flags of `autoscheduler search`.
type searchOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	Text     string
	Schedule string
	K        int
	Kind     string
	JSON     bool
}

func newSearchCmd(f *Factory, runF func(context.Context, *searchOptions) error) *cobra.Command {
	opts := &searchOptions{io: f.IOStreams, stores: f.Stores}
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
			return cmdutil.RunOr(cmd, opts, runF, searchRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id")
	cmd.Flags().IntVarP(&opts.K, "k", "k", 10, "number of results")
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "only activity or only relationship hits")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, "print JSON: {\"results\": [{kind, id, name, score}]}")
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
		return cmdutil.WriteJSON(opts.io.Out, map[string][]store.Hit{"results": hits})
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
