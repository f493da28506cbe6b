package embedded_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// blocks repeats the example building n times ("… Block k").
func blocks(t *testing.T, n int) *schedule.Schedule {
	base := storetest.Building(t)
	out := &schedule.Schedule{Name: "blocks", StartDate: base.StartDate, Calendar: base.Calendar}
	for b := 1; b <= n; b++ {
		id := func(s string) string { return fmt.Sprintf("B%d-%s", b, s) }
		for _, a := range base.Activities {
			a.ID, a.Name = id(a.ID), fmt.Sprintf("%s Block %d", a.Name, b)
			out.Activities = append(out.Activities, a)
		}
		for _, r := range base.Relationships {
			r.ID, r.Predecessor, r.Successor = id(r.ID), id(r.Predecessor), id(r.Successor)
			out.Relationships = append(out.Relationships, r)
		}
	}
	return out
}

func open(t *testing.T) (*embedded.Store, *store.Coordinator) {
	s, err := embedded.Open(context.Background(), filepath.Join(t.TempDir(), "autoscheduler.db"), embedded.Options{Tokenize: embed.Normalize, NoVectorCache: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s, &store.Coordinator{Graph: s.Graph(), Vectors: s.Vectors(), Embedder: embed.NewLocal(0)}
}

func names(hits []store.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Name
	}
	return out
}

// A large schedule is searched through binary codes and a shortlist: the
// results match the exact search's where it matters (the best hit, most
// of the top five), and the codes follow every write.
func TestSearchThroughCodes(t *testing.T) {
	ctx := context.Background()
	s, c := open(t)
	big := blocks(t, 20) // 2,880 activities, about 8,000 documents
	if err := c.Import(ctx, "big", big, false, nil); err != nil {
		t.Fatal(err)
	}
	queries := []string{"pour slab level 3 block 7", "drywall taping level 2", "roof membrane", "lift installation block 12"}
	exact := map[string][]string{}
	for _, q := range queries {
		hits, err := c.Search(ctx, "big", q, 5)
		if err != nil {
			t.Fatal(err)
		}
		exact[q] = names(hits)
	}
	defer embedded.SetExactLimit(0)()
	for _, q := range queries {
		hits, err := c.Search(ctx, "big", q, 5)
		if err != nil {
			t.Fatal(err)
		}
		got := names(hits)
		if len(got) == 0 || got[0] != exact[q][0] {
			t.Errorf("%q: best hit %v through codes, %v exactly", q, got, exact[q])
		}
		common := 0
		for _, n := range got {
			if slices.Contains(exact[q], n) {
				common++
			}
		}
		if common < 4 {
			t.Errorf("%q: %d of the top 5 in common: codes %v, exact %v", q, common, got, exact[q])
		}
	}

	// A vague query has many equally good answers; the codes find some.
	hits, err := c.Search(ctx, "big", "activities on the first floor", 5)
	if err != nil || len(hits) != 5 {
		t.Fatalf("a vague query: %+v %v", hits, err)
	}
	for _, h := range hits {
		if !strings.Contains(h.Name, "Level 1") || h.Kind != store.ActivityKind {
			t.Errorf("activities on the first floor: %+v", h)
		}
	}

	// Writes keep the codes: a removed activity is never found, a renamed
	// one is found by its new name.
	target := big.Activities[100]
	renamed := big.Activities[200]
	renamed.Name = "Zeppelin mooring mast Block 3"
	if _, _, err := c.ApplyOps(ctx, "big", []schedule.Op{schedule.RemoveActivity(target.ID), schedule.UpdateActivity(renamed)}); err != nil {
		t.Fatal(err)
	}
	hits, err = c.Search(ctx, "big", target.Name, 10, store.ActivityKind)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if h.ID == target.ID {
			t.Fatalf("a removed activity is still found: %+v", h)
		}
	}
	hits, err = c.Search(ctx, "big", "zeppelin mooring mast", 1)
	if err != nil || len(hits) == 0 || hits[0].ID != renamed.ID {
		t.Fatalf("the renamed activity is not found by its new name: %+v %v", hits, err)
	}

	// A file from before the codes: they are built at the first search.
	if err := s.DropCodes("big"); err != nil {
		t.Fatal(err)
	}
	hits, err = c.Search(ctx, "big", "zeppelin mooring mast", 1)
	if err != nil || len(hits) == 0 || hits[0].ID != renamed.ID {
		t.Fatalf("after rebuilding the codes: %+v %v", hits, err)
	}
}
