package embedded

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// The graph side keeps intent records too, for the pair of this file's
// graph with a Weaviate vector store (no common transaction). With its own
// vector side the Coordinator writes atomically and needs none.

// PutIntent creates or replaces an intent record.
func (g graphView) PutIntent(ctx context.Context, in store.Intent) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return g.tx(ctx, func(tx *preparedTx) error {
		return tx.exec(`INSERT INTO intents (id, schedule_id, started, body) VALUES (?, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET body = excluded.body`, in.ID, in.ScheduleID, in.Started.UTC().Format(time.RFC3339Nano), string(body))
	})
}

// DeleteIntent removes an intent record.
func (g graphView) DeleteIntent(ctx context.Context, scheduleID, id string) error {
	return g.tx(ctx, func(tx *preparedTx) error {
		return tx.exec(`DELETE FROM intents WHERE id = ? AND schedule_id = ?`, id, scheduleID)
	})
}

// Intents lists a schedule's open intents, oldest first.
func (g graphView) Intents(ctx context.Context, scheduleID string) ([]store.Intent, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT body FROM intents WHERE schedule_id = ? ORDER BY started, id`, scheduleID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Intent
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		var in store.Intent
		if err := json.Unmarshal([]byte(body), &in); err != nil {
			return nil, fmt.Errorf("schedule %q: an unreadable intent record: %w", scheduleID, err)
		}
		out = append(out, in)
	}
	return out, rows.Err()
}
