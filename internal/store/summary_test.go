package store_test

import (
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// A summary carries the name cut to schedule.MaxName (a schedule stored
// before names had a limit may have one of megabytes), the CPM finish, its
// date, or why there is none.
func TestSummarize(t *testing.T) {
	s := &schedule.Schedule{Name: strings.Repeat("n", 63<<20), StartDate: "2026-01-05",
		Activities:    []schedule.Activity{{ID: "A", Name: "a", Duration: "5"}, {ID: "B", Name: "b", Duration: "2.5"}},
		Relationships: []schedule.Relationship{{ID: "R", Type: schedule.FS, Predecessor: "A", Successor: "B"}}}
	at := time.Date(2026, 2, 3, 4, 5, 6, 7_000_000, time.FixedZone("x", 3600))
	sum := store.Summarize(s, at)
	if len([]rune(sum.Name)) != schedule.MaxName || sum.Activities != 2 || sum.Relationships != 1 || sum.Finish != 7.5 ||
		sum.FinishDate != "2026-01-14T12:00:00" || sum.FinishError != "" || !sum.Updated.Equal(at) || sum.Updated.Location() != time.UTC {
		t.Errorf("%+v", sum)
	}
	s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R2", Type: schedule.FS, Predecessor: "B", Successor: "A"})
	if sum := store.Summarize(s, at); sum.FinishError == "" || !strings.Contains(sum.FinishError, "circular") && !strings.Contains(sum.FinishError, "cycle") {
		t.Errorf("a cycle: %+v", sum)
	}
	s.Relationships = s.Relationships[:1]
	s.Activities[0].Duration = "80000"
	if sum := store.Summarize(s, at); sum.Finish != 80002.5 || sum.FinishDate != "" || !strings.Contains(sum.FinishError, "past the calendar's range") {
		t.Errorf("past the range: %+v", sum)
	}
}
