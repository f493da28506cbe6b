package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// verify finds drift and exits 1; verify --repair mends it from the graph
// store, after which verify agrees.
func TestVerifyRepair(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "store.db")
	args := []string{"--db", db, "--neo4j-uri=", "--weaviate-url="}
	if code, _, errOut := runCLI(t, append([]string{"import", "../examples/building.json", "--schedule", "b"}, args...)...); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	c, err := (&config.Stores{DBPath: db}).Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Load(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	// Drift: a document lost, as a crash of an older version could leave.
	if _, err := c.Vectors.Apply(ctx, "b", []store.VectorChange{{DeleteActivities: []string{s.Activities[0].ID}}}); err != nil {
		t.Fatal(err)
	}
	c.Close(ctx)
	if code, out, _ := runCLI(t, append([]string{"verify", "--schedule", "b"}, args...)...); code != 1 {
		t.Fatalf("verify with drift: exit %d\n%s", code, out)
	}
	if code, _, errOut := runCLI(t, append([]string{"verify", "--schedule", "b", "--repair"}, args...)...); code != 0 {
		t.Fatalf("verify --repair: exit %d: %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, append([]string{"verify", "--schedule", "b"}, args...)...); code != 0 {
		t.Fatalf("verify after the repair: exit %d\n%s%s", code, out, errOut)
	}
}
