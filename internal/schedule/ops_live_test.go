package schedule_test

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// An op on a plain activity hashes to the ID it had before the live fields
// existed: they are omitempty, so the op's JSON is the old JSON. The body
// below is how Op and Activity marshalled then (four activity fields, no
// omitempty on them); the literal pins the result.
func TestPlainOpIDIsUnchangedByLiveFields(t *testing.T) {
	const scope = "dispatch-1/round-1"
	const pinned = "88e24822-2081-5934-b488-783eab83fd8f"
	oldBody := `{"id":"","op":"update_activity","activity_id":"S1","activity":{"id":"S1","name":"Pour slab Level 1","description":"","duration":"3"}}`
	op := schedule.UpdateActivity(schedule.Activity{ID: "S1", Name: "Pour slab Level 1", Duration: "3"}).WithScope(scope)
	if old := schedule.DerivedID("op", scope, oldBody); old != pinned {
		t.Fatalf("the pre-issue-28 body hashes to %s, want %s", old, pinned)
	}
	if op.ID != pinned {
		t.Fatalf("op ID %s, want %s (as before the live fields)", op.ID, pinned)
	}
}

// liveFloors is floors with two calendars and a statused, constrained,
// coded first activity.
func liveFloors() *schedule.Schedule {
	s := floors()
	s.DataDate = "2026-03-09"
	s.Calendars = map[string]*schedule.Calendar{
		"five":  {Name: "5-day"},
		"seven": {Name: "7-day", Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}},
	}
	s.Options = &schedule.Options{Tool: schedule.P6, LagCalendar: schedule.LagPredecessor}
	x := &s.Activities[0]
	x.Calendar = "five"
	x.Constraint = &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-02"}
	x.ActualStart, x.Remaining, x.PercentComplete = "2026-03-02T08:00", "2", 60
	x.WBS, x.Codes = "Site/Substructure", map[string]string{"Area": "North"}
	return s
}

// Updating any live field applies exactly, and the inverse restores the
// activity (Equal) and the whole schedule (byte for byte).
func TestUpdateLiveFieldsThenInverse(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(a *schedule.Activity)
		call   string // what the reviewer reads; "" not checked
	}{
		{"constraint", func(a *schedule.Activity) {
			a.Constraint = &schedule.Constraint{Type: schedule.MandatoryStart, Date: "2026-03-03T08:00"}
		}, `update_activity(name="Excavate", constraint={"type":"mandatory_start","date":"2026-03-03T08:00"})`},
		{"constraint removed", func(a *schedule.Activity) { a.Constraint = nil }, `update_activity(name="Excavate", constraint=none)`},
		{"secondary constraint", func(a *schedule.Activity) {
			a.SecondaryConstraint = &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-04-30"}
		}, ""},
		{"progress", func(a *schedule.Activity) {
			a.PercentComplete, a.Remaining, a.ActualFinish = 100, "0", "2026-03-06T17:00"
		}, `update_activity(name="Excavate", actual_finish="2026-03-06T17:00", percent_complete=100, remaining="0")`},
		{"progress cleared", func(a *schedule.Activity) {
			a.PercentComplete, a.Remaining, a.ActualStart = 0, "", ""
		}, ""},
		{"calendar", func(a *schedule.Activity) { a.Calendar = "seven" }, `update_activity(name="Excavate", calendar="seven")`},
		{"project calendar", func(a *schedule.Activity) { a.Calendar = "" }, ""},
		{"type", func(a *schedule.Activity) { a.Type = schedule.LevelOfEffort }, ""},
		{"manual dates", func(a *schedule.Activity) {
			a.Manual, a.Start, a.Finish = true, "2026-03-02", "2026-03-06"
		}, ""},
		{"wbs and codes", func(a *schedule.Activity) {
			a.WBS, a.Codes = "Site/Block A", map[string]string{"Area": "South", "Phase": "1"}
		}, ""},
		{"codes removed", func(a *schedule.Activity) { a.Codes = nil }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := liveFloors()
			before := mustJSON(t, s)
			was := s.Activities[0].Clone()
			want := was.Clone()
			tc.change(&want)
			op := schedule.UpdateActivity(want.Clone()) // want stays the caller's
			inv, err := schedule.Apply(s, &op)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Activities[0]; !got.Equal(want) {
				t.Fatalf("applied: %s, want %s", mustJSON(t, got), mustJSON(t, want))
			}
			if tc.call != "" && op.Call != tc.call {
				t.Errorf("call %s, want %s", op.Call, tc.call)
			}
			// The schedule shares nothing with the op: changing the op's
			// activity afterwards leaves the schedule as applied.
			if op.Activity.Codes != nil {
				op.Activity.Codes["Area"] = "changed"
			}
			if op.Activity.Constraint != nil {
				op.Activity.Constraint.Date = "2099-01-01"
			}
			if got := s.Activities[0]; !got.Equal(want) {
				t.Fatalf("changing the op changed the schedule: %s", mustJSON(t, got))
			}
			if err := schedule.Undo(s, inv); err != nil {
				t.Fatal(err)
			}
			if got := s.Activities[0]; !got.Equal(was) {
				t.Fatalf("undone: %s, want %s", mustJSON(t, got), mustJSON(t, was))
			}
			if after := mustJSON(t, s); after != before {
				t.Fatalf("undo did not restore the schedule:\n%s\nwant\n%s", after, before)
			}
		})
	}
}

// Removing a live activity and undoing it brings every field back, at its
// place, with its links.
func TestRemoveLiveActivityThenInverse(t *testing.T) {
	s := liveFloors()
	before := mustJSON(t, s)
	was := s.Activities[0].Clone()
	op := schedule.RemoveActivity("X")
	inv, err := schedule.Apply(s, &op)
	if err != nil {
		t.Fatal(err)
	}
	if err := schedule.Undo(s, inv); err != nil {
		t.Fatal(err)
	}
	if !s.Activities[0].Equal(was) || mustJSON(t, s) != before {
		t.Fatalf("undoing the removal gave %s", mustJSON(t, s.Activities[0]))
	}
}
