package embed_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/autoscheduler/autoscheduler/internal/embed"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		// Every way of naming the first floor is one token.
		{"Level 1", []string{"level_1"}},
		{"level one", []string{"level_1"}},
		{"first floor", []string{"level_1"}},
		{"1st floor", []string{"level_1"}},
		{"floor 1", []string{"level_1"}},
		{"L1", []string{"level_1"}},
		{"L-1", []string{"level_1"}},
		{"lvl 1", []string{"level_1"}},
		{"lvl1", []string{"level_1"}},
		{"storey 1", []string{"level_1"}},
		{"Level 01", []string{"level_1"}},
		{"the tenth floor", []string{"level_10"}},
		{"10th storey", []string{"level_10"}},
		{"level ten", []string{"level_10"}},
		{"third level", []string{"level_3"}},
		{"Level 12", []string{"level_12"}},
		// Ground floor is left alone: Level 0 or Level 1 depends on the country.
		{"ground floor", []string{"ground", "floor"}},
		// Level words without a number are ordinary words.
		{"floor tiling", []string{"floor", "tile"}},
		{"gridlines, levels and benchmarks", []string{"gridline", "level", "benchmark"}},
		// "first fix" is rough-in, not the first floor.
		{"electrical first fix level 1", []string{"electrical", "rough_in", "level_1"}},
		{"first-fix wiring", []string{"rough_in", "wiring"}},
		{"Plumbing rough-in Level 2", []string{"plumbing", "rough_in", "level_2"}},
		{"second fix on the second floor", []string{"second_fix", "level_2"}},
		// Trade synonyms.
		{"MEP rough-in", []string{"mechanical", "electrical", "plumbing", "rough_in"}},
		{"Drywall / plasterboard / gypsum board partitions", []string{"drywall", "drywall", "drywall", "drywall"}},
		{"HVAC ductwork, air conditioning", []string{"hvac", "hvac", "hvac"}},
		{"fit-out fitout fit out", []string{"fit_out", "fit_out", "fit_out"}},
		{"Roofing membrane on the roof", []string{"roof", "membrane", "roof"}},
		{"Concrete pour", []string{"concrete", "concrete"}},
		{"rebar and reinforcement, steel fixing", []string{"rebar", "rebar", "rebar"}},
		{"Site offices and welfare set-up", []string{"site", "office", "welfare", "setup"}},
		{"handed over to the client", []string{"handover", "client"}},
		{"Lift / elevator", []string{"lift", "lift"}},
		// Case, punctuation, accents, apostrophes, plurals, numbers.
		{"Façade PANELS!", []string{"facade", "panel"}},
		{"builder's power", []string{"builder", "power"}},
		{"roof works", []string{"roof"}},
		{"Walls, finishes, activities, glass", []string{"wall", "finish", "glass"}},
		{"Duration: 1.5 working days.", []string{"duration", "1.5", "working", "day"}},
		{"pert(4,6,10)", []string{"pert", "4", "6", "10"}},
		{"", []string{}},
		{"  ... the of on ", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := embed.Normalize(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"Pour slab Level 2", "electrical first fix L1", "the 3rd floor", "lvl",
		"level", "1st", "Façade", "1.5", "1.", ".5", "fit", "rough-", "\xff\xfe", "Ⅻ floor",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range embed.Normalize(s) {
			if tok == "" || strings.IndexFunc(tok, unicode.IsSpace) >= 0 {
				t.Fatalf("Normalize(%q) has token %q", s, tok)
			}
		}
	})
}

func TestLocalDeterministic(t *testing.T) {
	texts := []string{
		embed.ActivityText("Pour slab Level 2", "Concrete pour and curing of the slab on Level 2.", "1"),
		"HVAC level 2",
		"",
		"ünïcödé façade 東京",
	}
	a, err := embed.NewLocal(0).Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	// A second embedder, texts one at a time: same vectors, bit for bit.
	b := embed.NewLocal(0)
	for i, text := range texts {
		v, err := b.Embed(context.Background(), []string{text})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a[i], v[0]) {
			t.Errorf("text %d: vectors differ between runs", i)
		}
	}
	for i, v := range a {
		if len(v) != embed.DefaultLocalDimensions {
			t.Fatalf("text %d: %d dimensions, want %d", i, len(v), embed.DefaultLocalDimensions)
		}
		want := 1.0
		if texts[i] == "" {
			want = 0 // nothing to embed: the zero vector
		}
		if n := norm(v); math.Abs(n-want) > 1e-5 {
			t.Errorf("text %d: norm %v, want %v", i, n, want)
		}
	}
}

func TestLocalDimensionsAndName(t *testing.T) {
	tests := []struct {
		dims, want int
	}{
		{0, 384}, {-1, 384}, {64, 64}, {1536, 1536},
	}
	for _, tt := range tests {
		l := embed.NewLocal(tt.dims)
		vs, err := l.Embed(context.Background(), []string{"Pour slab Level 2"})
		if err != nil {
			t.Fatal(err)
		}
		if l.Dimensions() != tt.want || len(vs[0]) != tt.want {
			t.Errorf("NewLocal(%d): Dimensions %d, vector %d, want %d", tt.dims, l.Dimensions(), len(vs[0]), tt.want)
		}
		if l.Name() != "local-v1" {
			t.Errorf("Name() = %q", l.Name())
		}
	}
}

func TestLocalCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := embed.NewLocal(0).Embed(ctx, []string{"x"}); err == nil {
		t.Error("Embed on a cancelled context: no error")
	}
}

func TestLocalSynonymsAreClose(t *testing.T) {
	// Each pair says the same thing in a planner's different words; each
	// must be closer than the unrelated text.
	tests := []struct {
		a, b, unrelated string
	}{
		{"drywall level 1", "plasterboard on the first floor", "drywall level 3"},
		{"HVAC L2", "ductwork on the second floor", "HVAC L4"},
		{"MEP rough-in", "electrical first fix", "painting"},
		{"fit-out level 2", "fitout lvl 2", "fit-out level 3"},
	}
	l := embed.NewLocal(0)
	for _, tt := range tests {
		vs, err := l.Embed(context.Background(), []string{tt.a, tt.b, tt.unrelated})
		if err != nil {
			t.Fatal(err)
		}
		if same, other := dot(vs[0], vs[1]), dot(vs[0], vs[2]); same <= other {
			t.Errorf("cos(%q, %q) = %.3f, not above cos(%q, %q) = %.3f", tt.a, tt.b, same, tt.a, tt.unrelated, other)
		}
	}
}

// building is the slice of examples/building.json the relevance check needs.
type building struct {
	Activities []struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		Description string `json:"description"`
		Duration    string `json:"duration"`
	} `json:"activities"`
}

type relevance struct {
	Queries []struct {
		Query    string   `json:"query"`
		Relevant []string `json:"relevant"`
	} `json:"queries"`
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestLocalRelevance ranks the example building's activities by cosine alone
// for each labelled query and requires mean recall@10 of at least 0.9. The
// stores blend BM25 on top; the vectors must stand on their own.
func TestLocalRelevance(t *testing.T) {
	var b building
	readJSON(t, "../../examples/building.json", &b)
	var rel relevance
	readJSON(t, "testdata/relevance.json", &rel)
	if len(rel.Queries) < 18 {
		t.Fatalf("%d labelled queries, want at least 18", len(rel.Queries))
	}

	ids := map[string]bool{}
	texts := make([]string, len(b.Activities))
	for i, a := range b.Activities {
		ids[a.ID] = true
		texts[i] = embed.ActivityText(a.Name, a.Description, a.Duration)
	}
	queries := make([]string, len(rel.Queries))
	for i, q := range rel.Queries {
		queries[i] = q.Query
		for _, id := range q.Relevant {
			if !ids[id] {
				t.Fatalf("query %q: relevant id %q is not in the building", q.Query, id)
			}
		}
	}

	l := embed.NewLocal(0)
	docs, err := l.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	qvs, err := l.Embed(context.Background(), queries)
	if err != nil {
		t.Fatal(err)
	}

	const k = 10
	var sum float64
	for i, q := range rel.Queries {
		top := topK(qvs[i], docs, k)
		relevant := map[string]bool{}
		for _, id := range q.Relevant {
			relevant[id] = true
		}
		hits := 0
		var got []string
		for _, d := range top {
			id := b.Activities[d].ID
			mark := ""
			if relevant[id] {
				hits++
				mark = "*"
			}
			got = append(got, mark+id)
		}
		recall := float64(hits) / float64(min(k, len(q.Relevant)))
		sum += recall
		t.Logf("recall@%d %.2f  %-32q top: %s", k, recall, q.Query, strings.Join(got, " "))
	}
	mean := sum / float64(len(rel.Queries))
	t.Logf("mean recall@%d over %d queries: %.3f", k, len(rel.Queries), mean)
	if mean < 0.9 {
		t.Errorf("mean recall@%d = %.3f, want >= 0.9", k, mean)
	}
}

// topK returns the indices of the k docs nearest q by cosine (dot product of
// unit vectors), best first; ties go to the earlier document.
func topK(q []float32, docs [][]float32, k int) []int {
	idx := make([]int, len(docs))
	score := make([]float64, len(docs))
	for i, d := range docs {
		idx[i] = i
		score[i] = dot(q, d)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	return idx[:min(k, len(idx))]
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func norm(v []float32) float64 { return math.Sqrt(dot(v, v)) }

// BenchmarkLocalEmbed embeds 10,000 short activity texts per iteration.
func BenchmarkLocalEmbed(b *testing.B) {
	trades := []string{"Pour slab", "Drywall framing", "Electrical rough-in", "HVAC ductwork", "Painting", "Facade and curtain wall"}
	texts := make([]string, 10000)
	for i := range texts {
		trade := trades[i%len(trades)]
		level := fmt.Sprintf("Level %d", i%10+1)
		texts[i] = embed.ActivityText(trade+" "+level,
			trade+" on "+level+" by the subcontractor, with inspection before close-up.", fmt.Sprint(i%9+1))
	}
	l := embed.NewLocal(0)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.Embed(ctx, texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(texts))*float64(b.N)/b.Elapsed().Seconds(), "texts/s")
}
