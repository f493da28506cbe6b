package scope

import (
	"context"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestFeedbackRoundUsesPreferencesSavedWithIt: feedback that saves a
// preference and changes the proposal ("make it 3 days. Remember: use
// FS+1 for new inspections") gets a round whose proposal follows the
// preference already — FS+1 into the new inspection, as a redo would
// plan it — not the round-1 link with lag 0 and the preference only from
// the next dispatch on. What the words stated stays as stated.
func TestFeedbackRoundUsesPreferencesSavedWithIt(t *testing.T) {
	s := storetest.Building(t)
	ctx := context.Background()
	snap := Snapshot{Schedule: s}
	round := func(prompt, feedback string) (r1, r2 Plan, redo Plan) {
		t.Helper()
		sep, err := Rules{}.Separate(ctx, prompt)
		if err != nil {
			t.Fatal(err)
		}
		r1, err = Rules{}.PlanAdditions(ctx, snap, PlanInput{Prompt: sep.Additions, Round: 1})
		if err != nil || r1.Question != "" {
			t.Fatalf("round 1: %+v %v", r1, err)
		}
		// The workflow saves what the feedback asks to remember, then
		// plans the rest of it (activities.RememberPreferences).
		stmts, rest, notes := prefs.Remember(feedback)
		if len(notes) > 0 {
			t.Fatalf("remember: %q", notes)
		}
		var p prefs.Preferences
		if err := prefs.Apply(&p, stmts); err != nil {
			t.Fatal(err)
		}
		in := PlanInput{Prompt: sep.Additions, Feedback: rest, Previous: r1.Ops, Round: 2, Preferences: &p}
		if r2, err = (Rules{}).PlanAdditions(ctx, snap, in); err != nil {
			t.Fatal(err)
		}
		redo, err = Rules{}.PlanAdditions(ctx, snap, PlanInput{Prompt: sep.Additions, Round: 2, Preferences: &p})
		if err != nil {
			t.Fatal(err)
		}
		return r1, r2, redo
	}
	into := func(p Plan, name string) (*schedule.Relationship, *schedule.Activity) {
		var act *schedule.Activity
		for _, op := range p.Ops {
			if op.Kind == schedule.AddActivityOp && strings.EqualFold(op.Activity.Name, name) {
				act = op.Activity
			}
		}
		if act == nil {
			t.Fatalf("no %s added: %+v", name, p.Ops)
		}
		for _, op := range p.Ops {
			if op.Kind == schedule.AddRelationshipOp && op.Relationship.Successor == act.ID {
				return op.Relationship, act
			}
		}
		t.Fatalf("no link into %s: %+v", name, p.Ops)
		return nil, nil
	}

	r1, r2, redo := round("add a 2 day scaffold inspection after drywall board level 2", "make it 3 days. Remember: use FS+1 for new inspections")
	if l, _ := into(r1, "Scaffold inspection"); l.Type != schedule.FS || l.Lag != 0 {
		t.Fatalf("round 1 link %s%+g, want FS+0 (no preference yet)", l.Type, l.Lag)
	}
	l, a := into(r2, "Scaffold inspection")
	if l.Type != schedule.FS || l.Lag != 1 || a.Duration != "3" {
		t.Errorf("the round planned from the feedback: link %s%+g, %s days; want FS+1 (the preference it saved) and 3 days (its change)\nops %+v\nnotes %q", l.Type, l.Lag, a.Duration, r2.Ops, r2.Notes)
	}
	if rl, _ := into(redo, "Scaffold inspection"); rl.Type != l.Type || rl.Lag != l.Lag {
		t.Errorf("the feedback round links %s%+g, a redo %s%+g", l.Type, l.Lag, rl.Type, rl.Lag)
	}
	if !strings.Contains(strings.Join(r2.Notes, "\n"), "the schedule's preference") {
		t.Errorf("round 2 notes %q do not say the preference applied", r2.Notes)
	}

	// A lag the prompt states is the prompt's, preference or not.
	_, r2, _ = round("add a 2 day scaffold inspection after drywall board level 2 with 3 days lag", "make it 4 days. Remember: use FS+1 for new inspections")
	if l, a := into(r2, "Scaffold inspection"); l.Lag != 3 || a.Duration != "4" {
		t.Errorf("a stated lag: round 2 link %s%+g, %s days; want lag 3 and 4 days", l.Type, l.Lag, a.Duration)
	}

	// Without a preference the proposal is changed as it was.
	_, r2, _ = round("add a 2 day scaffold inspection after drywall board level 2", "make it 3 days")
	if l, a := into(r2, "Scaffold inspection"); l.Lag != 0 || a.Duration != "3" {
		t.Errorf("no preference: round 2 link %s%+g, %s days; want FS+0 and 3 days", l.Type, l.Lag, a.Duration)
	}
}
