package embedded

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

var _ store.VersionStore = graphView{}

// keepVersion writes a change's version (once: an id kept is left as it
// is) and drops the versions it names, in the change's transaction.
func keepVersion(exec func(string, ...any) error, scheduleID string, w *store.VersionWrite) error {
	info, err := json.Marshal(w.Keep)
	if err != nil {
		return err
	}
	if err := exec(`INSERT INTO versions (schedule_id, id, info, body) VALUES (?, ?, ?, ?) ON CONFLICT (schedule_id, id) DO NOTHING`,
		scheduleID, w.Keep.ID, string(info), w.Body); err != nil {
		return fmt.Errorf("keeping version %s: %w", w.Keep.ID, err)
	}
	for _, id := range w.Drop {
		if err := exec(`DELETE FROM versions WHERE schedule_id = ? AND id = ?`, scheduleID, id); err != nil {
			return fmt.Errorf("dropping version %s: %w", id, err)
		}
	}
	return nil
}

// Versions lists a schedule's kept versions, without their bodies.
func (s *Store) Versions(ctx context.Context, scheduleID string) ([]store.Version, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT info FROM versions WHERE schedule_id = ? ORDER BY id`, scheduleID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Version
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return nil, err
		}
		var v store.Version
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return nil, fmt.Errorf("schedule %q: a version's record: %w", scheduleID, err)
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// VersionBody is a kept version's encoded schedule.
func (s *Store) VersionBody(ctx context.Context, scheduleID, versionID string) ([]byte, error) {
	var body []byte
	err := s.db.QueryRowContext(ctx, `SELECT body FROM versions WHERE schedule_id = ? AND id = ?`, scheduleID, versionID).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no version %s of %q", store.ErrNotFound, versionID, scheduleID)
	}
	return body, err
}
