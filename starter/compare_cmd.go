package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/compare"
	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/versions"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// compareOptions are the flags of `autoscheduler compare`.
type compareOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	temporal *temporalConfig
	// Dispatch (and Run) compare a stored schedule before an accepted
	// dispatch's changes with the schedule as stored now.
	Dispatch, Run string
	// Schedule with At (one or two data dates) or Previous compares
	// versions of a stored schedule (see versions).
	Schedule string
	At       []string
	Previous bool
	// Before and After are the two versions as given: a file or a stored
	// schedule (see versionOf).
	Before, After string
	Format        string
	Limit         int
}

// storedPrefix marks an argument as a stored schedule id whatever files
// exist ("stored:building").
const storedPrefix = "stored:"

func newCompareCmd(f *Factory, runF func(context.Context, *compareOptions) error) *cobra.Command {
	opts := &compareOptions{io: f.IOStreams, stores: f.Stores, temporal: f.Temporal}
	cmd := &cobra.Command{
		Use:   "compare A B [--format table|json|html] | compare --dispatch DISPATCH-ID | compare --schedule ID (--previous | --at DATE [--at DATE])",
		Short: "Compare two versions of a schedule: what changed, how the finish moved and why",
		Long: "Compare version A (the earlier, say last month's update) with version B: activities\n" +
			"added, removed and changed (name, duration, calendar, type, constraints, actual\n" +
			"dates, remaining duration, percent complete, WBS, codes), relationships added,\n" +
			"removed and changed (type, lag), the data date, start date and calendars; then CPM\n" +
			"on both: how far the project finish moved, explained along the driving path (the\n" +
			"change that moved it and the activities it pushed through, or the logic cut that\n" +
			"pulled it in), activities that became or stopped being critical, and the float\n" +
			"each activity lost, largest drop first.\n\n" +
			"A and B are each a schedule file (.json, .xml MSPDI, .xer P6) or a stored schedule\n" +
			"id (see import): an argument naming an existing file, ending in .json, .xml or\n" +
			".xer, or with a / in it, is a file; anything else is a stored schedule. Write\n" +
			"stored:ID to mean the stored schedule when a file of that name exists. A file and\n" +
			"a stored schedule can be compared with each other.\n\n" +
			"Activities are matched by id only. Two exports of one programme whose ids differ\n" +
			"(MS Project renumbers UIDs, a P6 copy gets new activity ids) compare as everything\n" +
			"removed and everything added: nothing is matched by name, which would report\n" +
			"changes nobody made.\n\n" +
			"--dispatch DISPATCH-ID compares a stored schedule before an accepted dispatch's\n" +
			"changes (its latest run, or --run) with the schedule as stored now: the changes\n" +
			"the dispatch committed are taken back, from the graph store's ledger, on a copy.\n" +
			"It needs Temporal (where the dispatch's record is) and is refused when later\n" +
			"changes conflict with taking them back.\n\n" +
			"--schedule ID compares versions of a stored schedule kept at its data dates (see\n" +
			"versions): --previous, the last update before the current data date, against now;\n" +
			"--at DATE, the version at that data date against now; --at twice, the two versions\n" +
			"(the schedule now when DATE is its data date). DATE is YYYY-MM-DD.\n\n" +
			"Formats: table (default, for reading), json (every list complete, stable field\n" +
			"names) and html (one self-contained page). The table and the page show the first\n" +
			"--limit entries of each list.",
		Example: "  autoscheduler compare january.xer february.xer\n" +
			"  autoscheduler compare building examples/building.json --format json\n" +
			"  autoscheduler compare plan-v1.xml plan-v2.xml --format html > changes.html\n" +
			"  autoscheduler compare --dispatch dispatch-building\n" +
			"  autoscheduler compare --schedule building --previous\n" +
			"  autoscheduler compare --schedule building --at 2027-02-01 --at 2027-03-01",
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.Schedule != "" || opts.Previous || len(opts.At) > 0 {
				return checkVersionFlags(opts, len(args))
			}
			if opts.Dispatch != "" {
				if len(args) != 0 {
					return usagef("compare --dispatch: the two versions are the schedule before the dispatch and now; give no files or ids (got %d)", len(args))
				}
				return nil
			}
			if opts.Run != "" {
				return usagef("compare: --run goes with --dispatch")
			}
			if len(args) != 2 {
				return usagef("compare: give two versions, A and B (files or stored schedule ids); got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdutil.CheckFormat(cmd, "compare"); err != nil {
				return err
			}
			if opts.Limit < 0 {
				return usagef("compare: --limit %d: want 0 (everything) or more", opts.Limit)
			}
			if len(args) == 2 {
				opts.Before, opts.After = args[0], args[1]
			}
			return cmdutil.RunOr(cmd, opts, runF, compareRun)
		},
	}
	cmdutil.AddFormatFlags(cmd, &opts.Format, "table", []string{"table", "json", "html"}, "output format: table, json or html",
		"print the comparison as JSON (--format json)", false)
	cmd.Flags().StringVar(&opts.Dispatch, "dispatch", "", "compare the stored schedule before this accepted dispatch's changes with now")
	cmd.Flags().StringVar(&opts.Run, "run", "", "with --dispatch: the dispatch run (default: the latest)")
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule whose versions to compare (with --previous or --at)")
	cmd.Flags().BoolVar(&opts.Previous, "previous", false, "with --schedule: compare the last update before the current data date with now")
	cmd.Flags().StringArrayVar(&opts.At, "at", nil, "with --schedule: the version at this data date (YYYY-MM-DD); once against now, or twice")
	cmd.Flags().IntVar(&opts.Limit, "limit", 20, "entries of each list the table and the HTML page show (0: all); JSON has every one")
	return cmd
}

// version is one side as loaded: the schedule, its CPM (nil when CPM
// refused it, err says why) and how to name it.
type version struct {
	label string
	s     *schedule.Schedule
	r     *schedule.Result
	err   error
}

// isFile says whether an argument names a file: one that exists, or a
// name with a schedule file's extension (then a missing file is an
// error, not a stored schedule of that name).
func isFile(arg string) bool {
	if strings.HasPrefix(arg, storedPrefix) {
		return false
	}
	if _, err := os.Stat(arg); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return true
	}
	_, err := interchange.FormatOf(arg)
	return err == nil || strings.ContainsRune(arg, os.PathSeparator) || strings.ContainsRune(arg, '/')
}

// versionOf loads one side.
func versionOf(ctx context.Context, opts *compareOptions, arg string) (*version, error) {
	if isFile(arg) {
		s, net, err := cmdutil.LoadFile(opts.io.ErrOut, arg)
		if err != nil {
			return nil, err
		}
		return &version{label: arg, s: s, r: net.Compute()}, nil
	}
	id := strings.TrimPrefix(arg, storedPrefix)
	s, err := loadStoredSchedule(ctx, opts.stores, id)
	if err != nil {
		return nil, fmt.Errorf("stored schedule %q: %w", id, err)
	}
	v := &version{label: id, s: s}
	v.r, v.err = schedule.Analyze(s)
	return v, nil
}

// dispatchVersions are the stored schedule before the dispatch's
// committed changes and as it is now.
func dispatchVersions(ctx context.Context, opts *compareOptions) (a, b *version, err error) {
	c, err := opts.temporal.client()
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	scheduleID, run, opIDs, err := workflows.CommittedOps(ctx, c, opts.Dispatch, opts.Run, "compare")
	if err != nil {
		return nil, nil, err
	}
	stores, err := opts.stores.Open(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer stores.Close(ctx)
	now, err := stores.Load(ctx, scheduleID)
	if err != nil {
		return nil, nil, fmt.Errorf("stored schedule %q: %w", scheduleID, err)
	}
	before, err := stores.Before(ctx, scheduleID, now, opIDs)
	if err != nil {
		return nil, nil, fmt.Errorf("dispatch %s (run %s): the schedule before it: %w", opts.Dispatch, run, err)
	}
	a = &version{label: scheduleID + " before " + opts.Dispatch, s: before}
	a.r, a.err = schedule.Analyze(before)
	b = &version{label: scheduleID + " now", s: now}
	b.r, b.err = schedule.Analyze(now)
	return a, b, nil
}

func compareRun(ctx context.Context, opts *compareOptions) error {
	var a, b *version
	var err error
	if opts.Schedule != "" {
		a, b, err = keptVersions(ctx, opts)
	} else if opts.Dispatch != "" {
		a, b, err = dispatchVersions(ctx, opts)
	} else if a, err = versionOf(ctx, opts, opts.Before); err == nil {
		b, err = versionOf(ctx, opts, opts.After)
	}
	if err != nil {
		return err
	}
	rep := compare.CompareResults(a.s, b.s, a.r, b.r, compare.Options{BeforeLabel: a.label, AfterLabel: b.label})
	// CompareResults knows only that a result is missing; the command
	// knows why.
	for _, v := range []*version{a, b} {
		if v.err != nil {
			rep.CPMError = "CPM of " + v.label + ": " + v.err.Error()
			break
		}
	}
	switch opts.Format {
	case "json":
		return cmdutil.WriteJSON(opts.io.Out, rep)
	case "html":
		return compare.WriteHTML(opts.io.Out, rep, compare.TextOptions{Limit: opts.Limit})
	}
	return compare.WriteText(opts.io.Out, rep, compare.TextOptions{Limit: opts.Limit})
}

// checkVersionFlags checks --schedule with --previous or --at: the two
// versions they name and nothing else.
func checkVersionFlags(opts *compareOptions, args int) error {
	switch {
	case opts.Schedule == "":
		return usagef("compare: --previous and --at go with --schedule ID")
	case args != 0 || opts.Dispatch != "" || opts.Run != "":
		return usagef("compare --schedule: the versions are named by --previous or --at; give no files, ids or --dispatch")
	case opts.Previous && len(opts.At) > 0:
		return usagef("compare --schedule: give --previous or --at, not both")
	case !opts.Previous && len(opts.At) == 0:
		return usagef("compare --schedule %s: say which versions: --previous (the last update against now) or --at DATE (once or twice)", opts.Schedule)
	case len(opts.At) > 2:
		return usagef("compare --schedule: --at at most twice (got %d)", len(opts.At))
	}
	for i, d := range opts.At {
		checked, err := versions.CheckDate(d)
		if err != nil {
			return usagef("compare --at: %v", err)
		}
		opts.At[i] = checked
	}
	return nil
}

// keptVersions are the two versions of a stored schedule --previous or
// --at name: A the earlier as given, B now or the second --at.
func keptVersions(ctx context.Context, opts *compareOptions) (a, b *version, err error) {
	k, done, err := openKept(ctx, opts.stores, opts.Schedule)
	if err != nil {
		return nil, nil, err
	}
	defer done()
	a, b = &version{}, &version{s: k.Now, label: opts.Schedule + " now"}
	switch {
	case opts.Previous:
		a.s, a.label, err = k.Previous(ctx)
	default:
		a.s, a.label, err = k.At(ctx, opts.At[0])
		if err == nil && len(opts.At) == 2 {
			b.s, b.label, err = k.At(ctx, opts.At[1])
		}
	}
	if err != nil {
		return nil, nil, err
	}
	a.r, a.err = schedule.Analyze(a.s)
	b.r, b.err = schedule.Analyze(b.s)
	return a, b, nil
}
