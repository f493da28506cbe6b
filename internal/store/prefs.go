package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
)

// PreferenceStore keeps a schedule's planning preferences (internal/prefs)
// with the schedule: every adapter implements it, the graph side (Neo4j,
// the embedded graph) as the source reads come from and the vector side
// (Weaviate, the embedded vectors) as the copy, so either store alone
// holds everything a schedule is. Deleting a schedule deletes them.
type PreferenceStore interface {
	// Preferences returns a schedule's preferences; none set is the zero
	// value. The graph side returns ErrNotFound for a schedule it does not
	// hold; the vector side (which has no schedule record) the zero value.
	Preferences(ctx context.Context, scheduleID string) (prefs.Preferences, error)
	// SetPreferences replaces them (idempotent). The graph side refuses a
	// schedule it does not hold with ErrNotFound.
	SetPreferences(ctx context.Context, scheduleID string, p prefs.Preferences) error
}

// ErrNoPreferences is returned when a configured store cannot keep
// preferences (a store written before they existed, a test double).
var ErrNoPreferences = errors.New("this store does not keep preferences")

// Preferences reads a schedule's preferences from the graph side;
// ErrNotFound for a schedule that is not stored.
func (c *Coordinator) Preferences(ctx context.Context, scheduleID string) (prefs.Preferences, error) {
	g, ok := c.Graph.(PreferenceStore)
	if !ok {
		return prefs.Preferences{}, fmt.Errorf("graph store: %w", ErrNoPreferences)
	}
	p, err := g.Preferences(ctx, scheduleID)
	if err != nil {
		return prefs.Preferences{}, fmt.Errorf("preferences of schedule %q: %w", scheduleID, err)
	}
	return p, nil
}

// SetPreferences stores a schedule's preferences in both stores, two-phase
// as ApplyOps writes ops: the graph side first, then the vector side; if
// the vector write fails, the graph side gets its old preferences back
// (on a context that outlives cancellation) before the error is returned.
// A database that holds both sides (the embedded store) is written once.
// Writing the same preferences again changes nothing.
func (c *Coordinator) SetPreferences(ctx context.Context, scheduleID string, p prefs.Preferences) error {
	if err := p.Validate(); err != nil {
		return err
	}
	g, ok := c.Graph.(PreferenceStore)
	if !ok {
		return fmt.Errorf("graph store: %w", ErrNoPreferences)
	}
	old, err := g.Preferences(ctx, scheduleID)
	if err != nil {
		return fmt.Errorf("preferences of schedule %q: %w", scheduleID, err)
	}
	if err := g.SetPreferences(ctx, scheduleID, p); err != nil {
		return fmt.Errorf("preferences of schedule %q: graph store: %w", scheduleID, err)
	}
	if a, ok := c.atomic(); ok && a.Holds(c.Vectors) {
		return nil // one database: written once
	}
	v, ok := c.Vectors.(PreferenceStore)
	if !ok {
		return nil // a vector store without preferences (a test double): the graph holds them
	}
	if err := v.SetPreferences(ctx, scheduleID, p); err != nil {
		undo := g.SetPreferences(context.WithoutCancel(ctx), scheduleID, old)
		if undo != nil {
			return fmt.Errorf("preferences of schedule %q: vector store: %w; putting the graph store's back failed too: %w", scheduleID, err, undo)
		}
		return fmt.Errorf("preferences of schedule %q: vector store: %w (the graph store's were put back)", scheduleID, err)
	}
	return nil
}

// UpdatePreferences reads a schedule's preferences, lets change edit them
// and stores the result in both stores (unless change left them as they
// were). It returns the preferences as stored.
func (c *Coordinator) UpdatePreferences(ctx context.Context, scheduleID string, change func(*prefs.Preferences) error) (prefs.Preferences, error) {
	cur, err := c.Preferences(ctx, scheduleID)
	if err != nil {
		return prefs.Preferences{}, err
	}
	next := cur.Clone()
	if err := change(&next); err != nil {
		return cur, err
	}
	if prefs.Equal(cur, next) {
		return cur, nil
	}
	if err := c.SetPreferences(ctx, scheduleID, next); err != nil {
		return cur, err
	}
	return next, nil
}

// VectorPreferences reads the vector side's copy (for verify and tests);
// ok is false when the vector store keeps none of its own.
func (c *Coordinator) VectorPreferences(ctx context.Context, scheduleID string) (p prefs.Preferences, ok bool, err error) {
	if a, isAtomic := c.atomic(); isAtomic && a.Holds(c.Vectors) {
		p, err = c.Preferences(ctx, scheduleID)
		return p, err == nil, err
	}
	v, isPS := c.Vectors.(PreferenceStore)
	if !isPS {
		return prefs.Preferences{}, false, nil
	}
	p, err = v.Preferences(ctx, scheduleID)
	return p, err == nil, err
}

// preferencesDrift says how the two stores' copies of a schedule's
// preferences differ (none when they agree, or the vector store keeps
// none of its own). Repair does not rewrite them: `prefs set` writes both.
func (c *Coordinator) preferencesDrift(ctx context.Context, scheduleID string) ([]string, error) {
	if _, isPS := c.Graph.(PreferenceStore); !isPS {
		return nil, nil
	}
	g, err := c.Preferences(ctx, scheduleID)
	if err != nil {
		return nil, err
	}
	v, ok, err := c.VectorPreferences(ctx, scheduleID)
	if err != nil || !ok {
		return nil, err
	}
	if prefs.Equal(g, v) {
		return nil, nil
	}
	gj, _ := json.Marshal(g)
	vj, _ := json.Marshal(v)
	return []string{fmt.Sprintf("preferences: graph has %s, vector store %s", gj, vj)}, nil
}
