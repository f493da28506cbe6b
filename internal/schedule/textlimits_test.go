package schedule_test

import (
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Names, descriptions and ids have length limits in Validate and in the
// ops that add or change activities; the error names the field, the
// activity and both lengths, without quoting the whole value.
func TestTextLengthLimits(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) } // 2 bytes a character: characters count, not bytes
	base := func() *schedule.Schedule {
		return &schedule.Schedule{Name: "p", Activities: []schedule.Activity{{ID: "A", Name: "a", Duration: "1"}}, Relationships: []schedule.Relationship{}}
	}
	tests := []struct {
		name   string
		change func(*schedule.Schedule)
		want   string
	}{
		{"schedule name", func(s *schedule.Schedule) { s.Name = long(schedule.MaxName + 1) }, "name: name \"éé"},
		{"activity name", func(s *schedule.Schedule) { s.Activities[0].Name = long(63 << 20) }, `activities[0].name: activity "A": name "éééé`},
		{"description", func(s *schedule.Schedule) { s.Activities[0].Description = long(schedule.MaxDescription + 1) }, `activities[0].description: activity "A": description`},
		{"activity id", func(s *schedule.Schedule) { s.Activities[0].ID = long(schedule.MaxID + 1) }, "activities[0].id: id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.change(s)
			err := schedule.Validate(s)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "characters long (") {
				t.Fatalf("err = %.300v\nwant %q and the lengths", err, tc.want)
			}
			if len(err.Error()) > 400 {
				t.Errorf("the error quotes the value whole: %d bytes", len(err.Error()))
			}
		})
	}
	// At the limits everything is accepted.
	s := base()
	s.Name, s.Activities[0].Name, s.Activities[0].Description = long(schedule.MaxName), long(schedule.MaxName), long(schedule.MaxDescription)
	s.Activities[0].ID = long(schedule.MaxID)
	if err := schedule.Validate(s); err != nil {
		t.Fatal(err)
	}

	// The ops engine: an add or an update that brings an over-long name or
	// description is refused; an update leaving them as they are is not.
	s = base()
	for _, op := range []schedule.Op{
		schedule.AddActivity(schedule.Activity{ID: "B", Name: long(schedule.MaxName + 1), Duration: "1"}),
		schedule.UpdateActivity(schedule.Activity{ID: "A", Name: long(1 << 20), Duration: "1"}),
		schedule.UpdateActivity(schedule.Activity{ID: "A", Name: "a", Description: long(schedule.MaxDescription + 1), Duration: "1"}),
	} {
		if _, err := schedule.Apply(s, &op); err == nil || !strings.Contains(err.Error(), "characters long") {
			t.Errorf("%s: err = %.200v", op.Kind, err)
		}
	}
	stored := base()
	stored.Activities[0].Name = long(schedule.MaxName + 5) // stored under older rules
	op := schedule.UpdateActivity(schedule.Activity{ID: "A", Name: stored.Activities[0].Name, Duration: "2"})
	if _, err := schedule.Apply(stored, &op); err != nil {
		t.Errorf("an edit of the duration of an activity with an old long name: %v", err)
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
		cut  bool
	}{
		{"abc", 3, "abc", false},
		{"abcd", 3, "ab…", true},
		{"ab  cd", 4, "ab…", true},
		{"éééé", 3, "éé…", true},
	} {
		got, cut := schedule.Truncate(tc.in, tc.max)
		if got != tc.want || cut != tc.cut {
			t.Errorf("Truncate(%q, %d) = %q, %v; want %q, %v", tc.in, tc.max, got, cut, tc.want, tc.cut)
		}
	}
}
