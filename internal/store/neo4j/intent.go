package neo4j

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// PutIntent creates or replaces an intent record (an Intent node, apart
// from the schedule's graph and ledger).
func (s *Store) PutIntent(ctx context.Context, in store.Intent) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	_, err = neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (bool, error) {
		return true, exec(ctx, tx, cypherPutIntent, map[string]any{
			"id": in.ID, "schedule": in.ScheduleID, "started": in.Started.UTC().Format(time.RFC3339Nano), "body": string(body),
		})
	})
	if err != nil {
		return fmt.Errorf("neo4j: recording an intent for schedule %q: %w", in.ScheduleID, err)
	}
	return nil
}

// DeleteIntent removes an intent record.
func (s *Store) DeleteIntent(ctx context.Context, scheduleID, id string) error {
	session := s.session(ctx, neo4j.AccessModeWrite)
	defer session.Close(ctx)
	_, err := neo4j.ExecuteWrite(ctx, session, func(tx neo4j.ManagedTransaction) (bool, error) {
		return true, exec(ctx, tx, cypherDeleteIntent, map[string]any{"id": id, "schedule": scheduleID})
	})
	if err != nil {
		return fmt.Errorf("neo4j: removing an intent of schedule %q: %w", scheduleID, err)
	}
	return nil
}

// Intents lists a schedule's open intents, oldest first.
func (s *Store) Intents(ctx context.Context, scheduleID string) ([]store.Intent, error) {
	session := s.session(ctx, neo4j.AccessModeRead)
	defer session.Close(ctx)
	bodies, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) ([]string, error) {
		result, err := tx.Run(ctx, cypherIntents, map[string]any{"schedule": scheduleID})
		if err != nil {
			return nil, err
		}
		var bodies []string
		for result.Next(ctx) {
			var body string
			if err := scan(result.Record(), &body); err != nil {
				return nil, err
			}
			bodies = append(bodies, body)
		}
		return bodies, result.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("neo4j: reading the intents of schedule %q: %w", scheduleID, err)
	}
	out := make([]store.Intent, 0, len(bodies))
	for _, b := range bodies {
		var in store.Intent
		if err := json.Unmarshal([]byte(b), &in); err != nil {
			return nil, fmt.Errorf("neo4j: schedule %q: an unreadable intent record: %w", scheduleID, err)
		}
		out = append(out, in)
	}
	return out, nil
}

// Has reports whether a schedule is stored.
func (s *Store) Has(ctx context.Context, scheduleID string) (bool, error) {
	session := s.session(ctx, neo4j.AccessModeRead)
	defer session.Close(ctx)
	found, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) (bool, error) {
		result, err := tx.Run(ctx, cypherHas, map[string]any{"schedule": scheduleID})
		if err != nil {
			return false, err
		}
		found := result.Next(ctx)
		return found, result.Err()
	})
	if err != nil {
		return false, fmt.Errorf("neo4j: looking for schedule %q: %w", scheduleID, err)
	}
	return found, nil
}
