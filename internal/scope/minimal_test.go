package scope_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

func sample() *schedule.Schedule {
	return &schedule.Schedule{
		Activities: []schedule.Activity{
			{ID: "A1", Name: "Excavate L1", Duration: "5"},
			{ID: "A2", Name: "Pour slab L1", Duration: "1"},
			{ID: "A3", Name: "Fit-out", Duration: "3"},
			{ID: "A4", Name: "Fit-out", Duration: "4"},
			{ID: "A5", Name: "Roof", Duration: "2"},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A1", Successor: "A2"},
			{ID: "R2", Type: schedule.FS, Predecessor: "A2", Successor: "A3"},
			{ID: "R3", Type: schedule.SS, Predecessor: "A2", Successor: "A5"},
			{ID: "R4", Type: schedule.FF, Predecessor: "A2", Successor: "A5"},
		},
	}
}

func TestSeparate(t *testing.T) {
	tests := []struct {
		prompt, removals, additions string
	}{
		{"delete activity Roof", "delete activity Roof", ""},
		{`add activity "Paint" 3 days`, "", `add activity "Paint" 3 days`},
		{`delete activity Roof and then add activity "Paint" 3 days; dissolve activity A2`,
			"delete activity Roof; dissolve activity A2", `add activity "Paint" 3 days`},
		{"Remove activity X AND THEN make it faster", "Remove activity X", "make it faster"},
		{"  ", "", ""},
	}
	for _, tt := range tests {
		got, err := scope.Minimal{}.Separate(context.Background(), tt.prompt)
		if err != nil {
			t.Fatal(err)
		}
		if got.Removals != tt.removals || got.Additions != tt.additions {
			t.Errorf("Separate(%q) = %+v, want removals %q additions %q", tt.prompt, got, tt.removals, tt.additions)
		}
	}
}

func TestPlanRemovals(t *testing.T) {
	tests := []struct {
		name, prompt, feedback string
		ops                    []schedule.Op
		question               string // substring
		note                   string // substring
	}{
		{name: "delete by name", prompt: "delete activity excavate l1", ops: []schedule.Op{schedule.RemoveActivity("A1")}},
		{name: "delete by id", prompt: "delete activity A5", ops: []schedule.Op{schedule.RemoveActivity("A5")}},
		{name: "remove quoted", prompt: `remove activity "Roof"`, ops: []schedule.Op{schedule.RemoveActivity("A5")}},
		{name: "dissolve", prompt: "dissolve activity Pour slab L1", ops: []schedule.Op{schedule.DissolveActivity("A2")}},
		{name: "relationship", prompt: "delete relationship Excavate L1 -> Pour slab L1", ops: []schedule.Op{schedule.RemoveRelationship("R1")}},
		{name: "relationship two ways", prompt: "delete relationship Pour slab L1 -> Roof", question: "linked 2 ways"},
		{name: "relationship missing", prompt: "delete relationship Roof -> Excavate L1", question: "does not precede"},
		{name: "ambiguous", prompt: "delete activity Fit-out", question: "2 activities are named"},
		{name: "unknown", prompt: "delete activity Basement", question: `No activity is named "Basement"`},
		{name: "not understood", prompt: "delete everything on floor 2", note: "not understood by the minimal planner"},
		{name: "several", prompt: "delete activity Roof; dissolve activity A2",
			ops: []schedule.Op{schedule.RemoveActivity("A5"), schedule.DissolveActivity("A2")}},
		{name: "feedback replaces", prompt: "delete activity Fit-out", feedback: "no: delete activity A4",
			question: "2 activities", // "no: delete..." does not start with delete, so it is not a removal command
		},
		{name: "feedback command", prompt: "delete activity Fit-out", feedback: "delete activity A4",
			ops: []schedule.Op{schedule.RemoveActivity("A4")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := scope.Minimal{}.PlanRemovals(context.Background(), sample(), scope.PlanInput{Prompt: tt.prompt, Feedback: tt.feedback, Round: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(plan.Ops, tt.ops, opEqual) {
				t.Errorf("ops = %+v, want %+v", plan.Ops, tt.ops)
			}
			check(t, "question", plan.Question, tt.question)
			check(t, "notes", strings.Join(plan.Notes, "|"), tt.note)
		})
	}
}

func TestPlanAdditions(t *testing.T) {
	ctx := context.Background()
	in := scope.PlanInput{Prompt: `add activity "Paint" 3 days after "Roof"; add activity "Clean" 1.5 days after "Paint"; add activity "Snag" 2 days`, Round: 1}
	plan, err := scope.Minimal{}.PlanAdditions(ctx, sample(), in)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Question != "" || len(plan.Notes) != 0 {
		t.Fatalf("question %q notes %v", plan.Question, plan.Notes)
	}
	kinds := make([]schedule.OpKind, len(plan.Ops))
	for i, op := range plan.Ops {
		kinds[i] = op.Kind
	}
	want := []schedule.OpKind{schedule.AddActivityOp, schedule.AddRelationshipOp, schedule.AddActivityOp, schedule.AddRelationshipOp, schedule.AddActivityOp}
	if !slices.Equal(kinds, want) {
		t.Fatalf("kinds = %v, want %v", kinds, want)
	}
	paint, clean := plan.Ops[0].Activity, plan.Ops[2].Activity
	if paint.Name != "Paint" || paint.Duration != "3" || clean.Duration != "1.5" {
		t.Errorf("activities %+v %+v", paint, clean)
	}
	if r := plan.Ops[1].Relationship; r.Predecessor != "A5" || r.Successor != paint.ID || r.Type != schedule.FS {
		t.Errorf("link %+v", r)
	}
	if r := plan.Ops[3].Relationship; r.Predecessor != paint.ID || r.Successor != clean.ID {
		t.Errorf("link %+v", r)
	}
	// The ops apply cleanly.
	s := sample()
	if _, _, err := schedule.ApplyAll(s, plan.Ops); err != nil {
		t.Fatal(err)
	}
	// Deterministic per prompt and round; a new round gives new ids.
	again, _ := scope.Minimal{}.PlanAdditions(ctx, sample(), in)
	if again.Ops[0].Activity.ID != paint.ID {
		t.Error("ids differ between identical calls")
	}
	in.Round = 2
	next, _ := scope.Minimal{}.PlanAdditions(ctx, sample(), in)
	if next.Ops[0].Activity.ID == paint.ID {
		t.Error("round 2 reused round 1's id")
	}

	tests := []struct{ name, prompt, question, note string }{
		{"ambiguous after", `add activity "Paint" 3 days after "Fit-out"`, "2 activities", ""},
		{"unknown after", `add activity "Paint" 3 days after "Nothing"`, "No activity", ""},
		{"no duration", `add activity "Paint"`, "", "not understood"},
		{"free text", "make fit-outs on floor 4 follow floor 2", "", "not understood"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan, err := scope.Minimal{}.PlanAdditions(ctx, sample(), scope.PlanInput{Prompt: tt.prompt, Round: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Ops) != 0 {
				t.Errorf("ops = %+v, want none", plan.Ops)
			}
			check(t, "question", plan.Question, tt.question)
			check(t, "notes", strings.Join(plan.Notes, "|"), tt.note)
		})
	}
}

func opEqual(a, b schedule.Op) bool {
	return a.Kind == b.Kind && a.ActivityID == b.ActivityID && a.RelationshipID == b.RelationshipID
}

func check(t *testing.T, what, got, want string) {
	t.Helper()
	if want == "" && got != "" || !strings.Contains(got, want) {
		t.Errorf("%s = %q, want it to contain %q", what, got, want)
	}
}
