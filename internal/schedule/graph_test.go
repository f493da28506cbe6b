package schedule_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func TestGraphOfEachRelationshipType(t *testing.T) {
	tests := []struct {
		typ      schedule.RelType
		from, to string
	}{
		{schedule.FS, "e-A", "s-B"},
		{schedule.SS, "s-A", "s-B"},
		{schedule.FF, "e-A", "e-B"},
		{schedule.SF, "s-A", "e-B"},
	}
	for _, tc := range tests {
		g, err := schedule.ToGraph(twoActivities("5", "2.5", tc.typ, -1.5))
		if err != nil {
			t.Fatal(err)
		}
		wantNodes := []schedule.Node{
			{ID: "s-A", Kind: schedule.StartNode, Weight: "0", ActivityID: "A", Name: "Excavate Level 1"},
			{ID: "i-A", Kind: schedule.IntraNode, Weight: "5", ActivityID: "A", Name: "Excavate Level 1"},
			{ID: "e-A", Kind: schedule.EndNode, Weight: "0", ActivityID: "A", Name: "Excavate Level 1"},
			{ID: "s-B", Kind: schedule.StartNode, Weight: "0", ActivityID: "B", Name: "Pour slab Level 1"},
			{ID: "i-B", Kind: schedule.IntraNode, Weight: "2.5", ActivityID: "B", Name: "Pour slab Level 1"},
			{ID: "e-B", Kind: schedule.EndNode, Weight: "0", ActivityID: "B", Name: "Pour slab Level 1"},
			{ID: "R", Kind: schedule.RelationshipNode, Weight: "-1.5"},
		}
		wantEdges := []schedule.Edge{
			{From: "s-A", To: "i-A"}, {From: "i-A", To: "e-A"},
			{From: "s-B", To: "i-B"}, {From: "i-B", To: "e-B"},
			{From: tc.from, To: "R"}, {From: "R", To: tc.to},
		}
		if !slices.Equal(g.Nodes, wantNodes) || !slices.Equal(g.Edges, wantEdges) {
			t.Errorf("%s: graph = %+v", tc.typ, g)
		}
	}
}

func TestGraphRoundTrip(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		s := randomSchedule(rand.New(rand.NewPCG(seed, 3)), 1+int(seed), 3)
		s.Name = ""
		s.Activities[0].Description = `quotes " and \ backslash, unicode: Étage 2 — 二階`
		g, err := schedule.ToGraph(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := schedule.FromGraph(g)
		if err != nil {
			t.Fatal(err)
		}
		if mustJSON(t, back) != mustJSON(t, s) {
			t.Fatalf("seed %d: round trip changed the schedule\n%s\n%s", seed, mustJSON(t, s), mustJSON(t, back))
		}
	}
}

func TestFromGraphRefusesMalformedGraphs(t *testing.T) {
	good := func() *schedule.Graph {
		g, _ := schedule.ToGraph(twoActivities("1", "1", schedule.FS, 0))
		return g
	}
	tests := []struct {
		name   string
		mangle func(g *schedule.Graph)
		want   string
	}{
		{"dangling edge", func(g *schedule.Graph) { g.Edges = append(g.Edges, schedule.Edge{From: "R", To: "nowhere"}) }, `unknown node "nowhere"`},
		{"relationship with two outs", func(g *schedule.Graph) { g.Edges = append(g.Edges, schedule.Edge{From: "R", To: "e-B"}) }, "want one edge in and one out"},
		{"link into an intra node", func(g *schedule.Graph) { g.Edges[5].To = "i-B" }, `activity "B": want edges s-B -> i-B -> e-B`},
		{"activity missing its edge", func(g *schedule.Graph) { g.Edges = g.Edges[1:] }, `activity "A": want edges s-A -> i-A -> e-A`},
		{"bad lag", func(g *schedule.Graph) { g.Nodes[6].Weight = "soon" }, `lag "soon" is not a number`},
		{"duplicate node", func(g *schedule.Graph) { g.Nodes = append(g.Nodes, g.Nodes[0]) }, `node "s-A" appears twice`},
	}
	for _, tc := range tests {
		g := good()
		tc.mangle(g)
		if _, err := schedule.FromGraph(g); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestToGraphRefusesNodeIDClash(t *testing.T) {
	s := twoActivities("1", "1", schedule.FS, 0)
	s.Relationships[0].ID = "s-A"
	if _, err := schedule.ToGraph(s); err == nil || !strings.Contains(err.Error(), `"s-A" is used twice`) {
		t.Errorf("err = %v", err)
	}
}
