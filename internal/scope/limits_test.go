package scope

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestPromptOverMaxPromptIsRefused: a prompt, feedback or answer over
// MaxPrompt characters is refused with ErrTooLong before anything is
// planned, by PlanRound and by the planners themselves (what the
// dispatch's activities call); MaxPrompt characters of any width pass.
func TestPromptOverMaxPromptIsRefused(t *testing.T) {
	s := storetest.Building(t)
	ctx := context.Background()
	long := strings.Repeat("delete Painting Level 2. ", MaxPrompt/25+1)
	if len(long) <= MaxPrompt {
		t.Fatal("the long prompt is not long")
	}
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrTooLong) {
			t.Errorf("%s: err = %v, want ErrTooLong", what, err)
		} else if !strings.Contains(err.Error(), "too long to plan") || !strings.Contains(err.Error(), "at most 16384") {
			t.Errorf("%s: %v does not say why", what, err)
		}
	}
	_, err := PlanRound(ctx, Rules{}, s, PlanInput{Prompt: long, Round: 1})
	check("PlanRound prompt", err)
	_, err = PlanRound(ctx, Rules{}, s, PlanInput{Prompt: "delete Painting Level 2", Feedback: long, Round: 2})
	check("PlanRound feedback", err)
	_, err = PlanRound(ctx, Rules{}, s, PlanInput{Prompt: "delete the pour", Round: 1, Clarifications: []Clarification{{Answer: long}}})
	check("PlanRound answer", err)
	_, err = Rules{}.Separate(ctx, long)
	check("Rules.Separate", err)
	snap := Snapshot{Schedule: s}
	_, err = Rules{}.PlanRemovals(ctx, snap, PlanInput{Prompt: long})
	check("Rules.PlanRemovals", err)
	_, err = Rules{}.PlanAdditions(ctx, snap, PlanInput{Prompt: "add X", Feedback: long})
	check("Rules.PlanAdditions", err)
	_, err = (&Manager{}).Separate(ctx, long) // refused before any model call
	check("Manager.Separate", err)
	_, err = (&Manager{}).PlanAdditions(ctx, snap, PlanInput{Prompt: long})
	check("Manager.PlanAdditions", err)

	if err := CheckPrompt("prompt", strings.Repeat("é", MaxPrompt)); err != nil {
		t.Errorf("MaxPrompt two-byte characters: %v", err)
	}
	if err := CheckPrompt("prompt", strings.Repeat("é", MaxPrompt+1)); !errors.Is(err, ErrTooLong) {
		t.Errorf("MaxPrompt+1 characters: %v", err)
	}
	// The 10 KB of the benchmark is planned.
	if _, err := PlanRound(ctx, Rules{}, s, PlanInput{Prompt: cleanPrompt(s, 10<<10, 1), Round: 1}); err != nil {
		t.Errorf("10 KB prompt: %v", err)
	}
}

// countdown is a context whose Err turns to Canceled after n checks: a
// cancellation that arrives while planning is under way, wherever that
// is, without timing.
type countdown struct {
	context.Context
	n, checks atomic.Int64
}

func (c *countdown) Err() error {
	if c.checks.Add(1) > c.n.Load() {
		return context.Canceled
	}
	return nil
}

// TestPlanningStopsWhenCancelled: the rules planner checks its context
// as it goes (per clause parsed, per command and reference planned, per
// task and step), so a cancelled `plan` or planning activity stops part
// way with the context's error, not after planning everything.
func TestPlanningStopsWhenCancelled(t *testing.T) {
	s := storetest.Building(t)
	prompt := cleanPrompt(s, 10<<10, 1)
	full := &countdown{Context: context.Background()}
	full.n.Store(1 << 40)
	if _, err := PlanRound(full, Rules{}, s, PlanInput{Prompt: prompt, Round: 1}); err != nil {
		t.Fatal(err)
	}
	total := full.checks.Load()
	if total < 100 {
		t.Fatalf("planning 10 KB checked its context %d times: it does not look", total)
	}
	for _, after := range []int64{0, 1, total / 10, total / 2, total - 1} {
		ctx := &countdown{Context: context.Background()}
		ctx.n.Store(after)
		r, err := PlanRound(ctx, Rules{}, s, PlanInput{Prompt: prompt, Round: 1})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d of %d checks: round %v, err %v; want context.Canceled", after, total, r != nil, err)
		}
		// Stopping takes a few more checks on the way out, not the rest
		// of the plan.
		if extra := ctx.checks.Load() - after; extra > 20 {
			t.Errorf("cancelled after %d checks: %d more before it stopped", after, extra)
		}
	}
	// A real cancellation, from another goroutine, while a long prompt
	// plans over and over.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		for {
			if _, err := PlanRound(ctx, Rules{}, s, PlanInput{Prompt: prompt, Round: 1}); err != nil {
				done <- err
				return
			}
		}
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("planning did not stop within 10 s of its cancellation")
	}
}
