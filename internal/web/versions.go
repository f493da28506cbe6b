package web

import (
	"context"
	"errors"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/versions"
	"github.com/autoscheduler/autoscheduler/internal/versions/since"
)

// errBadVersions is a compare of versions asked for wrongly (a 400).
var errBadVersions = errors.New("bad versions")

// keptSides are the two versions of schedule id that previous or at (one
// or two data dates) name, with their labels, as `compare --schedule`
// picks them.
func (s *Server) keptSides(ctx context.Context, id string, previous bool, at []string) (sides [2]*schedule.Schedule, a, b string, err error) {
	if previous == (len(at) > 0) || len(at) > 2 {
		return sides, "", "", fmt.Errorf("%w: give previous=1, or at=DATE once or twice", errBadVersions)
	}
	for i, d := range at {
		if at[i], err = versions.CheckDate(d); err != nil {
			return sides, "", "", fmt.Errorf("%w: %v", errBadVersions, err)
		}
	}
	k, err := s.stores.Kept(ctx, id)
	if err != nil {
		return sides, "", "", err
	}
	sides[1], b = k.Now, id+" now"
	if previous {
		sides[0], a, err = k.Previous(ctx)
	} else {
		sides[0], a, err = k.At(ctx, at[0])
		if err == nil && len(at) == 2 {
			sides[1], b, err = k.At(ctx, at[1])
		}
	}
	return sides, a, b, err
}

// ask answers a question about stored schedule id (v is it computed):
// what slipped since the last update from its previous version, anything
// else from the schedule alone.
func (s *Server) ask(ctx context.Context, id string, sc *schedule.Schedule, v *insight.View, q string) (insight.Answer, error) {
	if !since.Asked(q) {
		return insight.Ask(v, q), nil
	}
	k, err := s.stores.Kept(ctx, id)
	if err != nil {
		return insight.Answer{}, err
	}
	previous, label, err := k.Previous(ctx)
	if err != nil && !errors.Is(err, store.ErrNoPrevious) {
		return insight.Answer{}, err
	}
	return since.Answer(id, sc, previous, label), nil
}
