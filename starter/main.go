// Command autoscheduler is the Autoscheduler CLI.
package main

import (
	"os"

	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

func main() {
	cmdutil.ShortRun()
	os.Exit(run(os.Args[1:], cmdutil.System()))
}
