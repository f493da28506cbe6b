package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// building is the example building in a fresh embedded store.
func building(t *testing.T) *store.Coordinator {
	t.Helper()
	ctx := context.Background()
	db, err := embedded.Open(ctx, filepath.Join(t.TempDir(), "s.db"), embedded.Options{Tokenize: embed.Normalize})
	if err != nil {
		t.Fatal(err)
	}
	c := &store.Coordinator{Graph: db.Graph(), Vectors: db.Vectors(), Embedder: embed.NewLocal(0)}
	t.Cleanup(func() { c.Close(context.Background()) })
	if err := c.Import(ctx, "building", storetest.Building(t), false, nil); err != nil {
		t.Fatal(err)
	}
	return c
}

func kinds(hits []store.Hit) []store.Kind {
	out := make([]store.Kind, len(hits))
	for i, h := range hits {
		out[i] = h.Kind
	}
	return out
}

func TestSearchRefusesAnEmptyQuery(t *testing.T) {
	c := building(t)
	for _, q := range []string{"", "   ", "\t\n"} {
		hits, err := c.Search(context.Background(), "building", q, 10)
		if !errors.Is(err, store.ErrEmptyQuery) || hits != nil {
			t.Errorf("Search(%q) = %d hits, %v; want ErrEmptyQuery", q, len(hits), err)
		}
	}
}

// A query that names a kind gets that kind first; the other kind fills
// the rest; kinds passed in filter.
func TestSearchRanksTheKindTheQuerySays(t *testing.T) {
	c := building(t)
	ctx := context.Background()
	tests := []struct {
		query string
		first store.Kind
	}{
		{"activities on the first floor", store.ActivityKind},
		{"Tasks on level 2", store.ActivityKind},
		{"relationships on the first floor", store.RelationshipKind},
		{"dependencies of drywall level 2", store.RelationshipKind},
		{"links between activities on level 1", store.RelationshipKind},
	}
	for _, tc := range tests {
		hits, err := c.Search(ctx, "building", tc.query, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 5 {
			t.Fatalf("%q: %d hits, want 5", tc.query, len(hits))
		}
		for i, h := range hits {
			if h.Kind != tc.first {
				t.Errorf("%q: hit %d is a %s (%s), want every top-5 hit a %s: %v", tc.query, i, h.Kind, h.Name, tc.first, kinds(hits))
				break
			}
		}
	}
	// "activities on the first floor": the Level 1 activities, not other levels'.
	hits, _ := c.Search(ctx, "building", "activities on the first floor", 5)
	for _, h := range hits {
		if !slices.Contains(strings.Fields(h.Name), "1") || !strings.Contains(h.Name, "Level 1") {
			t.Errorf("activities on the first floor: %q is not on level 1", h.Name)
		}
	}
	// The other kind fills up when the named one runs out.
	small := storetest.Building(t)
	small.Activities, small.Relationships = small.Activities[:2], small.Relationships[:1]
	if err := c.Import(ctx, "small", small, false, nil); err != nil {
		t.Fatal(err)
	}
	hits, err := c.Search(ctx, "small", "activities", 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(hits); len(got) != 3 || got[0] != store.ActivityKind || got[1] != store.ActivityKind || got[2] != store.RelationshipKind {
		t.Errorf("activities in a 2-activity schedule, k=3: %v, want activity, activity, relationship", got)
	}
	// An explicit kind filters, whatever the words say.
	hits, err = c.Search(ctx, "building", "activities on the first floor", 5, store.RelationshipKind)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.Kind != store.RelationshipKind {
			t.Errorf("kinds=relationship returned a %s", h.Kind)
		}
	}
}

func TestKindSaid(t *testing.T) {
	for q, want := range map[string]store.Kind{
		"activities on level 1": store.ActivityKind, "the Task list": store.ActivityKind,
		"links into the roof": store.RelationshipKind, "Dependency on pour": store.RelationshipKind,
		"first floor": "", "activityless": "", "relinks": "",
		"links between activities": store.RelationshipKind, "activities and their links": store.ActivityKind,
	} {
		if got := store.KindSaid(q); got != want {
			t.Errorf("KindSaid(%q) = %q, want %q", q, got, want)
		}
	}
}
