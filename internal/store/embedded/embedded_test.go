package embedded_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) (store.GraphStore, store.VectorStore) {
		s, err := embedded.Open(context.Background(), filepath.Join(t.TempDir(), "autoscheduler.db"), embedded.Options{Tokenize: embed.Normalize})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(context.Background()) })
		return s.Graph(), s.Vectors()
	})
}
