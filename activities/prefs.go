package activities

import (
	"context"
	"errors"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// preferences loads a schedule's planning preferences for a planning
// step: nil when none are set, or when the configured store keeps none
// (planning then goes on as without preferences).
func (a *Activities) preferences(ctx context.Context, scheduleID string) (*prefs.Preferences, error) {
	p, err := a.Stores.Preferences(ctx, scheduleID)
	switch {
	case errors.Is(err, store.ErrNoPreferences):
		return nil, nil
	case err != nil:
		return nil, classify(err, "loading the schedule's preferences")
	case p.Empty():
		return nil, nil
	}
	return &p, nil
}

// RememberInput is a reviewer's feedback that may ask to keep preferences
// ("remember: use FS+1 for new inspections").
type RememberInput struct {
	ScheduleID string `json:"schedule_id"`
	Feedback   string `json:"feedback"`
	Reviewer   string `json:"reviewer,omitempty"`
}

// RememberResult says what RememberPreferences saved, what it could not
// read, and the feedback left for the planner.
type RememberResult struct {
	// Saved lists the preferences saved, for people: "new inspections:
	// link FS+1".
	Saved []string `json:"saved,omitempty"`
	// Notes say what was asked to be remembered but not understood
	// (nothing of it saved).
	Notes []string `json:"notes,omitempty"`
	// Rest is the feedback without its remember sentences: what the next
	// round plans ("" when the feedback only set preferences).
	Rest string `json:"rest"`
}

// RememberPreferences finds the sentences of reviewer feedback that ask to
// keep a preference ("remember: …", "from now on …", "always …") and saves
// them in the schedule's preferences in both stores. It is idempotent:
// saving the same preferences again changes nothing. Feedback without
// such sentences touches no store and comes back whole in Rest. A
// schedule that is not stored fails without retry (ScheduleNotFound).
func (a *Activities) RememberPreferences(ctx context.Context, in RememberInput) (RememberResult, error) {
	stmts, rest, notes := prefs.Remember(in.Feedback)
	res := RememberResult{Notes: notes, Rest: rest}
	if len(stmts) == 0 {
		return res, nil
	}
	var saved []prefs.Statement
	_, err := a.Stores.UpdatePreferences(ctx, in.ScheduleID, func(p *prefs.Preferences) error {
		saved = saved[:0]
		for _, st := range stmts {
			// Remember returns only statements Set accepts; one refused
			// all the same is a note, never a lost sentence.
			if err := prefs.Set(p, st.Key, st.Value); err != nil {
				res.Notes = append(res.Notes, fmt.Sprintf("%q: not saved: %v", st.Sentence, err))
				continue
			}
			saved = append(saved, st)
		}
		return nil
	})
	if errors.Is(err, store.ErrNoPreferences) {
		// A store that keeps none: say so, and plan the rest.
		for _, st := range stmts {
			res.Notes = append(res.Notes, fmt.Sprintf("%q: not saved: %v", st.Sentence, err))
		}
		return res, nil
	}
	if err != nil {
		return RememberResult{}, classify(err, "saving the schedule's preferences")
	}
	for _, st := range saved {
		res.Saved = append(res.Saved, st.Summary)
	}
	return res, nil
}
