package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
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

// Usage errors and exit codes are cmdutil's, shared with the front binary
// (starter/front).
var usagef = cmdutil.Usagef

const (
	exitOK    = cmdutil.ExitOK
	exitError = cmdutil.ExitError
	exitUsage = cmdutil.ExitUsage
)

// newRoot builds the command tree and says how to redact its errors (the
// Temporal API key never reaches the terminal). dial, when set, replaces
// connecting to Temporal (tests hand in their client).
func newRoot(io *streams, dial func() (client.Client, error)) (root *cobra.Command, redact func(error) error) {
	root = cmdutil.NewRoot(io.In, io.Out, io.ErrOut)
	stores := config.StoresFromEnv()
	stores.BindFlags(root.PersistentFlags())
	planning := config.PlanningFromEnv()
	planning.BindFlags(root.PersistentFlags())
	temporalCfg := &temporalConfig{dial: dial}
	temporalCfg.bind(root)
	redact = temporalCfg.Redact
	// --as is recorded as an author or reviewer and shown to other people
	// (dispatch show, the review page, refusals naming who decided first):
	// it is refused before any command runs when it could rewrite their
	// terminal or is no name at all.
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return temporalCfg.checkAs() }
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
	if err != nil {
		err = redact(err)
	}
	return cmdutil.Report(io.ErrOut, err)
}
