package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

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

func (cfg *temporalConfig) bind(cmd *cobra.Command) {
	cfg.Temporal = config.TemporalFromEnv()
	f := cmd.PersistentFlags()
	cfg.Temporal.BindFlags(f)
	f.StringVar(&cfg.As, "as", "", "your name, recorded as the author of a prompt and the reviewer of a review (default: the OS user)")
}

// client connects; a connection error says how to get a server.
func (cfg *temporalConfig) client() (client.Client, error) {
	if cfg.dial != nil {
		return cfg.dial()
	}
	c, err := cfg.Dial(quietSDKLogger(&streams{ErrOut: io.Discard}))
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
