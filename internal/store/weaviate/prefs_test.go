package weaviate_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestPreferences: the embedded graph as the graph side, Weaviate's
// SchedulePreferences collection as the vector side's copy. Without
// WEAVIATE_URL it skips, except under CI=true, where it fails.
func TestPreferences(t *testing.T) {
	ctx := context.Background()
	v := openWeaviate(t)
	g, err := embedded.Open(ctx, filepath.Join(t.TempDir(), "graph.db"), embedded.Options{Tokenize: embed.Normalize})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close(ctx) })
	c := &store.Coordinator{Graph: g.Graph(), Vectors: v, Embedder: embed.NewLocal(0)}
	id := fmt.Sprintf("prefs-%08x", rand.Uint32())
	t.Cleanup(func() { _ = c.DeleteSchedule(context.Background(), id) })
	if err := c.Import(ctx, id, storetest.Building(t), false, nil); err != nil {
		t.Fatal(err)
	}
	storetest.RunPreferences(t, c, id)
}
