// Package riskcmd is `autoscheduler risk`, Monte Carlo schedule risk. Both
// CLI binaries build it: the full CLI (starter), which reads stored
// schedules too, and the fast front (starter/front), which runs it on files.
package riskcmd

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/risk"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// maxIterations bounds --iterations (8 bytes of finish per iteration, plus
// the samples kept for the sensitivity ranks).
const maxIterations = 10_000_000

// Options are the flags of `autoscheduler risk` and what it needs.
type Options struct {
	Out, ErrOut io.Writer
	// LoadStored reads a stored schedule (--schedule).
	LoadStored  func(ctx context.Context, id string) (*schedule.Schedule, error)
	File        string
	Schedule    string
	Iterations  int
	Seed        uint64
	Format      string
	Correlate   string
	Correlation float64
	Workers     int
	DumpSamples string
}

// New builds the command; it writes to out and errOut and reads stored
// schedules with loadStored. runF, when set, runs instead of Run once the
// flags are checked (tests).
func New(out, errOut io.Writer, loadStored func(ctx context.Context, id string) (*schedule.Schedule, error), runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Out: out, ErrOut: errOut, LoadStored: loadStored}
	cmd := &cobra.Command{
		Use:   "risk (--file FILE | --schedule ID) [--iterations N] [--seed N] [--format table|json|html] [--correlate trade]",
		Short: "Schedule risk: Monte Carlo CPM over the duration distributions",
		Long: "Sample every activity's duration from its distribution (triangular, pert, uniform,\n" +
			"normal; a plain number stays fixed) and compute CPM for each sample. Reports the\n" +
			"project finish P10/P50/P80/P90 (working days and, with a start date, dates), mean\n" +
			"and standard deviation, the deterministic finish's percentile, each activity's\n" +
			"criticality index (share of iterations in which it is critical) and duration\n" +
			"sensitivity (Spearman rank correlation of its duration with the finish), and the\n" +
			"top drivers. No server is needed.\n\n" +
			"PERT is the beta distribution with λ = 4 (mean (a+4m+b)/6); normal durations are\n" +
			"truncated at 0 (a negative draw is redrawn). Percentiles interpolate linearly\n" +
			"between closest ranks (numpy's default). Results depend only on the seed, never\n" +
			"on the number of cores: iteration i draws from its own stream (SplitMix64 started\n" +
			"at the first output of PCG(seed, i)).\n\n" +
			"--correlate trade samples the activities of one trade (the name without its level\n" +
			"words: \"Drywall Level 3\" is Drywall) with one common factor: a Gaussian copula in\n" +
			"which two activities of a trade have normal scores correlated ρ (--correlation,\n" +
			"default 0.5), each mapped to a duration through its own distribution.\n\n" +
			"Formats: table (default), json, html (one self-contained page with a histogram\n" +
			"and an S-curve as inline SVG; it loads nothing from the network).",
		Example: "  autoscheduler risk --file examples/building.json\n" +
			"  autoscheduler risk --file examples/building.json --iterations 20000 --seed 7 --format json\n" +
			"  autoscheduler risk --file examples/building.json --correlate trade --format html > risk.html\n" +
			"  autoscheduler risk --schedule building",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (opts.File == "") == (opts.Schedule == "") {
				return cmdutil.Usagef("risk: give one of --file and --schedule")
			}
			if err := cmdutil.CheckFormat(cmd, "risk"); err != nil {
				return err
			}
			if opts.Iterations < 1 || opts.Iterations > maxIterations {
				return cmdutil.Usagef("risk: --iterations %d: want 1 to %d", opts.Iterations, maxIterations)
			}
			switch strings.ToLower(opts.Correlate) {
			case "", "none":
				opts.Correlate = ""
				if cmd.Flags().Changed("correlation") {
					return cmdutil.Usagef("risk: --correlation needs --correlate trade")
				}
			case "trade", "trades":
				opts.Correlate = "trade"
			default:
				return cmdutil.Usagef("risk: --correlate %q: want trade", opts.Correlate)
			}
			if !(opts.Correlation >= 0 && opts.Correlation <= 1) {
				return cmdutil.Usagef("risk: --correlation %v: want 0 to 1", opts.Correlation)
			}
			if opts.Workers < 0 {
				return cmdutil.Usagef("risk: --workers %d: want 0 (every core) or more", opts.Workers)
			}
			return cmdutil.RunOr(cmd, opts, runF, Run)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.File, "file", "f", "", "schedule file (.json, .xml MSPDI, .xer P6)")
	f.StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	f.IntVarP(&opts.Iterations, "iterations", "n", 10000, "number of Monte Carlo iterations")
	f.Uint64Var(&opts.Seed, "seed", 1, "random seed: the same seed gives the same result")
	cmdutil.AddFormatFlags(cmd, &opts.Format, "table", []string{"table", "json", "html"}, "output format: table, json or html", "print the report as JSON (--format json)", false)
	f.StringVar(&opts.Correlate, "correlate", "", `correlate durations within groups: "trade"`)
	f.Float64Var(&opts.Correlation, "correlation", risk.DefaultCorrelation, "ρ for --correlate: correlation of the normal scores of two activities of a group")
	f.IntVar(&opts.Workers, "workers", 0, "goroutines running iterations (0: every core); the result does not depend on it")
	f.StringVar(&opts.DumpSamples, "dump-samples", "", "also write the sampled durations (iterations × activities, float64) as a .npy file, for the numpy peer in bench/risk")
	_ = f.MarkHidden("workers")
	_ = f.MarkHidden("dump-samples")
	return cmd
}

// Run simulates and writes the report.
func Run(ctx context.Context, opts *Options) error {
	var s *schedule.Schedule
	var err error
	if opts.File != "" {
		if s, _, err = cmdutil.LoadFile(opts.ErrOut, opts.File); err != nil {
			return err
		}
	} else if s, err = opts.LoadStored(ctx, opts.Schedule); err != nil {
		return err
	}
	m, err := risk.Compile(s)
	if err != nil {
		return err
	}
	// Dates. A finish past the calendar's range (the deterministic one,
	// or some iterations') has no date; the report says which and gives
	// everything else.
	var clock *schedule.Clock
	if s.StartDate != "" {
		if clock, err = schedule.NewClock(s.StartDate, s.Calendar); err != nil {
			return err
		}
	}
	ro := risk.Options{Iterations: opts.Iterations, Seed: opts.Seed, Workers: opts.Workers}
	if opts.Correlate != "" {
		ro.Groups, ro.Correlation = risk.TradeGroups(s), opts.Correlation
	}
	res, err := m.Run(ro)
	if err != nil {
		return err
	}
	rep := &risk.Report{Result: res, Name: s.Name, CorrelateBy: opts.Correlate, Clock: clock}
	if opts.DumpSamples != "" {
		if err := cmdutil.WriteOutput(opts.DumpSamples, func(w io.Writer) error { return dumpSamples(w, m, ro) }); err != nil {
			return err
		}
	}
	if res.Random == 0 && opts.Format != "table" {
		fmt.Fprintln(opts.ErrOut, "risk: every duration is fixed (no distributions): every iteration is the deterministic schedule, so P10 = P90")
	}
	if p := rep.PastRange(); p != nil && opts.Format != "table" {
		fmt.Fprintf(opts.ErrOut, "risk: %d of %d iterations finish past the calendar's range: they have no finish date (the report lists them)\n", p.Count, res.Iterations)
	}
	switch opts.Format {
	case "json":
		return rep.WriteJSON(opts.Out)
	case "html":
		return rep.WriteHTML(opts.Out)
	}
	return rep.WriteTable(opts.Out)
}

// dumpSamples writes every iteration's sampled durations, in schedule
// order, as a NumPy .npy file (format 1.0, little-endian float64, shape
// (iterations, activities)): the very numbers the simulation used.
func dumpSamples(w io.Writer, m *risk.Model, opt risk.Options) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	header := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }", opt.Iterations, m.Len())
	pad := 64 - (10+len(header)+1)%64
	if pad == 64 {
		pad = 0
	}
	header += strings.Repeat(" ", pad) + "\n"
	bw.WriteString("\x93NUMPY\x01\x00")
	binary.Write(bw, binary.LittleEndian, uint16(len(header)))
	bw.WriteString(header)
	var buf [8]byte
	err := m.Samples(opt, func(_ int, dur []float64) error {
		for _, d := range dur {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(d))
			bw.Write(buf[:])
		}
		return nil
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}
