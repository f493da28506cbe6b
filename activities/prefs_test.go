package activities_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

func TestRememberPreferences(t *testing.T) {
	env, a, _ := setup(t)
	in := activities.RememberInput{ScheduleID: scheduleID, Reviewer: "pat",
		Feedback: "Only level 2 please. Remember: use FS+1 for new inspections. From now on new activities default to 3 days. remember: I like blue"}
	var first activities.RememberResult
	for i := range 2 { // the second run is a retry: the same result, nothing more stored
		v, err := env.ExecuteActivity(a.RememberPreferences, in)
		if err != nil {
			t.Fatal(err)
		}
		var res activities.RememberResult
		if err := v.Get(&res); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = res
		}
		want := []string{"new inspections: link FS+1", "new activities: duration 3 days"}
		if !slices.Equal(res.Saved, want) || res.Rest != "Only level 2 please." || len(res.Notes) != 1 {
			t.Fatalf("run %d: %+v; want saved %q, rest %q and one note", i+1, res, want, "Only level 2 please.")
		}
	}
	p, err := a.Stores.Preferences(context.Background(), scheduleID)
	if err != nil {
		t.Fatal(err)
	}
	var want prefs.Preferences
	_ = prefs.SetArg(&want, "link:inspection=FS+1")
	_ = prefs.SetArg(&want, "duration=3")
	if !prefs.Equal(p, want) {
		t.Errorf("stored %+v, want %+v (first result %+v)", p, want, first)
	}

	// Feedback without remember sentences stores nothing and comes back whole.
	v, err := env.ExecuteActivity(a.RememberPreferences, activities.RememberInput{ScheduleID: scheduleID, Feedback: "delete Painting Level 3"})
	if err != nil {
		t.Fatal(err)
	}
	var res activities.RememberResult
	_ = v.Get(&res)
	if res.Rest != "delete Painting Level 3" || len(res.Saved)+len(res.Notes) != 0 {
		t.Errorf("plain feedback: %+v", res)
	}

	// An unknown schedule fails without retry.
	_, err = env.ExecuteActivity(a.RememberPreferences, activities.RememberInput{ScheduleID: "nope", Feedback: "remember: use SS for new links"})
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != activities.ErrTypeScheduleNotFound || !appErr.NonRetryable() {
		t.Errorf("unknown schedule: %v", err)
	}
}

// TestPlanUsesPreferences: a planning step reads the schedule's stored
// preferences.
func TestPlanUsesPreferences(t *testing.T) {
	env, a, _ := setup(t)
	req := activities.PlanRequest{ScheduleID: scheduleID, Input: scope.PlanInput{Prompt: "add a 2 day fire inspection after Painting Level 2", Round: 1}}
	plan := func() scope.Plan {
		v, err := env.ExecuteActivity(a.PlanAdditions, req)
		if err != nil {
			t.Fatal(err)
		}
		var p scope.Plan
		if err := v.Get(&p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := plan(); len(p.Ops) != 2 || p.Ops[1].Relationship == nil || p.Ops[1].Relationship.Lag != 0 {
		t.Fatalf("without preferences: %+v", p.Ops)
	}
	var p prefs.Preferences
	_ = prefs.SetArg(&p, "link:inspection=FS+1")
	if err := a.Stores.SetPreferences(context.Background(), scheduleID, p); err != nil {
		t.Fatal(err)
	}
	if got := plan(); len(got.Ops) != 2 || got.Ops[1].Relationship == nil || got.Ops[1].Relationship.Lag != 1 {
		t.Fatalf("with FS+1 for new inspections: %+v", got.Ops)
	}
}
