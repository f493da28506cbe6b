package embedded

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// Preferences live in the table schedule_prefs (one JSON row per
// schedule), which DeleteSchedule clears with the rest of the schedule.
// Both roles read and write the same row: when the embedded store is only
// the vector side (beside Neo4j) it keeps the copy there.

var (
	_ store.PreferenceStore = graphView{}
	_ store.PreferenceStore = vectorView{}
)

// Preferences returns a stored schedule's preferences; ErrNotFound for a
// schedule the graph does not hold.
func (g graphView) Preferences(ctx context.Context, scheduleID string) (prefs.Preferences, error) {
	if ok, err := g.Has(ctx, scheduleID); err != nil {
		return prefs.Preferences{}, err
	} else if !ok {
		return prefs.Preferences{}, fmt.Errorf("%w: %q", store.ErrNotFound, scheduleID)
	}
	return g.readPrefs(ctx, scheduleID)
}

// SetPreferences replaces a stored schedule's preferences.
func (g graphView) SetPreferences(ctx context.Context, scheduleID string, p prefs.Preferences) error {
	return g.writePrefs(ctx, scheduleID, p, true)
}

// Preferences returns the vector side's copy (none: the zero value).
func (v vectorView) Preferences(ctx context.Context, scheduleID string) (prefs.Preferences, error) {
	return v.readPrefs(ctx, scheduleID)
}

// SetPreferences replaces the vector side's copy.
func (v vectorView) SetPreferences(ctx context.Context, scheduleID string, p prefs.Preferences) error {
	return v.writePrefs(ctx, scheduleID, p, false)
}

func (s *Store) readPrefs(ctx context.Context, scheduleID string) (prefs.Preferences, error) {
	var body string
	switch err := s.db.QueryRowContext(ctx, `SELECT body FROM schedule_prefs WHERE schedule_id = ?`, scheduleID).Scan(&body); {
	case errors.Is(err, sql.ErrNoRows):
		return prefs.Preferences{}, nil
	case err != nil:
		return prefs.Preferences{}, err
	}
	p, err := prefs.Parse([]byte(body))
	if err != nil {
		return prefs.Preferences{}, fmt.Errorf("schedule %q: stored %w", scheduleID, err)
	}
	return p, nil
}

func (s *Store) writePrefs(ctx context.Context, scheduleID string, p prefs.Preferences, mustExist bool) error {
	body, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *preparedTx) error {
		if mustExist {
			held, err := tx.exists(`SELECT 1 FROM schedules WHERE id = ?`, scheduleID)
			if err != nil {
				return err
			}
			if !held {
				return fmt.Errorf("%w: %q", store.ErrNotFound, scheduleID)
			}
		}
		if p.Empty() {
			return tx.exec(`DELETE FROM schedule_prefs WHERE schedule_id = ?`, scheduleID)
		}
		return tx.exec(`INSERT INTO schedule_prefs (schedule_id, body) VALUES (?, ?)
			ON CONFLICT (schedule_id) DO UPDATE SET body = excluded.body`, scheduleID, string(body))
	})
}
