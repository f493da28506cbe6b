package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
)

// streams are the command's input and outputs; chatter goes to ErrOut so Out
// stays clean for scripts.
type streams struct {
	In          io.Reader
	Out, ErrOut io.Writer
	OutIsTTY    bool
}

func newStreams() *streams {
	return &streams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, OutIsTTY: isTerminal(os.Stdout)}
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// usageError is a misuse of flags or arguments (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// Exit codes (README: Exit status).
const (
	// exitOK: done; for a dispatch, accepted or rejected — the outcomes a
	// person chose.
	exitOK = 0
	// exitError: any error; a dispatch that failed, timed out or was
	// cancelled; stores that disagree (verify).
	exitError = 1
	// exitUsage: a misused flag or argument, refused before anything ran.
	exitUsage = 2
)

// newRoot builds the command tree and says how to redact its errors (the
// Temporal API key never reaches the terminal). dial, when set, replaces
// connecting to Temporal (tests hand in their client).
func newRoot(io *streams, dial func() (client.Client, error)) (root *cobra.Command, redact func(error) error) {
	root = &cobra.Command{
		Use:   "autoscheduler",
		Short: "Plan and change CPM construction schedules in plain language",
		Long: "Autoscheduler keeps a CPM schedule and lets a planner change it by talking to it.\n" +
			"Durations and lags are in working days.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	stores := config.StoresFromEnv()
	stores.BindFlags(root.PersistentFlags())
	planning := config.PlanningFromEnv()
	planning.BindFlags(root.PersistentFlags())
	temporalCfg := &temporalConfig{dial: dial}
	temporalCfg.bind(root)
	redact = temporalCfg.Redact
	root.AddCommand(
		newScheduleCmd(io, &stores, nil),
		newAskCmd(io, &stores, &planning),
		newCheckCmd(io, &stores),
		newImportCmd(io, &stores),
		newExportCmd(io, &stores, nil),
		newSearchCmd(io, &stores),
		newVerifyCmd(io, &stores),
		newDevCmd(io, &stores, &planning),
		newDemoCmd(io, &stores, &planning),
		newPlanCmd(io, &planning),
		newPromptCmd(io, temporalCfg, &stores, nil),
		newReviewCmd(io, temporalCfg, nil),
		newPortfolioCmd(io, temporalCfg, &stores),
		newClarifyCmd(io, temporalCfg),
		newDispatchCmd(io, temporalCfg, &editEnv{io: io, stores: &stores, temporal: temporalCfg}),
		newActivityCmd(&editEnv{io: io, stores: &stores, temporal: temporalCfg}),
		newRelationshipCmd(&editEnv{io: io, stores: &stores, temporal: temporalCfg}),
		newMenuCmd(&editEnv{io: io, stores: &stores, temporal: temporalCfg}),
		newWebCmd(io, &stores, temporalCfg),
		newPrefsCmd(io, &stores),
		newRiskCmd(io, &stores),
		newTemporalUICmd(io, temporalCfg),
	)
	return root, redact
}

// run executes the CLI and maps errors to exit codes.
func run(args []string, io *streams) int { return runWith(args, io, nil) }

// runWith is run with Temporal's client from dial (nil: dial the
// configured server).
func runWith(args []string, io *streams, dial func() (client.Client, error)) int {
	root, redact := newRoot(io, dial)
	root.SetArgs(args)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(io.ErrOut, "autoscheduler: %v\n", redact(err))
	var usage *usageError
	if errors.As(err, &usage) || isCobraUsage(err) {
		return exitUsage
	}
	return exitError
}

// isCobraUsage spots cobra's own argument errors, which it does not type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "unknown flag", "unknown shorthand flag"} {
		if len(msg) >= len(p) && (msg[:len(p)] == p) {
			return true
		}
	}
	return false
}
