package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
)

// storeConfig says which stores and embedder to use. Addresses come from
// flags or the environment; secrets (passwords, API keys) only from the
// environment, so they never show in `ps` or shell history.
type storeConfig struct {
	Neo4jURI       string
	Neo4jUser      string
	WeaviateURL    string
	WeaviateGRPC   string
	DBPath         string
	EmbeddingModel string
}

// bindStoreFlags adds the store flags to cmd, defaulting from env.
func bindStoreFlags(cmd *cobra.Command, cfg *storeConfig) {
	f := cmd.PersistentFlags()
	f.StringVar(&cfg.Neo4jURI, "neo4j-uri", os.Getenv("NEO4J_URI"), "Neo4j Bolt URI for the graph store (env NEO4J_URI; password from NEO4J_PASSWORD)")
	f.StringVar(&cfg.Neo4jUser, "neo4j-user", envOr("NEO4J_USER", "neo4j"), "Neo4j user (env NEO4J_USER)")
	f.StringVar(&cfg.WeaviateURL, "weaviate-url", os.Getenv("WEAVIATE_URL"), "Weaviate URL for the vector store (env WEAVIATE_URL; API key from WEAVIATE_API_KEY)")
	f.StringVar(&cfg.WeaviateGRPC, "weaviate-grpc", os.Getenv("WEAVIATE_GRPC"), "Weaviate gRPC address (env WEAVIATE_GRPC)")
	f.StringVar(&cfg.DBPath, "db", os.Getenv("AUTOSCHEDULER_DB"), "embedded store file, used for whichever of Neo4j and Weaviate is not configured (env AUTOSCHEDULER_DB; default ~/.local/share/autoscheduler/autoscheduler.db)")
	f.StringVar(&cfg.EmbeddingModel, "embedding-model", envOr("OPENAI_EMBEDDING_MODEL", "text-embedding-3-small"), "OpenAI embedding model, used when OPENAI_API_KEY is set (env OPENAI_EMBEDDING_MODEL)")
}

func envOr(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}

// embedder is OpenAI when OPENAI_API_KEY is set, else the local embedder.
func (cfg *storeConfig) embedder() (embed.Embedder, error) {
	key := os.Getenv("OPENAI_API_KEY")
	if key == "" {
		return embed.NewLocal(0), nil
	}
	return embed.NewOpenAI(embed.OpenAIConfig{APIKey: key, BaseURL: os.Getenv("OPENAI_BASE_URL"), Model: cfg.EmbeddingModel})
}

func (cfg *storeConfig) dbPath() (string, error) {
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

// open connects the configured stores. Whichever of Neo4j and Weaviate is
// not configured is served by the embedded store.
func (cfg *storeConfig) open(ctx context.Context) (*store.Coordinator, error) {
	emb, err := cfg.embedder()
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
		path, err := cfg.dbPath()
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
