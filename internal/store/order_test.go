package store_test

import (
	"fmt"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// TestStoredScheduleReadsInIDOrder: whatever order a store keeps nodes
// in (text order: 1, 10, 2), a stored schedule reads as a planner numbers
// it: 1, 2, 10, and A117.1 (an insert) right after A117.
func TestStoredScheduleReadsInIDOrder(t *testing.T) {
	s := &schedule.Schedule{}
	for _, id := range []string{"1", "10", "2", "A117.1", "A117", "A118"} {
		s.Activities = append(s.Activities, schedule.Activity{ID: id, Name: "Task " + id, Duration: "1"})
	}
	s.Relationships = []schedule.Relationship{
		{ID: "R10", Type: schedule.FS, Predecessor: "1", Successor: "2"},
		{ID: "R9", Type: schedule.FS, Predecessor: "2", Successor: "10"},
	}
	g, err := schedule.ToGraph(s)
	if err != nil {
		t.Fatal(err)
	}
	d := &store.GraphDump{Nodes: g.Nodes, Edges: g.Edges}
	store.SortDump(d)
	back, err := store.ScheduleFromDump(d)
	if err != nil {
		t.Fatal(err)
	}
	var acts, rels []string
	for _, a := range back.Activities {
		acts = append(acts, a.ID)
	}
	for _, r := range back.Relationships {
		rels = append(rels, r.ID)
	}
	if want := "[1 2 10 A117 A117.1 A118]"; fmt.Sprint(acts) != want {
		t.Errorf("activities %v, want %s", acts, want)
	}
	if want := "[R9 R10]"; fmt.Sprint(rels) != want {
		t.Errorf("relationships %v, want %s", rels, want)
	}
}
