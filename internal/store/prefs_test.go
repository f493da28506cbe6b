package store_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/prefs"
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
	ctx, c := context.Background(), twoFiles(t)
	storetest.RunPreferences(t, c, "building")
	if err := c.Import(ctx, "building", storetest.Building(t), false, nil); err != nil {
		t.Fatal(err)
	}
	storetest.RunPreferencesFailure(t, c, "building")
}

// TestVerifyComparesPreferences: verify reports preferences the two
// stores hold differently.
func TestVerifyComparesPreferences(t *testing.T) {
	ctx, c := context.Background(), twoFiles(t)
	var p prefs.Preferences
	if err := prefs.Set(&p, "duration", "3"); err != nil {
		t.Fatal(err)
	}
	if err := c.SetPreferences(ctx, "building", p); err != nil {
		t.Fatal(err)
	}
	if drift, err := c.Verify(ctx, "building"); err != nil || len(drift) != 0 {
		t.Fatalf("verify after a two-store write: %v %v", drift, err)
	}
	vp, ok := c.Vectors.(store.PreferenceStore)
	if !ok {
		t.Fatal("the vector side keeps no preferences")
	}
	if err := prefs.Set(&p, "duration", "4"); err != nil {
		t.Fatal(err)
	}
	if err := vp.SetPreferences(ctx, "building", p); err != nil {
		t.Fatal(err)
	}
	drift, err := c.Verify(ctx, "building")
	if err != nil || len(drift) != 1 || !strings.Contains(drift[0], "preferences: graph has") || !strings.Contains(drift[0], `"4"`) {
		t.Errorf("verify = %q, %v; want the preferences drift", drift, err)
	}
}

// twoFiles is the graph in one embedded file and the vectors in another,
// with examples/building.json imported as "building".
func twoFiles(t *testing.T) *store.Coordinator {
	t.Helper()
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
	return c
}
