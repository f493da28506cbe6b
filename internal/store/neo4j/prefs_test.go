package neo4j_test

import (
	"context"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestPreferences: Neo4j as the graph side (preferences on the :Schedule
// node), the embedded store as the vector side. Without NEO4J_URI it
// skips, except under CI=true, where it fails (see config).
func TestPreferences(t *testing.T) {
	ctx := context.Background()
	g := open(t)
	c := &store.Coordinator{Graph: g, Vectors: openEmbedded(t).Vectors(), Embedder: embed.NewLocal(0)}
	id := scheduleID(t, g, "prefs")
	if err := c.Import(ctx, id, storetest.Building(t), false, nil); err != nil {
		t.Fatal(err)
	}
	storetest.RunPreferences(t, c, id)
	if err := c.Import(ctx, id, storetest.Building(t), false, nil); err != nil {
		t.Fatal(err)
	}
	storetest.RunPreferencesFailure(t, c, id)
}
