// Command gensched writes a synthetic schedule file for benchmarks: the same
// schedule the Go benchmarks build in memory (schedule.Synthetic).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func main() {
	n := flag.Int("n", 100_000, "number of activities")
	links := flag.Int("links", 3, "relationships per activity (about)")
	seed := flag.Uint64("seed", 1, "random seed")
	out := flag.String("o", "", "output file (.json)")
	flag.Parse()
	if err := write(*out, schedule.Synthetic(*n, *links, *seed)); err != nil {
		fmt.Fprintln(os.Stderr, "gensched:", err)
		os.Exit(1)
	}
}

func write(path string, s *schedule.Schedule) error {
	if path == "" {
		return fmt.Errorf("-o is required")
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := interchange.WriteJSON(w, s); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
