// Package configtest gives tests the configured stores.
package configtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/config"
)

// Servers is the Neo4j and Weaviate configuration of the environment
// (NEO4J_URI, WEAVIATE_URL), with an unused embedded file in a temporary
// directory. Without both the test skips, and under CI=true it fails:
// CI runs the servers.
func Servers(tb testing.TB) config.Stores {
	tb.Helper()
	cfg := config.StoresFromEnv()
	if cfg.Neo4jURI == "" || cfg.WeaviateURL == "" {
		if os.Getenv("CI") == "true" {
			tb.Fatal("CI=true but NEO4J_URI or WEAVIATE_URL is not set")
		}
		tb.Skip("set NEO4J_URI and WEAVIATE_URL (eval \"$(make -s services)\") to run against the servers")
	}
	cfg.DBPath = filepath.Join(tb.TempDir(), "unused.db")
	return cfg
}
