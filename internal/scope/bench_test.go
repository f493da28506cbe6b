package scope

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// longPrompt writes about size bytes of what planners type into one
// prompt: deletions, dissolves, additions placed after or before
// activities, links in several phrasings, duration changes, moves, lists
// of ids and of names, with the odd typo and question, joined by full
// stops, semicolons, line breaks and "then". It is deterministic in seed.
func longPrompt(s *schedule.Schedule, size int, seed uint64) string {
	return genPrompt(s, size, seed, false)
}

// cleanPrompt is longPrompt with only what the rules planner plans
// without a question (exact names and ids, no moves), so every part of it
// is planned.
func cleanPrompt(s *schedule.Schedule, size int, seed uint64) string {
	return genPrompt(s, size, seed, true)
}

func genPrompt(s *schedule.Schedule, size int, seed uint64, clean bool) string {
	r := rand.New(rand.NewPCG(seed, 26))
	// What is deleted is never named again (in a clean prompt, where a
	// name deleted earlier would be asked about).
	var gone, kept []schedule.Activity
	for i, a := range s.Activities {
		if clean && strings.Contains(a.Name, " and ") {
			continue // "A, Doors and frames Level 1 and B" is a list of four
		}
		if i%3 == 0 || !clean {
			gone = append(gone, a)
		}
		if i%3 != 0 || !clean {
			kept = append(kept, a)
		}
	}
	pick := func(acts []schedule.Activity) string {
		n := acts[r.IntN(len(acts))].Name
		if clean {
			return n
		}
		if r.IntN(8) == 0 { // a typo: two letters swapped
			b := []byte(n)
			if i := r.IntN(len(b) - 1); b[i] != ' ' && b[i+1] != ' ' {
				b[i], b[i+1] = b[i+1], b[i]
			}
			n = string(b)
		}
		if r.IntN(6) == 0 {
			n = strings.ToLower(n)
		}
		return n
	}
	name := func() string { return pick(kept) }
	r.Shuffle(len(gone), func(i, j int) { gone[i], gone[j] = gone[j], gone[i] })
	next := func() schedule.Activity { // each deleted once, in a clean prompt
		if !clean {
			return gone[r.IntN(len(gone))]
		}
		a := gone[0]
		gone = gone[1:]
		return a
	}
	doomed := func() string { return pick([]schedule.Activity{next()}) }
	id := func() string { return next().ID }
	list := func(item func() string, n int) string {
		xs := make([]string, n)
		for i := range xs {
			xs[i] = item()
		}
		return strings.Join(xs[:n-1], ", ") + " and " + xs[n-1]
	}
	trades := []string{"painting", "drywall", "tiling", "flooring", "joinery", "electrical", "plumbing", "ceilings"}
	templates := []func() string{
		func() string { return "delete " + doomed() },
		func() string { return "remove " + list(id, 2+r.IntN(5)) },
		func() string { return "get rid of " + list(doomed, 2+r.IntN(2)) },
		func() string { return "dissolve " + doomed() + " but keep the logic" },
		func() string {
			return fmt.Sprintf("add a %d day %s check after %s", 1+r.IntN(9), trades[r.IntN(len(trades))], name())
		},
		func() string {
			return fmt.Sprintf("insert a %d day Survey %d before %s", 1+r.IntN(5), r.IntN(100), name())
		},
		func() string { return fmt.Sprintf("link %s to %s SS with %d days lag", name(), name(), r.IntN(4)) },
		func() string { return name() + " can't start until " + name() + " is finished" },
		func() string { return fmt.Sprintf("extend %s by %d days", name(), 1+r.IntN(5)) },
		func() string { return fmt.Sprintf("%s should take %d days", name(), 1+r.IntN(20)) },
		func() string { return "remove the link between " + name() + " and " + name() },
		func() string { return "move " + name() + " after " + name() },
		func() string { return name() + " should follow " + name() + " instead of " + name() },
		func() string {
			return fmt.Sprintf("delete the %s on level %d", trades[r.IntN(len(trades))], 1+r.IntN(6))
		},
		func() string { return "what drives " + name() + "?" },
		func() string {
			return "pls sort out the " + trades[r.IntN(len(trades))] + " asap, the client is unhappy"
		},
	}
	if clean {
		templates = templates[:11]
	}
	seps := []string{". ", "; ", "\n", ", then ", ". Also "}
	var b strings.Builder
	for b.Len() < size {
		if b.Len() > 0 {
			b.WriteString(seps[r.IntN(len(seps))])
		}
		t := r.IntN(len(templates))
		if clean && t < 4 && len(gone) < 8 { // every deletion made: change the rest
			t = 4 + r.IntN(len(templates)-4)
		}
		b.WriteString(templates[t]())
	}
	return b.String()
}

// listPrompt is one request naming about size bytes of activities in a
// list: "delete Mobilisation, Site hoarding, …, Piling and …".
func listPrompt(s *schedule.Schedule, size int) string {
	var xs []string
	n := len("delete")
	for i := 0; n < size; i++ {
		a := s.Activities[(i*5)%len(s.Activities)] // every activity before any twice
		xs = append(xs, a.Name)
		n += len(a.Name) + 2
	}
	return "delete " + strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// idList is "delete A010, A011, … and A0nn": n ids of s in a row.
func idList(s *schedule.Schedule, n int) string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = s.Activities[(9+i)%len(s.Activities)].ID
	}
	return "delete " + strings.Join(ids[:n-1], ", ") + " and " + ids[n-1]
}

func benchPlan(b *testing.B, prompt string) {
	s := storetest.Building(b)
	b.SetBytes(int64(len(prompt)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := PlanRound(context.Background(), Rules{}, s, PlanInput{Prompt: prompt, Round: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlan plans generated prompts of growing length with the rules
// planner (go test ./internal/scope -run X -bench Plan): mixed requests planned whole (cleanPrompt),
// the same with typos, moves and questions (longPrompt, which stops at its
// first question), and one request listing names (listPrompt). The time
// per byte should stay about flat: planning is near linear in the prompt.
func BenchmarkPlan(b *testing.B) {
	s := storetest.Building(b)
	for _, shape := range []struct {
		name string
		gen  func(size int) string
	}{
		{"mixed", func(size int) string { return cleanPrompt(s, size, 1) }},
		{"typos", func(size int) string { return longPrompt(s, size, 1) }},
		{"list", func(size int) string { return listPrompt(s, size) }},
	} {
		for _, size := range []int{512, 1 << 10, 2 << 10, 3584, 10 << 10} {
			b.Run(fmt.Sprintf("%s/%dB", shape.name, size), func(b *testing.B) { benchPlan(b, shape.gen(size)) })
		}
	}
}

// BenchmarkPlan10KB is a 10 KB prompt of mixed requests (under MaxPrompt)
// planned whole.
func BenchmarkPlan10KB(b *testing.B) {
	benchPlan(b, cleanPrompt(storetest.Building(b), 10<<10, 1))
}

// BenchmarkPlanIDList is "delete A010, A011, …" with 25, 50 and 100 ids.
func BenchmarkPlanIDList(b *testing.B) {
	s := storetest.Building(b)
	for _, n := range []int{25, 50, 100} {
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) { benchPlan(b, idList(s, n)) })
	}
}
