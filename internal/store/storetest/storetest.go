// Package storetest is the contract every store adapter passes: the same
// suite runs against the embedded store always and against Neo4j and
// Weaviate when they are configured (and in CI, where they must be).
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
)

// Opener returns the two stores under test; the suite closes nothing, the
// opener registers its own cleanup.
type Opener func(t *testing.T) (store.GraphStore, store.VectorStore)

// repoRoot finds the module root from this file, so the suite can load
// examples/ whichever package runs it.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Building loads examples/building.json.
func Building(t testing.TB) *schedule.Schedule {
	t.Helper()
	s, err := interchange.ReadFile(filepath.Join(repoRoot(), "examples", "building.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// scheduleID is unique per test and run, so suites against shared servers
// do not collide; cleanup deletes it.
func scheduleID(t *testing.T, c *store.Coordinator) string {
	id := fmt.Sprintf("test-%s-%08x", strings.NewReplacer("/", "-", " ", "_").Replace(t.Name()), rand.Uint32())
	t.Cleanup(func() { _ = c.DeleteSchedule(context.Background(), id) })
	return id
}

func coordinator(t *testing.T, open Opener) *store.Coordinator {
	g, v := open(t)
	return &store.Coordinator{Graph: g, Vectors: v, Embedder: embed.NewLocal(0)}
}

// importedBuilding opens the stores and imports the example building.
func importedBuilding(t *testing.T, open Opener) (*store.Coordinator, string, *schedule.Schedule) {
	t.Helper()
	c := coordinator(t, open)
	id := scheduleID(t, c)
	s := Building(t)
	if err := c.Import(context.Background(), id, s, false, nil); err != nil {
		t.Fatal(err)
	}
	return c, id, s
}

// sorted is s as stores return it: activities and relationships by id.
func sorted(s *schedule.Schedule) *schedule.Schedule {
	c := s.Clone()
	schedule.SortByID(c)
	return c
}

func asJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Dumps is both stores' canonical views of schedule id, as one comparable
// string: equal before and after means the stores hold the same.
func Dumps(t testing.TB, c *store.Coordinator, id string) string {
	t.Helper()
	ctx := context.Background()
	g, err := c.Graph.Dump(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.Vectors.Dump(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return asJSON(t, g) + asJSON(t, v)
}

func noDrift(t *testing.T, c *store.Coordinator, id string) {
	t.Helper()
	drift, err := c.Verify(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(drift) > 0 {
		t.Fatalf("stores disagree:\n%s", strings.Join(drift, "\n"))
	}
}

// Run runs the whole contract.
func Run(t *testing.T, open Opener) {
	t.Run("ImportLoadDump", func(t *testing.T) { testImportLoadDump(t, open) })
	t.Run("OpsThenInversesRestoreDumps", func(t *testing.T) { testOpsThenInverses(t, open) })
	t.Run("SameOpIDsTwiceChangeNothing", func(t *testing.T) { testIdempotent(t, open) })
	t.Run("CommitMarksBothLedgers", func(t *testing.T) { testCommit(t, open) })
	t.Run("ReplaceBackToAnEarlierVersion", func(t *testing.T) { testReplaceBack(t, open) })
	t.Run("SameOpContentInLaterRequestsApplies", func(t *testing.T) { testSameContentLater(t, open) })
	t.Run("ReplaceChangesOnlyTheCalendar", func(t *testing.T) { testReplaceCalendar(t, open) })
	t.Run("SecondStoreFailureLeavesFirstAsItWas", func(t *testing.T) { testSecondStoreFailure(t, open) })
	t.Run("InterruptedWriteIsNeverServedHalfDone", func(t *testing.T) { testInterruptedWrite(t, open) })
	t.Run("AwkwardTextRoundTrips", func(t *testing.T) { testAwkwardText(t, open) })
	t.Run("SchedulesAreIsolated", func(t *testing.T) { testIsolation(t, open) })
	t.Run("SearchRelevance", func(t *testing.T) { testRelevance(t, open) })
	t.Run("SummariesFollowEveryWrite", func(t *testing.T) { testSummaries(t, open) })
	t.Run("SchedulesWithoutSummariesAreSummarisedOnce", func(t *testing.T) { testSummaryBackfill(t, open) })
	t.Run("InvalidScheduleIDsAreRefused", func(t *testing.T) { testScheduleIDs(t, open) })
	t.Run("DeleteIsIdempotent", func(t *testing.T) { testDelete(t, open) })
	t.Run("LiveProgrammeRoundTrips", func(t *testing.T) { testLiveRoundTrip(t, open) })
	t.Run("VersionsKeptAtEachDataDate", func(t *testing.T) { testVersions(t, open) })
}

func testImportLoadDump(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	got, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if asJSON(t, got) != asJSON(t, sorted(s)) {
		t.Fatal("the loaded schedule differs from the imported one")
	}
	g, err := c.Graph.Dump(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := schedule.ToGraph(sorted(s))
	wantDump := &store.GraphDump{Meta: *store.MetaOf(s), Nodes: want.Nodes, Edges: want.Edges}
	store.SortDump(wantDump)
	if asJSON(t, g) != asJSON(t, wantDump) {
		t.Fatal("the graph dump is not the seed design's node graph of the schedule")
	}
	if len(g.Nodes) != 3*len(s.Activities)+len(s.Relationships) || len(g.Edges) != 2*len(s.Activities)+2*len(s.Relationships) {
		t.Fatalf("%d nodes and %d edges", len(g.Nodes), len(g.Edges))
	}
	noDrift(t, c, id)

	// Importing again is refused (even the same content: every import is a
	// new request); with replace it overwrites.
	if err := c.Import(ctx, id, s, false, nil); !errors.Is(err, store.ErrExists) {
		t.Fatalf("re-importing without replace: err = %v, want ErrExists", err)
	}
	changed := s.Clone()
	changed.Activities[0].Name = "Renamed"
	if err := c.Import(ctx, id, changed, false, nil); !errors.Is(err, store.ErrExists) {
		t.Fatalf("import over a stored schedule: err = %v, want ErrExists", err)
	}
	if err := c.Import(ctx, id, changed, true, nil); err != nil {
		t.Fatal(err)
	}
	got, _ = c.Load(ctx, id)
	if a, _ := got.Activity(s.Activities[0].ID); a.Name != "Renamed" {
		t.Fatalf("replace did not overwrite: %q", a.Name)
	}
	noDrift(t, c, id)

	if _, err := c.Load(ctx, id+"-missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("loading a missing schedule: err = %v, want ErrNotFound", err)
	}
}

// testReplaceBack imports v1, replaces it with v2, then with v1 again: the
// store must hold v1, not keep v2 because v1's content was seen before.
// Then an op changes the schedule, and importing v1 once more undoes it.
func testReplaceBack(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, v1 := importedBuilding(t, open)
	v2 := v1.Clone()
	v2.Activities[0].Duration = "9"
	v2.Activities = v2.Activities[:len(v2.Activities)-1]
	v2.Relationships = slices.DeleteFunc(v2.Relationships, func(r schedule.Relationship) bool {
		last := v1.Activities[len(v1.Activities)-1].ID
		return r.Predecessor == last || r.Successor == last
	})
	for _, step := range []struct {
		name string
		s    *schedule.Schedule
	}{{"v2", v2}, {"v1 again", v1}, {"v2 again", v2}, {"v1 once more", v1}} {
		if err := c.Import(ctx, id, step.s, true, nil); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got, err := c.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if asJSON(t, got) != asJSON(t, sorted(step.s)) {
			t.Fatalf("after replacing with %s the store holds something else (first activity %+v)", step.name, got.Activities[0])
		}
		noDrift(t, c, id)
	}
	if _, _, err := c.ApplyOps(ctx, id, someOps(v1)); err != nil {
		t.Fatal(err)
	}
	if err := c.Import(ctx, id, v1, true, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := c.Load(ctx, id)
	if asJSON(t, got) != asJSON(t, sorted(v1)) {
		t.Fatalf("re-importing the file after an edit kept the edit: %d activities, want %d", len(got.Activities), len(v1.Activities))
	}
	noDrift(t, c, id)
}

// testSameContentLater applies ops without IDs in separate calls: a later
// call with the same content is a new request, not a retry.
func testSameContentLater(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	a := s.Activities[3]
	for _, d := range []string{"5", "3", "5"} {
		a.Duration = d
		if _, _, err := c.ApplyOps(ctx, id, []schedule.Op{schedule.UpdateActivity(a)}); err != nil {
			t.Fatal(err)
		}
		got, _ := c.Load(ctx, id)
		if g, _ := got.Activity(a.ID); g.Duration != d {
			t.Fatalf("setting the duration to %s: the store says %s", d, g.Duration)
		}
	}
	noDrift(t, c, id)
}

// someOps exercises every op kind on the example building. The IDs are
// fixed so a dissolve derives the same bridge ids everywhere.
func someOps(s *schedule.Schedule) []schedule.Op {
	a, b, c := s.Activities[20].ID, s.Activities[21].ID, s.Activities[40].ID
	ops := []schedule.Op{
		schedule.AddActivity(schedule.Activity{ID: "N1", Name: "Scaffold inspection Level 2", Description: "Weekly scaffold inspection on Level 2.", Duration: "1"}),
		schedule.AddRelationship(schedule.Relationship{ID: "NR1", Type: schedule.SS, Predecessor: a, Successor: "N1", Lag: 2}),
		schedule.UpdateActivity(schedule.Activity{ID: b, Name: "Renamed activity", Description: "changed", Duration: "pert(1,2,4)"}),
		schedule.DissolveActivity(c),
		schedule.RemoveRelationship(s.Relationships[5].ID),
		schedule.RemoveActivity(s.Activities[60].ID),
	}
	for i := range ops {
		ops[i] = ops[i].WithScope("storetest")
	}
	return ops
}

func testOpsThenInverses(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	before := Dumps(t, c, id)
	applied, inverses, err := c.ApplyOps(ctx, id, someOps(s))
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) != 6 || len(inverses) == 0 {
		t.Fatalf("%d applied, %d inverses", len(applied), len(inverses))
	}
	// The stores hold what the ops engine computes.
	want := sorted(s)
	if _, _, err := schedule.ApplyAll(want, someOps(s)); err != nil {
		t.Fatal(err)
	}
	got, _ := c.Load(ctx, id)
	if asJSON(t, got) != asJSON(t, sorted(want)) {
		t.Fatal("the stored schedule differs from the ops engine's result")
	}
	noDrift(t, c, id)
	if Dumps(t, c, id) == before {
		t.Fatal("the ops changed nothing")
	}
	undo := slices.Clone(inverses)
	slices.Reverse(undo)
	if _, _, err := c.ApplyOps(ctx, id, undo); err != nil {
		t.Fatal(err)
	}
	if after := Dumps(t, c, id); after != before {
		t.Fatalf("inverses did not restore the dumps")
	}
	noDrift(t, c, id)
}

func testIdempotent(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	ops := someOps(s)
	applied1, inv1, err := c.ApplyOps(ctx, id, ops)
	if err != nil {
		t.Fatal(err)
	}
	once := Dumps(t, c, id)
	applied2, inv2, err := c.ApplyOps(ctx, id, ops)
	if err != nil {
		t.Fatalf("re-applying the same op IDs: %v", err)
	}
	if Dumps(t, c, id) != once {
		t.Fatal("re-applying the same op IDs changed the stores")
	}
	if asJSON(t, applied1) != asJSON(t, applied2) || asJSON(t, inv1) != asJSON(t, inv2) {
		t.Fatal("a retry returned different ops or inverses")
	}
	// Directly at the ports: a recorded change is skipped.
	change := store.Change{OpID: "direct-1", PutActivities: []schedule.Activity{{ID: "D1", Name: "Direct", Duration: "1"}}}
	if ids, err := c.Graph.Apply(ctx, id, []store.Change{change}); err != nil || len(ids) != 1 {
		t.Fatalf("first apply: %v %v", ids, err)
	}
	if ids, err := c.Graph.Apply(ctx, id, []store.Change{change}); err != nil || len(ids) != 0 {
		t.Fatalf("second apply: %v %v, want nothing applied", ids, err)
	}
	vchange := store.VectorChange{OpID: "direct-1", PutActivities: []store.ActivityDoc{{ID: "D1", Name: "Direct", Duration: "1", Vector: make([]float32, embed.NewLocal(0).Dimensions())}}}
	vchange.PutActivities[0].Vector[0] = 1
	if ids, err := c.Vectors.Apply(ctx, id, []store.VectorChange{vchange}); err != nil || len(ids) != 1 {
		t.Fatalf("first vector apply: %v %v", ids, err)
	}
	if ids, err := c.Vectors.Apply(ctx, id, []store.VectorChange{vchange}); err != nil || len(ids) != 0 {
		t.Fatalf("second vector apply: %v %v, want nothing applied", ids, err)
	}
}

func testCommit(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	ops := someOps(s)
	applied, _, err := c.ApplyOps(ctx, id, ops)
	if err != nil {
		t.Fatal(err)
	}
	opIDs := make([]string, len(applied))
	for i, op := range applied {
		opIDs[i] = op.ID
	}
	applied1 := Dumps(t, c, id)

	// An op no ledger holds: an error, and nothing is marked.
	err = c.Commit(ctx, id, append(slices.Clone(opIDs), "never-applied"), store.CommitRecord{Dispatch: "d/0"})
	if !errors.Is(err, store.ErrNotRecorded) {
		t.Fatalf("committing an unknown op: %v, want ErrNotRecorded", err)
	}
	if got, _ := c.Vectors.Committed(ctx, id, opIDs); len(got) != 0 {
		t.Fatalf("a refused commit marked %d vector ledger entries", len(got))
	}

	first := store.CommitRecord{Dispatch: "dispatch-x/run-1", Reviewer: "ana", At: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	if err := c.Commit(ctx, id, opIDs, first); err != nil {
		t.Fatal(err)
	}
	// Committing again (a retried activity) keeps the first record.
	if err := c.Commit(ctx, id, opIDs, store.CommitRecord{Dispatch: "other", At: first.At.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	recorded, err := c.Graph.Recorded(ctx, id, opIDs)
	if err != nil {
		t.Fatal(err)
	}
	vectors, err := c.Vectors.Committed(ctx, id, opIDs)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range opIDs {
		ch := recorded[op]
		if ch.Committed == nil || !ch.Committed.At.Equal(first.At) || ch.Committed.Dispatch != first.Dispatch || ch.Committed.Reviewer != "ana" {
			t.Fatalf("graph ledger entry %s: committed %+v, want %+v", op, ch.Committed, first)
		}
		if len(ch.Inverse) == 0 {
			t.Fatalf("graph ledger entry %s lost its inverse", op)
		}
		if v, ok := vectors[op]; !ok || v.Dispatch != first.Dispatch || !v.At.Equal(first.At) {
			t.Fatalf("vector ledger entry %s: committed %+v (held %v), want %+v", op, v, ok, first)
		}
	}
	// The refreshed documents are what a fresh import of the result holds.
	if Dumps(t, c, id) != applied1 {
		t.Fatal("commit changed the stores' contents")
	}
	noDrift(t, c, id)
}

// testReplaceCalendar: a re-import that changes only calendar details
// (an exception, a short Friday) is a change, and the store keeps them.
func testReplaceCalendar(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	changed := s.Clone()
	if changed.Calendar == nil {
		changed.Calendar = &schedule.Calendar{}
	}
	changed.Calendar.DayHours = map[string][]string{"Fri": {"08:00-12:00"}}
	changed.Calendar.Exceptions = []schedule.CalendarException{{Name: "Site shutdown", From: "2026-08-03", To: "2026-08-14"}}
	// A replace that fails in the second store gives the old calendar back.
	before := Dumps(t, c, id)
	broken := &store.Coordinator{Graph: c.Graph, Vectors: &failingVectors{VectorStore: c.Vectors, fail: true}, Embedder: c.Embedder}
	if err := broken.Import(ctx, id, changed, true, nil); !errors.Is(err, errInjected) {
		t.Fatalf("replace err = %v, want the injected failure", err)
	}
	if after := Dumps(t, c, id); after != before {
		t.Fatalf("a failed calendar replace left the stores changed:\n%s", firstDifference(before, after))
	}
	if err := c.Import(ctx, id, changed, true, nil); err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if asJSON(t, got.Calendar) != asJSON(t, changed.Calendar) {
		t.Fatalf("calendar after replace:\n%s\nwant\n%s", asJSON(t, got.Calendar), asJSON(t, changed.Calendar))
	}
	noDrift(t, c, id)
}

// failingVectors makes the next Apply write part of its batch and then
// fail — the worst case; later calls (the compensation) go through.
type failingVectors struct {
	store.VectorStore
	fail bool
}

var errInjected = errors.New("injected vector store failure")

func (f *failingVectors) Apply(ctx context.Context, id string, changes []store.VectorChange) ([]string, error) {
	if f.fail {
		f.fail = false
		if len(changes) > 0 && len(changes[0].PutActivities) > 0 {
			_, _ = f.VectorStore.Apply(ctx, id, []store.VectorChange{{PutActivities: changes[0].PutActivities[:1]}})
		}
		return nil, errInjected
	}
	return f.VectorStore.Apply(ctx, id, changes)
}

func testSecondStoreFailure(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	before := Dumps(t, c, id)
	failing := &failingVectors{VectorStore: c.Vectors, fail: true}
	broken := &store.Coordinator{Graph: c.Graph, Vectors: failing, Embedder: c.Embedder}
	ops := someOps(s)
	if _, _, err := broken.ApplyOps(ctx, id, ops); !errors.Is(err, errInjected) {
		t.Fatalf("err = %v, want the injected failure", err)
	}
	if after := Dumps(t, c, id); after != before {
		t.Fatalf("a failed vector write left the stores changed:\n%s", firstDifference(before, after))
	}
	noDrift(t, c, id)
	// The ledgers forgot the failed ops: the same ops apply cleanly later.
	if _, _, err := broken.ApplyOps(ctx, id, ops); err != nil {
		t.Fatalf("retry after the failure: %v", err)
	}
	if Dumps(t, c, id) == before {
		t.Fatal("the retry applied nothing")
	}
	noDrift(t, c, id)

	// A failed replace gives the old schedule back.
	before = Dumps(t, c, id)
	replacement := s.Clone()
	replacement.Activities[3].Name = "Replaced"
	failing.fail = true
	if err := broken.Import(ctx, id, replacement, true, nil); !errors.Is(err, errInjected) {
		t.Fatalf("replace err = %v", err)
	}
	if after := Dumps(t, c, id); after != before {
		t.Fatalf("a failed replace lost the stored schedule:\n%s", firstDifference(before, after))
	}

	// A failed import leaves no schedule behind.
	id2 := scheduleID(t, c)
	failing.fail = true
	if err := broken.Import(ctx, id2, s, false, nil); !errors.Is(err, errInjected) {
		t.Fatalf("import err = %v", err)
	}
	if _, err := c.Load(ctx, id2); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a failed import left a schedule: %v", err)
	}
}

// failingEmbedder fails every call after the first ok ones.
type failingEmbedder struct {
	embed.Embedder
	ok int
}

func (f *failingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if f.ok == 0 {
		return nil, errInjected
	}
	f.ok--
	return f.Embedder.Embed(ctx, texts)
}

// testInterruptedWrite: a store pair with one transaction for both sides
// leaves nothing of a write that fails midway; a pair without one keeps
// intent records, and a write whose process died is repaired by the next
// reader (forward if the graph write landed, back to nothing for a fresh
// import that did not), while a live writer's schedule is reported busy.
func testInterruptedWrite(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, s := importedBuilding(t, open)
	if a, ok := c.Graph.(store.Atomic); ok && a.Holds(c.Vectors) {
		// Embedding fails after the first batches of a large import.
		big := schedule.Synthetic(3000, 2, 7)
		broken := &store.Coordinator{Graph: c.Graph, Vectors: c.Vectors, Embedder: &failingEmbedder{Embedder: c.Embedder, ok: 4}}
		before := Dumps(t, c, id)
		if err := broken.Import(ctx, id, big, true, nil); !errors.Is(err, errInjected) {
			t.Fatalf("replace with a failing embedder: %v", err)
		}
		if after := Dumps(t, c, id); after != before {
			t.Fatalf("a replace that failed midway changed the stores:\n%s", firstDifference(before, after))
		}
		id2 := scheduleID(t, c)
		if err := broken.Import(ctx, id2, big, false, nil); !errors.Is(err, errInjected) {
			t.Fatalf("import with a failing embedder: %v", err)
		}
		if _, err := c.Load(ctx, id2); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("an import that failed midway left a schedule: %v", err)
		}
		if docs, err := c.Vectors.Dump(ctx, id2); err != nil || len(docs.Activities)+len(docs.Relationships) > 0 {
			t.Fatalf("an import that failed midway left documents: %v", err)
		}
		return
	}
	log, ok := c.Graph.(store.IntentLog)
	if !ok {
		t.Fatal("a store pair without a common transaction must keep intent records (store.IntentLog)")
	}
	host, _ := os.Hostname()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	gone := store.Owner{Host: host, PID: dead.Process.Pid}

	// The writer died after its graph write, before any document.
	renamed := s.Activities[5]
	renamed.Name = "Renamed by a writer that died"
	op := "crashed-write-" + id
	if _, err := c.Graph.Apply(ctx, id, []store.Change{{OpID: op, PutActivities: []schedule.Activity{renamed}}}); err != nil {
		t.Fatal(err)
	}
	if err := log.PutIntent(ctx, store.Intent{ID: "i1-" + id, ScheduleID: id, Kind: store.IntentWrite, OpIDs: []string{op}, Owner: gone, Started: now, Heartbeat: now}); err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(ctx, id)
	if err != nil {
		t.Fatalf("loading after a dead writer: %v", err)
	}
	if a, _ := got.Activity(renamed.ID); a.Name != renamed.Name {
		t.Fatalf("the graph write was not rolled forward: %q", a.Name)
	}
	noDrift(t, c, id)
	if err := c.Commit(ctx, id, []string{op}, store.CommitRecord{Dispatch: "d"}); err != nil {
		t.Fatalf("the repaired op is not in both ledgers: %v", err)
	}
	if left, _ := log.Intents(ctx, id); len(left) != 0 {
		t.Fatalf("%d intents left after the repair", len(left))
	}

	// A live writer elsewhere: the schedule is busy, not served half-done.
	live := store.Intent{ID: "i2-" + id, ScheduleID: id, Kind: store.IntentWrite, OpIDs: []string{"other"}, Owner: store.Owner{Host: "another-host", PID: 1}, Started: now, Heartbeat: time.Now()}
	if err := log.PutIntent(ctx, live); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load(ctx, id); !errors.Is(err, store.ErrBusy) {
		t.Fatalf("loading while another process writes: %v, want ErrBusy", err)
	}
	// Its heartbeat stops: past the lease, the next reader repairs.
	live.Heartbeat = time.Now().Add(-2 * store.IntentLease)
	if err := log.PutIntent(ctx, live); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load(ctx, id); err != nil {
		t.Fatalf("loading after the lease ran out: %v", err)
	}
	noDrift(t, c, id)

	// A fresh import died before its graph write landed but after some
	// documents: the repair leaves no schedule and no documents.
	id2 := scheduleID(t, c)
	doc := store.ActivityDoc{ID: "orphan", Name: "Orphan", Duration: "1", Vector: make([]float32, embed.NewLocal(0).Dimensions())}
	doc.Vector[0] = 1
	if _, err := c.Vectors.Apply(ctx, id2, []store.VectorChange{{PutActivities: []store.ActivityDoc{doc}}}); err != nil {
		t.Fatal(err)
	}
	if err := log.PutIntent(ctx, store.Intent{ID: "i3-" + id2, ScheduleID: id2, Kind: store.IntentWrite, OpIDs: []string{"import-" + id2}, Fresh: true, Owner: gone, Started: now, Heartbeat: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load(ctx, id2); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a fresh import that did not land: %v, want ErrNotFound", err)
	}
	if docs, err := c.Vectors.Dump(ctx, id2); err != nil || len(docs.Activities) != 0 {
		t.Fatalf("a fresh import that did not land left documents (%v)", err)
	}
}

// Awkward is text that breaks naive query building in Cypher, GraphQL,
// SQL or FTS: quotes, backslashes, keywords, braces and unicode.
var Awkward = []string{
	`He said "pour" it's done`,
	`C:\temp\new\table \" \\`,
	"MATCH (n) DETACH DELETE n; RETURN 1 //",
	"}) { where: { operator: Equal } } )",
	"'; DROP TABLE nodes; --",
	"Étage 2 — 二階 — Stockwerk ü 🏗",
	"OR AND NOT NEAR * ^ \"",
	"tab\tnew\nline",
}

func testAwkwardText(t *testing.T, open Opener) {
	ctx := context.Background()
	c := coordinator(t, open)
	id := scheduleID(t, c)
	s := &schedule.Schedule{Name: Awkward[0], StartDate: "2026-01-05"}
	for i, text := range Awkward {
		// Names hold no line breaks or tabs (descriptions may).
		name := strings.NewReplacer("\t", " ", "\n", " ").Replace(text)
		s.Activities = append(s.Activities, schedule.Activity{ID: fmt.Sprintf("X%d \"}) \\ é", i), Name: name, Description: Awkward[(i+1)%len(Awkward)], Duration: "2"})
		if i > 0 {
			s.Relationships = append(s.Relationships, schedule.Relationship{ID: fmt.Sprintf("R%d", i), Type: schedule.FS, Predecessor: s.Activities[i-1].ID, Successor: s.Activities[i].ID})
		}
	}
	if err := c.Import(ctx, id, s, false, nil); err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sorted(s)) {
		t.Fatalf("awkward text did not round-trip:\n%s\n%s", asJSON(t, got), asJSON(t, sorted(s)))
	}
	noDrift(t, c, id)
	for _, text := range Awkward {
		if _, err := c.Search(ctx, id, text, 5); err != nil {
			t.Fatalf("search %q: %v", text, err)
		}
	}
	hits, err := c.Search(ctx, id, "Stockwerk 二階", 3, store.ActivityKind)
	if err != nil || len(hits) == 0 || !strings.HasPrefix(hits[0].Name, "Étage") {
		t.Fatalf("search for unicode text: %+v %v", hits, err)
	}
}

func testIsolation(t *testing.T, open Opener) {
	ctx := context.Background()
	c := coordinator(t, open)
	a, b := scheduleID(t, c), scheduleID(t, c)
	s := Building(t)
	if err := c.Import(ctx, a, s, false, nil); err != nil {
		t.Fatal(err)
	}
	small := &schedule.Schedule{Name: "small", Activities: []schedule.Activity{{ID: "A001", Name: "Roof drainage inspection", Duration: "1"}}, Relationships: []schedule.Relationship{}}
	if err := c.Import(ctx, b, small, false, nil); err != nil {
		t.Fatal(err)
	}
	hits, err := c.Search(ctx, b, "roof works", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].Name != "Roof drainage inspection" {
		t.Fatalf("search in the small schedule saw other schedules: %+v", hits)
	}
	list, err := c.Graph.Schedules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, info := range list {
		switch info.ID {
		case a:
			found++
			if info.Activities != len(s.Activities) || info.Relationships != len(s.Relationships) {
				t.Errorf("schedule %s listed with %d activities, %d relationships", a, info.Activities, info.Relationships)
			}
		case b:
			found++
		}
	}
	if found != 2 {
		t.Fatalf("Schedules lists %d of the 2 imported", found)
	}
	if err := c.DeleteSchedule(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load(ctx, b); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted schedule still loads: %v", err)
	}
	if got, err := c.Load(ctx, a); err != nil || len(got.Activities) != len(s.Activities) {
		t.Fatalf("deleting one schedule touched another: %v", err)
	}
}

// Relevance is the labelled query set for examples/building.json.
type Relevance struct {
	Queries []struct {
		Query    string   `json:"query"`
		Relevant []string `json:"relevant"`
	} `json:"queries"`
}

// LoadRelevance reads internal/embed/testdata/relevance.json.
func LoadRelevance(t testing.TB) Relevance {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(), "internal", "embed", "testdata", "relevance.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r Relevance
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Queries) < 15 {
		t.Fatalf("%d labelled queries, want at least 15", len(r.Queries))
	}
	return r
}

// RecallAt10 is |relevant in the top 10| / min(10, |relevant|).
func RecallAt10(hits []store.Hit, relevant []string) float64 {
	found := 0
	for _, h := range hits[:min(10, len(hits))] {
		if slices.Contains(relevant, h.ID) {
			found++
		}
	}
	return float64(found) / float64(min(10, len(relevant)))
}

func testRelevance(t *testing.T, open Opener) {
	ctx := context.Background()
	c, id, _ := importedBuilding(t, open)
	rel := LoadRelevance(t)
	total := 0.0
	for _, q := range rel.Queries {
		hits, err := c.Search(ctx, id, q.Query, 10, store.ActivityKind)
		if err != nil {
			t.Fatal(err)
		}
		r := RecallAt10(hits, q.Relevant)
		total += r
		if r < 0.7 {
			t.Logf("recall@10 %.2f for %q", r, q.Query)
		}
	}
	mean := total / float64(len(rel.Queries))
	t.Logf("mean recall@10 over %d queries: %.3f", len(rel.Queries), mean)
	if mean < 0.9 {
		t.Fatalf("mean recall@10 = %.3f, want >= 0.9", mean)
	}
}

// firstDifference shows where two dumps part, for failure messages.
func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			lo, hi := max(0, i-3), min(len(la), i+4)
			return fmt.Sprintf("line %d: want\n%s\ngot\n%s", i+1, strings.Join(la[lo:hi], "\n"), strings.Join(lb[lo:min(len(lb), i+4)], "\n"))
		}
	}
	return fmt.Sprintf("lengths differ: %d and %d lines", len(la), len(lb))
}

// EmbeddedBuilding opens an embedded store in a temporary directory with
// examples/building.json imported under scheduleID: the fixture of the
// activity and workflow tests.
func EmbeddedBuilding(t testing.TB, scheduleID string) (*store.Coordinator, *schedule.Schedule) {
	t.Helper()
	ctx := context.Background()
	st, err := embedded.Open(ctx, filepath.Join(t.TempDir(), "autoscheduler.db"), embedded.Options{Tokenize: embed.Normalize})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close(ctx) })
	c := &store.Coordinator{Graph: st.Graph(), Vectors: st.Vectors(), Embedder: embed.NewLocal(0)}
	s := Building(t)
	if err := c.Import(ctx, scheduleID, s, false, nil); err != nil {
		t.Fatal(err)
	}
	return c, s
}
