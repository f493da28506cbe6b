// Package weaviate is the VectorStore on Weaviate (1.39): collections
// Activity and Relationship as the seed design specifies, vectors supplied by
// our Embedder (vectorizer "none"), hybrid search (BM25 + vector, relative
// score fusion) filtered by schedule, and a third collection, OpLedger, that
// records applied op IDs so a retried write never applies twice.
//
// Every object is keyed by the UUID the store package derives from
// (schedule, id), so re-importing a schedule lands on the same objects and a
// batch upsert replaces them. Values reach GraphQL only through the client's
// builders (filters.Where, the hybrid builder), never by concatenation.
package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/weaviate/weaviate-go-client/v4/weaviate"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/grpc"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// Collection names.
const (
	ActivityClass     = "Activity"
	RelationshipClass = "Relationship"
	LedgerClass       = "OpLedger"
)

// ledgerStore is the OpLedger's store property for this adapter's entries.
const ledgerStore = "vector"

// Config says where Weaviate is.
type Config struct {
	// URL of the REST endpoint, e.g. http://127.0.0.1:8080.
	URL string
	// GRPCAddress (host:port, e.g. 127.0.0.1:50051) makes batch imports go
	// over gRPC, several times faster than REST. Optional.
	GRPCAddress string
	// APIKey is sent as a bearer token when set. It never appears in errors.
	APIKey string
	// Tokenize, when set, normalises the text BM25 sees, documents and
	// queries alike, so "first floor" finds "Level 1" exactly as the
	// embedded store does (embed.Normalize). The normalised tokens are
	// stored in a `terms` property and BM25 runs on it alone. Nil leaves
	// tokenizing to Weaviate, over the name and description properties.
	Tokenize func(string) []string
}

// Store is the VectorStore on one Weaviate server, holding any number of
// schedules.
type Store struct {
	client   *weaviate.Client
	url      string // redacted, for errors
	tokenize func(string) []string
}

var _ store.VectorStore = (*Store)(nil)

// readyTimeout bounds the readiness check at Open.
const readyTimeout = 10 * time.Second

// Open connects to Weaviate, checks that it is ready and creates the
// collections that are missing (and properties missing from them).
func Open(ctx context.Context, cfg Config) (*Store, error) {
	raw := strings.TrimSpace(cfg.URL)
	if raw == "" {
		return nil, errors.New("weaviate: no URL configured")
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("weaviate: bad URL: %w", err)
	}
	shown := u.Redacted()
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("weaviate: URL %s: want http://host:port or https://host", shown)
	}
	if strings.Trim(u.Path, "/") != "" {
		return nil, fmt.Errorf("weaviate: URL %s: a path prefix is not supported", shown)
	}
	wc := weaviate.Config{Scheme: u.Scheme, Host: u.Host, Timeout: time.Minute}
	if cfg.APIKey != "" {
		wc.Headers = map[string]string{"authorization": "Bearer " + cfg.APIKey}
	}
	if cfg.GRPCAddress != "" {
		wc.GrpcConfig = &grpc.Config{Host: cfg.GRPCAddress, Secured: u.Scheme == "https"}
	}
	client, err := weaviate.NewClient(wc)
	if err != nil {
		return nil, fmt.Errorf("weaviate at %s: %w", shown, redact(err, cfg.APIKey))
	}
	s := &Store{client: client, url: shown, tokenize: cfg.Tokenize}

	readyCtx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	ready, err := client.Misc().ReadyChecker().Do(readyCtx)
	if err != nil {
		return nil, fmt.Errorf("weaviate at %s is not reachable: %w", shown, redact(err, cfg.APIKey))
	}
	if !ready {
		return nil, fmt.Errorf("weaviate at %s is not ready (GET /v1/.well-known/ready did not answer 200)", shown)
	}
	for _, class := range classes() {
		if err := s.ensureClass(ctx, class); err != nil {
			return nil, fmt.Errorf("weaviate at %s: collection %s: %w", shown, class.Class, redact(err, cfg.APIKey))
		}
	}
	return s, nil
}

// Close releases nothing: the client holds no connections of its own
// beyond Go's HTTP pool (and, with gRPC, a channel the client cannot close).
func (s *Store) Close(context.Context) error { return nil }

// redact removes the API key from an error's text, should a server or a
// library ever echo the header back.
func redact(err error, key string) error {
	if err == nil || key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "[api key]"))
}

func ptr[T any](v T) *T { return &v }

// text is a text property. Filterable ones (ids, schedule, type) use field
// tokenization and stay out of BM25; searchable ones use word tokenization.
func text(name, tokenization string, filterable, searchable bool) *models.Property {
	return &models.Property{
		Name:            name,
		DataType:        []string{"text"},
		Tokenization:    tokenization,
		IndexFilterable: ptr(filterable),
		IndexSearchable: ptr(searchable),
	}
}

// key is an id-like property: exact match filters, no BM25.
func key(name string) *models.Property { return text(name, "field", true, false) }

// words is a property BM25 searches when no Tokenize hook is configured.
func words(name string) *models.Property { return text(name, "word", false, true) }

// stored is a property kept only to rebuild documents.
func stored(name string) *models.Property { return text(name, "field", false, false) }

// terms holds the normalised tokens when a Tokenize hook is configured.
func terms() *models.Property { return text("terms", "whitespace", false, true) }

// classes is the schema. Stop words are off: the Tokenize hook already
// drops them, and the embedded store's FTS index keeps every word, so BM25
// scores agree between the two.
func classes() []*models.Class {
	// Every search is filtered to one schedule, and Weaviate answers a
	// filtered search whose filter matches fewer than flatSearchCutoff
	// (40,000) objects by brute force over the matches: the HNSW graph only
	// serves schedules larger than that. A lighter graph (efConstruction 64,
	// maxConnections 16 instead of 128, 32) makes imports cheaper.
	vectorIndex := func() map[string]any {
		return map[string]any{"distance": "cosine", "efConstruction": 64, "maxConnections": 16}
	}
	inverted := func() *models.InvertedIndexConfig {
		return &models.InvertedIndexConfig{
			Bm25:      &models.BM25Config{K1: 1.2, B: 0.75},
			Stopwords: &models.StopwordConfig{Preset: "none"},
		}
	}
	return []*models.Class{
		{
			Class:               ActivityClass,
			Description:         "An activity of a schedule, as embedded for search.",
			Vectorizer:          "none",
			VectorIndexType:     "hnsw",
			VectorIndexConfig:   vectorIndex(),
			InvertedIndexConfig: inverted(),
			Properties: []*models.Property{
				key("schedule_id"),
				key("activity_id"),
				words("name"),
				words("description"),
				stored("duration"),
				// Where the activity is filed: the WBS path, and the
				// codes as JSON text (word tokens are its types and values).
				words("wbs"),
				words("codes"),
				terms(),
			},
		},
		{
			Class:               RelationshipClass,
			Description:         "A relationship of a schedule with both ends' text, as embedded for search.",
			Vectorizer:          "none",
			VectorIndexType:     "hnsw",
			VectorIndexConfig:   vectorIndex(),
			InvertedIndexConfig: inverted(),
			Properties: []*models.Property{
				key("schedule_id"),
				key("relationship_id"),
				key("type"),
				{Name: "lag", DataType: []string{"number"}, IndexFilterable: ptr(true)},
				key("predecessor_id"),
				words("predecessor_name"),
				words("predecessor_description"),
				stored("predecessor_duration"),
				key("successor_id"),
				words("successor_name"),
				words("successor_description"),
				stored("successor_duration"),
				terms(),
			},
		},
		{
			Class:             LedgerClass,
			Description:       "Op IDs a store has applied, per schedule.",
			Vectorizer:        "none",
			VectorIndexType:   "hnsw",
			VectorIndexConfig: map[string]any{"skip": true},
			Properties: []*models.Property{
				key("schedule_id"),
				key("op_id"),
				key("store"),
				stored("committed"),
			},
		},
		preferencesClass(),
	}
}

// ensureClass creates a collection, or adds the properties an older
// version of this adapter did not define.
func (s *Store) ensureClass(ctx context.Context, want *models.Class) error {
	exists, err := s.client.Schema().ClassExistenceChecker().WithClassName(want.Class).Do(ctx)
	if err != nil {
		return err
	}
	if !exists {
		err := s.client.Schema().ClassCreator().WithClass(want).Do(ctx)
		if err == nil {
			return nil
		}
		// Another process may have created it meanwhile.
		if again, cerr := s.client.Schema().ClassExistenceChecker().WithClassName(want.Class).Do(ctx); cerr != nil || !again {
			return err
		}
	}
	have, err := s.client.Schema().ClassGetter().WithClassName(want.Class).Do(ctx)
	if err != nil {
		return err
	}
	present := map[string]bool{}
	for _, p := range have.Properties {
		present[p.Name] = true
	}
	if have.Vectorizer != "" && have.Vectorizer != "none" {
		return fmt.Errorf("exists with vectorizer %q; this store supplies its own vectors and needs \"none\"", have.Vectorizer)
	}
	for _, p := range want.Properties {
		if present[p.Name] {
			continue
		}
		if err := s.client.Schema().PropertyCreator().WithClassName(want.Class).WithProperty(p).Do(ctx); err != nil {
			return fmt.Errorf("adding property %s: %w", p.Name, err)
		}
	}
	return nil
}
