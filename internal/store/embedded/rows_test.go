package embedded_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// TestManyRowWritesMatchOneAtATime: puts are written many rows per
// statement, and a change that puts the same relationship or document
// twice (across a statement's rows, and across statements) ends as the
// last put says, as writing them one at a time would.
func TestManyRowWritesMatchOneAtATime(t *testing.T) {
	ctx := context.Background()
	s, _ := open(t)
	var ch store.Change
	var vc store.VectorChange
	const n = 150 // more than one statement's rows
	for i := range n {
		a := schedule.Activity{ID: fmt.Sprintf("A%d", i), Name: fmt.Sprintf("Activity %d", i), Duration: "2"}
		ch.PutActivities = append(ch.PutActivities, a)
		vc.PutActivities = append(vc.PutActivities, store.ActivityDoc{ID: a.ID, Name: a.Name, Duration: a.Duration, Vector: []float32{1, 0}})
	}
	for i := 1; i < n; i++ {
		ch.PutRelationships = append(ch.PutRelationships, schedule.Relationship{ID: fmt.Sprintf("R%d", i), Type: schedule.FS, Predecessor: fmt.Sprintf("A%d", i-1), Successor: fmt.Sprintf("A%d", i)})
	}
	// R5 again, now from A0: its first edges must be gone. A3's document
	// again, renamed: the search index must hold the new name only.
	ch.PutRelationships = slices.Insert(ch.PutRelationships, 7, schedule.Relationship{ID: "R5", Type: schedule.SS, Predecessor: "A0", Successor: "A5", Lag: 1})
	vc.PutActivities = slices.Insert(vc.PutActivities, 10, store.ActivityDoc{ID: "A3", Name: "Zeppelin mast", Duration: "2", Vector: []float32{0, 1}})
	if _, err := s.Graph().Apply(ctx, "rows", []store.Change{ch}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Vectors().Apply(ctx, "rows", []store.VectorChange{vc}); err != nil {
		t.Fatal(err)
	}
	g, err := s.Graph().Dump(ctx, "rows")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(g.Nodes), 3*n+n-1; got != want {
		t.Errorf("%d nodes, want %d", got, want)
	}
	if got, want := len(g.Edges), 2*n+2*(n-1); got != want {
		t.Errorf("%d edges, want %d", got, want)
	}
	var r5 []string
	for _, e := range g.Edges {
		if e.From == "R5" || e.To == "R5" {
			r5 = append(r5, e.From+">"+e.To)
		}
	}
	want := []string{schedule.StartNodeID("A0") + ">R5", "R5>" + schedule.StartNodeID("A5")}
	slices.Sort(r5)
	slices.Sort(want)
	if !slices.Equal(r5, want) {
		t.Errorf("R5's edges %v, want only its last put's %v", r5, want)
	}
	if err := s.CheckSearchIndex(); err != nil {
		t.Fatal(err)
	}
	v, err := s.Vectors().Dump(ctx, "rows")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Activities) != n {
		t.Fatalf("%d activity documents, want %d", len(v.Activities), n)
	}
	for _, d := range v.Activities {
		if d.ID == "A3" && d.Name != "Zeppelin mast" {
			t.Errorf("A3 is %q, want the last put's name", d.Name)
		}
	}
}
