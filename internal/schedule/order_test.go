package schedule_test

import (
	"slices"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func TestCompareIDs(t *testing.T) {
	ordered := []string{"1", "2", "10", "16", "A2", "A10", "A117", "A117.1", "A117.2", "A117.10", "A118", "A0119", "B1", "R017", "R18", "a1"}
	for i := range ordered {
		for j := range ordered {
			got := schedule.CompareIDs(ordered[i], ordered[j])
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got != want {
				t.Errorf("CompareIDs(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	if schedule.CompareIDs("A01", "A1") == 0 {
		t.Error("ids that differ only in leading zeros must still be ordered")
	}
}

func activities(ids ...string) *schedule.Schedule {
	s := &schedule.Schedule{}
	for _, id := range ids {
		s.Activities = append(s.Activities, schedule.Activity{ID: id, Name: id, Duration: "1"})
	}
	return s
}

func TestNextActivityID(t *testing.T) {
	uuid := schedule.DerivedID("x")
	cases := []struct {
		name   string
		ids    []string
		anchor string
		want   string
		ok     bool
		avoid  []string
	}{
		{"a removed id is not reused", []string{"A1", "A2"}, "", "A4", true, []string{"A3"}},
		{"nor after its anchor", []string{"A1", "A2"}, "A2", "A4", true, []string{"A3"}},
		{"P6 tens, at the end", []string{"A1000", "A1010", "A1020"}, "", "A1030", true, nil},
		{"P6 tens, between", []string{"A1000", "A1010", "A1020"}, "A1010", "A1015", true, nil},
		{"after the last", []string{"A1000", "A1010"}, "A1010", "A1020", true, nil},
		{"a wide gap: off the grid", []string{"A1000", "A1010", "A1020", "A1040"}, "A1020", "A1025", true, nil},
		{"no room: a point number", []string{"A116", "A117", "A118"}, "A117", "A117.1", true, nil},
		{"the point number taken", []string{"A117", "A117.1", "A118"}, "A117", "A117.2", true, nil},
		{"zero padded", []string{"A001", "A002", "A003"}, "", "A004", true, nil},
		{"zero padded, no halfway on a step of one", []string{"A001", "A002", "A004"}, "A002", "A002.1", true, nil},
		{"MS Project numbers", []string{"1", "2", "10", "16"}, "", "17", true, nil},
		{"P6 codes with dashes", []string{"11-SF-10", "11-SF-12", "11-SF-14"}, "11-SF-10", "11-SF-11", true, nil},
		{"P6 codes, the last", []string{"11-SF-10", "11-SF-12", "11-SF-14"}, "11-SF-14", "11-SF-16", true, nil},
		{"derived ids: no pattern", []string{uuid, schedule.DerivedID("y")}, "", "", false, nil},
		{"derived anchor: the pattern's next", []string{"A1", "A2", "A3", uuid}, uuid, "A4", true, nil},
		{"names only", []string{"excavate", "pour"}, "", "", false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := schedule.NextActivityID(activities(c.ids...), c.anchor, c.avoid...)
			if got != c.want || ok != c.ok {
				t.Fatalf("NextActivityID(%v, %q) = %q, %v; want %q, %v", c.ids, c.anchor, got, ok, c.want, c.ok)
			}
			if ok && c.anchor != "" && !looksDerivedTest(c.anchor) {
				if schedule.CompareIDs(got, c.anchor) <= 0 {
					t.Errorf("%q does not sort after its anchor %q", got, c.anchor)
				}
			}
		})
	}
}

func looksDerivedTest(id string) bool { return len(id) == 36 }

func TestNextRelationshipIDAvoidsActivityIDs(t *testing.T) {
	s := activities("R3")
	s.Relationships = []schedule.Relationship{{ID: "R1"}, {ID: "R2"}}
	if got, ok := schedule.NextRelationshipID(s); !ok || got != "R4" {
		t.Errorf("NextRelationshipID = %q, %v; want R4 (R3 is an activity's)", got, ok)
	}
}

// TestAddAfterPlacesTheActivity: an add with After lands after its
// anchor and any earlier inserts that sort before it, the order a stored
// schedule is read in; undo takes it out again.
func TestAddAfterPlacesTheActivity(t *testing.T) {
	s := activities("A116", "A117", "A118")
	for _, id := range []string{"A117.2", "A117.1"} {
		op := schedule.AddActivity(schedule.Activity{ID: id, Name: "Inspection " + id, Duration: "1"})
		op.After = "A117"
		if _, err := schedule.Apply(s, &op); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, a := range s.Activities {
		got = append(got, a.ID)
	}
	if want := []string{"A116", "A117", "A117.1", "A117.2", "A118"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	sorted := s.Clone()
	schedule.SortByID(sorted)
	for i := range s.Activities {
		if sorted.Activities[i].ID != s.Activities[i].ID {
			t.Fatalf("the working order %v is not the stored order", got)
		}
	}
	gone := schedule.AddActivity(schedule.Activity{ID: "X1", Name: "At the end", Duration: "1"})
	gone.After = "no such activity"
	if _, err := schedule.Apply(s, &gone); err != nil {
		t.Fatal(err)
	}
	if last := s.Activities[len(s.Activities)-1].ID; last != "X1" {
		t.Errorf("an add after an unknown anchor went to %q's place, want the end", last)
	}
}

func TestPrecedingID(t *testing.T) {
	s := activities("A10", "A2", "A9")
	for id, want := range map[string]string{"A10": "A9", "A9": "A2", "A2": "", "A5": "A2"} {
		if got := schedule.PrecedingID(s, id); got != want {
			t.Errorf("PrecedingID(%q) = %q, want %q", id, got, want)
		}
	}
}
