// Package scope is the scope manager: it separates a prompt into removals
// and additions and plans the change ops for each. The Planner port is what
// the activities call, so an LLM planner, the offline rules planner and the
// minimal test planner are interchangeable without touching the workflows.
package scope

import (
	"context"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Planner turns a planner's prompt into change ops against a snapshot.
// Implementations must not guess: what they cannot resolve becomes a
// Question, what they do not understand a Note.
type Planner interface {
	// Separate splits a prompt into a removals prompt and an additions
	// prompt (either may be "").
	Separate(ctx context.Context, prompt string) (Separation, error)
	// PlanRemovals proposes ops against the snapshot; in.Feedback is the
	// reviewer's text from the previous round ("" in round 1) and
	// in.Previous the ops proposed in the previous round.
	PlanRemovals(ctx context.Context, s *schedule.Schedule, in PlanInput) (Plan, error)
	// PlanAdditions is PlanRemovals for the additions prompt.
	PlanAdditions(ctx context.Context, s *schedule.Schedule, in PlanInput) (Plan, error)
}

// Separation is a prompt split by intent.
type Separation struct {
	Removals  string `json:"removals"`
	Additions string `json:"additions"`
}

// PlanInput is what a planning step sees besides the snapshot.
type PlanInput struct {
	Prompt   string        `json:"prompt"`
	Feedback string        `json:"feedback,omitempty"`
	Previous []schedule.Op `json:"previous,omitempty"`
	Round    int           `json:"round"`
}

// Plan is a planning step's proposal. Question is set when the planner needs
// the person to resolve something (an ambiguous or unknown name); Notes say
// what it did not understand or chose to skip.
type Plan struct {
	Ops      []schedule.Op `json:"ops,omitempty"`
	Question string        `json:"question,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
	Usage    TokenUsage    `json:"usage"`
}

// TokenUsage counts LLM use; deterministic planners report zeros.
type TokenUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	Calls            int `json:"calls"`
}

// Add returns the sum of u and v.
func (u TokenUsage) Add(v TokenUsage) TokenUsage {
	return TokenUsage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		Calls:            u.Calls + v.Calls,
	}
}
