package schedule_test

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func TestClock(t *testing.T) {
	// Fri 2026-01-02 start; Mon 2026-01-05 is a holiday; Mon-Fri week.
	clock, err := schedule.NewClock("2026-01-02", &schedule.Calendar{Holidays: []string{"2026-01-05"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		offset        float64
		start, finish string
	}{
		{0, "2026-01-02T08:00:00", "2026-01-02T08:00:00"},
		{0.5, "2026-01-02T13:00:00", "2026-01-02T12:00:00"},
		{0.25, "2026-01-02T10:00:00", "2026-01-02T10:00:00"},
		{0.75, "2026-01-02T15:00:00", "2026-01-02T15:00:00"},
		{1, "2026-01-06T08:00:00", "2026-01-02T17:00:00"}, // skips the weekend and the holiday
		{2, "2026-01-07T08:00:00", "2026-01-06T17:00:00"},
		{5, "2026-01-12T08:00:00", "2026-01-09T17:00:00"},
	}
	for _, tc := range tests {
		if got := clock.StartAt(tc.offset).Format(schedule.DateTimeLayout); got != tc.start {
			t.Errorf("StartAt(%g) = %s, want %s", tc.offset, got, tc.start)
		}
		if got := clock.FinishAt(tc.offset).Format(schedule.DateTimeLayout); got != tc.finish {
			t.Errorf("FinishAt(%g) = %s, want %s", tc.offset, got, tc.finish)
		}
	}
}

func TestClockStartsOnFirstWorkday(t *testing.T) {
	// Sat 2026-01-03 with a Sun-Thu week: day 0 is Sunday.
	clock, err := schedule.NewClock("2026-01-03", &schedule.Calendar{Workdays: []string{"Sun", "Mon", "Tue", "Wed", "thursday"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := clock.StartAt(0).Format(schedule.DateTimeLayout); got != "2026-01-04T08:00:00" {
		t.Errorf("day 0 = %s", got)
	}
	if got := clock.StartAt(5).Format(schedule.DateTimeLayout); got != "2026-01-11T08:00:00" {
		t.Errorf("day 5 = %s", got)
	}
}

func TestClockErrors(t *testing.T) {
	tests := []struct {
		start string
		cal   *schedule.Calendar
		want  string
	}{
		{"05/01/2026", nil, `start_date: "05/01/2026" is not a date`},
		{"2026-01-05", &schedule.Calendar{Workdays: []string{"Mon", "Funday"}}, `calendar.workdays[1]: "Funday" is not a weekday`},
		{"2026-01-05", &schedule.Calendar{Workdays: []string{}}, "calendar.workdays: no working days"},
		{"2026-01-05", &schedule.Calendar{Holidays: []string{"2026-13-01"}}, `calendar.holidays[0]: "2026-13-01" is not a date`},
	}
	for _, tc := range tests {
		if _, err := schedule.NewClock(tc.start, tc.cal); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}

func TestClockCalendars(t *testing.T) {
	type at struct {
		offset        float64
		start, finish string
	}
	tests := []struct {
		name  string
		start string
		cal   *schedule.Calendar
		want  []at
	}{
		{"one long period", "2026-01-05", &schedule.Calendar{Hours: []string{"07:00-17:00"}}, []at{
			{0.5, "2026-01-05T12:00:00", "2026-01-05T12:00:00"}, // a day is the 10 hours of Hours
			{1, "2026-01-06T07:00:00", "2026-01-05T17:00:00"},
		}},
		{"hours_per_day below the working hours", "2026-01-05", &schedule.Calendar{Hours: []string{"07:00-17:00"}, HoursPerDay: 8}, []at{
			{1, "2026-01-05T15:00:00", "2026-01-05T15:00:00"}, // 8 of the 10 hours
			{1.25, "2026-01-06T07:00:00", "2026-01-05T17:00:00"},
			{2.5, "2026-01-07T07:00:00", "2026-01-06T17:00:00"},
		}},
		{"short Friday", "2026-01-08", &schedule.Calendar{DayHours: map[string][]string{"Fri": {"08:00-12:00"}}}, []at{
			{1, "2026-01-09T08:00:00", "2026-01-08T17:00:00"},
			{1.5, "2026-01-12T08:00:00", "2026-01-09T12:00:00"}, // Friday holds half a day
			{2, "2026-01-12T13:00:00", "2026-01-12T12:00:00"},
		}},
		{"shutdown and a worked Saturday", "2026-12-21", &schedule.Calendar{Exceptions: []schedule.CalendarException{
			{Name: "Christmas", From: "2026-12-24", To: "2027-01-01"},
			{Name: "Catch-up", From: "2026-12-19", To: "2026-12-19", Working: true},
			{From: "2027-01-02", Working: true, Hours: []string{"09:00-11:00"}},
		}}, []at{
			{2, "2026-12-23T08:00:00", "2026-12-22T17:00:00"},
			{3, "2027-01-02T09:00:00", "2026-12-23T17:00:00"}, // the shutdown, then a two-hour Saturday
			{3.25, "2027-01-04T08:00:00", "2027-01-02T11:00:00"},
			{4.25, "2027-01-05T08:00:00", "2027-01-04T17:00:00"},
		}},
		{"a holiday wins over a worked exception", "2026-01-09", &schedule.Calendar{
			Holidays:   []string{"2026-01-10"},
			Exceptions: []schedule.CalendarException{{From: "2026-01-10", Working: true}},
		}, []at{{1, "2026-01-12T08:00:00", "2026-01-09T17:00:00"}}},
		{"night shift", "2026-01-05", &schedule.Calendar{Hours: []string{"00:00-06:00", "22:00-24:00"}}, []at{
			{0.75, "2026-01-05T22:00:00", "2026-01-05T06:00:00"},
			{1, "2026-01-06T00:00:00", "2026-01-06T00:00:00"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clock, err := schedule.NewClock(tc.start, tc.cal)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if got := clock.StartAt(w.offset).Format(schedule.DateTimeLayout); got != w.start {
					t.Errorf("StartAt(%g) = %s, want %s", w.offset, got, w.start)
				}
				if got := clock.FinishAt(w.offset).Format(schedule.DateTimeLayout); got != w.finish {
					t.Errorf("FinishAt(%g) = %s, want %s", w.offset, got, w.finish)
				}
				// Both dates are the same working instant.
				for _, s := range []string{w.start, w.finish} {
					tm, _ := time.Parse(schedule.DateTimeLayout, s)
					if got := clock.Offset(tm); math.Abs(got-w.offset) > 1e-9 {
						t.Errorf("Offset(%s) = %g, want %g", s, got, w.offset)
					}
				}
			}
		})
	}
}

func TestClockOffsetOutsideWorkingTime(t *testing.T) {
	clock, err := schedule.NewClock("2026-01-05", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		at   string
		want float64
	}{
		{"2026-01-04T12:00:00", 0},     // before the start
		{"2026-01-05T12:30:00", 0.5},   // lunch
		{"2026-01-05T20:00:00", 1},     // evening
		{"2026-01-10T10:00:00", 5},     // Saturday
		{"2026-01-12T09:00:00", 5.125}, // an hour into Monday
	} {
		tm, _ := time.Parse(schedule.DateTimeLayout, tc.at)
		if got := clock.Offset(tm); got != tc.want {
			t.Errorf("Offset(%s) = %g, want %g", tc.at, got, tc.want)
		}
	}
}

func TestCalendarErrors(t *testing.T) {
	tests := []struct {
		cal  schedule.Calendar
		want string
	}{
		{schedule.Calendar{Hours: []string{"8-12"}}, `calendar.hours[0]: "8-12" is not a period like 08:00-12:00`},
		{schedule.Calendar{Hours: []string{"08:00-12:00", "11:00-13:00"}}, `calendar.hours[1]: "11:00-13:00" starts before the previous period ends`},
		{schedule.Calendar{Hours: []string{"12:00-08:00"}}, `calendar.hours[0]: "12:00-08:00" ends before it starts`},
		{schedule.Calendar{Hours: []string{"08:00-24:01"}}, `is not a period`},
		{schedule.Calendar{Hours: []string{}}, "calendar.hours: no working periods"},
		{schedule.Calendar{DayHours: map[string][]string{"Sat": {"08:00-12:00"}}}, "calendar.day_hours.Sat: Sat is not in workdays"},
		{schedule.Calendar{DayHours: map[string][]string{"Fri": {"08:00-12:00"}, "friday": {"08:00-10:00"}}}, `calendar.day_hours.friday: the same weekday as "Fri"`},
		{schedule.Calendar{DayHours: map[string][]string{"Caturday": {"08:00-12:00"}}}, `calendar.day_hours.Caturday: "Caturday" is not a weekday`},
		{schedule.Calendar{HoursPerDay: 25}, "calendar.hours_per_day: 25 is not between 0 and 24"},
		{schedule.Calendar{HoursPerDay: -1}, "calendar.hours_per_day: -1 is not between 0 and 24"},
		{schedule.Calendar{Exceptions: []schedule.CalendarException{{From: "2026-02-30"}}}, `calendar.exceptions[0].from: "2026-02-30" is not a date`},
		{schedule.Calendar{Exceptions: []schedule.CalendarException{{From: "2026-02-03", To: "2026-02-01"}}}, "calendar.exceptions[0].to: 2026-02-01 is before from 2026-02-03"},
		{schedule.Calendar{Exceptions: []schedule.CalendarException{{From: "2026-02-03", Hours: []string{"08:00-09:00"}}}}, `calendar.exceptions[0].hours: hours on a non-working exception`},
		{schedule.Calendar{Exceptions: []schedule.CalendarException{{From: "2026-02-03", Working: true, Hours: []string{"x"}}}}, `calendar.exceptions[0].hours[0]: "x" is not a period`},
		{schedule.Calendar{Exceptions: []schedule.CalendarException{{From: "2026-02-03", To: "2026-02-10"}, {From: "2026-02-10"}}}, "calendar.exceptions: 2026-02-03 to 2026-02-10 overlaps 2026-02-10 to 2026-02-10"},
	}
	for _, tc := range tests {
		if _, err := tc.cal.Compile(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.cal, err, tc.want)
		}
		s := &schedule.Schedule{Calendar: &tc.cal}
		if err := schedule.Validate(s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate %+v: err = %v, want %q", tc.cal, err, tc.want)
		}
	}
}

func TestCalendarCloneIsDeep(t *testing.T) {
	s := &schedule.Schedule{Calendar: &schedule.Calendar{
		Workdays: []string{"Mon"}, Holidays: []string{"2026-01-01"}, Hours: []string{"08:00-16:00"},
		DayHours:   map[string][]string{"Mon": {"08:00-12:00"}},
		Exceptions: []schedule.CalendarException{{From: "2026-02-01", Working: true, Hours: []string{"08:00-10:00"}}},
	}}
	c := s.Clone()
	if !reflect.DeepEqual(c, s) {
		t.Fatal("clone differs")
	}
	c.Calendar.Workdays[0] = "Tue"
	c.Calendar.Holidays[0] = "x"
	c.Calendar.Hours[0] = "x"
	c.Calendar.DayHours["Mon"][0] = "x"
	c.Calendar.DayHours["Tue"] = nil
	c.Calendar.Exceptions[0].Hours[0] = "x"
	c.Calendar.Exceptions[0].From = "x"
	want := &schedule.Calendar{
		Workdays: []string{"Mon"}, Holidays: []string{"2026-01-01"}, Hours: []string{"08:00-16:00"},
		DayHours:   map[string][]string{"Mon": {"08:00-12:00"}},
		Exceptions: []schedule.CalendarException{{From: "2026-02-01", Working: true, Hours: []string{"08:00-10:00"}}},
	}
	if !reflect.DeepEqual(s.Calendar, want) {
		t.Errorf("changing the clone changed the original: %+v", s.Calendar)
	}
}

func TestClockHorizon(t *testing.T) {
	// A nonsense offset must not walk for ever.
	clock, err := schedule.NewClock("2026-01-05", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := clock.FinishAt(1e12); got.Year() < 2200 {
		t.Errorf("FinishAt(1e12) = %v", got)
	}
}

// TestStartTimeOfDay: a start_date with a time of day starts day 0 then
// (a project MS Project or P6 starts at 09:00 on a calendar worked from
// 08:00), within or after the day's working periods.
func TestStartTimeOfDay(t *testing.T) {
	tests := []struct {
		start           string
		wantStart       string // day 0's start
		wantFinishDay1  string // the finish of one 8-hour day of work
		wantStartDateOf string // StartDateOf the start instant
	}{
		{"2026-01-05", "2026-01-05T08:00", "2026-01-05T17:00", "2026-01-05"},
		{"2026-01-05T08:00", "2026-01-05T08:00", "2026-01-05T17:00", "2026-01-05"},
		{"2026-01-05T07:00", "2026-01-05T08:00", "2026-01-05T17:00", "2026-01-05"},
		{"2026-01-05T09:00", "2026-01-05T09:00", "2026-01-06T09:00", "2026-01-05T09:00"},
		{"2026-01-05T12:30", "2026-01-05T13:00", "2026-01-06T12:00", "2026-01-05T12:30"},
		{"2026-01-05T18:00:00", "2026-01-06T08:00", "2026-01-06T17:00", "2026-01-05T18:00"},
		{"2026-01-10T09:00", "2026-01-12T08:00", "2026-01-12T17:00", "2026-01-10T09:00"}, // a Saturday
	}
	work, err := (*schedule.Calendar)(nil).Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		c, err := schedule.NewClock(tc.start, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.start, err)
		}
		const layout = "2006-01-02T15:04"
		if got := c.StartAt(0).Format(layout); got != tc.wantStart {
			t.Errorf("%s: day 0 starts %s, want %s", tc.start, got, tc.wantStart)
		}
		if got := c.FinishAt(1).Format(layout); got != tc.wantFinishDay1 {
			t.Errorf("%s: one day finishes %s, want %s", tc.start, got, tc.wantFinishDay1)
		}
		at, err := schedule.ParseStart(tc.start)
		if err != nil {
			t.Fatal(err)
		}
		if got := schedule.StartDateOf(at, work); got != tc.wantStartDateOf {
			t.Errorf("StartDateOf(%s) = %s, want %s", tc.start, got, tc.wantStartDateOf)
		}
	}
	for _, bad := range []string{"2026-01-05T25:00", "2026-01-05 09:00", "2026-01-05T9"} {
		if err := schedule.Validate(&schedule.Schedule{StartDate: bad}); err == nil || !strings.Contains(err.Error(), "2026-01-05T09:00") {
			t.Errorf("start_date %q: err %v", bad, err)
		}
	}
}
