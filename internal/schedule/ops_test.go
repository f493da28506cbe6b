package schedule_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// floors is a small schedule: excavation, then slab and walls per floor.
func floors() *schedule.Schedule {
	return &schedule.Schedule{
		Name: "floors",
		Activities: []schedule.Activity{
			{ID: "X", Name: "Excavate", Duration: "5"},
			{ID: "S1", Name: "Pour slab Level 1", Duration: "3"},
			{ID: "W1", Name: "Walls Level 1", Duration: "4"},
			{ID: "S2", Name: "Pour slab Level 2", Duration: "3"},
			{ID: "F", Name: "Fit-out", Duration: "6"},
		},
		Relationships: []schedule.Relationship{
			{ID: "r1", Type: schedule.FS, Predecessor: "X", Successor: "S1", Lag: 0},
			{ID: "r2", Type: schedule.SS, Predecessor: "S1", Successor: "W1", Lag: 1},
			{ID: "r3", Type: schedule.FS, Predecessor: "W1", Successor: "S2", Lag: 2},
			{ID: "r4", Type: schedule.FF, Predecessor: "S1", Successor: "S2", Lag: 3},
			{ID: "r5", Type: schedule.FS, Predecessor: "S2", Successor: "F", Lag: -1},
		},
	}
}

func TestOpsApplyAndUndo(t *testing.T) {
	tests := []struct {
		name      string
		op        schedule.Op
		call      string
		wantActs  []string
		wantLinks []string // "pred>succ type lag"
	}{
		{
			name:     "add activity",
			op:       schedule.AddActivity(schedule.Activity{ID: "N", Name: "Scaffold", Duration: "2"}),
			call:     `add_activity(name="Scaffold", duration="2")`,
			wantActs: []string{"X", "S1", "W1", "S2", "F", "N"},
		},
		{
			name:      "remove activity and its links",
			op:        schedule.RemoveActivity("S1"),
			call:      `delete_activity(name="Pour slab Level 1")`,
			wantActs:  []string{"X", "W1", "S2", "F"},
			wantLinks: []string{"W1>S2 FS 2", "S2>F FS -1"},
		},
		{
			name: "update activity",
			op:   schedule.UpdateActivity(schedule.Activity{ID: "W1", Name: "Walls and columns Level 1", Duration: "pert(3,4,8)"}),
			call: `update_activity(name="Walls Level 1", new_name="Walls and columns Level 1", duration="pert(3,4,8)")`,
		},
		{
			// Predecessors of S1 (X) get S1's successor links' types and lags.
			name:      "dissolve activity",
			op:        schedule.DissolveActivity("S1"),
			call:      `dissolve_activity(name="Pour slab Level 1")`,
			wantActs:  []string{"X", "W1", "S2", "F"},
			wantLinks: []string{"W1>S2 FS 2", "S2>F FS -1", "X>W1 SS 1", "X>S2 FF 3"},
		},
		{
			name:      "add relationship",
			op:        schedule.AddRelationship(schedule.Relationship{ID: "r9", Type: schedule.SF, Predecessor: "X", Successor: "F", Lag: 4}),
			call:      `add_relationship(type="SF", predecessor="Excavate", successor="Fit-out", lag=4)`,
			wantLinks: []string{"X>S1 FS 0", "S1>W1 SS 1", "W1>S2 FS 2", "S1>S2 FF 3", "S2>F FS -1", "X>F SF 4"},
		},
		{
			name:      "remove relationship",
			op:        schedule.RemoveRelationship("r3"),
			call:      `delete_relationship(type="FS", predecessor="Walls Level 1", successor="Pour slab Level 2", lag=2)`,
			wantLinks: []string{"X>S1 FS 0", "S1>W1 SS 1", "S1>S2 FF 3", "S2>F FS -1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := floors()
			before := mustJSON(t, s)
			op := tc.op
			inv, err := schedule.Apply(s, &op)
			if err != nil {
				t.Fatal(err)
			}
			if op.Call != tc.call {
				t.Errorf("call = %s\nwant   %s", op.Call, tc.call)
			}
			if op.ID == "" || len(op.ID) != 36 {
				t.Errorf("op id %q is not a UUID", op.ID)
			}
			if tc.wantActs != nil {
				var ids []string
				for _, a := range s.Activities {
					ids = append(ids, a.ID)
				}
				if !slices.Equal(ids, tc.wantActs) {
					t.Errorf("activities = %v, want %v", ids, tc.wantActs)
				}
			}
			if tc.wantLinks != nil {
				var links []string
				for _, r := range s.Relationships {
					links = append(links, fmt.Sprintf("%s>%s %s %g", r.Predecessor, r.Successor, r.Type, r.Lag))
				}
				if !slices.Equal(links, tc.wantLinks) {
					t.Errorf("links = %v, want %v", links, tc.wantLinks)
				}
			}
			if _, err := schedule.Analyze(s); err != nil {
				t.Errorf("schedule after op does not compute: %v", err)
			}
			for _, i := range inv {
				if i.Call == "" || i.ID == "" {
					t.Errorf("inverse %+v lacks id or call", i)
				}
			}
			if err := schedule.Undo(s, inv); err != nil {
				t.Fatal(err)
			}
			if after := mustJSON(t, s); after != before {
				t.Errorf("undo did not restore:\n%s\n%s", before, after)
			}
		})
	}
}

func TestOpsRefuseBeforeMutating(t *testing.T) {
	tests := []struct {
		name string
		op   schedule.Op
		want string
	}{
		{"unknown activity", schedule.RemoveActivity("nope"), `unknown activity "nope"`},
		{"unknown relationship", schedule.RemoveRelationship("nope"), `unknown relationship "nope"`},
		{"dissolve unknown", schedule.DissolveActivity("nope"), `unknown activity "nope"`},
		{"update unknown", schedule.UpdateActivity(schedule.Activity{ID: "nope", Name: "x", Duration: "1"}), `unknown activity "nope"`},
		{"duplicate id", schedule.AddActivity(schedule.Activity{ID: "S1", Name: "x", Duration: "1"}), `id "S1" is already in use`},
		{"id used by a link", schedule.AddActivity(schedule.Activity{ID: "r1", Name: "x", Duration: "1"}), `id "r1" is already in use`},
		{"bad duration", schedule.AddActivity(schedule.Activity{ID: "N", Name: "x", Duration: "five"}), `duration "five"`},
		{"no name", schedule.AddActivity(schedule.Activity{ID: "N", Duration: "1"}), "has no name"},
		{"self-link", schedule.AddRelationship(schedule.Relationship{ID: "n", Type: schedule.FS, Predecessor: "X", Successor: "X"}), "self-link"},
		{"duplicate link", schedule.AddRelationship(schedule.Relationship{ID: "n", Type: schedule.FS, Predecessor: "X", Successor: "S1", Lag: 4}), `duplicate link: "r1"`},
		{"bad type", schedule.AddRelationship(schedule.Relationship{ID: "n", Type: "XX", Predecessor: "X", Successor: "F"}), `type "XX"`},
		{"unknown end", schedule.AddRelationship(schedule.Relationship{ID: "n", Type: schedule.FS, Predecessor: "X", Successor: "Q"}), `unknown activity "Q"`},
		{
			"cycle", schedule.AddRelationship(schedule.Relationship{ID: "n", Type: schedule.FS, Predecessor: "F", Successor: "S1"}),
			`circular logic: "Fit-out" (F) -> "Pour slab Level 1" (S1) -> "Pour slab Level 2" (S2) -> "Fit-out" (F)`,
		},
		{"unknown op", schedule.Op{Kind: "rename_everything"}, `unknown op "rename_everything"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := floors()
			before := mustJSON(t, s)
			op := tc.op
			_, err := schedule.Apply(s, &op)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			if !errors.Is(err, schedule.ErrInvalidOp) {
				t.Errorf("err does not wrap ErrInvalidOp")
			}
			if mustJSON(t, s) != before {
				t.Errorf("a refused op changed the schedule")
			}
		})
	}
}

func TestOpsCycleErrorIsTyped(t *testing.T) {
	s := floors()
	op := schedule.AddRelationship(schedule.Relationship{ID: "n", Type: schedule.SS, Predecessor: "S2", Successor: "X"})
	_, err := schedule.Apply(s, &op)
	var cycle *schedule.CycleError
	if !errors.As(err, &cycle) || !slices.Equal(cycle.IDs, []string{"S2", "X", "S1", "S2"}) {
		t.Fatalf("err = %v, cycle = %+v", err, cycle)
	}
}

func TestApplyAllIsAllOrNothing(t *testing.T) {
	s := floors()
	before := mustJSON(t, s)
	ops := []schedule.Op{
		schedule.AddActivity(schedule.Activity{ID: "N", Name: "Scaffold", Duration: "2"}),
		schedule.AddRelationship(schedule.Relationship{ID: "n1", Type: schedule.FS, Predecessor: "N", Successor: "F"}),
		schedule.RemoveActivity("W1"),
		schedule.RemoveActivity("W1"), // already gone: the whole set is refused
	}
	_, _, err := schedule.ApplyAll(s, ops)
	if err == nil || !strings.Contains(err.Error(), "op 4 of 4") {
		t.Fatalf("err = %v", err)
	}
	if mustJSON(t, s) != before {
		t.Fatalf("a refused change set left changes behind")
	}
}

func TestDissolveSkipsDuplicateLinks(t *testing.T) {
	s := floors()
	// X already precedes W1 with SS; dissolving S1 must not add a second one.
	extra := schedule.AddRelationship(schedule.Relationship{ID: "r6", Type: schedule.SS, Predecessor: "X", Successor: "W1", Lag: 7})
	if _, err := schedule.Apply(s, &extra); err != nil {
		t.Fatal(err)
	}
	op := schedule.DissolveActivity("S1")
	if _, err := schedule.Apply(s, &op); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range s.Relationships {
		if r.Predecessor == "X" && r.Successor == "W1" && r.Type == schedule.SS {
			n++
			if r.Lag != 7 {
				t.Errorf("existing link's lag changed to %g", r.Lag)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d X->W1 SS links, want 1", n)
	}
}

func TestOpIDsAreDeterministic(t *testing.T) {
	a := schedule.AddActivity(schedule.Activity{ID: "N", Name: "Scaffold", Duration: "2"})
	if a.WithScope("dispatch-1/round-1").ID != a.WithScope("dispatch-1/round-1").ID {
		t.Error("same scope and content gave different ids")
	}
	if a.WithScope("dispatch-1/round-1").ID == a.WithScope("dispatch-1/round-2").ID {
		t.Error("different scopes gave the same id")
	}
	// Inverse and dissolve ids derive from the op id, so replays match.
	first, second := floors(), floors()
	op1, op2 := schedule.DissolveActivity("S1"), schedule.DissolveActivity("S1")
	inv1, _ := schedule.Apply(first, &op1)
	inv2, _ := schedule.Apply(second, &op2)
	if mustJSON(t, first) != mustJSON(t, second) || mustJSON(t, inv1) != mustJSON(t, inv2) {
		t.Error("the same dissolve gave different results")
	}
}

// randomOp picks an op that is usually valid for s, sometimes not.
func randomOp(rng *rand.Rand, s *schedule.Schedule, n int) schedule.Op {
	pickAct := func() string {
		if len(s.Activities) == 0 || rng.IntN(20) == 0 {
			return "missing"
		}
		return s.Activities[rng.IntN(len(s.Activities))].ID
	}
	types := []schedule.RelType{schedule.FS, schedule.SS, schedule.FF, schedule.SF}
	switch rng.IntN(6) {
	case 0:
		return schedule.AddActivity(schedule.Activity{ID: fmt.Sprintf("new%d", n), Name: fmt.Sprintf("New \"task\" %d", n), Description: "on Level 2\n", Duration: fmt.Sprint(rng.IntN(9))})
	case 1:
		return schedule.RemoveActivity(pickAct())
	case 2:
		return schedule.UpdateActivity(schedule.Activity{ID: pickAct(), Name: fmt.Sprintf("Renamed %d", n), Duration: "uniform(1,3)"})
	case 3:
		return schedule.DissolveActivity(pickAct())
	case 4:
		return schedule.AddRelationship(schedule.Relationship{ID: fmt.Sprintf("link%d", n), Type: types[rng.IntN(4)], Predecessor: pickAct(), Successor: pickAct(), Lag: float64(rng.IntN(7) - 2)})
	default:
		if len(s.Relationships) == 0 {
			return schedule.RemoveRelationship("missing")
		}
		return schedule.RemoveRelationship(s.Relationships[rng.IntN(len(s.Relationships))].ID)
	}
}

// Random ops then their inverses, in reverse, restore the schedule byte for
// byte; refused ops change nothing; every state in between is a valid DAG.
func TestOpsThenInversesRestoreRandomSchedules(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		s := randomSchedule(rng, 3+rng.IntN(30), 3)
		original := mustJSON(t, s)
		var inverses []schedule.Op
		applied := 0
		for n := 0; n < 25; n++ {
			op := randomOp(rng, s, n)
			before := mustJSON(t, s)
			inv, err := schedule.Apply(s, &op)
			if err != nil {
				if !errors.Is(err, schedule.ErrInvalidOp) {
					t.Fatalf("seed %d: %v is not an ErrInvalidOp", seed, err)
				}
				if mustJSON(t, s) != before {
					t.Fatalf("seed %d: refused %s changed the schedule", seed, op.Call)
				}
				continue
			}
			applied++
			inverses = append(inverses, inv...)
			if err := schedule.Validate(s); err != nil {
				t.Fatalf("seed %d: after %s: %v", seed, op.Call, err)
			}
		}
		if applied == 0 {
			t.Fatalf("seed %d: no op applied; the generator is broken", seed)
		}
		if err := schedule.Undo(s, inverses); err != nil {
			t.Fatalf("seed %d: undo: %v", seed, err)
		}
		if got := mustJSON(t, s); got != original {
			t.Fatalf("seed %d: undo did not restore the schedule:\n%s\n%s", seed, original, got)
		}
	}
}

func TestUpdateRelationship(t *testing.T) {
	s := &schedule.Schedule{Activities: []schedule.Activity{{ID: "A", Name: "A", Duration: "1"}, {ID: "B", Name: "B", Duration: "1"}},
		Relationships: []schedule.Relationship{{ID: "R", Type: schedule.FS, Predecessor: "A", Successor: "B"}}}
	before := s.Clone()
	op := schedule.UpdateRelationship(schedule.Relationship{ID: "R", Type: schedule.SS, Predecessor: "A", Successor: "B", Lag: 2})
	inv, err := schedule.Apply(s, &op)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Relationships[0]; got.Type != schedule.SS || got.Lag != 2 {
		t.Fatalf("after update: %+v", got)
	}
	if want := `update_relationship(predecessor="A", successor="B", type="SS", lag=2)`; op.Call != want {
		t.Errorf("call %s, want %s", op.Call, want)
	}
	if err := schedule.Undo(s, inv); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, before) {
		t.Errorf("undo: %+v, want %+v", s, before)
	}
	for _, bad := range []schedule.Relationship{
		{ID: "R", Type: schedule.FS, Predecessor: "B", Successor: "A"},
		{ID: "X", Type: schedule.FS, Predecessor: "A", Successor: "B"},
		{ID: "R", Type: "XX", Predecessor: "A", Successor: "B"},
		{ID: "R", Type: schedule.FS, Predecessor: "A", Successor: "B", Lag: math.Inf(1)},
	} {
		op := schedule.UpdateRelationship(bad)
		if _, err := schedule.Apply(s, &op); !errors.Is(err, schedule.ErrInvalidOp) {
			t.Errorf("update %+v: err %v, want ErrInvalidOp", bad, err)
		}
	}
	// Source is not part of an op's identity.
	a, b := schedule.RemoveActivity("A"), schedule.RemoveActivity("A")
	b.Source = "delete A"
	if a.WithScope("s").ID != b.WithScope("s").ID || b.WithScope("s").Source != "delete A" {
		t.Error("Source changed the op id or was lost")
	}
}

func TestCompensatingOpsReverseAndDeterministic(t *testing.T) {
	inv := []schedule.Op{schedule.RemoveActivity("X"), schedule.RemoveRelationship("R")}
	ops := schedule.CompensatingOps("s", inv)
	if ops[0].Kind != schedule.RemoveRelationshipOp || ops[1].Kind != schedule.RemoveActivityOp {
		t.Errorf("not reversed: %+v", ops)
	}
	again := schedule.CompensatingOps("s", inv)
	if ops[0].ID == "" || ops[0].ID != again[0].ID || ops[0].ID == ops[1].ID {
		t.Errorf("ids %q %q %q", ops[0].ID, again[0].ID, ops[1].ID)
	}
	// An undo is the compensation scoped to the dispatch run it takes back.
	undo := schedule.UndoOps("dispatch-x", "run1", inv)
	if want := schedule.CompensatingOps("undo/dispatch-x/run1", inv); !reflect.DeepEqual(undo, want) || undo[0].ID == ops[0].ID {
		t.Errorf("undo ops %+v, want %+v", undo, want)
	}
}

func TestBeforeUndoesOnACopy(t *testing.T) {
	s := &schedule.Schedule{Activities: []schedule.Activity{{ID: "A", Name: "Dig", Duration: "2"}}}
	after := s.Clone()
	_, inverses, err := schedule.ApplyAll(after, []schedule.Op{schedule.AddActivity(schedule.Activity{ID: "B", Name: "Pour", Duration: "1"})})
	if err != nil {
		t.Fatal(err)
	}
	before, err := schedule.Before(after, inverses)
	if err != nil || len(before.Activities) != 1 || len(after.Activities) != 2 {
		t.Fatalf("before %+v, after %+v, err %v", before, after, err)
	}
	if _, err := schedule.Before(s, inverses); err == nil || !strings.HasPrefix(err.Error(), "undoing the round on a copy: ") {
		t.Errorf("undoing what was never applied: %v", err)
	}
}
