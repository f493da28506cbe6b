// Package config opens what a process is configured to use: the stores and
// the embedder, from flags or the environment. The CLI and the worker share
// it so they always agree.
package config

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/embed/openaiembed"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
)

// Stores says which stores and embedder to use. Addresses come from flags
// or the environment; secrets (passwords, API keys) only from the
// environment, so they never show in `ps` or shell history.
type Stores struct {
	Neo4jURI       string
	Neo4jUser      string
	WeaviateURL    string
	WeaviateGRPC   string
	DBPath         string
	EmbeddingModel string
}

// StoresFromEnv reads the addresses from the environment; flags may
// override the fields afterwards (see BindFlags).
func StoresFromEnv() Stores {
	return Stores{
		Neo4jURI:       os.Getenv("NEO4J_URI"),
		Neo4jUser:      EnvOr("NEO4J_USER", "neo4j"),
		WeaviateURL:    os.Getenv("WEAVIATE_URL"),
		WeaviateGRPC:   os.Getenv("WEAVIATE_GRPC"),
		DBPath:         os.Getenv("AUTOSCHEDULER_DB"),
		EmbeddingModel: EnvOr("OPENAI_EMBEDDING_MODEL", "text-embedding-3-small"),
	}
}

// BindFlags adds the store flags to fs, defaulting to what cfg holds (the
// environment, from StoresFromEnv). The CLI and the worker take the same.
func (cfg *Stores) BindFlags(fs *pflag.FlagSet) {
	fs.StringVar(&cfg.Neo4jURI, "neo4j-uri", cfg.Neo4jURI, "Neo4j Bolt URI for the graph store (env NEO4J_URI; password from NEO4J_PASSWORD)")
	fs.StringVar(&cfg.Neo4jUser, "neo4j-user", cfg.Neo4jUser, "Neo4j user (env NEO4J_USER)")
	fs.StringVar(&cfg.WeaviateURL, "weaviate-url", cfg.WeaviateURL, "Weaviate URL for the vector store (env WEAVIATE_URL; API key from WEAVIATE_API_KEY)")
	fs.StringVar(&cfg.WeaviateGRPC, "weaviate-grpc", cfg.WeaviateGRPC, "Weaviate gRPC address (env WEAVIATE_GRPC)")
	fs.StringVar(&cfg.DBPath, "db", cfg.DBPath, "embedded store file, used for whichever of Neo4j and Weaviate is not configured (env AUTOSCHEDULER_DB; default ~/.local/share/autoscheduler/autoscheduler.db)")
	fs.StringVar(&cfg.EmbeddingModel, "embedding-model", cfg.EmbeddingModel, "OpenAI embedding model, used when OPENAI_API_KEY is set (env OPENAI_EMBEDDING_MODEL)")
}

// EnvOr is the environment variable key, or fallback when it is unset.
func EnvOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}

// Embedder is OpenAI when OPENAI_API_KEY is set, else the local embedder.
func (cfg *Stores) Embedder() (embed.Embedder, error) {
	key := os.Getenv("OPENAI_API_KEY")
	if key == "" {
		return embed.NewLocal(0), nil
	}
	return openaiembed.NewOpenAI(openaiembed.OpenAIConfig{APIKey: key, BaseURL: os.Getenv("OPENAI_BASE_URL"), Model: cfg.EmbeddingModel})
}

// DataPath is the embedded store file: --db, or one in the user's data
// directory (created if needed).
func (cfg *Stores) DataPath() (string, error) {
	if cfg.DBPath != "" {
		return cfg.DBPath, nil
	}
	dir := os.Getenv("XDG_DATA_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no --db given and no home directory: %w", err)
		}
		dir = filepath.Join(home, ".local", "share")
	}
	dir = filepath.Join(dir, "autoscheduler")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return filepath.Join(dir, "autoscheduler.db"), nil
}

// Open connects the configured stores. Whichever of Neo4j and Weaviate is
// not configured is served by the embedded store.
func (cfg *Stores) Open(ctx context.Context) (*store.Coordinator, error) {
	emb, err := cfg.Embedder()
	if err != nil {
		return nil, err
	}
	c := &store.Coordinator{Embedder: emb}
	if cfg.Neo4jURI != "" {
		if c.Graph, err = openNeo4j(ctx, cfg); err != nil {
			return nil, err
		}
	}
	if cfg.WeaviateURL != "" {
		if c.Vectors, err = openWeaviate(ctx, cfg); err != nil {
			closeStores(ctx, c)
			return nil, err
		}
	}
	if c.Graph == nil || c.Vectors == nil {
		path, err := cfg.DataPath()
		if err != nil {
			closeStores(ctx, c)
			return nil, err
		}
		db, err := embedded.Open(ctx, path, embedded.Options{Tokenize: embed.Normalize})
		if err != nil {
			closeStores(ctx, c)
			return nil, err
		}
		if c.Graph == nil {
			c.Graph = db.Graph()
		}
		if c.Vectors == nil {
			c.Vectors = db.Vectors()
		}
	}
	return c, nil
}

func closeStores(ctx context.Context, c *store.Coordinator) {
	if c.Graph != nil {
		_ = c.Graph.Close(ctx)
	}
	if c.Vectors != nil {
		_ = c.Vectors.Close(ctx)
	}
}
