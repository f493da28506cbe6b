package neo4j

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// A schedule's kept versions are (:Version) nodes, apart from the graph's
// (:Node)s: info is the store.Version as JSON, ops its op ids (a list, so
// a forgotten op finds them), body the gzipped schedule as bytes.
const (
	cypherVersionKey = `CREATE CONSTRAINT version_key IF NOT EXISTS FOR (v:Version) REQUIRE (v.schedule_id, v.id) IS UNIQUE`

	// cypherKeepVersion keeps a version once: a kept id is left as it is.
	cypherKeepVersion = `MERGE (v:Version {schedule_id: $schedule, id: $id})
ON CREATE SET v.info = $info, v.ops = $ops, v.body = $body`

	cypherDropVersions = `MATCH (v:Version {schedule_id: $schedule})
WHERE v.id IN $ids
DELETE v`

	// cypherForgetVersions drops the versions an undone op kept.
	cypherForgetVersions = `MATCH (v:Version {schedule_id: $schedule})
WHERE any(op IN v.ops WHERE op IN $ops)
DELETE v`

	cypherVersions = `MATCH (v:Version {schedule_id: $schedule})
RETURN v.info AS info ORDER BY v.id`

	cypherVersionBody = `MATCH (v:Version {schedule_id: $schedule, id: $id})
RETURN v.body AS body`

	cypherDeleteVersionBatch = `MATCH (v:Version {schedule_id: $schedule})
WITH v LIMIT $limit
DELETE v
RETURN count(*) AS deleted`
)

var _ store.VersionStore = (*Store)(nil)

// writeVersions applies a change's version side in its transaction: the
// versions of forgotten ops go, the change's version is kept and the
// versions it drops go.
func writeVersions(ctx context.Context, tx neo4j.ManagedTransaction, scheduleID string, c store.Change) error {
	if len(c.Forget) > 0 {
		ops := make([]any, len(c.Forget))
		for i, op := range c.Forget {
			ops[i] = op
		}
		if err := exec(ctx, tx, cypherForgetVersions, map[string]any{"schedule": scheduleID, "ops": ops}); err != nil {
			return fmt.Errorf("forgetting versions: %w", err)
		}
	}
	w := c.Version
	if w == nil {
		return nil
	}
	info, err := json.Marshal(w.Keep)
	if err != nil {
		return err
	}
	ops := make([]any, len(w.Keep.OpIDs))
	for i, op := range w.Keep.OpIDs {
		ops[i] = op
	}
	if err := exec(ctx, tx, cypherKeepVersion, map[string]any{
		"schedule": scheduleID, "id": w.Keep.ID, "info": string(info), "ops": ops, "body": w.Body,
	}); err != nil {
		return fmt.Errorf("keeping version %s: %w", w.Keep.ID, err)
	}
	if len(w.Drop) > 0 {
		ids := make([]any, len(w.Drop))
		for i, id := range w.Drop {
			ids[i] = id
		}
		if err := exec(ctx, tx, cypherDropVersions, map[string]any{"schedule": scheduleID, "ids": ids}); err != nil {
			return fmt.Errorf("dropping versions: %w", err)
		}
	}
	return nil
}

// Versions lists a schedule's kept versions, without their bodies.
func (s *Store) Versions(ctx context.Context, scheduleID string) ([]store.Version, error) {
	session := s.session(ctx, neo4j.AccessModeRead)
	defer session.Close(ctx)
	infos, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) ([]string, error) {
		result, err := tx.Run(ctx, cypherVersions, map[string]any{"schedule": scheduleID})
		if err != nil {
			return nil, err
		}
		var infos []string
		for result.Next(ctx) {
			var info string
			if err := scan(result.Record(), &info); err != nil {
				return nil, err
			}
			infos = append(infos, info)
		}
		return infos, result.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("neo4j: reading the versions of schedule %q: %w", scheduleID, err)
	}
	out := make([]store.Version, len(infos))
	for i, info := range infos {
		if err := json.Unmarshal([]byte(info), &out[i]); err != nil {
			return nil, fmt.Errorf("neo4j: schedule %q: a version's record: %w", scheduleID, err)
		}
	}
	return out, nil
}

// VersionBody is a kept version's encoded schedule.
func (s *Store) VersionBody(ctx context.Context, scheduleID, versionID string) ([]byte, error) {
	session := s.session(ctx, neo4j.AccessModeRead)
	defer session.Close(ctx)
	type row struct {
		found bool
		body  []byte
	}
	r, err := neo4j.ExecuteRead(ctx, session, func(tx neo4j.ManagedTransaction) (row, error) {
		result, err := tx.Run(ctx, cypherVersionBody, map[string]any{"schedule": scheduleID, "id": versionID})
		if err != nil {
			return row{}, err
		}
		if !result.Next(ctx) {
			return row{}, result.Err()
		}
		body, ok := result.Record().Values[0].([]byte)
		if !ok {
			return row{}, fmt.Errorf("version body is %T, want bytes", result.Record().Values[0])
		}
		return row{found: true, body: body}, nil
	})
	if err != nil {
		return nil, fmt.Errorf("neo4j: reading version %s of schedule %q: %w", versionID, scheduleID, err)
	}
	if !r.found {
		return nil, fmt.Errorf("%w: no version %s of %q", store.ErrNotFound, versionID, scheduleID)
	}
	return r.body, nil
}
