package schedule_test

import (
	"reflect"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The node graph carries an activity's live fields on its intra node and
// gives them back; a plain activity's nodes are as they were (no Live).
func TestGraphKeepsLiveFields(t *testing.T) {
	s := liveFloors()
	s.Activities[1].Manual, s.Activities[1].Start, s.Activities[1].Finish = true, "2026-03-09", "2026-03-11"
	s.Activities[2].Type = schedule.FinishMilestone
	s.Activities[2].SecondaryConstraint = &schedule.Constraint{Type: schedule.AsLateAsPossible}
	s.Activities[2].BaselineStart, s.Activities[2].BaselineFinish, s.Activities[2].BaselineDuration = "2026-03-02T08:00", "2026-03-04T17:00", "3"
	g, err := schedule.ToGraph(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range g.Nodes {
		live := n.Kind == schedule.IntraNode && (n.ActivityID == "X" || n.ActivityID == "S1" || n.ActivityID == "W1")
		if (n.Live != "") != live {
			t.Errorf("node %s: live %q", n.ID, n.Live)
		}
	}
	back, err := schedule.FromGraph(g)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range s.Activities {
		if !back.Activities[i].Equal(a) {
			t.Errorf("activity %s came back as %s", mustJSON(t, a), mustJSON(t, back.Activities[i]))
		}
	}
	if !reflect.DeepEqual(back.Activities, s.Activities) {
		t.Error("the activities differ (DeepEqual)")
	}

	// A key this version does not know is refused, not dropped.
	for i := range g.Nodes {
		if g.Nodes[i].Live != "" {
			g.Nodes[i].Live = `{"cost_account":"7"}`
			break
		}
	}
	if _, err := schedule.FromGraph(g); err == nil {
		t.Error("an unknown live field was read without an error")
	}
}
