package neo4j

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// A schedule's preferences are a JSON property of its :Schedule node
// (preferences), so they live and die with the schedule: DeleteSchedule
// deletes the node, and an import that replaces the schedule's meta
// leaves the property alone. MATCH, not MERGE: preferences for a schedule
// that is not stored are refused, and SET makes the write idempotent.
const (
	cypherPreferences = `MATCH (s:Schedule {id: $schedule})
RETURN coalesce(s.preferences, '') AS preferences`

	cypherSetPreferences = `MATCH (s:Schedule {id: $schedule})
SET s.preferences = $preferences
RETURN s.id AS id`
)

var _ store.PreferenceStore = (*Store)(nil)

// Preferences returns a stored schedule's preferences; ErrNotFound for a
// schedule that is not stored.
func (s *Store) Preferences(ctx context.Context, scheduleID string) (prefs.Preferences, error) {
	session := s.session(ctx, neo4j.AccessModeRead)
	defer session.Close(ctx)
	type row struct {
		found bool
		body  string
	}
	r, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) (row, error) {
		result, err := tx.Run(ctx, cypherPreferences, map[string]any{"schedule": scheduleID})
		if err != nil {
			return row{}, err
		}
		if !result.Next(ctx) {
			return row{}, result.Err()
		}
		var body string
		if err := scan(result.Record(), &body); err != nil {
			return row{}, err
		}
		return row{found: true, body: body}, nil
	})
	if err != nil {
		return prefs.Preferences{}, fmt.Errorf("neo4j: reading the preferences of schedule %q: %w", scheduleID, err)
	}
	if !r.found {
		return prefs.Preferences{}, fmt.Errorf("%w: %q", store.ErrNotFound, scheduleID)
	}
	p, err := prefs.Parse([]byte(r.body))
	if err != nil {
		return prefs.Preferences{}, fmt.Errorf("neo4j: schedule %q: stored %w", scheduleID, err)
	}
	return p, nil
}

// SetPreferences replaces a stored schedule's preferences; ErrNotFound
// for a schedule that is not stored.
func (s *Store) SetPreferences(ctx context.Context, scheduleID string, p prefs.Preferences) error {
	body := ""
	if !p.Empty() {
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		body = string(b)
	}
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	found, err := neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (bool, error) {
		result, err := tx.Run(ctx, cypherSetPreferences, map[string]any{"schedule": scheduleID, "preferences": body})
		if err != nil {
			return false, err
		}
		found := result.Next(ctx)
		if err := result.Err(); err != nil {
			return false, err
		}
		_, err = result.Consume(ctx)
		return found, err
	})
	if err != nil {
		return fmt.Errorf("neo4j: writing the preferences of schedule %q: %w", scheduleID, err)
	}
	if !found {
		return fmt.Errorf("%w: %q", store.ErrNotFound, scheduleID)
	}
	return nil
}
