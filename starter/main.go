// Command autoscheduler is the Autoscheduler CLI.
package main

import (
	"os"

	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

func main() {
	cmdutil.ShortRun(400)
	os.Exit(run(os.Args[1:], cmdutil.System()))
}
