package scope

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// MemorySearch is semantic search over a schedule held in memory, with the
// local embedder and the texts the stores embed: what `plan --file` and
// tests use where no store is running. Vectors are computed on first use.
type MemorySearch struct {
	s    *schedule.Schedule
	once sync.Once
	docs []memoryDoc
	err  error
}

type memoryDoc struct {
	hit    store.Hit
	vector []float32
}

// NewMemorySearch searches s as it is now; later changes to s are not seen.
func NewMemorySearch(s *schedule.Schedule) *MemorySearch { return &MemorySearch{s: s.Clone()} }

var localEmbedder = embed.NewLocal(0)

func (m *MemorySearch) index(ctx context.Context) error {
	m.once.Do(func() {
		names := make(map[string]schedule.Activity, len(m.s.Activities))
		var texts []string
		for _, a := range m.s.Activities {
			names[a.ID] = a
			m.docs = append(m.docs, memoryDoc{hit: store.Hit{Kind: store.ActivityKind, ID: a.ID, Name: a.Name}})
			texts = append(texts, embed.FiledActivityText(a.Name, a.Description, a.Duration, a.WBS, a.Codes))
		}
		for _, r := range m.s.Relationships {
			p, q := names[r.Predecessor], names[r.Successor]
			m.docs = append(m.docs, memoryDoc{hit: store.Hit{Kind: store.RelationshipKind, ID: r.ID, Name: p.Name + " -> " + q.Name}})
			texts = append(texts, embed.RelationshipText(string(r.Type), r.Lag, p.Name, p.Description, p.Duration, q.Name, q.Description, q.Duration))
		}
		vectors, err := localEmbedder.Embed(ctx, texts)
		if err != nil {
			m.err = err
			return
		}
		for i := range m.docs {
			m.docs[i].vector = vectors[i]
		}
	})
	return m.err
}

// Search returns the k documents of the wanted kinds (both when none are
// named) most similar to text, best first; ties keep schedule order.
func (m *MemorySearch) Search(ctx context.Context, text string, k int, kinds ...store.Kind) ([]store.Hit, error) {
	if err := m.index(ctx); err != nil {
		return nil, err
	}
	qs, err := localEmbedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	q := qs[0]
	var hits []store.Hit
	for _, d := range m.docs {
		if len(kinds) > 0 && !slices.Contains(kinds, d.hit.Kind) {
			continue
		}
		var dot float32
		for i, x := range q {
			dot += x * d.vector[i]
		}
		if dot <= 0 {
			continue
		}
		h := d.hit
		h.Score = float64(dot)
		hits = append(hits, h)
	}
	slices.SortStableFunc(hits, func(a, b store.Hit) int { return cmp.Compare(b.Score, a.Score) })
	return hits[:min(k, len(hits))], nil
}
