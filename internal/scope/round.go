package scope

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// A round's steps: what the dispatch workflow runs as activities and
// PlanRound runs in memory. Both build each step's input with
// RoundInput.StepInput and feed answers the same way, so `plan` previews
// exactly what a dispatch does.
//
//   - The prompt is separated once per dispatch; every round plans from
//     that separation (a later round adds the reviewer's feedback and the
//     rejected ops), never from a second separation of the same prompt.
//   - Removals are planned and applied first; the additions step sees them
//     applied and what they took out (PlanInput.Removed).
//   - A step with neither a prompt nor feedback is skipped.
//   - A question stops its step until answered; the step then plans again
//     with every answer given so far in the round, in the order asked (the
//     answers hold for the whole round: an activity named by both steps is
//     asked about once). A step that asks more than MaxQuestionsPerStep
//     questions is left out of the round with a note.

// MaxQuestionsPerStep bounds the questions one step of a round may ask. A
// planner that keeps asking would otherwise grow a dispatch's history
// without bound; five is more than any prompt of the labelled corpus needs
// (two is the most), so reaching it means the planner is stuck.
const MaxQuestionsPerStep = 5

// Step kinds, in the order a round runs them.
const (
	StepRemovals  = "removals"
	StepAdditions = "additions"
)

// Step is one planning step of a round: its kind and the part of the
// separated prompt it plans.
type Step struct {
	Kind   string `json:"kind"`
	Prompt string `json:"prompt"`
}

// RoundInput is what a round is planned from besides the schedule.
type RoundInput struct {
	Separation Separation    `json:"separation"`
	Feedback   string        `json:"feedback,omitempty"`
	Previous   []schedule.Op `json:"previous,omitempty"`
	Round      int           `json:"round"`
}

// Steps lists the round's steps in order, without those that have nothing
// to plan (no prompt and no feedback).
func (r RoundInput) Steps() []Step {
	var out []Step
	for _, st := range []Step{{StepRemovals, r.Separation.Removals}, {StepAdditions, r.Separation.Additions}} {
		if st.Prompt == "" && r.Feedback == "" {
			continue
		}
		out = append(out, st)
	}
	return out
}

// StepInput is the PlanInput of st given the round's answers so far (in
// the order asked, every step's) and what this round's removals took out.
func (r RoundInput) StepInput(st Step, removed []schedule.Op, answers []Clarification) PlanInput {
	return PlanInput{
		Prompt:         st.Prompt,
		Feedback:       r.Feedback,
		Previous:       slices.Clone(r.Previous),
		Round:          r.Round,
		Removed:        slices.Clone(removed),
		Clarifications: slices.Clone(answers),
	}
}

// QuestionLimitNote is the note of a step left out because its planner
// asked more than MaxQuestionsPerStep questions; question is the last one.
func QuestionLimitNote(st Step, question string) string {
	return fmt.Sprintf("the %s step asked %d questions and still asks %q: it is left out of this round; reject with feedback that names the activities exactly",
		st.Kind, MaxQuestionsPerStep, strings.TrimSpace(question))
}

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

// PlanRound separates in.Prompt and plans the round's steps on a copy of s
// as the dispatch workflow does on the stores. in.Clarifications are the
// person's answers in the order the questions were asked: each question a
// step asks takes the next one, as the workflow's clarify messages would
// (so a caller that appends the answer to Round.Question and calls again
// gets the round the dispatch would plan). in.Removed is ignored: the round
// computes it.
func PlanRound(ctx context.Context, p Planner, s *schedule.Schedule, in PlanInput) (*Round, error) {
	sep, err := p.Separate(ctx, in.Prompt)
	if err != nil {
		return nil, err
	}
	r, err := PlanSteps(ctx, p, s, RoundInput{Separation: sep, Feedback: in.Feedback, Previous: in.Previous, Round: in.Round}, in.Clarifications)
	if err != nil {
		return nil, err
	}
	r.Usage = sep.Usage.Add(r.Usage)
	return r, nil
}

// PlanSteps plans a round from a separation made earlier (a later round of
// the same dispatch): PlanRound without the separating. answers are used
// as PlanRound describes.
func PlanSteps(ctx context.Context, p Planner, s *schedule.Schedule, in RoundInput, answers []Clarification) (*Round, error) {
	r := &Round{Separation: in.Separation, After: s.Clone()}
	var given []Clarification // the answers so far, every step's
	queue := slices.Clone(answers)
	var took []schedule.Op // what this round's removals took out
	for _, st := range in.Steps() {
		fn := p.PlanRemovals
		if st.Kind == StepAdditions {
			fn = p.PlanAdditions
		}
		var plan Plan
		asked := 0
		for {
			var err error
			plan, err = fn(ctx, Snapshot{Schedule: r.After}, in.StepInput(st, took, given))
			if err != nil {
				return nil, err
			}
			r.Usage = r.Usage.Add(plan.Usage)
			if plan.Question == "" || len(queue) == 0 || asked == MaxQuestionsPerStep {
				break
			}
			asked++
			given = append(given, Clarification{About: plan.About, Question: plan.Question, Answer: queue[0].Answer})
			queue = queue[1:]
		}
		r.Notes = append(r.Notes, plan.Notes...)
		if plan.Question != "" && asked == MaxQuestionsPerStep {
			r.Notes = append(r.Notes, QuestionLimitNote(st, plan.Question))
			continue
		}
		if plan.Question != "" {
			r.Question, r.About = plan.Question, plan.About
			return r, nil
		}
		applied, inverses, err := schedule.ApplyAll(r.After, plan.Ops)
		if err != nil {
			return nil, fmt.Errorf("the planner proposed an op the engine refuses: %w", err)
		}
		r.Ops = append(r.Ops, applied...)
		took = append(took, inverses...)
	}
	return r, nil
}
