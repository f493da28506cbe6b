package weaviate_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
	"github.com/autoscheduler/autoscheduler/internal/store/weaviate"
)

// openWeaviate opens the server named by WEAVIATE_URL (and WEAVIATE_GRPC,
// WEAVIATE_API_KEY). Without it the test skips, except in CI, where the
// services must be there.
func openWeaviate(t *testing.T) *weaviate.Store {
	t.Helper()
	url := os.Getenv("WEAVIATE_URL")
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but WEAVIATE_URL is not set")
		}
		t.Skip("WEAVIATE_URL is not set (e.g. http://127.0.0.1:8080; scripts/services.sh up starts one)")
	}
	s, err := weaviate.Open(context.Background(), weaviate.Config{
		URL:         url,
		GRPCAddress: os.Getenv("WEAVIATE_GRPC"),
		APIKey:      os.Getenv("WEAVIATE_API_KEY"),
		Tokenize:    embed.Normalize,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// TestContract runs the store contract with the embedded store's graph role
// as the graph store and Weaviate as the vector store.
func TestContract(t *testing.T) {
	vectors := openWeaviate(t)
	storetest.Run(t, func(t *testing.T) (store.GraphStore, store.VectorStore) {
		g, err := embedded.Open(context.Background(), filepath.Join(t.TempDir(), "graph.db"), embedded.Options{Tokenize: embed.Normalize})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { g.Close(context.Background()) })
		return g.Graph(), vectors
	})
}

// TestLargeSchedule covers what the building example is too small for:
// Dump paging past one page in both collections, merged searches over both
// kinds, and DeleteSchedule of many objects.
func TestLargeSchedule(t *testing.T) {
	s := openWeaviate(t)
	ctx := context.Background()
	id := fmt.Sprintf("test-large-%08x", rand.Uint32())
	t.Cleanup(func() { _ = s.DeleteSchedule(context.Background(), id) })
	const n = 1200 // more than one Dump page
	e := embed.NewLocal(0)
	trades := []string{"Drywall", "Electrical rough-in", "Plumbing first fix", "HVAC ductwork", "Painting", "Concrete pour"}
	var acts []store.ActivityDoc
	var rels []store.RelationshipDoc
	var texts []string
	for i := range n {
		a := store.ActivityDoc{ID: fmt.Sprintf("A%05d", i), Name: fmt.Sprintf("%s Level %d zone %d", trades[i%len(trades)], i/100%10+1, i), Description: "Work by the subcontractor.", Duration: "3"}
		acts = append(acts, a)
		texts = append(texts, embed.ActivityText(a.Name, a.Description, a.Duration))
	}
	for i := 1; i < n; i++ {
		p, q := acts[i-1], acts[i]
		r := store.RelationshipDoc{ID: fmt.Sprintf("R%05d", i), Type: schedule.FS, Lag: float64(i % 3),
			Predecessor: store.End{ActivityID: p.ID, Name: p.Name, Description: p.Description, Duration: p.Duration},
			Successor:   store.End{ActivityID: q.ID, Name: q.Name, Description: q.Description, Duration: q.Duration}}
		rels = append(rels, r)
		texts = append(texts, embed.RelationshipText(string(r.Type), r.Lag, p.Name, p.Description, p.Duration, q.Name, q.Description, q.Duration))
	}
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range acts {
		acts[i].Vector = vs[i]
	}
	for i := range rels {
		rels[i].Vector = vs[n+i]
	}
	start := time.Now()
	if _, err := s.Apply(ctx, id, []store.VectorChange{{OpID: "import", PutActivities: acts, PutRelationships: rels}}); err != nil {
		t.Fatal(err)
	}
	t.Logf("applied %d documents in %v", len(texts), time.Since(start))

	d, err := s.Dump(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Activities) != n || len(d.Relationships) != n-1 {
		t.Fatalf("dump has %d activities, %d relationships; want %d, %d", len(d.Activities), len(d.Relationships), n, n-1)
	}
	for i, a := range d.Activities {
		if a.ID != acts[i].ID || a.Name != acts[i].Name || a.Duration != "3" {
			t.Fatalf("dump activity %d = %+v, want %s %q", i, a, acts[i].ID, acts[i].Name)
		}
	}
	if r := d.Relationships[1]; r.ID != "R00002" || r.Lag != 2 || r.Predecessor.ActivityID != "A00001" || r.Successor.Name != acts[2].Name {
		t.Fatalf("dump relationship = %+v", r)
	}

	q := "drywall level 3"
	qv, _ := e.Embed(ctx, []string{q})
	hits, err := s.Search(ctx, id, store.Query{Text: q, Vector: qv[0], K: 20, Alpha: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[store.Kind]int{}
	for i, h := range hits {
		kinds[h.Kind]++
		if i > 0 && h.Score > hits[i-1].Score {
			t.Fatalf("hits not sorted by score: %+v", hits)
		}
	}
	if len(hits) != 20 || kinds[store.ActivityKind] == 0 || kinds[store.RelationshipKind] == 0 {
		t.Fatalf("a search over both kinds returned %d hits, %v", len(hits), kinds)
	}
	if hits[0].Kind == store.ActivityKind && !strings.HasPrefix(hits[0].Name, "Drywall Level 3") {
		t.Fatalf("top hit %+v", hits[0])
	}
	for _, h := range hits {
		if h.Kind == store.RelationshipKind && !strings.Contains(h.Name, " -FS") {
			t.Fatalf("relationship hit named %q", h.Name)
		}
	}

	if err := s.DeleteSchedule(ctx, id); err != nil {
		t.Fatal(err)
	}
	if d, err := s.Dump(ctx, id); err != nil || len(d.Activities)+len(d.Relationships) != 0 {
		t.Fatalf("after DeleteSchedule: %d documents left, %v", len(d.Activities)+len(d.Relationships), err)
	}
	if ids, err := s.Apply(ctx, id, []store.VectorChange{{OpID: "import"}}); err != nil || len(ids) != 1 {
		t.Fatalf("DeleteSchedule kept the ledger: applied %v, %v", ids, err)
	}
}

// TestOpenUnreachable needs no server: the error names the URL and never
// the API key.
func TestOpenUnreachable(t *testing.T) {
	const key = "s3cret-key-value"
	_, err := weaviate.Open(context.Background(), weaviate.Config{URL: "http://127.0.0.1:1", APIKey: key})
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	if !strings.Contains(err.Error(), "http://127.0.0.1:1") || strings.Contains(err.Error(), key) {
		t.Fatalf("error %q: want the URL named and the key absent", err)
	}
}

// Without a Tokenize hook BM25 runs on Weaviate's own properties: an
// activity's WBS and codes are among them, so a keyword-only search finds
// an activity by either, and the documents dump back whole.
func TestKeywordSearchFindsWBSAndCodes(t *testing.T) {
	ctx := context.Background()
	openWeaviate(t) // skips without a server
	vectors, err := weaviate.Open(ctx, weaviate.Config{URL: os.Getenv("WEAVIATE_URL"), GRPCAddress: os.Getenv("WEAVIATE_GRPC"), APIKey: os.Getenv("WEAVIATE_API_KEY")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { vectors.Close(ctx) })
	g, err := embedded.Open(ctx, filepath.Join(t.TempDir(), "graph.db"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close(ctx) })
	c := &store.Coordinator{Graph: g.Graph(), Vectors: vectors, Embedder: embed.NewLocal(0)}
	id := fmt.Sprintf("test-keyword-wbs-%08x", rand.Uint32())
	t.Cleanup(func() { _ = c.DeleteSchedule(ctx, id) })
	s := storetest.LiveSchedule()
	if err := c.Import(ctx, id, s, false, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct{ text, want string }{{"groundworks", "L1"}, {"substructure", "L2"}, {"concrete", "L2"}, {"north", "L1"}} {
		hits, err := vectors.Search(ctx, id, store.Query{Text: q.text, K: 3, Alpha: 0, Kinds: []store.Kind{store.ActivityKind},
			Vector: make([]float32, embed.NewLocal(0).Dimensions())})
		if err != nil || len(hits) == 0 || hits[0].ID != q.want {
			t.Errorf("keyword search %q: %+v %v, want %s first", q.text, hits, err, q.want)
		}
	}
	d, err := vectors.Dump(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range d.Activities {
		a, _ := s.Activity(doc.ID)
		if !store.DocOf(a).SameText(doc) {
			t.Errorf("document %s dumped as %+v", doc.ID, doc)
		}
	}
}
