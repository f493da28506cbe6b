// Package cmdutil holds what the CLI's commands and its binaries share:
// usage errors and exit codes, writing an -o file whole, and handing a
// command over to a sibling binary.
package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// Exit codes (README: Exit status).
const (
	// ExitOK: done; for a dispatch, accepted or rejected — the outcomes a
	// person chose.
	ExitOK = 0
	// ExitError: any error; a dispatch that failed, timed out or was
	// cancelled; stores that disagree (verify).
	ExitError = 1
	// ExitUsage: a misused flag or argument, refused before anything ran.
	ExitUsage = 2
)

// UsageError is a misuse of flags or arguments (exit code 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

// Report prints a command's error as the CLI does ("autoscheduler: ..."
// on errOut; nil prints nothing) and returns the exit code. Errors quote
// what people typed and what the stores and workflows hold (names,
// prompts, feedback, another reviewer's name in a refusal), so control
// characters are shown escaped, never sent to the terminal.
func Report(errOut io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	fmt.Fprintf(errOut, "autoscheduler: %s\n", usertext.TerminalText(err.Error()))
	var usage *UsageError
	if errors.As(err, &usage) || isCobraUsage(err) {
		return ExitUsage
	}
	return ExitError
}

// isCobraUsage spots cobra's own argument errors, which it does not type.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "unknown flag", "unknown shorthand flag"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// HandOff execs the binary named binary in this executable's directory with
// this process's arguments and environment: same process id and terminal,
// so it is still one command. It returns only on failure; what names the
// commands that need it, for the error.
func HandOff(binary, what string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	path := filepath.Join(filepath.Dir(self), binary)
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("%s run from %s, which is missing: run `make build`", what, path)
	}
	return syscall.Exec(path, append([]string{path}, os.Args[1:]...), os.Environ())
}

// NewRoot is the root command both binaries start from: the product's name
// and description, errors returned (not printed) and flag misuse a usage
// error.
func NewRoot(in io.Reader, out, errOut io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "autoscheduler",
		Short: "Plan and change CPM construction schedules in plain language",
		Long: "Autoscheduler keeps a CPM schedule and lets a planner change it by talking to it.\n" +
			"Durations and lags are in working days.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &UsageError{err.Error()} })
	return root
}

// shortRunMemoryLimit is where the collector stops trading memory for
// time. Above it a command still runs (the limit is soft): the collector
// just works more often.
const shortRunMemoryLimit = 640 << 20

// ShortRun sets the collector for a CLI run, which is short: trade some
// memory for less garbage collection (gcPercent, as GOGC: 400 is about
// 20% faster than the default on a 100k-activity file; -1 collects only
// at the limit), up to a soft limit, so a 50,000-activity import (250 MB
// live) peaks near 750 MB, not 1.2 GB. GOGC and GOMEMLIMIT still
// override.
func ShortRun(gcPercent int) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(shortRunMemoryLimit)
	}
}
