package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// Usage errors and exit codes are cmdutil's, shared with the front binary
// (starter/front).
var usagef = cmdutil.Usagef

const (
	exitOK    = cmdutil.ExitOK
	exitError = cmdutil.ExitError
	exitUsage = cmdutil.ExitUsage
)

// newRoot builds the factory once and the command tree from it, and says
// how to redact its errors (the Temporal API key never reaches the
// terminal). dial, when set, replaces connecting to Temporal (tests hand
// in their client).
func newRoot(ios *cmdutil.IOStreams, dial func() (client.Client, error)) (root *cobra.Command, redact func(error) error) {
	root = cmdutil.NewRoot(ios.In, ios.Out, ios.ErrOut)
	f := newFactory(ios, dial)
	f.bindFlags(root)
	// --as is recorded as an author or reviewer and shown to other people
	// (dispatch show, the review page, refusals naming who decided first):
	// it is refused before any command runs when it could rewrite their
	// terminal or is no name at all.
	root.PersistentPreRunE = func(*cobra.Command, []string) error { return f.Temporal.checkAs() }
	root.AddCommand(
		newScheduleCmd(f, nil),
		newAskCmd(f, nil),
		newCheckCmd(f, nil),
		newImportCmd(f, nil),
		newExportCmd(f, nil),
		newCompareCmd(f, nil),
		newVersionsCmd(f, nil),
		newBaselineCmd(f),
		newSearchCmd(f, nil),
		newVerifyCmd(f, nil),
		newDevCmd(f, nil),
		newDemoCmd(f, nil),
		newPlanCmd(f, nil),
		newPromptCmd(f, nil),
		newReviewCmd(f, nil),
		newPortfolioCmd(f),
		newClarifyCmd(f, nil),
		newDispatchCmd(f),
		newActivityCmd(f),
		newRelationshipCmd(f),
		newMenuCmd(f, nil),
		newWebCmd(f, nil),
		newPrefsCmd(f),
		newRiskCmd(f),
		newTemporalUICmd(f, nil),
	)
	return root, f.Temporal.Redact
}

// run executes the CLI and maps errors to exit codes.
func run(args []string, ios *cmdutil.IOStreams) int { return runWith(args, ios, nil) }

// runWith is run with Temporal's client from dial (nil: dial the
// configured server).
func runWith(args []string, ios *cmdutil.IOStreams, dial func() (client.Client, error)) int {
	root, redact := newRoot(ios, dial)
	root.SetArgs(args)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := root.ExecuteContext(ctx)
	if err != nil {
		err = redact(err)
	}
	return cmdutil.Report(ios.ErrOut, err)
}
