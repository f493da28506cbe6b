package embedded_test

import (
	"context"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestSearchIndexFollowsWrites: the search index, written in bulk at the
// end of each change, holds exactly the documents after imports, renames,
// deletes, a re-import over a schedule and a schedule deleted; a renamed
// activity is found by its new word and not its old.
func TestSearchIndexFollowsWrites(t *testing.T) {
	ctx := context.Background()
	s, c := open(t)
	building := storetest.Building(t)
	for _, id := range []string{"a", "b"} {
		if err := c.Import(ctx, id, building, false, nil); err != nil {
			t.Fatal(err)
		}
	}
	renamed := building.Activities[10]
	renamed.Name = "Zeppelin mooring mast"
	if _, _, err := c.ApplyOps(ctx, "a", []schedule.Op{schedule.RemoveActivity(building.Activities[20].ID), schedule.UpdateActivity(renamed)}); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckSearchIndex(); err != nil {
		t.Fatalf("after a rename and a delete: %v", err)
	}
	hits, err := c.Search(ctx, "a", "zeppelin", 3)
	if err != nil || len(hits) == 0 || hits[0].ID != renamed.ID {
		t.Errorf("the renamed activity is not found by its new name: %+v %v", hits, err)
	}
	again := building.Clone()
	again.Activities[5].Name = "Airship hangar doors"
	if err := c.Import(ctx, "b", again, true, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckSearchIndex(); err != nil {
		t.Fatalf("after a re-import and a delete: %v", err)
	}
	if hits, err := c.Search(ctx, "b", "airship hangar", 3); err != nil || len(hits) == 0 || hits[0].ID != again.Activities[5].ID {
		t.Errorf("the re-imported name is not found: %+v %v", hits, err)
	}
}
