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
	"github.com/autoscheduler/autoscheduler/internal/usertext"
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
	JSON     bool
}

// exportReport is what `export --json` prints: the file written and what
// of the schedule's source file it could not carry.
type exportReport struct {
	Output        string `json:"output"`
	Format        string `json:"format"`
	Activities    int    `json:"activities"`
	Relationships int    `json:"relationships"`
	// Source is the imported file the schedule keeps ("" for none);
	// AsImported says the export is that file with only the changes made.
	Source     string `json:"source,omitempty"`
	AsImported bool   `json:"as_imported"`
	// NotCarried lists what the source holds that the format has no place
	// for (an export to another format than the source's).
	NotCarried []string `json:"not_carried"`
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
			if opts.JSON && cmdutil.IsStdout(opts.Output) {
				return usagef("export: --json prints a report on standard output: give the file to write with -o")
			}
			return cmdutil.RunOr(cmd, opts, runF, exportRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "schedule file to convert (.json, .xml or .xer)")
	cmd.Flags().StringVar(&opts.Format, "format", "json", "output format: json, mspdi (MS Project XML) or xer (Primavera P6)")
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "file to write (default or -: standard output)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print a JSON report (the file written, what could not be carried) on standard output; needs -o")
	return cmd
}

func exportRun(ctx context.Context, opts *exportOptions) error {
	format, _ := interchange.ParseFormat(opts.Format)
	var s *schedule.Schedule
	if opts.File != "" {
		var err error
		// A file exported to its own format is written back as it was
		// (its kept source, see interchange.Write), not rebuilt; converted
		// to another, it is the new file's whole content.
		own, _ := interchange.FormatOf(opts.File)
		if s, _, err = cmdutil.LoadFileWith(opts.io.ErrOut, opts.File, interchange.Options{KeepSource: own == format}); err != nil {
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
	rep := exportReport{Output: opts.Output, Format: string(format), Activities: len(s.Activities), Relationships: len(s.Relationships),
		NotCarried: []string{}}
	if s.Source != nil {
		rep.Source, rep.AsImported = s.Source.Name, s.Source.Format == string(format)
	}
	if format != interchange.JSON { // a JSON file carries the source itself
		rep.NotCarried = append(rep.NotCarried, interchange.Uncarried(s, format)...)
	}
	if cmdutil.IsStdout(opts.Output) {
		if err := interchange.Write(opts.io.Out, s, format, progress); err != nil {
			return err
		}
		printNotCarried(opts.io.ErrOut, rep)
		return nil
	}
	if _, err := schedule.Check(s); err != nil {
		return &interchange.FileError{Path: opts.Output, Err: err}
	}
	if err := cmdutil.WriteOutput(opts.Output, func(w io.Writer) error { return interchange.Write(w, s, format, progress) }); err != nil {
		return outputError(opts.Output, err)
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, rep)
	}
	how := ""
	if rep.AsImported {
		how = ", " + rep.Source + " as imported with the changes made here"
	}
	fmt.Fprintf(opts.io.ErrOut, "wrote %s: %d activities, %d relationships (%s%s)\n", opts.Output, len(s.Activities), len(s.Relationships), strings.ToUpper(string(format)), how)
	printNotCarried(opts.io.ErrOut, rep)
	return nil
}

// printNotCarried names, one line each, what of the source file the
// export could not carry: the planner keeps the original for it.
func printNotCarried(w io.Writer, rep exportReport) {
	if len(rep.NotCarried) == 0 {
		return
	}
	fmt.Fprintf(w, "not carried to %s (%s keeps it: export to its own format to give it back):\n", strings.ToUpper(rep.Format), rep.Source)
	for _, line := range rep.NotCarried {
		fmt.Fprintf(w, "  %s\n", usertext.Terminal(line))
	}
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
