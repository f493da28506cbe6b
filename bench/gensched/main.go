// Command gensched writes a synthetic schedule file for benchmarks: the same
// schedule the Go benchmarks build in memory (schedule.Synthetic).
package main

import (
	"bufio"
	"encoding/json"
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
	liveProg := flag.Bool("live", false, "a progressed programme (see live.go): data date, three calendars, actuals, remaining work, constraints")
	width := flag.Int("width", 1000, "with -live: activities per logic level")
	complete := flag.Float64("complete", 0.30, "with -live: share of activities finished")
	inProgress := flag.Float64("in-progress", 0.10, "with -live: share of activities started, not finished")
	constrain := flag.Float64("constraints", 0.05, "with -live: share of activities with a date constraint (unstarted ones)")
	tool := flag.String("tool", "p6", "with -live: whose scheduling rules (p6 or msproject)")
	flag.Parse()
	var s *schedule.Schedule
	if *liveProg {
		s = live(liveParams{n: *n, links: *links, width: *width, complete: *complete, inProgress: *inProgress,
			constrain: *constrain, tool: *tool, seed: *seed})
	} else {
		s = schedule.Synthetic(*n, *links, *seed)
	}
	if *building != "" {
		var err error
		if s, err = blocks(*building, *n); err != nil {
			fmt.Fprintln(os.Stderr, "gensched:", err)
			os.Exit(1)
		}
	}
	if err := write(*out, s, *liveProg); err != nil {
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

func write(path string, s *schedule.Schedule, live bool) error {
	if path == "" {
		return fmt.Errorf("-o is required")
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if live {
		// interchange.WriteJSON writes the plain network only: encode the
		// live fields with the model's own JSON tags.
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		err = enc.Encode(s)
	} else {
		err = interchange.WriteJSON(w, s)
	}
	if err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
