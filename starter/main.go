// Command autoscheduler is the Autoscheduler CLI.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], newStreams())) }
