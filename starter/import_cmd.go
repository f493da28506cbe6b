package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// importOptions are the flags of `autoscheduler import`.
type importOptions struct {
	io             *cmdutil.IOStreams
	stores         *config.Stores
	File           string
	Schedule       string
	Replace        bool
	AllowTruncated bool
}

func newImportCmd(f *Factory, runF func(context.Context, *importOptions) error) *cobra.Command {
	opts := &importOptions{io: f.IOStreams, stores: f.Stores}
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
			return cmdutil.RunOr(cmd, opts, runF, importRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "id to store the schedule under (letters, digits, '.', '_' and '-')")
	cmd.Flags().BoolVar(&opts.Replace, "replace", false, "overwrite a schedule already stored under that id")
	cmd.Flags().BoolVar(&opts.AllowTruncated, "allow-truncated", false, "read a P6 XER file that ends without its %E end marker (cut short) as far as it goes, with a warning, instead of refusing it")
	return cmd
}

func importRun(ctx context.Context, opts *importOptions) error {
	read, err := interchange.LoadWith(opts.File, interchange.Options{AllowTruncated: opts.AllowTruncated, KeepSource: true})
	if err != nil {
		if strings.Contains(err.Error(), "it looks truncated") && strings.EqualFold(filepath.Ext(opts.File), ".xer") && !opts.AllowTruncated {
			return fmt.Errorf("%w\n(to import what it holds anyway, knowing what is missing, run import again with --allow-truncated)", err)
		}
		return err
	}
	cmdutil.PrintWarnings(opts.io.ErrOut, opts.File, read.Warnings)
	s := read.Schedule
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	start := time.Now()
	var progress func(done, total int)
	// The bar draws on stderr: only when someone watches it there.
	if opts.io.ErrIsTTY() {
		progress = progressBar(opts.io, "embedding")
	}
	// What the file holds, so the planner sees at once that nothing was
	// left behind, worked out while the stores write (both only read s).
	described := make(chan interchange.Holdings, 1)
	go func() { described <- interchange.Describe(s) }()
	if err := c.ImportChecked(ctx, opts.Schedule, s, read.Network, opts.Replace, progress); err != nil {
		return err
	}
	// The first line the counts, then the rest indented.
	facts := (<-described).Facts()
	fmt.Fprintf(opts.io.ErrOut, "imported %s as %q: %s in %s\n", opts.File, opts.Schedule, facts[0], time.Since(start).Round(time.Millisecond))
	for _, fact := range facts[1:] {
		fmt.Fprintf(opts.io.ErrOut, "  %s\n", fact)
	}
	return nil
}

// progressBar draws on stderr, overwriting one line; only for terminals.
func progressBar(io *cmdutil.IOStreams, label string) func(done, total int) {
	return func(done, total int) {
		const width = 30
		filled := width * done / max(total, 1)
		fmt.Fprintf(io.ErrOut, "\r%s [%s%s] %d/%d", label, strings.Repeat("=", filled), strings.Repeat(" ", width-filled), done, total)
		if done >= total {
			fmt.Fprintln(io.ErrOut)
		}
	}
}
