package weaviate

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-openapi/strfmt"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/graphql"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// PreferencesClass holds one object per schedule with its planning
// preferences as JSON (the vector side's copy: the graph store's is the
// one read). No vectors; DeleteSchedule deletes it with the schedule.
const PreferencesClass = "SchedulePreferences"

var _ store.PreferenceStore = (*Store)(nil)

func preferencesClass() *models.Class {
	return &models.Class{
		Class:             PreferencesClass,
		Description:       "A schedule's planning preferences (JSON), kept with its documents.",
		Vectorizer:        "none",
		VectorIndexType:   "hnsw",
		VectorIndexConfig: map[string]any{"skip": true},
		Properties: []*models.Property{
			key("schedule_id"),
			stored("body"),
		},
	}
}

// preferencesUUID keys a schedule's preferences object.
func preferencesUUID(scheduleID string) string {
	return schedule.DerivedID("preferences", scheduleID)
}

// Preferences returns the copy kept for a schedule (none: the zero value).
// The lookup filters on the derived object id: no user text reaches the
// query.
func (s *Store) Preferences(ctx context.Context, scheduleID string) (prefs.Preferences, error) {
	resp, err := s.client.GraphQL().Get().
		WithClassName(PreferencesClass).
		WithWhere(idsFilter([]string{preferencesUUID(scheduleID)})).
		WithLimit(1).
		WithFields(graphql.Field{Name: "body"}).
		Do(ctx)
	rows, err := rowsOf(resp, err, PreferencesClass)
	if err != nil {
		return prefs.Preferences{}, fmt.Errorf("weaviate at %s: reading the preferences of schedule %q: %w", s.url, scheduleID, err)
	}
	if len(rows) == 0 {
		return prefs.Preferences{}, nil
	}
	p, err := prefs.Parse([]byte(str(rows[0], "body")))
	if err != nil {
		return prefs.Preferences{}, fmt.Errorf("weaviate at %s: schedule %q: stored %w", s.url, scheduleID, err)
	}
	return p, nil
}

// SetPreferences replaces a schedule's copy (an upsert by derived id, so
// writing it again is the same); empty preferences delete the object.
func (s *Store) SetPreferences(ctx context.Context, scheduleID string, p prefs.Preferences) error {
	id := preferencesUUID(scheduleID)
	if p.Empty() {
		return s.deleteByID(ctx, PreferencesClass, []string{id})
	}
	body, err := json.Marshal(p)
	if err != nil {
		return err
	}
	obj := &models.Object{Class: PreferencesClass, ID: strfmt.UUID(id), Properties: map[string]any{
		"schedule_id": scheduleID,
		"body":        string(body),
	}}
	if err := s.put(ctx, []*models.Object{obj}); err != nil {
		return fmt.Errorf("weaviate at %s: writing the preferences of schedule %q: %w", s.url, scheduleID, err)
	}
	return nil
}
