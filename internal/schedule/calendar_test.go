package schedule_test

import (
	"strings"
	"testing"

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
