package changerisk_test

import (
	"context"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/changerisk"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

// TestDissolveFeedbackPlansADissolve: the feedback the rating offers (the
// web page's "Dissolve instead" button sends it) makes the offline
// planner's next round dissolve what the rejected round deleted, the rest
// of the round unchanged.
func TestDissolveFeedbackPlansADissolve(t *testing.T) {
	s, _, err := interchange.Load("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct{ prompt, deleted string }{
		{"delete activity Pour slab Level 3", "A066"},
		{"delete activity Pour slab Level 3 and add a 2 day survey after Pour slab Level 2", "A066"},
	} {
		first, err := scope.PlanRound(ctx, scope.Rules{}, s, scope.PlanInput{Prompt: tc.prompt, Round: 1})
		if err != nil {
			t.Fatal(err)
		}
		second, err := scope.PlanRound(ctx, scope.Rules{}, s, scope.PlanInput{Prompt: tc.prompt, Round: 2,
			Feedback: changerisk.DissolveFeedback, Previous: first.Ops})
		if err != nil {
			t.Fatal(err)
		}
		if len(second.Ops) != len(first.Ops) {
			t.Errorf("%q: round 2 has %d ops, round 1 %d: %v", tc.prompt, len(second.Ops), len(first.Ops), second.Ops)
		}
		dissolved := 0
		for i, op := range second.Ops {
			switch {
			case op.Kind == schedule.RemoveActivityOp:
				t.Errorf("%q: round 2 still deletes %s", tc.prompt, op.ActivityID)
			case op.Kind == schedule.DissolveActivityOp && op.ActivityID == tc.deleted:
				dissolved++
			case i < len(first.Ops) && op.Kind != first.Ops[i].Kind:
				t.Errorf("%q: op %d changed from %s to %s", tc.prompt, i, first.Ops[i].Kind, op.Kind)
			}
		}
		if dissolved != 1 {
			t.Errorf("%q: round 2 %v, want %s dissolved (notes %v)", tc.prompt, opKinds(second.Ops), tc.deleted, second.Notes)
		}
	}
}

func opKinds(ops []schedule.Op) []schedule.OpKind {
	var out []schedule.OpKind
	for _, op := range ops {
		out = append(out, op.Kind)
	}
	return out
}
