package workflows_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// TestFeedbackRemembersAPreference: "remember: …" in a reviewer's feedback
// is saved in the schedule's preferences (both stores) and the next round
// is planned with it; the rest of the feedback is planned as feedback.
func TestFeedbackRemembersAPreference(t *testing.T) {
	cases := []struct {
		name, feedback string
		lag            float64
		duration       string
	}{
		// Only a preference: the prompt is planned again with it.
		{"only a preference", "remember: use FS+1 for new inspections", 1, "2"},
		// A preference and a change to the proposal: the change is made,
		// and the round planned from this feedback already follows the
		// preference (issue 26: it used to keep the old lag 0 until a redo).
		{"preference and feedback", "make it 3 days. Remember: use FS+1 for new inspections", 1, "3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			var p2 workflows.Proposal
			var reject, accept func() error
			f.env.RegisterDelayedCallback(func() {
				reject = f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Round: 1, Reviewer: "pm", Feedback: c.feedback}, nil)
			}, time.Hour)
			f.env.RegisterDelayedCallback(func() {
				f.query(workflows.ProposalQuery, &p2)
				accept = f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Round: 2, Reviewer: "pm"}, nil)
			}, 2*time.Hour)
			res := f.run(workflows.DispatchInput{Prompt: "add a 2 day scaffold inspection after drywall board level 2", Author: "ann"})
			if err := reject(); err != nil {
				t.Fatal(err)
			}
			if err := accept(); err != nil {
				t.Fatal(err)
			}
			if res.Status != workflows.StatusAccepted || res.Rounds != 2 {
				t.Fatalf("result = %+v", res)
			}
			if !slices.ContainsFunc(p2.Notes, func(n string) bool { return strings.Contains(n, "preference saved for this schedule") }) {
				t.Errorf("round 2 notes = %q", p2.Notes)
			}
			p, err := f.stores.Preferences(context.Background(), scheduleID)
			if err != nil {
				t.Fatal(err)
			}
			if typ, lag, ok := p.LinkFor("Scaffold inspection"); !ok || typ != schedule.FS || lag != 1 {
				t.Errorf("stored preference for inspections: %v %v %v", typ, lag, ok)
			}
			if _, ok, err := f.stores.VectorPreferences(context.Background(), scheduleID); err != nil || !ok {
				t.Errorf("the vector store does not hold the preferences: %v %v", ok, err)
			}
			s := f.load()
			var id string
			for _, a := range s.Activities {
				if strings.EqualFold(a.Name, "Scaffold inspection") {
					id = a.ID
					if a.Duration != c.duration {
						t.Errorf("duration %s, want %s", a.Duration, c.duration)
					}
				}
			}
			if id == "" {
				t.Fatalf("no scaffold inspection in the schedule:\n%s", calls(res.Changes))
			}
			if !slices.ContainsFunc(s.Relationships, func(r schedule.Relationship) bool {
				return r.Successor == id && r.Type == schedule.FS && r.Lag == c.lag
			}) {
				t.Errorf("no FS+%g link into the inspection:\n%s", c.lag, calls(res.Changes))
			}
		})
	}
}
