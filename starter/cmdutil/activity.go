package cmdutil

import (
	"fmt"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// ResolveActivity finds one activity by id or by name (case-insensitive);
// an ambiguous name is an error listing the candidates, never a guess.
func ResolveActivity(s *schedule.Schedule, ref string) (schedule.Activity, error) {
	if a, ok := s.Activity(ref); ok {
		return a, nil
	}
	var found []schedule.Activity
	for _, a := range s.Activities {
		if strings.EqualFold(a.Name, ref) {
			found = append(found, a)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return schedule.Activity{}, fmt.Errorf("no activity with id or name %q", ref)
	}
	ids := make([]string, len(found))
	for i, a := range found {
		ids[i] = a.ID
	}
	return schedule.Activity{}, fmt.Errorf("%d activities are named %q (%s): give an id", len(found), ref, strings.Join(ids, ", "))
}

// NonNil is xs, or an empty slice for JSON's [] instead of null.
func NonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
