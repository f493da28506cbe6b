package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/config/configtest"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// The contract once more, on Neo4j and Weaviate together, opened the way
// the CLI opens them: the configuration users run.
func TestContractOnConfiguredServers(t *testing.T) {
	cfg := configtest.Servers(t)
	t.Setenv("OPENAI_API_KEY", "")
	storetest.Run(t, func(t *testing.T) (store.GraphStore, store.VectorStore) {
		c, err := cfg.Open(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		if g, v := fmt.Sprintf("%T", c.Graph), fmt.Sprintf("%T", c.Vectors); g != "*neo4j.Store" || v != "*weaviate.Store" {
			t.Fatalf("opened %s and %s, want Neo4j and Weaviate", g, v)
		}
		return c.Graph, c.Vectors
	})
}
