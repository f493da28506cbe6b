package store_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestInversesAndBefore: the coordinator reads the ledger's inverses of a
// set of ops, in their order, and rebuilds the schedule before them; an op
// the ledger does not hold, or (committed) one not yet committed, is
// refused with the words the CLI, the web app and the activities show.
func TestInversesAndBefore(t *testing.T) {
	ctx := context.Background()
	c, _ := storetest.EmbeddedBuilding(t, "building")
	original, err := c.Load(ctx, "building")
	if err != nil {
		t.Fatal(err)
	}
	ops := []schedule.Op{
		schedule.AddActivity(schedule.Activity{ID: "X1", Name: "Snag one", Duration: "1"}),
		schedule.AddActivity(schedule.Activity{ID: "X2", Name: "Snag two", Duration: "2"}),
	}
	ops[0].ID, ops[1].ID = "ledger-test/0", "ledger-test/1"
	_, inverses, err := c.ApplyOps(ctx, "building", ops)
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{ops[0].ID, ops[1].ID}
	got, err := c.Inverses(ctx, "building", ids, false)
	if err != nil || !reflect.DeepEqual(got, inverses) {
		t.Fatalf("inverses %+v, %v; want %+v", got, err, inverses)
	}
	if _, err := c.Inverses(ctx, "building", ids, true); err == nil || err.Error() != `op ledger-test/0 is not committed in the ledger of schedule "building"` {
		t.Errorf("uncommitted: %v", err)
	}
	_, err = c.Inverses(ctx, "building", []string{"nope"}, false)
	var missing *store.NotRecordedError
	if !errors.As(err, &missing) || !errors.Is(err, store.ErrNotRecorded) ||
		err.Error() != `op nope of schedule "building" is not in the ledger: its inverse is unknown` {
		t.Errorf("not recorded: %v", err)
	}

	after, err := c.Load(ctx, "building")
	if err != nil {
		t.Fatal(err)
	}
	before, err := c.Before(ctx, "building", after, ids)
	if err != nil || len(before.Activities) != len(original.Activities) || len(after.Activities) != len(original.Activities)+2 {
		t.Fatalf("before: %d activities (%v), after %d, original %d", len(before.Activities), err, len(after.Activities), len(original.Activities))
	}
	if same, err := c.Before(ctx, "building", after, nil); err != nil || same == after || len(same.Activities) != len(after.Activities) {
		t.Errorf("before no ops: %v", err)
	}

	if err := c.Commit(ctx, "building", ids, store.CommitRecord{Dispatch: "d", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Inverses(ctx, "building", ids, true); err != nil || !reflect.DeepEqual(got, inverses) {
		t.Errorf("committed inverses %+v, %v", got, err)
	}
}
