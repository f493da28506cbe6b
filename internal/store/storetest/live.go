package storetest

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// LiveSchedule is a statused programme that sets every field of issue 28
// (and the baselines of issue 30):
// a data date, two named calendars besides the project's, P6 options, and
// activities that between them (the first alone) carry every live field.
func LiveSchedule() *schedule.Schedule {
	return &schedule.Schedule{
		Name:      "Live block A",
		StartDate: "2026-03-02",
		Calendar:  &schedule.Calendar{Name: "Standard"},
		DataDate:  "2026-03-16T08:00",
		Calendars: map[string]*schedule.Calendar{
			"cal5": {
				Name:        "5-day",
				Workdays:    []string{"Mon", "Tue", "Wed", "Thu", "Fri"},
				Holidays:    []string{"2026-04-03"},
				Hours:       []string{"08:00-12:00", "13:00-17:00"},
				DayHours:    map[string][]string{"Fri": {"08:00-12:00"}},
				HoursPerDay: 8,
				Exceptions:  []schedule.CalendarException{{Name: "Shutdown", From: "2026-04-06", To: "2026-04-07"}},
			},
			"cal7": {
				Name:        "Curing 7-day",
				Workdays:    []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"},
				Hours:       []string{"07:00-19:00"},
				HoursPerDay: 12,
				Exceptions:  []schedule.CalendarException{{Name: "Worked Saturday", From: "2026-03-21", Working: true, Hours: []string{"08:00-12:00"}}},
			},
		},
		Options: &schedule.Options{Tool: schedule.P6, LagCalendar: schedule.LagPredecessor},
		// The imported file is kept whole (issue 29): bytes that are not
		// text, so a store that mangles them fails.
		Source: &schedule.Source{Format: "xer", Name: "block-a.xer", Gzip: []byte{0x1f, 0x8b, 0, 0xff, 0x80, '\t', '\'', '"'}},
		Activities: []schedule.Activity{
			{
				ID: "L1", Name: "Excavate footings", Description: "Bulk dig to formation.", Duration: "5",
				Type: schedule.ResourceDependent, Calendar: "cal5",
				Constraint:          &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-02"},
				SecondaryConstraint: &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-04-30T17:00"},
				ActualStart:         "2026-03-02T08:00", ActualFinish: "2026-03-06T17:00", Remaining: "0", PercentComplete: 100,
				Manual: true, Start: "2026-03-02T08:00", Finish: "2026-03-06T17:00",
				WBS: "Site/Block A/Groundworks", Codes: map[string]string{"Area": "North", "Phase": "2"},
				Assignments:   []schedule.Assignment{{Resource: "Excavator crew", Units: 0.5, Work: "2", Calendar: "cal7"}},
				BaselineStart: "2026-03-02T08:00", BaselineFinish: "2026-03-06T12:00", BaselineDuration: "4.5",
			},
			{
				ID: "L2", Name: "Pour footings", Duration: "10", Calendar: "cal7",
				ActualStart: "2026-03-09", Remaining: "4", PercentComplete: 60,
				WBS: "Site/Block A/Substructure", Codes: map[string]string{"Trade": "Concrete"},
				BaselineStart: "2026-03-09", BaselineFinish: "2026-03-18", // a baseline of dates alone
			},
			{ID: "L3", Name: "Cure", Duration: "3ed", Constraint: &schedule.Constraint{Type: schedule.AsLateAsPossible}},
			{ID: "L4", Name: "Base complete", Duration: "0", Type: schedule.FinishMilestone,
				Constraint: &schedule.Constraint{Type: schedule.FinishOn, Date: "2026-04-30"}},
			{ID: "L5", Name: "Site set-up", Duration: "2"}, // plain: no live field at all
		},
		Relationships: []schedule.Relationship{
			{ID: "LR1", Type: schedule.FS, Predecessor: "L5", Successor: "L1"},
			{ID: "LR2", Type: schedule.FS, Predecessor: "L1", Successor: "L2", Lag: 1},
			{ID: "LR3", Type: schedule.SS, Predecessor: "L2", Successor: "L3"},
			{ID: "LR4", Type: schedule.FF, Predecessor: "L3", Successor: "L4"},
		},
	}
}

// sameSchedule fails unless got holds exactly want: the schedule's own
// fields, each activity (Equal) and each relationship, then DeepEqual.
func sameSchedule(t *testing.T, when string, got, want *schedule.Schedule) {
	t.Helper()
	if got.Name != want.Name || got.StartDate != want.StartDate || got.DataDate != want.DataDate {
		t.Fatalf("%s: name %q start %q data date %q, want %q %q %q", when, got.Name, got.StartDate, got.DataDate, want.Name, want.StartDate, want.DataDate)
	}
	if !reflect.DeepEqual(got.Source, want.Source) {
		t.Fatalf("%s: the kept source file differs: %+v, want %+v", when, got.Source, want.Source)
	}
	if !reflect.DeepEqual(got.Calendar, want.Calendar) || !reflect.DeepEqual(got.Calendars, want.Calendars) || !reflect.DeepEqual(got.Options, want.Options) {
		t.Fatalf("%s: calendars or options differ:\n%s\nwant\n%s", when, asJSON(t, store.MetaOf(got)), asJSON(t, store.MetaOf(want)))
	}
	if len(got.Activities) != len(want.Activities) {
		t.Fatalf("%s: %d activities, want %d", when, len(got.Activities), len(want.Activities))
	}
	for i := range want.Activities {
		if !got.Activities[i].Equal(want.Activities[i]) {
			t.Fatalf("%s: activity\n%s\nwant\n%s", when, asJSON(t, got.Activities[i]), asJSON(t, want.Activities[i]))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: schedules differ:\n%s\nwant\n%s", when, asJSON(t, got), asJSON(t, want))
	}
}

// testLiveRoundTrip stores a live programme, reads it back whole, changes
// its constraints, progress and calendars with ops and undoes them, and
// finds activities by WBS and code.
func testLiveRoundTrip(t *testing.T, open Opener) {
	ctx := context.Background()
	c := coordinator(t, open)
	id := scheduleID(t, c)
	s := LiveSchedule()
	if err := c.Import(ctx, id, s, false, nil); err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	sameSchedule(t, "imported", got, sorted(s))
	noDrift(t, c, id)

	before := Dumps(t, c, id)
	l1, l2 := s.Activities[0].Clone(), s.Activities[1].Clone()
	l1.Constraint = &schedule.Constraint{Type: schedule.MandatoryStart, Date: "2026-03-03"}
	l1.SecondaryConstraint = nil
	l2.PercentComplete, l2.Remaining, l2.ActualFinish = 100, "0", "2026-03-20"
	l2.Calendar = "cal5"
	l2.Codes = map[string]string{"Trade": "Formwork", "Area": "South"}
	l2.BaselineFinish, l2.BaselineDuration = "2026-03-20T19:00", "12"
	ops := []schedule.Op{schedule.UpdateActivity(l1), schedule.UpdateActivity(l2)}
	for i := range ops {
		ops[i] = ops[i].WithScope("storetest-live")
	}
	applied, inverses, err := c.ApplyOps(ctx, id, ops)
	if err != nil {
		t.Fatal(err)
	}
	want := sorted(s)
	if _, _, err := schedule.ApplyAll(want, ops); err != nil {
		t.Fatal(err)
	}
	got, _ = c.Load(ctx, id)
	sameSchedule(t, "after the ops", got, want)
	noDrift(t, c, id)
	// The inverses the graph ledger kept (JSON) give the old fields back too.
	opIDs := []string{applied[0].ID, applied[1].ID}
	was, err := c.Before(ctx, id, got, opIDs)
	if err != nil {
		t.Fatal(err)
	}
	sameSchedule(t, "before, from the ledger", was, sorted(s))
	undo := slices.Clone(inverses)
	slices.Reverse(undo)
	if _, _, err := c.ApplyOps(ctx, id, undo); err != nil {
		t.Fatal(err)
	}
	got, _ = c.Load(ctx, id)
	sameSchedule(t, "undone", got, sorted(s))
	if Dumps(t, c, id) != before {
		t.Fatal("the inverses did not restore the dumps")
	}

	// Filed text is searchable: a WBS word and a code value, each in one
	// activity only.
	for _, q := range []struct{ text, want string }{{"Groundworks", "L1"}, {"Substructure", "L2"}, {"Concrete", "L2"}, {"North", "L1"}} {
		hits, err := c.Search(ctx, id, q.text, 1, store.ActivityKind)
		if err != nil || len(hits) != 1 || hits[0].ID != q.want {
			t.Fatalf("search %q: %+v %v, want %s first", q.text, hits, err, q.want)
		}
	}

	// Replacing with only the meta changed writes the meta.
	changed := s.Clone()
	changed.DataDate = "2026-03-23"
	changed.Options = &schedule.Options{Tool: schedule.P6, LagCalendar: schedule.Lag24Hour, Float: schedule.StartFloat}
	changed.Calendars["cal7"].Name = "Curing 7-day (winter)"
	if err := c.Import(ctx, id, changed, true, nil); err != nil {
		t.Fatal(err)
	}
	got, _ = c.Load(ctx, id)
	sameSchedule(t, "meta replaced", got, sorted(changed))
	noDrift(t, c, id)
}
