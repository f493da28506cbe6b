package config

import (
	"context"
	"os"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/neo4j"
	"github.com/autoscheduler/autoscheduler/internal/store/weaviate"
)

func openNeo4j(ctx context.Context, cfg *Stores) (store.GraphStore, error) {
	return neo4j.Open(ctx, neo4j.Config{URI: cfg.Neo4jURI, User: cfg.Neo4jUser, Password: os.Getenv("NEO4J_PASSWORD")})
}

func openWeaviate(ctx context.Context, cfg *Stores) (store.VectorStore, error) {
	return weaviate.Open(ctx, weaviate.Config{URL: cfg.WeaviateURL, GRPCAddress: cfg.WeaviateGRPC, APIKey: os.Getenv("WEAVIATE_API_KEY"), Tokenize: embed.Normalize})
}
