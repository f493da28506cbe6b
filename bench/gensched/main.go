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
	building := flag.String("building", "", "a schedule file to repeat as blocks (names and logic as in it) instead of the synthetic network")
	flag.Parse()
	s := schedule.Synthetic(*n, *links, *seed)
	if *building != "" {
		var err error
		if s, err = blocks(*building, *n); err != nil {
			fmt.Fprintln(os.Stderr, "gensched:", err)
			os.Exit(1)
		}
	}
	if err := write(*out, s); err != nil {
		fmt.Fprintln(os.Stderr, "gensched:", err)
		os.Exit(1)
	}
}

// blocks repeats a real schedule's activities and logic as blocks ("…
// Block 7") until n activities, each block after the one before: a large
// schedule with the words planners use, for search benchmarks.
func blocks(path string, n int) (*schedule.Schedule, error) {
	base, err := interchange.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := &schedule.Schedule{Name: fmt.Sprintf("%s × blocks", base.Name), StartDate: base.StartDate, Calendar: base.Calendar}
	for b := 1; len(out.Activities) < n; b++ {
		suffix := fmt.Sprintf(" Block %d", b)
		id := func(s string) string { return fmt.Sprintf("B%d-%s", b, s) }
		block := map[string]bool{}
		for _, a := range base.Activities {
			if len(out.Activities) == n {
				break
			}
			a.ID, a.Name = id(a.ID), a.Name+suffix
			block[a.ID] = true
			out.Activities = append(out.Activities, a)
		}
		for _, r := range base.Relationships {
			r.ID, r.Predecessor, r.Successor = id(r.ID), id(r.Predecessor), id(r.Successor)
			if block[r.Predecessor] && block[r.Successor] {
				out.Relationships = append(out.Relationships, r)
			}
		}
	}
	return out, nil
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
