// Package scheduletest holds the small schedules that the tests of several
// packages share.
package scheduletest

import "github.com/autoscheduler/autoscheduler/internal/schedule"

// Diamond, named name, is A(5) -> B(3) -> C(2) with D(1) beside B:
// A -> D -> C. Finish 10; A, B, C critical; D has 2 days of float.
func Diamond(name string) *schedule.Schedule {
	return &schedule.Schedule{
		Name: name,
		Activities: []schedule.Activity{
			{ID: "A", Name: "Excavate", Duration: "5"}, {ID: "B", Name: "Pour slab", Duration: "3"},
			{ID: "C", Name: "Cure", Duration: "2"}, {ID: "D", Name: "Survey", Duration: "1"},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"},
			{ID: "R2", Type: schedule.FS, Predecessor: "B", Successor: "C"},
			{ID: "R3", Type: schedule.FS, Predecessor: "A", Successor: "D"},
			{ID: "R4", Type: schedule.FS, Predecessor: "D", Successor: "C"},
		},
	}
}
