package storetest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// listed is a schedule's entry in the graph store's list (nil when it is
// not listed).
func listed(t *testing.T, g store.GraphStore, id string) *store.ScheduleInfo {
	t.Helper()
	list, err := g.Schedules(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range list {
		if list[i].ID == id {
			return &list[i]
		}
	}
	return nil
}

// wantSummary checks that the stored summary of id is that of s now.
func wantSummary(t *testing.T, c *store.Coordinator, id string, s *schedule.Schedule, when string) {
	t.Helper()
	info := listed(t, c.Graph, id)
	if info == nil || info.Summary == nil {
		t.Fatalf("%s: schedule listed as %+v, want it with a summary", when, info)
	}
	want := store.Summarize(s, info.Summary.Updated)
	got := *info.Summary
	if asJSON(t, got) != asJSON(t, want) {
		t.Fatalf("%s: summary\n%s\nwant\n%s", when, asJSON(t, got), asJSON(t, want))
	}
	if info.Name != s.Name || info.Activities != len(s.Activities) || info.Relationships != len(s.Relationships) {
		t.Fatalf("%s: listed as %q, %d activities, %d relationships", when, info.Name, info.Activities, info.Relationships)
	}
}

// testSummaries: every write keeps the schedule's summary (name, counts,
// CPM finish and its date) with it, in the same write: import, ops,
// compensation of a failed write, the inverses (undo), a replace.
func testSummaries(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	wantSummary(t, c, id, s, "after the import")
	info := listed(t, c.Graph, id)
	if info.Summary.Finish != 167 || !strings.HasPrefix(info.Summary.FinishDate, "2026-") || info.Summary.FinishError != "" || info.Summary.Updated.IsZero() {
		t.Fatalf("the building's summary: %+v", info.Summary)
	}

	// Ops: a long activity at the end moves the finish.
	last := s.Activities[len(s.Activities)-1].ID
	ops := []schedule.Op{
		schedule.AddActivity(schedule.Activity{ID: "TAIL", Name: "Defects period", Duration: "20"}),
		schedule.AddRelationship(schedule.Relationship{ID: "TAIL-R", Type: schedule.FS, Predecessor: last, Successor: "TAIL"}),
	}
	_, inverses, err := c.ApplyOps(ctx, id, ops)
	if err != nil {
		t.Fatal(err)
	}
	now, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	wantSummary(t, c, id, now, "after ops")
	if got := listed(t, c.Graph, id).Summary.Finish; got <= 167 {
		t.Fatalf("finish after adding 20 days at the end: %v", got)
	}

	// A failed write is compensated: the summary is the old one's.
	broken := &store.Coordinator{Graph: c.Graph, Vectors: &failingVectors{VectorStore: c.Vectors, fail: true}, Embedder: c.Embedder}
	more := []schedule.Op{schedule.UpdateActivity(schedule.Activity{ID: "TAIL", Name: "Defects period", Duration: "90"})}
	if _, _, err := broken.ApplyOps(ctx, id, more); !errors.Is(err, errInjected) {
		t.Fatalf("err = %v, want the injected failure", err)
	}
	wantSummary(t, c, id, now, "after a compensated write")

	// The inverses (what undo and a rejected dispatch apply) restore it.
	slices.Reverse(inverses)
	if _, _, err := c.ApplyOps(ctx, id, inverses); err != nil {
		t.Fatal(err)
	}
	wantSummary(t, c, id, s, "after the inverses")

	// A replace with another name and fewer activities.
	smaller := s.Clone()
	smaller.Name = "Smaller building"
	smaller.StartDate = ""
	cut := smaller.Activities[len(smaller.Activities)-1].ID
	smaller.Activities = smaller.Activities[:len(smaller.Activities)-1]
	smaller.Relationships = slices.DeleteFunc(smaller.Relationships, func(r schedule.Relationship) bool { return r.Predecessor == cut || r.Successor == cut })
	if err := c.Import(ctx, id, smaller, true, nil); err != nil {
		t.Fatal(err)
	}
	wantSummary(t, c, id, smaller, "after a replace")
	if got := listed(t, c.Graph, id).Summary; got.FinishDate != "" || got.Name != "Smaller building" {
		t.Fatalf("summary without a start date: %+v", got)
	}
}

// testSummaryBackfill: a schedule stored without a summary (a store
// written before summaries, or a graph write that brought none) is listed
// with its counts, summarised once by the Coordinator's list and stored;
// a later write is not overwritten by an older summary.
func testSummaryBackfill(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	renamed := s.Activities[0]
	renamed.Name = "Renamed without a summary"
	if _, err := c.Graph.Apply(ctx, id, []store.Change{{OpID: "backfill-" + id, PutActivities: []schedule.Activity{renamed}}}); err != nil {
		t.Fatal(err)
	}
	info := listed(t, c.Graph, id)
	if info == nil || info.Summary != nil {
		t.Fatalf("a write without a summary left it: %+v", info)
	}
	if info.Activities != len(s.Activities) || info.Relationships != len(s.Relationships) || info.Name != s.Name {
		t.Fatalf("listed without a summary as %+v", info)
	}
	list, err := c.Schedules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got *store.ScheduleInfo
	for i := range list {
		if list[i].ID == id {
			got = &list[i]
		}
	}
	if got == nil || got.Summary == nil || got.Summary.Finish != 167 {
		t.Fatalf("the Coordinator's list: %+v", got)
	}
	now, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	wantSummary(t, c, id, now, "after the list summarised it")

	// PutSummary never replaces a summary a write brought.
	sums, ok := c.Graph.(store.Summaries)
	if !ok {
		t.Fatal("the graph store cannot store summaries")
	}
	stale := store.Summarize(&schedule.Schedule{Name: "stale", Activities: []schedule.Activity{}, Relationships: []schedule.Relationship{}}, got.Summary.Updated)
	if err := sums.PutSummary(ctx, id, stale); err != nil {
		t.Fatal(err)
	}
	wantSummary(t, c, id, now, "after PutSummary over a summary")
	if err := sums.PutSummary(ctx, id+"-missing", stale); err != nil {
		t.Fatalf("PutSummary of a schedule not stored: %v", err)
	}
	if ok, _ := c.Graph.Has(ctx, id+"-missing"); ok {
		t.Fatal("PutSummary created a schedule")
	}
}

// testScheduleIDs: ids no schedule may have ("", ".", "..", path names,
// spaces, over usertext.MaxID characters) are refused by the Coordinator
// and by both stores' writes, and nothing is stored.
func testScheduleIDs(t *testing.T, open Opener) {
	ctx := context.Background()
	c := coordinator(t, open)
	s := Building(t)
	for _, id := range []string{"", ".", "..", ".hidden", "-flag", "a/b", "../etc", "a b", "x\x1b[2J", strings.Repeat("a", 129)} {
		if err := c.Import(ctx, id, s, true, nil); !errors.Is(err, store.ErrInvalidID) {
			t.Errorf("Import under %q: err = %v, want ErrInvalidID", id, err)
		}
		if _, err := c.Graph.Apply(ctx, id, []store.Change{{OpID: "x", PutActivities: s.Activities[:1]}}); !errors.Is(err, store.ErrInvalidID) {
			t.Errorf("graph Apply under %q: err = %v, want ErrInvalidID", id, err)
		}
		if _, err := c.Vectors.Apply(ctx, id, []store.VectorChange{{OpID: "x", DeleteActivities: []string{"A"}}}); !errors.Is(err, store.ErrInvalidID) {
			t.Errorf("vector Apply under %q: err = %v, want ErrInvalidID", id, err)
		}
		if ok, err := c.Graph.Has(ctx, id); ok || err != nil {
			t.Errorf("%q: stored %v, err %v", id, ok, err)
		}
	}
	if err := store.CheckScheduleID(".."); err == nil || !strings.Contains(err.Error(), `invalid schedule id "..": ".." is not a name`) {
		t.Errorf("the refusal of \"..\": %v", err)
	}
	if err := store.CheckScheduleID(""); err == nil || !strings.Contains(err.Error(), "invalid schedule id: it is empty") {
		t.Errorf("the refusal of \"\": %v", err)
	}
}

// testDelete: a delete removes the schedule from both stores (graph,
// ledgers, documents, summary), says whether it was there, and is
// idempotent.
func testDelete(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, _ := importedBuilding(t, open)
	existed, err := c.Delete(ctx, id)
	if err != nil || !existed {
		t.Fatalf("delete: existed %v, err %v", existed, err)
	}
	if _, err := c.Load(ctx, id); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deleted schedule loads: %v", err)
	}
	if info := listed(t, c.Graph, id); info != nil {
		t.Fatalf("a deleted schedule is listed: %+v", info)
	}
	docs, err := c.Vectors.Dump(ctx, id)
	if err != nil || len(docs.Activities)+len(docs.Relationships) > 0 {
		t.Fatalf("documents left: %v, %v", docs, err)
	}
	if hits, err := c.Search(ctx, id, "concrete", 5); len(hits) > 0 {
		t.Fatalf("a deleted schedule is searched: %v %v", hits, err)
	}
	existed, err = c.Delete(ctx, id)
	if err != nil || existed {
		t.Fatalf("deleting again: existed %v, err %v", existed, err)
	}
	// The id can be used again.
	if err := c.Import(ctx, id, Building(t), false, nil); err != nil {
		t.Fatalf("import after a delete: %v", err)
	}
}
