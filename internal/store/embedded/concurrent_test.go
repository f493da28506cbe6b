package embedded_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
)

// Ten writers on one file, each with its own connection (as ten processes
// would be): they queue for the write lock instead of failing with
// SQLITE_BUSY, and every import lands whole.
func TestConcurrentImportsQueue(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	s := blocks(t, 3)
	var wg sync.WaitGroup
	errs := make([]error, 10)
	for i := range errs {
		wg.Go(func() {
			st, err := embedded.Open(ctx, path, embedded.Options{Tokenize: embed.Normalize})
			if err != nil {
				errs[i] = err
				return
			}
			defer st.Close(ctx)
			c := &store.Coordinator{Graph: st.Graph(), Vectors: st.Vectors(), Embedder: embed.NewLocal(0)}
			errs[i] = c.Import(ctx, fmt.Sprintf("s%d", i), s, false, nil)
		})
	}
	wg.Wait()
	st, err := embedded.Open(ctx, path, embedded.Options{Tokenize: embed.Normalize})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	c := &store.Coordinator{Graph: st.Graph(), Vectors: st.Vectors(), Embedder: embed.NewLocal(0)}
	for i, err := range errs {
		if err != nil {
			t.Errorf("import %d: %v", i, err)
			continue
		}
		got, err := c.Load(ctx, fmt.Sprintf("s%d", i))
		if err != nil || len(got.Activities) != len(s.Activities) {
			t.Errorf("import %d stored %v (%v)", i, got != nil, err)
		}
		if drift, err := c.Verify(ctx, fmt.Sprintf("s%d", i)); err != nil || len(drift) > 0 {
			t.Errorf("import %d: drift %v (%v)", i, drift, err)
		}
	}
}
