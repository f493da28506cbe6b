package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// ErrEmptyQuery is returned for a search with no words: every document
// would score alike, and k arbitrary hits are worse than none.
var ErrEmptyQuery = errors.New("empty search query: say what to look for")

// Search runs a hybrid search in one schedule.
//
// With no kinds given, a query that names a kind ranks that kind's hits
// before the other's: "activities on the first floor" (or "activity",
// "task", "tasks") lists activities first, "links into the roof" (or
// "relationship(s)", "link", "dependency", "dependencies") relationships
// first. The other kind still fills the rest of the k results, so a query
// is never left empty by a word the planner used loosely. When both kinds
// are named, the first one said wins ("links between activities" →
// relationships). kinds, when given, filter instead.
func (c *Coordinator) Search(ctx context.Context, scheduleID, text string, k int, kinds ...Kind) ([]Hit, error) {
	if strings.TrimSpace(text) == "" {
		return nil, ErrEmptyQuery
	}
	if err := c.Settle(ctx, scheduleID); err != nil {
		return nil, err
	}
	switch found, err := c.Graph.Has(ctx, scheduleID); {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("%w: %q", ErrNotFound, scheduleID)
	}
	vs, err := c.Embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("embedding the query: %w", err)
	}
	alpha := c.SearchAlpha
	if alpha == 0 {
		alpha = 0.5
	}
	q := Query{Text: text, Vector: vs[0], K: k, Alpha: alpha, Kinds: kinds}
	first := KindSaid(text)
	if len(kinds) > 0 || first == "" {
		return c.Vectors.Search(ctx, scheduleID, q)
	}
	q.Kinds = []Kind{first}
	hits, err := c.Vectors.Search(ctx, scheduleID, q)
	if err != nil || len(hits) >= k {
		return hits, err
	}
	other := ActivityKind
	if first == ActivityKind {
		other = RelationshipKind
	}
	q.Kinds, q.K = []Kind{other}, k-len(hits)
	rest, err := c.Vectors.Search(ctx, scheduleID, q)
	if err != nil {
		return nil, err
	}
	return append(hits, rest...), nil
}

// kindWords are the words that say which kind a query is about.
var kindWords = map[string]Kind{
	"activity": ActivityKind, "activities": ActivityKind, "task": ActivityKind, "tasks": ActivityKind,
	"relationship": RelationshipKind, "relationships": RelationshipKind, "link": RelationshipKind,
	"links": RelationshipKind, "dependency": RelationshipKind, "dependencies": RelationshipKind,
}

// KindSaid is the kind a query names first as a whole word
// (case-insensitive), or "" when it names none.
func KindSaid(text string) Kind {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if k, ok := kindWords[w]; ok {
			return k
		}
	}
	return ""
}
