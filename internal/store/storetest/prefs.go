package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// SamplePreferences are preferences with every field set.
func SamplePreferences(t testing.TB) prefs.Preferences {
	t.Helper()
	var p prefs.Preferences
	for _, kv := range []string{"link=SS+1", "link:inspection=FS+1", "duration=3", "duration:inspection=triangular(1,1,2)", "naming=<Trade> Level <n>", "trades=drywall=gypsum board|plasterboard, concrete"} {
		if err := prefs.SetArg(&p, kv); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// RunPreferences checks a coordinator's preferences on a stored schedule:
// none at first; set, read back from both sides, set again (idempotent);
// an unknown schedule refused; deleting the schedule deletes them. It
// deletes scheduleID at the end.
func RunPreferences(t *testing.T, c *store.Coordinator, scheduleID string) {
	t.Helper()
	ctx := context.Background()
	p, err := c.Preferences(ctx, scheduleID)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Empty() {
		t.Fatalf("a fresh schedule has preferences: %+v", p)
	}
	want := SamplePreferences(t)
	for range 2 { // the second write is a retry: the same result
		if err := c.SetPreferences(ctx, scheduleID, want); err != nil {
			t.Fatal(err)
		}
		got, err := c.Preferences(ctx, scheduleID)
		if err != nil || !prefs.Equal(got, want) {
			t.Fatalf("read back %+v, %v; want %+v", got, err, want)
		}
		v, ok, err := c.VectorPreferences(ctx, scheduleID)
		if err != nil || !ok || !prefs.Equal(v, want) {
			t.Fatalf("the vector side holds %+v (%v, %v); want %+v", v, ok, err, want)
		}
	}
	// An import that replaces the schedule keeps its preferences.
	s, err := c.Load(ctx, scheduleID)
	if err != nil {
		t.Fatal(err)
	}
	s.Name += " (renamed)"
	if err := c.Import(ctx, scheduleID, s, true, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Preferences(ctx, scheduleID); err != nil || !prefs.Equal(got, want) {
		t.Fatalf("after a replacing import: %+v, %v", got, err)
	}
	next, err := c.UpdatePreferences(ctx, scheduleID, func(p *prefs.Preferences) error { return prefs.Set(p, "link", "FF-2") })
	if err != nil || next.Links[0].Type != "FF" || next.Links[0].Lag != -2 {
		t.Fatalf("UpdatePreferences = %+v, %v", next, err)
	}
	if err := c.SetPreferences(ctx, scheduleID+"-missing", want); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("preferences for an unknown schedule: %v, want ErrNotFound", err)
	}
	if _, err := c.Preferences(ctx, scheduleID+"-missing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("reading an unknown schedule's preferences: %v, want ErrNotFound", err)
	}
	if err := c.DeleteSchedule(ctx, scheduleID); err != nil {
		t.Fatal(err)
	}
	if err := c.Import(ctx, scheduleID, s, false, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Preferences(ctx, scheduleID); err != nil || !got.Empty() {
		t.Errorf("a deleted and re-imported schedule kept preferences: %+v, %v", got, err)
	}
	if v, _, err := c.VectorPreferences(ctx, scheduleID); err != nil || !v.Empty() {
		t.Errorf("the vector side kept a deleted schedule's preferences: %+v, %v", v, err)
	}
	if err := c.DeleteSchedule(ctx, scheduleID); err != nil {
		t.Fatal(err)
	}
}

// FailingPreferences is a vector store whose preference writes fail.
type FailingPreferences struct {
	store.VectorStore
}

// Preferences reads nothing.
func (FailingPreferences) Preferences(context.Context, string) (prefs.Preferences, error) {
	return prefs.Preferences{}, nil
}

// SetPreferences fails.
func (FailingPreferences) SetPreferences(context.Context, string, prefs.Preferences) error {
	return errors.New("vector store down")
}

// RunPreferencesFailure checks that a failed vector-side write leaves the
// graph side's preferences as they were. c must have a graph store that is
// not the vector store's database.
func RunPreferencesFailure(t *testing.T, c *store.Coordinator, scheduleID string) {
	t.Helper()
	ctx := context.Background()
	before := SamplePreferences(t)
	if err := c.SetPreferences(ctx, scheduleID, before); err != nil {
		t.Fatal(err)
	}
	broken := &store.Coordinator{Graph: c.Graph, Vectors: FailingPreferences{c.Vectors}, Embedder: c.Embedder}
	var next prefs.Preferences
	_ = prefs.Set(&next, "duration", "9")
	err := broken.SetPreferences(ctx, scheduleID, next)
	if err == nil {
		t.Fatal("a failed vector write was not reported")
	}
	if got, err := c.Preferences(ctx, scheduleID); err != nil || !prefs.Equal(got, before) {
		t.Fatalf("after a failed vector write the graph side holds %+v (%v); want the old %+v", got, err, before)
	}
}
