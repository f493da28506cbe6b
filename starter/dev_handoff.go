//go:build lite

package main

import (
	"context"

	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// The lite build (`go build -tags lite`, what `make build` installs as
// bin/autoscheduler-cli, behind the front bin/autoscheduler) leaves the
// Temporal server out: every command starts in a third of the time and
// memory. `dev` and `demo` hand over to the full binary beside it,
// bin/autoscheduler-dev, by exec — same process id, arguments, environment
// and terminal, so it is still one command.
const liteBuild = true

// fullBinary is the name of the full build next to the lite one.
const fullBinary = "autoscheduler-dev"

func handOff() error { return cmdutil.HandOff(fullBinary, "`dev`, `demo` and `temporal-ui`") }

// devRun is never reached in the lite build (the commands hand off first).
func devRun(context.Context, *devOptions) error { return handOff() }

// temporalUIRun is never reached in the lite build either.
func temporalUIRun(context.Context, *temporalUIOptions) error { return handOff() }
