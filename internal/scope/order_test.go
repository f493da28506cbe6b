package scope

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestNewWorkGetsReadableIDsBesideItsPredecessor: added work gets an id
// in the schedule's own pattern that places it after its predecessor (in
// the working copy and once stored), and new links continue the
// relationships' numbering; no UUIDs.
func TestNewWorkGetsReadableIDsBesideItsPredecessor(t *testing.T) {
	s := storetest.Building(t)
	pour := ""
	for _, a := range s.Activities {
		if a.Name == "Pour slab Level 3" {
			pour = a.ID
		}
	}
	_, _, _, ap := planned(t, s, PlanInput{Prompt: "add a 3 day scaffold inspection after Pour slab Level 3"})
	var add, link *schedule.Op
	for i, op := range ap.Ops {
		switch op.Kind {
		case schedule.AddActivityOp:
			add = &ap.Ops[i]
		case schedule.AddRelationshipOp:
			link = &ap.Ops[i]
		}
	}
	if add == nil || link == nil {
		t.Fatalf("want an add and a link, got %+v", ap.Ops)
	}
	if want := pour + ".1"; add.ActivityID != want || add.After != pour {
		t.Errorf("new activity %q after %q, want %q after %q", add.ActivityID, add.After, want, pour)
	}
	if link.RelationshipID != "R263" {
		t.Errorf("new link %q, want R263 after the building's R262", link.RelationshipID)
	}
	cur := s.Clone()
	if _, _, err := schedule.ApplyAll(cur, ap.Ops); err != nil {
		t.Fatal(err)
	}
	for i, a := range cur.Activities {
		if a.ID == add.ActivityID {
			if i == 0 || cur.Activities[i-1].ID != pour {
				t.Errorf("the new activity is at row %d, not after %s", i, pour)
			}
		}
	}
}
