package versions_test

import (
	"slices"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/versions"
)

var t0 = time.Date(2027, 1, 1, 9, 0, 0, 0, time.UTC)

func kept(id, dataDate string, day int) versions.Info {
	return versions.Info{ID: id, DataDate: dataDate, KeptAt: t0.AddDate(0, 0, day)}
}

// A year of updates, with March visited twice (a data date set back and
// moved on again) and a plan kept before it was ever statused.
var updates = []versions.Info{
	kept("mar-b", "2027-03-01", 70),
	kept("jan", "2027-01-04T08:00", 31),
	kept("plan", "", 3),
	kept("feb", "2027-02-01", 40),
	kept("mar-a", "2027-03-01", 60),
}

func TestAt(t *testing.T) {
	for _, tc := range []struct {
		asked, want string
		ok          bool
	}{
		{"2027-03-01", "mar-b", true}, // the last kept at that date
		{"2027-01-04", "jan", true},   // a day finds a data date with its time
		{"2027-01-04T08:00", "jan", true},
		{"2027-01-04T09:00", "", false}, // a time asks for that instant
		{"2027-04-01", "", false},
	} {
		got, ok := versions.At(updates, tc.asked)
		if ok != tc.ok || got.ID != tc.want {
			t.Errorf("At(%s) = %q, %v; want %q, %v", tc.asked, got.ID, ok, tc.want, tc.ok)
		}
	}
}

func TestPrevious(t *testing.T) {
	for _, tc := range []struct {
		current, want string
		ok            bool
	}{
		{"2027-04-01", "mar-b", true},
		{"2027-03-01T08:00", "feb", true}, // the same day is not before it
		{"2027-02-01", "jan", true},
		{"2027-01-04", "plan", true}, // the unstatused plan is before any date
		{"", "mar-b", true},          // no data date: the last kept
	} {
		got, ok := versions.Previous(updates, tc.current)
		if ok != tc.ok || got.ID != tc.want {
			t.Errorf("Previous(%q) = %q, %v; want %q, %v", tc.current, got.ID, ok, tc.want, tc.ok)
		}
	}
	if _, ok := versions.Previous(nil, "2027-04-01"); ok {
		t.Error("Previous of no versions found one")
	}
}

func TestPrune(t *testing.T) {
	for _, tc := range []struct {
		max  int
		want []string
	}{
		{10, nil},
		{5, []string{"plan"}},               // five kept, one more: the oldest kept goes
		{3, []string{"plan", "jan", "feb"}}, // by when kept, not by data date
		{1, []string{"plan", "jan", "feb", "mar-a", "mar-b"}},
	} {
		if got := versions.Prune(updates, tc.max); !slices.Equal(got, tc.want) {
			t.Errorf("Prune(max %d) = %v, want %v", tc.max, got, tc.want)
		}
	}
}

func TestSortedAndDates(t *testing.T) {
	var ids []string
	for _, v := range versions.Sorted(updates) {
		ids = append(ids, v.ID)
	}
	if want := []string{"plan", "jan", "feb", "mar-a", "mar-b"}; !slices.Equal(ids, want) {
		t.Errorf("Sorted = %v, want %v", ids, want)
	}
	if got, want := versions.Dates(updates), "none, 2027-01-04T08:00, 2027-02-01, 2027-03-01"; got != want {
		t.Errorf("Dates = %q, want %q", got, want)
	}
	if got := versions.Dates(nil); got != "none" {
		t.Errorf("Dates(nil) = %q", got)
	}
}

func TestCheckDate(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"2027-03-01", "2027-03-01", true},
		{" 2027-03-01T08:00 ", "2027-03-01T08:00", true},
		{"2027-02-30", "", false},
		{"1 March", "", false},
		{"2027-03-01T25:00", "", false},
		{"", "", false},
	} {
		got, err := versions.CheckDate(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("CheckDate(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestIDAndMoved(t *testing.T) {
	a := versions.ID("building", []string{"op-1"})
	if a != versions.ID("building", []string{"op-1"}) {
		t.Error("the same write got two version ids")
	}
	if a == versions.ID("building", []string{"op-2"}) || a == versions.ID("tower", []string{"op-1"}) {
		t.Error("two writes share a version id")
	}
	before := &schedule.Schedule{DataDate: "2027-03-01"}
	for _, tc := range []struct {
		after *schedule.Schedule
		want  bool
	}{
		{&schedule.Schedule{DataDate: "2027-04-01"}, true},
		{&schedule.Schedule{}, true}, // cleared
		{&schedule.Schedule{DataDate: "2027-03-01"}, false},
		{nil, false},
	} {
		if got := versions.Moved(before, tc.after); got != tc.want {
			t.Errorf("Moved(%v) = %v, want %v", tc.after, got, tc.want)
		}
	}
	if versions.Moved(nil, before) {
		t.Error("a fresh import moved a data date")
	}
}

func TestWhy(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{versions.ImportWhy("2027-03-01", "2027-04-01"), "import --replace moved the data date 2027-03-01 -> 2027-04-01"},
		{versions.ImportWhy("", "2027-04-01"), "import --replace moved the data date none -> 2027-04-01"},
		{versions.CommitWhy("dispatch-building/r1", "ana", "2027-03-01", ""), "dispatch-building/r1 (accepted by ana) moved the data date 2027-03-01 -> none"},
		{versions.CommitWhy("", "", "2027-03-01", "2027-04-01"), "changes (accepted) moved the data date 2027-03-01 -> 2027-04-01"},
		{versions.Label("building", versions.Info{DataDate: "2027-03-01"}), "building at data date 2027-03-01"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
