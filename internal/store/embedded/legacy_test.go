package embedded

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// A file written before summaries, before ids were checked and before the
// live programme: a schedule stored under "..", none with a summary, no
// live columns. Opening it adds the columns; the
// list summarises each schedule once; ".." can be deleted (only making a
// schedule refuses such an id).
func TestLegacyFileSummariesAndBadIDs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	st, err := Open(ctx, path, Options{Tokenize: embed.Normalize})
	if err != nil {
		t.Fatal(err)
	}
	c := &store.Coordinator{Graph: st.Graph(), Vectors: st.Vectors(), Embedder: embed.NewLocal(0)}
	s, err := interchange.ReadFile("../../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Import(ctx, "good", s, false, nil); err != nil {
		t.Fatal(err)
	}
	// What an older version left: the same rows under "..", and a table
	// without the summary column.
	for _, q := range []string{
		`INSERT INTO schedules (id, name, start_date, calendar) SELECT '..', name, start_date, calendar FROM schedules WHERE id = 'good'`,
		`INSERT INTO nodes (schedule_id, id, kind, weight, activity_id, name, description) SELECT '..', id, kind, weight, activity_id, name, description FROM nodes WHERE schedule_id = 'good'`,
		`INSERT INTO edges SELECT '..', src, dst FROM edges WHERE schedule_id = 'good'`,
		`ALTER TABLE schedules DROP COLUMN summary`,
		`ALTER TABLE schedules DROP COLUMN data_date`,
		`ALTER TABLE schedules DROP COLUMN calendars`,
		`ALTER TABLE schedules DROP COLUMN options`,
		`ALTER TABLE nodes DROP COLUMN live`,
	} {
		if _, err := st.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	st.Close(ctx)

	st, err = Open(ctx, path, Options{Tokenize: embed.Normalize})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(ctx)
	c = &store.Coordinator{Graph: st.Graph(), Vectors: st.Vectors(), Embedder: embed.NewLocal(0)}
	list, err := st.Schedules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != ".." || list[0].Summary != nil || list[0].Activities != 147 || list[1].Summary != nil {
		t.Fatalf("listed before summarising: %+v", list)
	}
	list, err = c.Schedules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range list {
		if info.Summary == nil || info.Summary.Finish != 167 {
			t.Fatalf("%q listed as %+v", info.ID, info)
		}
	}
	list, _ = st.Schedules(ctx)
	if list[0].Summary == nil || list[1].Summary == nil {
		t.Fatalf("the summaries were not stored: %+v", list)
	}

	// ".." cannot be written any more, but it can be deleted.
	op := schedule.RemoveActivity(s.Activities[0].ID)
	if _, _, err := c.ApplyOps(ctx, "..", []schedule.Op{op}); !errors.Is(err, store.ErrInvalidID) {
		t.Fatalf("an op on \"..\": err = %v, want ErrInvalidID", err)
	}
	existed, err := c.Delete(ctx, "..")
	if err != nil || !existed {
		t.Fatalf("deleting \"..\": existed %v, err %v", existed, err)
	}
	if ok, _ := st.Has(ctx, ".."); ok {
		t.Fatal(`".." is still stored`)
	}
	if ok, _ := st.Has(ctx, "good"); !ok {
		t.Fatal("deleting \"..\" deleted another schedule")
	}
}
