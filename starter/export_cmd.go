package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// exportOptions are the flags of `autoscheduler export`.
type exportOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	Schedule string
	File     string
	Format   string
	Output   string
}

// progressThreshold is how many activities make an export long enough to
// deserve a progress bar.
const progressThreshold = 20_000

func newExportCmd(f *Factory, runF func(context.Context, *exportOptions) error) *cobra.Command {
	opts := &exportOptions{io: f.IOStreams, stores: f.Stores}
	cmd := &cobra.Command{
		Use:   "export (--schedule ID | --file FILE) --format json|mspdi|xer [-o FILE]",
		Short: "Write a schedule as JSON, MS Project XML (MSPDI) or Primavera P6 XER",
		Long: "Write a stored schedule (--schedule) or convert a schedule file (--file, no server needed)\n" +
			"to JSON, MS Project XML or P6 XER. Without -o (or with -o -) the file goes to standard output;\n" +
			"with -o it is written whole or not at all, through a symbolic link to its target, keeping an\n" +
			"existing file's permissions; a device, pipe or directory is refused. Input files are read by\n" +
			"extension: .json, .xml, .xer.",
		Example: "  autoscheduler export --schedule building --format mspdi -o building.xml\n" +
			"  autoscheduler export --file plan.xer --format json > plan.json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (opts.File == "") == (opts.Schedule == "") {
				return usagef("export: give one of --file and --schedule")
			}
			if _, err := interchange.ParseFormat(opts.Format); err != nil || opts.Format == "xml" {
				return usagef("export: --format %q: want json, mspdi or xer", opts.Format)
			}
			return cmdutil.RunOr(cmd, opts, runF, exportRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "schedule file to convert (.json, .xml or .xer)")
	cmd.Flags().StringVar(&opts.Format, "format", "json", "output format: json, mspdi (MS Project XML) or xer (Primavera P6)")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "file to write (default or -: standard output)")
	return cmd
}

func exportRun(ctx context.Context, opts *exportOptions) error {
	format, _ := interchange.ParseFormat(opts.Format)
	var s *schedule.Schedule
	if opts.File != "" {
		var err error
		// A file exported to its own format is written back as it was
		// (its kept source, see interchange.Write), not rebuilt.
		if s, _, err = cmdutil.LoadFileWith(opts.io.ErrOut, opts.File, interchange.Options{KeepSource: true}); err != nil {
			return err
		}
	} else {
		var err error
		if s, err = loadStoredSchedule(ctx, opts.stores, opts.Schedule); err != nil {
			return err
		}
	}
	var progress interchange.Progress
	// The bar draws on stderr: only when someone watches it, and not over
	// the file itself going to the same terminal.
	if len(s.Activities) >= progressThreshold && opts.io.ErrIsTTY() && (!cmdutil.IsStdout(opts.Output) || !opts.io.OutIsTTY) {
		progress = progressBar(opts.io, "exporting")
	}
	if cmdutil.IsStdout(opts.Output) {
		return interchange.Write(opts.io.Out, s, format, progress)
	}
	if _, err := schedule.Check(s); err != nil {
		return &interchange.FileError{Path: opts.Output, Err: err}
	}
	if err := cmdutil.WriteOutput(opts.Output, func(w io.Writer) error { return interchange.Write(w, s, format, progress) }); err != nil {
		return outputError(opts.Output, err)
	}
	fmt.Fprintf(opts.io.ErrOut, "wrote %s: %d activities, %d relationships (%s)\n", opts.Output, len(s.Activities), len(s.Relationships), strings.ToUpper(string(format)))
	return nil
}

// outputError words an error writing path so that it names path, the
// file the person asked for: the file is written through a temporary file
// beside it, whose name an error from creating, writing or renaming it
// carries ("open /x/.out.xer.123.tmp: no such file or directory").
func outputError(path string, err error) error {
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	var cause error
	switch {
	case errors.As(err, &pathErr) && pathErr.Path != path:
		cause = pathErr.Err
	case errors.As(err, &linkErr):
		cause = linkErr.Err
	default:
		return err
	}
	dir := filepath.Dir(path)
	switch fi, statErr := os.Stat(dir); {
	case errors.Is(statErr, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: the directory %s does not exist", path, dir)
	case statErr == nil && !fi.IsDir():
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	case errors.Is(cause, fs.ErrPermission):
		return fmt.Errorf("cannot write %s: no permission to create a file in %s", path, dir)
	}
	return fmt.Errorf("cannot write %s: %w", path, cause)
}
