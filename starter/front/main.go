// Command front is bin/autoscheduler as `make build` installs it: a small
// binary that runs `risk` on a schedule file itself and hands every other
// command line to the CLI beside it, bin/autoscheduler-cli, by exec (same
// process, arguments, environment and terminal: still one command).
//
// Why: the CLI links the Temporal, Weaviate, Neo4j and OpenAI clients, whose
// package initialisation alone takes about 15 ms of every run. A Monte Carlo
// run of 10,000 iterations takes about 30 ms, so for `risk --file` that
// would be a third of what a person waits; this binary links none of them
// and starts in about 3 ms. Anything it is not sure it runs exactly as the CLI would —
// another command, --help, a global flag, a stored schedule — goes to the
// CLI, so both give the same output, errors and exit codes.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/starter/riskcmd"
)

// cliBinary is the full CLI's name beside this one.
const cliBinary = "autoscheduler-cli"

func main() {
	args := os.Args[1:]
	risk := riskcmd.New(os.Stdout, os.Stderr, func(context.Context, string) (*schedule.Schedule, error) {
		return nil, fmt.Errorf("stored schedules are read by %s (serves hands --schedule to it)", cliBinary)
	}, nil)
	if !serves(args, risk) {
		err := cmdutil.HandOff(cliBinary, "commands other than `risk --file`")
		os.Exit(cmdutil.Report(os.Stderr, err))
	}
	// As the CLI: a short run trades memory for less garbage collection.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	root := cmdutil.NewRoot(os.Stdin, os.Stdout, os.Stderr)
	root.AddCommand(risk)
	root.SetArgs(args)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := root.ExecuteContext(ctx)
	stop()
	os.Exit(cmdutil.Report(os.Stderr, err))
}

// serves says whether this binary runs args itself: `risk` with only its
// own flags, a --file and no --schedule (stored schedules need the stores'
// clients) and no --help (the CLI's help lists the global flags too). A
// flag's value may be the next argument; anything else — a positional
// argument, "--", a flag it does not know — goes to the CLI.
func serves(args []string, risk *cobra.Command) bool {
	if len(args) < 2 || args[0] != risk.Name() {
		return false
	}
	flags := risk.Flags()
	file := false
	for i := 1; i < len(args); i++ {
		arg := args[i]
		if len(arg) < 2 || arg[0] != '-' || arg == "--" {
			return false
		}
		var name string
		var inline bool // the value is in this argument
		if strings.HasPrefix(arg, "--") {
			name, _, inline = strings.Cut(arg[2:], "=")
		} else if f := flags.ShorthandLookup(arg[1:2]); f != nil {
			name, inline = f.Name, len(arg) > 2
		}
		f := flags.Lookup(name)
		if f == nil || f.Name == "schedule" || f.Name == "help" || f.NoOptDefVal != "" {
			return false
		}
		file = file || f.Name == "file"
		if !inline {
			i++
		}
	}
	return file
}
