package scope

import (
	"context"
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Round is one round of a dispatch planned against a schedule in memory:
// what `autoscheduler plan --file` previews. Ops are as applied to the
// copy (ids and calls filled), removals first.
type Round struct {
	Separation Separation
	Ops        []schedule.Op
	Notes      []string
	// Question stops the round: the step that asked applied nothing and
	// the steps after it did not run. About is what it asks about.
	Question, About string
	Usage           TokenUsage
	After           *schedule.Schedule
}

// PlanRound separates in.Prompt and plans removals then additions on a copy
// of s, as the dispatch workflow does on the stores: the additions step
// sees the removals applied and what they took out.
func PlanRound(ctx context.Context, p Planner, s *schedule.Schedule, in PlanInput) (*Round, error) {
	sep, err := p.Separate(ctx, in.Prompt)
	if err != nil {
		return nil, err
	}
	r := &Round{Separation: sep, Usage: sep.Usage, After: s.Clone()}
	steps := []struct {
		prompt string
		plan   func(context.Context, Snapshot, PlanInput) (Plan, error)
	}{{sep.Removals, p.PlanRemovals}, {sep.Additions, p.PlanAdditions}}
	var removed []schedule.Op
	for _, st := range steps {
		if st.prompt == "" && in.Feedback == "" {
			continue
		}
		step := in
		step.Prompt, step.Removed = st.prompt, removed
		plan, err := st.plan(ctx, Snapshot{Schedule: r.After}, step)
		if err != nil {
			return nil, err
		}
		r.Usage = r.Usage.Add(plan.Usage)
		r.Notes = append(r.Notes, plan.Notes...)
		if plan.Question != "" {
			r.Question, r.About = plan.Question, plan.About
			return r, nil
		}
		applied, inverses, err := schedule.ApplyAll(r.After, plan.Ops)
		if err != nil {
			return nil, fmt.Errorf("the planner proposed an op the engine refuses: %w", err)
		}
		r.Ops = append(r.Ops, applied...)
		removed = inverses
	}
	return r, nil
}
