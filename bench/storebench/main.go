// Command storebench measures the stores as a user feels them: importing a
// generated 5,000-activity schedule (batched, as `autoscheduler import`
// does, beside the naive way: one write per node or object) and search
// latency at 10,000 activities. It prints JSON for bench/run.py.
//
// The embedded store is always measured; Neo4j + Weaviate when NEO4J_URI
// and WEAVIATE_URL are set.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	"github.com/autoscheduler/autoscheduler/internal/store/neo4j"
	"github.com/autoscheduler/autoscheduler/internal/store/weaviate"
)

type result struct {
	Store   string  `json:"store"`
	Measure string  `json:"measure"`
	Way     string  `json:"way"` // "batched" or "naive"
	Seconds float64 `json:"seconds,omitempty"`
	P50Ms   float64 `json:"p50_ms,omitempty"`
	P95Ms   float64 `json:"p95_ms,omitempty"`
	Items   int     `json:"items"`
	Queries int     `json:"queries,omitempty"`
	Comment string  `json:"comment,omitempty"`
}

func main() {
	importN := flag.Int("import", 5000, "activities in the import benchmark")
	searchN := flag.Int("search", 10000, "activities in the search benchmark")
	queries := flag.Int("queries", 200, "searches per measurement")
	dir := flag.String("dir", os.TempDir(), "where the embedded store files go")
	flag.Parse()
	ctx := context.Background()
	var results []result
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "storebench:", err)
		os.Exit(1)
	}
	emb := embed.NewLocal(0)

	openEmbedded := func(name string, cache, fresh bool) *embedded.Store {
		path := filepath.Join(*dir, name)
		if fresh {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(path + suffix)
			}
		}
		s, err := embedded.Open(ctx, path, embedded.Options{Tokenize: embed.Normalize, NoVectorCache: !cache})
		if err != nil {
			fail(err)
		}
		return s
	}
	{
		s := openEmbedded("storebench-batched.db", true, true)
		c := &store.Coordinator{Graph: s.Graph(), Vectors: s.Vectors(), Embedder: emb}
		results = append(results, importBatched(ctx, c, "embedded", *importN, fail))
		c.Close(ctx)
		s = openEmbedded("storebench-naive.db", true, true)
		c = &store.Coordinator{Graph: s.Graph(), Vectors: s.Vectors(), Embedder: emb}
		results = append(results, importNaive(ctx, c, "embedded", *importN, fail))
		c.Close(ctx)

		s = openEmbedded("storebench-search.db", true, true)
		c = &store.Coordinator{Graph: s.Graph(), Vectors: s.Vectors(), Embedder: emb}
		if err := c.Import(ctx, "search", schedule.Synthetic(*searchN, 3, 2), false, nil); err != nil {
			fail(err)
		}
		results = append(results, searchLatency(ctx, c, "embedded", "batched", *searchN, *queries, "vectors held in memory", fail))
		c.Close(ctx)
		s = openEmbedded("storebench-search.db", false, false) // the same file, read naively
		c = &store.Coordinator{Graph: s.Graph(), Vectors: s.Vectors(), Embedder: emb}
		results = append(results, searchLatency(ctx, c, "embedded", "naive", *searchN, *queries, "vectors read from the file on every search", fail))
		c.Close(ctx)
	}
	if uri, url := os.Getenv("NEO4J_URI"), os.Getenv("WEAVIATE_URL"); uri != "" && url != "" {
		open := func() *store.Coordinator {
			g, err := neo4j.Open(ctx, neo4j.Config{URI: uri, User: os.Getenv("NEO4J_USER"), Password: os.Getenv("NEO4J_PASSWORD")})
			if err != nil {
				fail(err)
			}
			v, err := weaviate.Open(ctx, weaviate.Config{URL: url, GRPCAddress: os.Getenv("WEAVIATE_GRPC"), APIKey: os.Getenv("WEAVIATE_API_KEY"), Tokenize: embed.Normalize})
			if err != nil {
				fail(err)
			}
			return &store.Coordinator{Graph: g, Vectors: v, Embedder: emb}
		}
		c := open()
		results = append(results, importBatched(ctx, c, "neo4j+weaviate", *importN, fail))
		results = append(results, importNaive(ctx, c, "neo4j+weaviate", *importN, fail))
		id := "storebench-search"
		_ = c.DeleteSchedule(ctx, id)
		if err := c.Import(ctx, id, schedule.Synthetic(*searchN, 3, 2), false, nil); err != nil {
			fail(err)
		}
		r := searchLatency(ctx, c, "neo4j+weaviate", "batched", *searchN, *queries, "hybrid search in Weaviate", fail)
		r.Store = "weaviate"
		results = append(results, r)
		_ = c.DeleteSchedule(ctx, id)
		c.Close(ctx)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(results); err != nil {
		fail(err)
	}
}

func importBatched(ctx context.Context, c *store.Coordinator, name string, n int, fail func(error)) result {
	id := "storebench-import-batched"
	_ = c.DeleteSchedule(ctx, id)
	s := schedule.Synthetic(n, 3, 1)
	start := time.Now()
	if err := c.Import(ctx, id, s, false, nil); err != nil {
		fail(err)
	}
	elapsed := time.Since(start).Seconds()
	if err := c.DeleteSchedule(ctx, id); err != nil {
		fail(err)
	}
	return result{Store: name, Measure: "import", Way: "batched", Seconds: elapsed, Items: len(s.Activities) + len(s.Relationships),
		Comment: "one graph transaction with batched writes, embeddings in batches of 256, one vector batch"}
}

// importNaive writes every activity and relationship on its own: one graph
// write, one embedding call and one vector write each.
func importNaive(ctx context.Context, c *store.Coordinator, name string, n int, fail func(error)) result {
	id := "storebench-import-naive"
	_ = c.DeleteSchedule(ctx, id)
	s := schedule.Synthetic(n, 3, 1)
	acts := map[string]schedule.Activity{}
	start := time.Now()
	for i, a := range s.Activities {
		acts[a.ID] = a
		if _, err := c.Graph.Apply(ctx, id, []store.Change{{OpID: "a" + strconv.Itoa(i), PutActivities: []schedule.Activity{a}}}); err != nil {
			fail(err)
		}
		v, err := c.Embedder.Embed(ctx, []string{embed.ActivityText(a.Name, a.Description, a.Duration)})
		if err != nil {
			fail(err)
		}
		doc := store.ActivityDoc{ID: a.ID, Name: a.Name, Description: a.Description, Duration: a.Duration, Vector: v[0]}
		if _, err := c.Vectors.Apply(ctx, id, []store.VectorChange{{OpID: "a" + strconv.Itoa(i), PutActivities: []store.ActivityDoc{doc}}}); err != nil {
			fail(err)
		}
	}
	for i, r := range s.Relationships {
		if _, err := c.Graph.Apply(ctx, id, []store.Change{{OpID: "r" + strconv.Itoa(i), PutRelationships: []schedule.Relationship{r}}}); err != nil {
			fail(err)
		}
		p, q := acts[r.Predecessor], acts[r.Successor]
		v, err := c.Embedder.Embed(ctx, []string{embed.RelationshipText(string(r.Type), r.Lag, p.Name, p.Description, p.Duration, q.Name, q.Description, q.Duration)})
		if err != nil {
			fail(err)
		}
		doc := store.RelationshipDoc{ID: r.ID, Type: r.Type, Lag: r.Lag, Vector: v[0],
			Predecessor: store.End{ActivityID: p.ID, Name: p.Name, Description: p.Description, Duration: p.Duration},
			Successor:   store.End{ActivityID: q.ID, Name: q.Name, Description: q.Description, Duration: q.Duration}}
		if _, err := c.Vectors.Apply(ctx, id, []store.VectorChange{{OpID: "r" + strconv.Itoa(i), PutRelationships: []store.RelationshipDoc{doc}}}); err != nil {
			fail(err)
		}
	}
	elapsed := time.Since(start).Seconds()
	if err := c.DeleteSchedule(ctx, id); err != nil {
		fail(err)
	}
	return result{Store: name, Measure: "import", Way: "naive", Seconds: elapsed, Items: len(s.Activities) + len(s.Relationships),
		Comment: "one graph write, one embedding call and one vector write per activity or relationship"}
}

var searchTexts = []string{
	"activities on the first floor", "level 3 drywall", "roof works", "MEP rough-in on level 2",
	"task 42", "concrete pour", "handover", "electrical first fix level 1", "commissioning", "facade on L4",
}

func searchLatency(ctx context.Context, c *store.Coordinator, name, way string, n, queries int, comment string, fail func(error)) result {
	id := "search"
	if name != "embedded" {
		id = "storebench-search"
	}
	// Warm up: the first search loads the index.
	if _, err := c.Search(ctx, id, searchTexts[0], 10); err != nil {
		fail(err)
	}
	lat := make([]float64, 0, queries)
	for i := range queries {
		start := time.Now()
		if _, err := c.Search(ctx, id, searchTexts[i%len(searchTexts)], 10); err != nil {
			fail(err)
		}
		lat = append(lat, float64(time.Since(start).Microseconds())/1000)
	}
	slices.Sort(lat)
	return result{Store: name, Measure: "search", Way: way, P50Ms: lat[len(lat)/2], P95Ms: lat[len(lat)*95/100], Items: n, Queries: queries, Comment: comment}
}
