package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestPreferencesEmbedded: one SQLite file as both stores.
func TestPreferencesEmbedded(t *testing.T) {
	c, _ := storetest.EmbeddedBuilding(t, "building")
	storetest.RunPreferences(t, c, "building")
}

// TestPreferencesTwoStores: the graph in one file, the vectors in another,
// so the two-phase write and its undo are exercised without servers.
func TestPreferencesTwoStores(t *testing.T) {
	ctx := context.Background()
	open := func(name string) *embedded.Store {
		s, err := embedded.Open(ctx, filepath.Join(t.TempDir(), name), embedded.Options{Tokenize: embed.Normalize})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(ctx) })
		return s
	}
	g, v := open("graph.db"), open("vectors.db")
	c := &store.Coordinator{Graph: g.Graph(), Vectors: v.Vectors(), Embedder: embed.NewLocal(0)}
	if err := c.Import(ctx, "building", storetest.Building(t), false, nil); err != nil {
		t.Fatal(err)
	}
	storetest.RunPreferences(t, c, "building")
	if err := c.Import(ctx, "building", storetest.Building(t), false, nil); err != nil {
		t.Fatal(err)
	}
	storetest.RunPreferencesFailure(t, c, "building")
}
