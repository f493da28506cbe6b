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

func TestPortfolios(t *testing.T) {
	s, err := embedded.Open(context.Background(), filepath.Join(t.TempDir(), "autoscheduler.db"), embedded.Options{Tokenize: embed.Normalize})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	ps, ok := s.Graph().(store.PortfolioStore)
	if !ok {
		t.Fatal("the embedded graph store keeps no portfolios")
	}
	storetest.RunPortfolios(t, ps)
}
