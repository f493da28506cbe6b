package weaviate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/filters"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/graphql"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// dumpPage is how many objects one Dump request reads.
const dumpPage = 1000

// kindClass maps hit kinds to collections.
var kindClass = map[store.Kind]string{store.ActivityKind: ActivityClass, store.RelationshipKind: RelationshipClass}

// bm25Properties are what BM25 searches when there is no Tokenize hook:
// the text that is embedded, as in the embedded store's FTS index.
var bm25Properties = map[string][]string{
	ActivityClass:     {"name", "description", "wbs", "codes"},
	RelationshipClass: {"predecessor_name", "predecessor_description", "successor_name", "successor_description"},
}

// Search runs one hybrid query (relativeScoreFusion, the given alpha,
// filtered on schedule_id, limit K) per wanted collection, concurrently.
//
// Merging: within one collection Weaviate scales each side's scores to 0..1
// by min-max over its candidates and blends them alpha*vector +
// (1-alpha)*keyword, so every hit's score is in 0..1 and means "how close
// to the best match of this collection". With both kinds wanted the two
// lists are merged by that score (ties by kind, then id) and cut to K. The
// embedded store scales both kinds together instead, so a mixed list can
// order the runner-up kind somewhat differently; single-kind searches, which
// is what planners run, rank as the embedded store does.
func (s *Store) Search(ctx context.Context, scheduleID string, q store.Query) ([]store.Hit, error) {
	if err := graphQLSafe(scheduleID); err != nil {
		return nil, err
	}
	if q.K <= 0 {
		q.K = 10
	}
	alpha := min(max(q.Alpha, 0), 1)
	query := q.Text
	if s.tokenize != nil {
		query = strings.Join(s.tokenize(query), " ")
	}
	query = strings.TrimSpace(printable(query))
	if len(q.Vector) == 0 {
		alpha = 0 // nothing to compare vectors with: keyword only
	}
	if query == "" && alpha < 1 {
		if len(q.Vector) == 0 {
			return []store.Hit{}, nil
		}
		alpha = 1 // no keywords: vector only, without a zero-weighted BM25 side
	}
	var wanted []string
	for _, k := range []store.Kind{store.ActivityKind, store.RelationshipKind} {
		if len(q.Kinds) == 0 || slices.Contains(q.Kinds, k) {
			wanted = append(wanted, kindClass[k])
		}
	}
	results := make([][]store.Hit, len(wanted))
	errs := make([]error, len(wanted))
	var wg sync.WaitGroup
	for i, class := range wanted {
		wg.Go(func() {
			results[i], errs[i] = s.searchClass(ctx, class, scheduleID, query, q.Vector, alpha, q.K)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	hits := slices.Concat(results...)
	store.SortHits(hits)
	return hits[:min(q.K, len(hits))], nil
}

func (s *Store) searchClass(ctx context.Context, class, scheduleID, query string, vector []float32, alpha float64, k int) ([]store.Hit, error) {
	hybrid := s.client.GraphQL().HybridArgumentBuilder().
		WithAlpha(float32(alpha)).
		WithFusionType(graphql.RelativeScore)
	if query != "" {
		hybrid.WithQuery(query)
		if s.tokenize != nil {
			hybrid.WithProperties([]string{"terms"})
		} else {
			hybrid.WithProperties(bm25Properties[class])
		}
	}
	if len(vector) > 0 {
		hybrid.WithVector(vector)
	}
	var fields []graphql.Field
	if class == ActivityClass {
		fields = []graphql.Field{{Name: "activity_id"}, {Name: "name"}}
	} else {
		fields = []graphql.Field{{Name: "relationship_id"}, {Name: "type"}, {Name: "lag"}, {Name: "predecessor_name"}, {Name: "successor_name"}}
	}
	resp, err := s.client.GraphQL().Get().
		WithClassName(class).
		WithHybrid(hybrid).
		WithWhere(scheduleFilter(scheduleID)).
		WithLimit(k).
		WithFields(append(fields, additional("id", "score"))...).
		Do(ctx)
	rows, err := rowsOf(resp, err, class)
	if err != nil {
		return nil, fmt.Errorf("weaviate at %s: search in %s: %w%s", s.url, class, err, dimensionsHint(err))
	}
	hits := make([]store.Hit, 0, len(rows))
	for _, row := range rows {
		score, err := strconv.ParseFloat(additionalString(row, "score"), 64)
		if err != nil {
			return nil, fmt.Errorf("weaviate at %s: search in %s: score %q: %w", s.url, class, additionalString(row, "score"), err)
		}
		if class == ActivityClass {
			hits = append(hits, store.Hit{Kind: store.ActivityKind, ID: str(row, "activity_id"), Name: str(row, "name"), Score: score})
		} else {
			name := relationshipName(str(row, "predecessor_name"), str(row, "type"), num(row, "lag"), str(row, "successor_name"))
			hits = append(hits, store.Hit{Kind: store.RelationshipKind, ID: str(row, "relationship_id"), Name: name, Score: score})
		}
	}
	return hits, nil
}

// Dump returns the schedule's documents sorted by id, vectors left out. It
// pages by object UUID (sorted by _id, each page after the last UUID seen):
// offset paging stops at the server's QUERY_MAXIMUM_RESULTS.
func (s *Store) Dump(ctx context.Context, scheduleID string) (*store.VectorDump, error) {
	if err := graphQLSafe(scheduleID); err != nil {
		return nil, err
	}
	d := &store.VectorDump{Activities: []store.ActivityDoc{}, Relationships: []store.RelationshipDoc{}}
	var badCodes error
	err := s.scan(ctx, ActivityClass, scheduleID, []string{"activity_id", "name", "description", "duration", "wbs", "codes"}, func(row map[string]any) {
		doc := store.ActivityDoc{ID: str(row, "activity_id"), Name: str(row, "name"), Description: str(row, "description"),
			Duration: str(row, "duration"), WBS: str(row, "wbs")}
		if codes := str(row, "codes"); codes != "" {
			if err := json.Unmarshal([]byte(codes), &doc.Codes); err != nil {
				badCodes = errors.Join(badCodes, fmt.Errorf("weaviate: activity %s: codes: %w", doc.ID, err))
			}
		}
		d.Activities = append(d.Activities, doc)
	})
	if err = errors.Join(err, badCodes); err != nil {
		return nil, err
	}
	err = s.scan(ctx, RelationshipClass, scheduleID, []string{
		"relationship_id", "type", "lag",
		"predecessor_id", "predecessor_name", "predecessor_description", "predecessor_duration",
		"successor_id", "successor_name", "successor_description", "successor_duration",
	}, func(row map[string]any) {
		d.Relationships = append(d.Relationships, store.RelationshipDoc{
			ID:   str(row, "relationship_id"),
			Type: schedule.RelType(str(row, "type")),
			Lag:  num(row, "lag"),
			Predecessor: store.End{ActivityID: str(row, "predecessor_id"), Name: str(row, "predecessor_name"),
				Description: str(row, "predecessor_description"), Duration: str(row, "predecessor_duration")},
			Successor: store.End{ActivityID: str(row, "successor_id"), Name: str(row, "successor_name"),
				Description: str(row, "successor_description"), Duration: str(row, "successor_duration")},
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(d.Activities, func(a, b store.ActivityDoc) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(d.Relationships, func(a, b store.RelationshipDoc) int { return strings.Compare(a.ID, b.ID) })
	return d, nil
}

// scan reads every object of a schedule in a class, page by page.
func (s *Store) scan(ctx context.Context, class, scheduleID string, props []string, each func(map[string]any)) error {
	fields := make([]graphql.Field, 0, len(props)+1)
	for _, p := range props {
		fields = append(fields, graphql.Field{Name: p})
	}
	fields = append(fields, additional("id"))
	after := ""
	for {
		where := scheduleFilter(scheduleID)
		if after != "" {
			where = filters.Where().WithOperator(filters.And).WithOperands([]*filters.WhereBuilder{
				where,
				filters.Where().WithPath([]string{"_id"}).WithOperator(filters.GreaterThan).WithValueText(after),
			})
		}
		resp, err := s.client.GraphQL().Get().
			WithClassName(class).
			WithWhere(where).
			WithSort(graphql.Sort{Path: []string{"_id"}, Order: graphql.Asc}).
			WithLimit(dumpPage).
			WithFields(fields...).
			Do(ctx)
		rows, err := rowsOf(resp, err, class)
		if err != nil {
			return fmt.Errorf("weaviate at %s: reading %s: %w", s.url, class, err)
		}
		for _, row := range rows {
			each(row)
		}
		if len(rows) < dumpPage {
			return nil
		}
		last := additionalString(rows[len(rows)-1], "id")
		if last == "" || last <= after {
			return fmt.Errorf("weaviate at %s: reading %s: paging did not advance past %q", s.url, class, after)
		}
		after = last
	}
}

// dimensionsHint explains Weaviate's dimension errors: one collection holds
// one embedder's vectors, for every schedule in it.
func dimensionsHint(err error) string {
	if msg := err.Error(); strings.Contains(msg, "vector lengths don't match") || strings.Contains(msg, "vector dimensions do not match") {
		return " (the collection holds vectors of another embedder: one Weaviate database takes one embedder, so use the one its schedules were imported with, or another database)"
	}
	return ""
}

// additional is the _additional { ... } field.
func additional(names ...string) graphql.Field {
	f := graphql.Field{Name: "_additional"}
	for _, n := range names {
		f.Fields = append(f.Fields, graphql.Field{Name: n})
	}
	return f
}

// rowsOf unpacks {data: {Get: {Class: [rows]}}} and GraphQL errors.
func rowsOf(resp *models.GraphQLResponse, err error, class string) ([]map[string]any, error) {
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, errors.New("empty GraphQL response")
	}
	if len(resp.Errors) > 0 {
		msgs := make([]string, 0, len(resp.Errors))
		for _, e := range resp.Errors {
			if e != nil {
				msgs = append(msgs, e.Message)
			}
		}
		return nil, fmt.Errorf("GraphQL: %s", strings.Join(msgs, "; "))
	}
	get, _ := resp.Data["Get"].(map[string]any)
	list, _ := get[class].([]any)
	rows := make([]map[string]any, 0, len(list))
	for _, item := range list {
		if row, ok := item.(map[string]any); ok {
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// str reads a text property; Weaviate may return null for an empty one.
func str(row map[string]any, name string) string {
	v, _ := row[name].(string)
	return v
}

func num(row map[string]any, name string) float64 {
	switch v := row[name].(type) {
	case float64:
		return v
	case string: // json.Number-like
		f, _ := strconv.ParseFloat(v, 64)
		return f
	}
	return 0
}

// additionalString reads _additional.name as text (score comes as a string).
func additionalString(row map[string]any, name string) string {
	add, _ := row["_additional"].(map[string]any)
	switch v := add[name].(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return ""
}

// printable replaces what the client's GraphQL string quoting (Go's %q)
// would escape in ways GraphQL does not accept — control characters other
// than tab/newline/CR and invalid UTF-8 — with spaces. BM25 ignores them
// anyway.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// graphQLSafe refuses schedule ids that cannot travel in a GraphQL string
// built by the client (they would fail with a syntax error, or worse).
func graphQLSafe(scheduleID string) error {
	if !utf8.ValidString(scheduleID) {
		return fmt.Errorf("weaviate: schedule id %q is not valid UTF-8", scheduleID)
	}
	if strings.ContainsFunc(scheduleID, func(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' }) {
		return fmt.Errorf("weaviate: schedule id %q has control characters", scheduleID)
	}
	return nil
}
