// Command front is bin/autoscheduler as `make build` installs it: a small
// binary that runs `risk` and `schedule` on a schedule file itself and
// hands every other command line to the CLI beside it,
// bin/autoscheduler-cli, by exec (same process, arguments, environment and
// terminal: still one command).
//
// Why: the CLI links the Temporal, Weaviate, Neo4j and OpenAI clients, whose
// package initialisation alone takes about 15 ms of every run (20 ms more
// with the exec). A Monte Carlo run of 10,000 iterations takes about 30 ms,
// and CPM on a 10,000-activity P6 file about 100, so for `risk --file` and
// `schedule --file` that would be a large part of what a person waits; this
// binary links none of them and starts in about 3 ms. Anything it is not
// sure it runs exactly as the CLI would — another command, a subcommand,
// --help, a global flag, a stored schedule — goes to the CLI, so both give
// the same output, errors and exit codes.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/starter/riskcmd"
	"github.com/autoscheduler/autoscheduler/starter/schedulecmd"
)

// cliBinary is the full CLI's name beside this one.
const cliBinary = "autoscheduler-cli"

func main() {
	args := os.Args[1:]
	cmd := served(args)
	if cmd == nil {
		err := cmdutil.HandOff(cliBinary, "commands other than `risk --file` and `schedule --file`")
		os.Exit(cmdutil.Report(os.Stderr, err))
	}
	// A file command allocates mostly what it keeps (the schedule, its
	// network, its report): collecting on the way only costs time (a
	// tenth of `schedule` on 100k activities), so the collector waits for
	// the CLI's soft memory limit.
	cmdutil.ShortRun(-1)
	root := cmdutil.NewRoot(os.Stdin, os.Stdout, os.Stderr)
	root.AddCommand(cmd)
	root.SetArgs(args)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := root.ExecuteContext(ctx)
	stop()
	os.Exit(cmdutil.Report(os.Stderr, err))
}

// served is the command this binary runs args with, or nil to hand them
// to the CLI.
func served(args []string) *cobra.Command {
	noStore := func(context.Context, string) (*schedule.Schedule, error) {
		return nil, fmt.Errorf("stored schedules are read by %s (serves hands --schedule to it)", cliBinary)
	}
	for _, cmd := range []*cobra.Command{
		riskcmd.New(os.Stdout, os.Stderr, noStore, nil),
		schedulecmd.New(os.Stdout, os.Stderr, noStore, nil),
	} {
		if serves(args, cmd) {
			return cmd
		}
	}
	return nil
}

// serves says whether this binary runs args with cmd: cmd's name with only
// its own flags, a --file and no --schedule (stored schedules need the
// stores' clients) and no --help (the CLI's help lists the global flags
// too). A flag's value may be the next argument, except a flag that needs
// none (--json); anything else — a positional argument or subcommand, "--",
// a flag it does not know — goes to the CLI.
func serves(args []string, cmd *cobra.Command) bool {
	if len(args) < 2 || args[0] != cmd.Name() {
		return false
	}
	flags := cmd.Flags()
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
		if f == nil || f.Name == "schedule" || f.Name == "help" {
			return false
		}
		if f.NoOptDefVal != "" {
			// Its value is only ever inline (--json=false); a shorthand
			// run together with others (-jf a.json) goes to the CLI.
			if !strings.HasPrefix(arg, "--") && len(arg) > 2 {
				return false
			}
			continue
		}
		file = file || f.Name == "file"
		if !inline {
			i++
		}
	}
	return file
}
