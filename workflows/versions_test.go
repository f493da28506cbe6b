package workflows_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// A dispatch that statuses the programme keeps the schedule as it was
// once accepted, and none when rejected (issue 30: versions).
func TestDispatchStatusKeepsAVersionOnceAccepted(t *testing.T) {
	for _, tc := range []struct {
		decision string
		want     int
	}{
		{workflows.DecisionReject, 0},
		{workflows.DecisionAccept, 1},
	} {
		t.Run(tc.decision, func(t *testing.T) {
			f := newFixture(t)
			// The whole dispatch runs in real time; a machine under load
			// can take longer than the suite's 3 s default.
			f.env.SetTestTimeout(time.Minute)
			f.env.RegisterDelayedCallback(func() {
				if got, err := f.stores.Versions(context.Background(), scheduleID); err != nil || len(got) != 0 {
					t.Errorf("versions during review: %v, %v; want none before the decision", got, err)
				}
				f.review(tc.decision, "")
			}, time.Hour)
			res := f.run(workflows.DispatchInput{Prompt: "status the programme to 12 January 2026", Author: "test"})
			if len(res.Changes) != 1 || !strings.Contains(res.Changes[0].Call, "set_data_date") {
				t.Fatalf("changes = %s", calls(res.Changes))
			}
			got, err := f.stores.Versions(context.Background(), scheduleID)
			if err != nil || len(got) != tc.want {
				t.Fatalf("versions after %s: %+v, %v; want %d", tc.decision, got, err, tc.want)
			}
			if tc.want == 1 && (got[0].DataDate != "" || !strings.Contains(got[0].Why, "accepted by pm") || !strings.Contains(got[0].Why, "none -> 2026-01-12")) {
				t.Errorf("version kept = %+v", got[0])
			}
		})
	}
}
