// Command autoscheduler is the Autoscheduler CLI.
package main

import (
	"os"
	"runtime/debug"

	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// cliMemoryLimit is where the collector stops trading memory for time.
// Above it a command still runs (the limit is soft): the collector just
// works more often.
const cliMemoryLimit = 640 << 20

func main() {
	// A CLI run is short: trade some memory for less garbage collection
	// (about 20% faster on a 100k-activity file), up to a soft limit, so a
	// 50,000-activity import (250 MB live) peaks near 750 MB, not 1.2 GB.
	// GOGC and GOMEMLIMIT still override.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(cliMemoryLimit)
	}
	os.Exit(run(os.Args[1:], cmdutil.System()))
}
