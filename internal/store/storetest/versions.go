package storetest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/versions"
)

// listVersions is the coordinator's list of a schedule's versions.
func listVersions(t *testing.T, c *store.Coordinator, id string) []versions.Info {
	t.Helper()
	list, err := c.Versions(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// rawVersions counts what the graph store holds, standing or not.
func rawVersions(t *testing.T, c *store.Coordinator, id string) int {
	t.Helper()
	list, err := c.Graph.(store.VersionStore).Versions(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

// testVersions: a write that moves the data date keeps the schedule as it
// stood (import --replace, a committed set_data_date), a write that does
// not keeps nothing, a failed write leaves no version, uncommitted ops
// keep none, and a delete takes them with the schedule.
func testVersions(t *testing.T, open Opener) {
	ctx := context.Background()
	c := coordinator(t, open)
	if _, ok := c.Graph.(store.VersionStore); !ok {
		t.Fatal("the graph store keeps no versions")
	}
	id := scheduleID(t, c)
	first := LiveSchedule()
	if err := c.Import(ctx, id, first, false, nil); err != nil {
		t.Fatal(err)
	}
	if got := listVersions(t, c, id); len(got) != 0 {
		t.Fatalf("a fresh import kept %d versions", len(got))
	}
	// Same data date, another name: nothing kept.
	renamed := first.Clone()
	renamed.Activities[0].Name += " (renamed)"
	if err := c.Import(ctx, id, renamed, true, nil); err != nil {
		t.Fatal(err)
	}
	if got := listVersions(t, c, id); len(got) != 0 {
		t.Fatalf("a replace at the same data date kept %d versions", len(got))
	}
	asStored, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	k, err := c.Kept(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := k.Previous(ctx); !errors.Is(err, store.ErrNoPrevious) {
		t.Fatalf("Previous with no versions: %v, want ErrNoPrevious", err)
	}

	// The next update: the data date moves, the schedule as it stood is kept.
	next := renamed.Clone()
	next.DataDate = "2026-03-23"
	if err := c.Import(ctx, id, next, true, nil); err != nil {
		t.Fatal(err)
	}
	got := listVersions(t, c, id)
	if len(got) != 1 || got[0].DataDate != first.DataDate || got[0].Activities != len(first.Activities) ||
		got[0].Relationships != len(first.Relationships) || !strings.Contains(got[0].Why, "import") || got[0].KeptAt.IsZero() {
		t.Fatalf("versions after the next update = %+v, want one at %s kept by the import", got, first.DataDate)
	}
	kept, err := c.LoadVersion(ctx, id, got[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	sameSchedule(t, "the kept version", kept, asStored)
	k, err = c.Kept(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	prev, label, err := k.Previous(ctx)
	if err != nil || prev.DataDate != first.DataDate || !strings.Contains(label, first.DataDate) {
		t.Fatalf("Previous = %q (%v), want the version at %s", label, err, first.DataDate)
	}
	if s, _, err := k.At(ctx, "2026-03-16"); err != nil || s.DataDate != first.DataDate {
		t.Fatalf("At the first data date: %v", err)
	}
	if s, label, err := k.At(ctx, "2026-03-23"); err != nil || s != k.Now || !strings.HasSuffix(label, " now") {
		t.Fatalf("At the current data date = %q, %v; want now", label, err)
	}
	if _, _, err := k.At(ctx, "2026-04-01"); !errors.Is(err, store.ErrNotFound) || !strings.Contains(err.Error(), "versions are at 2026-03-16T08:00") {
		t.Fatalf("At a date with no version: %v", err)
	}
	if _, err := c.LoadVersion(ctx, id, "no-such-version"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("loading a missing version: %v, want ErrNotFound", err)
	}

	// A replace that fails in the second store keeps no version.
	failed := next.Clone()
	failed.DataDate = "2026-03-30"
	broken := &store.Coordinator{Graph: c.Graph, Vectors: &failingVectors{VectorStore: c.Vectors, fail: true}, Embedder: c.Embedder}
	if err := broken.Import(ctx, id, failed, true, nil); !errors.Is(err, errInjected) {
		t.Fatalf("failing replace: %v, want the injected failure", err)
	}
	if got := listVersions(t, c, id); len(got) != 1 {
		t.Fatalf("a failed replace left %d versions, want 1", len(got))
	}
	if n := rawVersions(t, c, id); n != 1 {
		t.Fatalf("a failed replace left %d versions in the store, want 1", n)
	}

	// A set_data_date applied keeps nothing until it is committed.
	applied, _, err := c.ApplyOps(ctx, id, []schedule.Op{schedule.SetDataDate("2026-03-30")})
	if err != nil {
		t.Fatal(err)
	}
	if got := listVersions(t, c, id); len(got) != 1 {
		t.Fatalf("an uncommitted set_data_date: %d versions, want 1", len(got))
	}
	opIDs := []string{applied[0].ID}
	rec := store.CommitRecord{Dispatch: "dispatch-status/run-1", Reviewer: "ana", At: time.Date(2026, 3, 30, 9, 0, 0, 0, time.UTC)}
	// A commit the graph ledger refuses keeps no version standing.
	refusing := &store.Coordinator{Graph: refusingCommits{c.Graph, c.Graph.(store.VersionStore)}, Vectors: c.Vectors, Embedder: c.Embedder}
	if err := refusing.Commit(ctx, id, opIDs, rec); !errors.Is(err, errRefused) {
		t.Fatalf("refused commit: %v", err)
	}
	if got := listVersions(t, c, id); len(got) != 1 {
		t.Fatalf("a refused commit left %d versions standing, want 1", len(got))
	}
	for range 2 { // a retried commit keeps it once
		if err := c.Commit(ctx, id, opIDs, rec); err != nil {
			t.Fatal(err)
		}
	}
	got = listVersions(t, c, id)
	if len(got) != 2 || got[1].DataDate != "2026-03-23" || !strings.Contains(got[1].Why, "dispatch-status/run-1") {
		t.Fatalf("versions after the committed set_data_date = %+v, want a second at 2026-03-23 naming the dispatch", got)
	}
	if n := rawVersions(t, c, id); n != 2 {
		t.Fatalf("the store holds %d versions, want 2", n)
	}
	kept, err = c.LoadVersion(ctx, id, got[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if kept.DataDate != "2026-03-23" || len(kept.Activities) != len(next.Activities) {
		t.Fatalf("the version before the dispatch: data date %q, %d activities", kept.DataDate, len(kept.Activities))
	}
	// Ops that leave the data date keep nothing when committed.
	added := schedule.AddActivity(schedule.Activity{ID: "N1", Name: "Snag walk", Duration: "1"})
	applied, _, err = c.ApplyOps(ctx, id, []schedule.Op{added})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, op := range applied {
		ids = append(ids, op.ID)
	}
	if err := c.Commit(ctx, id, ids, rec); err != nil {
		t.Fatal(err)
	}
	if got := listVersions(t, c, id); len(got) != 2 {
		t.Fatalf("ops that leave the data date kept a version: %d, want 2", len(got))
	}

	// The versions go with the schedule.
	if err := c.DeleteSchedule(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := rawVersions(t, c, id); n != 0 {
		t.Fatalf("a deleted schedule left %d versions", n)
	}
}

// refusingCommits is a graph store whose ledger refuses to commit.
type refusingCommits struct {
	store.GraphStore
	store.VersionStore
}

var errRefused = errors.New("injected commit refusal")

func (refusingCommits) Commit(context.Context, string, []string, store.CommitRecord) error {
	return errRefused
}
