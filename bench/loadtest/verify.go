package main

import (
	"context"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
)

// verify compares every schedule in the stores with what its dispatches
// must have left: the base schedule plus, for each dispatch kept, its
// activity (once, with its duration) and the link from its predecessor;
// nothing else. Then `verify` (Neo4j against Weaviate) on each.
func verify(ctx context.Context, stores *store.Coordinator, base *schedule.Schedule, ids []string, outcomes []outcome, r *result) {
	bySchedule := map[string][]outcome{}
	for _, o := range outcomes {
		bySchedule[o.Plan.ScheduleID] = append(bySchedule[o.Plan.ScheduleID], o)
	}
	problem := func(format string, args ...any) {
		r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
	}
	for _, id := range ids {
		s, err := stores.Load(ctx, id)
		if err != nil {
			problem("%s: load: %v", id, err)
			r.Drift++
			continue
		}
		names := map[string][]schedule.Activity{}
		byID := map[string]schedule.Activity{}
		for _, a := range s.Activities {
			names[a.Name] = append(names[a.Name], a)
			byID[a.ID] = a
		}
		preds := map[string][]string{} // successor id -> predecessor names
		for _, rel := range s.Relationships {
			preds[rel.Successor] = append(preds[rel.Successor], byID[rel.Predecessor].Name)
		}
		expected := map[string]bool{}
		for _, a := range base.Activities {
			expected[a.Name] = true
		}
		for _, o := range bySchedule[id] {
			p := o.Plan
			got := names[p.Activity]
			expected[p.Activity] = true
			switch {
			case o.Err != nil:
				// A lost dispatch is counted once; what it left is not
				// predictable, beyond never being duplicated.
			case !p.kept() && len(got) > 0:
				r.Unexpected++
				problem("%s: %s is in the schedule after its dispatch was rejected", id, p.Activity)
			case p.kept() && len(got) == 0:
				r.LostWrites++
				problem("%s: %s (%s) is missing", id, p.Activity, p.Kind)
			case p.kept() && got[0].Duration != p.Duration:
				r.LostWrites++
				problem("%s: %s has %s days, want %s", id, p.Activity, got[0].Duration, p.Duration)
			case p.kept() && (len(preds[got[0].ID]) != 1 || preds[got[0].ID][0] != p.Predecessor):
				r.LostWrites++
				problem("%s: %s follows %v, want %s", id, p.Activity, preds[got[0].ID], p.Predecessor)
			}
			if len(got) > 1 {
				r.Duplicated += len(got) - 1
				problem("%s: %s is there %d times", id, p.Activity, len(got))
			}
		}
		for name, as := range names {
			if !expected[name] {
				r.Unexpected += len(as)
				problem("%s: unexpected activity %s", id, name)
			}
		}
		for _, a := range base.Activities {
			if len(names[a.Name]) != 1 {
				r.LostWrites++
				problem("%s: base activity %s appears %d times", id, a.Name, len(names[a.Name]))
			}
		}
		if len(s.Relationships) != len(base.Relationships)+countKept(bySchedule[id]) {
			r.Unexpected++
			problem("%s: %d relationships, want %d", id, len(s.Relationships), len(base.Relationships)+countKept(bySchedule[id]))
		}
		drift, err := stores.Verify(ctx, id)
		if err != nil {
			problem("%s: verify: %v", id, err)
			r.Drift++
		}
		for _, d := range drift {
			r.Drift++
			problem("%s: drift: %s", id, d)
		}
	}
}

func countKept(outcomes []outcome) int {
	n := 0
	for _, o := range outcomes {
		if o.Err == nil && o.Plan.kept() {
			n++
		}
	}
	return n
}
