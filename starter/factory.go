package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/user"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// Factory is what every command is built from (gh's cmdutil.Factory): the
// root makes one, binds the global flags into it, and hands it to each
// newXCmd, which copies what its options need. It lives beside the
// commands, not in cmdutil, because cmdutil is linked into the small front
// binary (starter/front), which must not link the store and Temporal
// clients.
type Factory struct {
	IOStreams *cmdutil.IOStreams
	// Stores is the stores' configuration (--db, Neo4j, Weaviate, the
	// embedder). A command opens them when it runs and closes them when
	// done: never for --help or a usage error, and never held open across
	// what a worker writes in between (menu reads afresh for each action).
	Stores *config.Stores
	// Planning is the planner's configuration (--planner, the model).
	Planning *config.Planning
	// Temporal is where Temporal is and who is at the keyboard (--as);
	// Temporal.client dials when a command needs it.
	Temporal *temporalConfig
}

// newFactory reads the environment; bindFlags then binds the global flags.
// dial, when set, replaces connecting to Temporal (tests hand in their
// client).
func newFactory(ios *cmdutil.IOStreams, dial func() (client.Client, error)) *Factory {
	stores := config.StoresFromEnv()
	planning := config.PlanningFromEnv()
	return &Factory{
		IOStreams: ios,
		Stores:    &stores,
		Planning:  &planning,
		Temporal:  &temporalConfig{Temporal: config.TemporalFromEnv(), dial: dial},
	}
}

// bindFlags binds the global flags (stores, planner, Temporal, --as) on
// the root.
func (f *Factory) bindFlags(root *cobra.Command) {
	fs := root.PersistentFlags()
	f.Stores.BindFlags(fs)
	f.Planning.BindFlags(fs)
	f.Temporal.Temporal.BindFlags(fs)
	fs.StringVar(&f.Temporal.As, "as", "", "your name, recorded as the author of a prompt and the reviewer of a review (default: the OS user)")
}

// loadStoredSchedule reads a stored schedule, opening the stores for
// just that.
func loadStoredSchedule(ctx context.Context, stores *config.Stores, scheduleID string) (*schedule.Schedule, error) {
	c, err := stores.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close(ctx)
	return c.Load(ctx, scheduleID)
}

// loadView reads a schedule file or a stored schedule and computes CPM.
// Reading warnings go to errOut.
func loadView(ctx context.Context, stores *config.Stores, errOut io.Writer, file, scheduleID string) (*insight.View, error) {
	if file != "" {
		s, net, err := cmdutil.LoadFile(errOut, file)
		if err != nil {
			return nil, err
		}
		return insight.NewOf(s, net.Compute())
	}
	s, err := loadStoredSchedule(ctx, stores, scheduleID)
	if err != nil {
		return nil, err
	}
	return insight.New(s)
}

// temporalConfig is where the CLI finds Temporal (config.Temporal, the
// worker's own configuration) and who the person at the keyboard is.
type temporalConfig struct {
	config.Temporal
	// As is --as: the name recorded as a dispatch's author and a review's
	// reviewer.
	As string
	// dial, when set, replaces dialling (tests hand in their client).
	dial func() (client.Client, error)
}

// client connects; a connection error says how to get a server.
func (cfg *temporalConfig) client() (client.Client, error) {
	if cfg.dial != nil {
		return cfg.dial()
	}
	c, err := cfg.Dial(quietSDKLogger(&cmdutil.IOStreams{ErrOut: io.Discard}))
	if errors.Is(err, config.ErrUnreachable) && cfg.Address == config.DefaultTemporalAddress {
		return nil, fmt.Errorf("%w (start a local one with `autoscheduler dev`)", err)
	}
	return c, err
}

// checkAs refuses an --as that is no name: blank, too long, or with
// control or invisible characters (usertext.Name). Unset is fine: who
// falls back to the OS user.
func (cfg *temporalConfig) checkAs() error {
	if cfg.As == "" {
		return nil
	}
	if err := usertext.Name("--as", cfg.As); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// who is the name a dispatch or review is recorded under: --as, else the
// OS user, else $USER.
func (cfg *temporalConfig) who() string {
	if cfg.As != "" {
		return cfg.As
	}
	return osUser()
}

// osUser is the login name, from the OS's user database or $USER (or
// $USERNAME on Windows); "unknown" when neither says. A value that is no
// name (usertext.Name: control characters, say) is passed over.
func osUser() string {
	if u, err := user.Current(); err == nil && usertext.Name("user", u.Username) == nil {
		return u.Username
	}
	for _, k := range []string{"USER", "USERNAME"} {
		if v := os.Getenv(k); usertext.Name(k, v) == nil {
			return v
		}
	}
	return "unknown"
}

// quietSDKLogger keeps the SDK's routine chatter (worker start, polls)
// out of the terminal; warnings and errors still show.
func quietSDKLogger(io *cmdutil.IOStreams) sdklog.Logger {
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.ErrOut, &slog.HandlerOptions{Level: slog.LevelWarn})))
}
