// Package scope is the scope manager: it separates a prompt into removals
// and additions and plans the change ops for each. The Planner port is what
// the activities call, so an LLM planner, the offline rules planner and the
// minimal test planner are interchangeable without touching the workflows.
package scope

import (
	"context"

	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
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
	PlanRemovals(ctx context.Context, snap Snapshot, in PlanInput) (Plan, error)
	// PlanAdditions is PlanRemovals for the additions prompt.
	PlanAdditions(ctx context.Context, snap Snapshot, in PlanInput) (Plan, error)
}

// Snapshot is what a planning step plans against: the schedule as stored
// now, and semantic search over the same schedule. Planners read Schedule
// and never modify it (they plan on a copy).
type Snapshot struct {
	Schedule *schedule.Schedule
	// Search finds activities and relationships by meaning; nil means an
	// in-memory search over Schedule (see MemorySearch).
	Search Searcher
}

// Searcher is semantic search over one schedule: the store's hybrid search
// in the worker, an in-memory one for `plan --file`.
type Searcher interface {
	Search(ctx context.Context, text string, k int, kinds ...store.Kind) ([]store.Hit, error)
}

// searcher returns the snapshot's search, building the in-memory one when
// none was given.
func (snap Snapshot) searcher() Searcher {
	if snap.Search != nil {
		return snap.Search
	}
	return NewMemorySearch(snap.Schedule)
}

// Separation is a prompt split by intent.
type Separation struct {
	Removals  string `json:"removals"`
	Additions string `json:"additions"`
	// Tasks is the prompt decomposed into requests with their
	// dependencies, when it holds more than one (see Task); nil for a
	// single request, which the round plans as Removals and Additions.
	Tasks []Task     `json:"tasks,omitempty"`
	Usage TokenUsage `json:"usage"`
}

// PlanInput is what a planning step sees besides the snapshot.
type PlanInput struct {
	Prompt   string        `json:"prompt"`
	Feedback string        `json:"feedback,omitempty"`
	Previous []schedule.Op `json:"previous,omitempty"`
	Round    int           `json:"round"`
	// Removed is what this round's removals took out, as the inverse ops
	// that would put it back (AddActivity, AddRelationship): the additions
	// step of "make X follow Y instead of Z" re-creates those links from Y.
	Removed []schedule.Op `json:"removed,omitempty"`
	// Clarifications are the person's answers to the step's questions, in
	// the order asked.
	Clarifications []Clarification `json:"clarifications,omitempty"`
	// Preferences are the schedule's planning preferences (default link
	// type and lag, default duration, naming pattern, trade vocabulary);
	// nil plans as without any.
	Preferences *prefs.Preferences `json:"preferences,omitempty"`
}

// Clarification is a question a planner asked and the person's answer.
// About is the phrase the question was about ("the pour"); a deterministic
// planner reads the answer in its place.
type Clarification struct {
	About    string `json:"about,omitempty"`
	Question string `json:"question"`
	Answer   string `json:"answer"`
}

// Plan is a planning step's proposal. Question is set when the planner needs
// the person to resolve something (an ambiguous or unknown name); Notes say
// what it did not understand or chose to skip.
type Plan struct {
	Ops      []schedule.Op `json:"ops,omitempty"`
	Question string        `json:"question,omitempty"`
	// About is the phrase Question asks about, when there is one.
	About string `json:"about,omitempty"`
	// Choices are the answers Question offers (the candidates of an
	// ambiguous name, the link types to pick from), at most MaxChoices;
	// any other answer may still be given as text. Several says an answer
	// may pick more than one (sent joined with ", ").
	Choices []Choice   `json:"choices,omitempty"`
	Several bool       `json:"several,omitempty"`
	Notes   []string   `json:"notes,omitempty"`
	Usage   TokenUsage `json:"usage"`
}

// Choice is one answer a question offers: Label is what a person reads,
// Answer what picking it answers (an activity id, a link type).
type Choice struct {
	Label  string `json:"label"`
	Answer string `json:"answer"`
}

// MaxChoices bounds the choices a question offers: beyond it the person
// narrows the question by typing.
const MaxChoices = 50

// TokenUsage counts LLM use; deterministic planners report zeros.
type TokenUsage = llm.Usage
