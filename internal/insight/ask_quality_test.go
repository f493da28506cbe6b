package insight_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// TestAskQuality: "is this programme fit to submit" and its kin are
// answered with the schedule checks. The building fails 5 of 11 (see
// TestCheckBuilding: leads, lags, relationship types, high float,
// redundant links); a plain FS chain passes all.
func TestAskQuality(t *testing.T) {
	building, err := interchange.ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	chain := &schedule.Schedule{
		Activities: []schedule.Activity{{ID: "S", Name: "Start", Duration: "0"}, {ID: "W", Name: "Work", Duration: "5"}, {ID: "F", Name: "Finish", Duration: "0"}},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "S", Successor: "W"},
			{ID: "R2", Type: schedule.FS, Predecessor: "W", Successor: "F"},
		},
	}
	questions := []string{
		"Is this programme fit to submit?", "is the schedule sound", "does the plan pass DCMA?",
		"any problems with the logic?", "check the schedule quality", "what's wrong with the programme?",
		"Does the programme meet the DCMA 14 point assessment?", "is it ready for baselining?",
	}
	for _, q := range questions {
		v, err := insight.New(building)
		if err != nil {
			t.Fatal(err)
		}
		ans := insight.Ask(v, q)
		if !ans.Understood || !strings.Contains(ans.Answer, "5 of 11 fail") {
			t.Errorf("%q on the building: %q", q, ans.Answer)
		}
		// A023 and A036 have high float; the ends of a failed link check
		// are cited too: R017, a lead, joins A009 to A013, and R241, a
		// redundant link, A133 to A141.
		for _, id := range []string{"A023", "A036", "A009", "A013", "A133", "A141"} {
			if !slices.Contains(ans.Activities, id) {
				t.Errorf("%q: the activities lack %s: %v", q, id, ans.Activities)
			}
		}
		cv, err := insight.New(chain)
		if err != nil {
			t.Fatal(err)
		}
		if ans := insight.Ask(cv, q); !strings.Contains(ans.Answer, "yes: all 11 pass") || len(ans.Activities) != 0 {
			t.Errorf("%q on a plain chain: %q %v", q, ans.Answer, ans.Activities)
		}
	}
	// Not quality questions: still read as before.
	v, _ := insight.New(building)
	if ans := insight.Ask(v, "is Piling critical?"); strings.Contains(ans.Answer, "checks") || !slices.Equal(ans.Activities, []string{"A009"}) {
		t.Errorf("is Piling critical: %q", ans.Answer)
	}
}

// TestAskEmptySchedule: a schedule with no activities has nothing to
// answer from, whatever the question, and says so.
func TestAskEmptySchedule(t *testing.T) {
	v, err := insight.New(&schedule.Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"what is the critical path", "float by level", "is this programme fit to submit?", "near critical"} {
		ans := insight.Ask(v, q)
		if !strings.Contains(ans.Answer, "no activities") || ans.Activities == nil || len(ans.Activities) != 0 {
			t.Errorf("%q on an empty schedule: %q %v", q, ans.Answer, ans.Activities)
		}
	}
}
