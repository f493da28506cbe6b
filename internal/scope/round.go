package scope

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
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
	// Preferences, when set, are every step's (PlanInput.Preferences):
	// `plan` previews with them; the dispatch's activities load the
	// stored ones instead.
	Preferences *prefs.Preferences `json:"preferences,omitempty"`
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
		Preferences:    r.Preferences,
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
	// Tasks report each task of a multi-part prompt (Separation.Tasks);
	// each op's Task names its task.
	Tasks []TaskReport
}

// PlanRound separates in.Prompt and plans the round's steps on a copy of s
// as the dispatch workflow does on the stores. in.Clarifications are the
// person's answers in the order the questions were asked: each question a
// step asks takes the next one, as the workflow's clarify messages would
// (so a caller that appends the answer to Round.Question and calls again
// gets the round the dispatch would plan). in.Removed is ignored: the round
// computes it; in.Preferences are every step's.
func PlanRound(ctx context.Context, p Planner, s *schedule.Schedule, in PlanInput) (*Round, error) {
	if err := in.Check(); err != nil {
		return nil, err
	}
	sep, err := p.Separate(ctx, in.Prompt)
	if err != nil {
		return nil, err
	}
	r, err := PlanSteps(ctx, p, s, RoundInput{Separation: sep, Feedback: in.Feedback, Previous: in.Previous, Round: in.Round, Preferences: in.Preferences}, in.Clarifications)
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
	st := &stepper{p: p, r: r, queue: slices.Clone(answers)}
	if len(in.Separation.Tasks) > 1 {
		if err := st.tasks(ctx, in); err != nil {
			return r, err
		}
		return r, ctx.Err()
	}
	if _, err := st.steps(ctx, in, in.Steps(), ""); err != nil && !errors.Is(err, errAsked) {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return r, nil
}

// stepper runs a round's steps on the round's copy of the schedule.
type stepper struct {
	p     Planner
	r     *Round
	given []Clarification // the answers so far, every step's
	queue []Clarification // the answers not yet taken
}

// errAsked stops a round at a step's question.
var errAsked = errors.New("a step asked a question")

// steps plans and applies steps on the copy, their ops tagged with task,
// and returns the inverses of what they applied. A question stops them
// (errAsked, with r.Question set); a step the engine refuses fails them,
// undoing nothing (the caller decides).
func (st *stepper) steps(ctx context.Context, in RoundInput, steps []Step, task string) ([]schedule.Op, error) {
	r := st.r
	var took []schedule.Op // what these removals took out
	var inverses []schedule.Op
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return inverses, err
		}
		fn := st.p.PlanRemovals
		if step.Kind == StepAdditions {
			fn = st.p.PlanAdditions
		}
		var plan Plan
		asked := 0
		for {
			var err error
			plan, err = fn(ctx, Snapshot{Schedule: r.After}, in.StepInput(step, took, st.given))
			if err != nil {
				return inverses, err
			}
			r.Usage = r.Usage.Add(plan.Usage)
			if plan.Question == "" || len(st.queue) == 0 || asked == MaxQuestionsPerStep {
				break
			}
			asked++
			st.given = append(st.given, Clarification{About: plan.About, Question: plan.Question, Answer: st.queue[0].Answer})
			st.queue = st.queue[1:]
		}
		r.Notes = append(r.Notes, plan.Notes...)
		if plan.Question != "" && asked == MaxQuestionsPerStep {
			r.Notes = append(r.Notes, QuestionLimitNote(step, plan.Question))
			continue
		}
		if plan.Question != "" {
			r.Question, r.About = plan.Question, plan.About
			return inverses, errAsked
		}
		ops := TagTask(plan.Ops, task)
		applied, inv, err := schedule.ApplyAll(r.After, ops)
		if err != nil {
			return inverses, fmt.Errorf("the planner proposed an op the engine refuses: %w", err)
		}
		r.Ops = append(r.Ops, applied...)
		took = append(took, inv...)
		inverses = append(inverses, inv...)
	}
	return inverses, nil
}

// TagTask returns ops with Task set to task (a copy when task is set).
func TagTask(ops []schedule.Op, task string) []schedule.Op {
	if task == "" {
		return ops
	}
	out := slices.Clone(ops)
	for i := range out {
		out[i].Task = task
	}
	return out
}

// TaskOps are the ops of ops that belong to task, in order.
func TaskOps(ops []schedule.Op, task string) []schedule.Op {
	var out []schedule.Op
	for _, op := range ops {
		if op.Task == task {
			out = append(out, op)
		}
	}
	return out
}

// tasks plans a multi-part prompt's tasks in order, as the dispatch
// workflow does: a task whose dependency failed is blocked; with feedback
// that names tasks, the others are kept (their previous ops re-applied);
// a task that fails is undone on the copy and reported.
func (st *stepper) tasks(ctx context.Context, in RoundInput) error {
	r := st.r
	tasks := in.Separation.Tasks
	fb := ReadTaskFeedback(in.Feedback, tasks)
	if note := fb.UnknownTasksNote(tasks); note != "" {
		r.Notes = append(r.Notes, note)
	}
	r.Tasks = NewTaskReports(tasks)
	var failures []error
	for i, t := range tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		rep := &r.Tasks[i]
		if b := Blockers(t, r.Tasks); len(b) > 0 {
			rep.Status, rep.BlockedBy = TaskBlocked, b
			continue
		}
		feedback, replan := fb.For(t, tasks)
		previous := TaskOps(in.Previous, t.ID)
		notes := len(r.Notes)
		var inverses []schedule.Op
		var err error
		if !replan {
			rep.Status = TaskKept
			var applied []schedule.Op
			applied, inverses, err = schedule.ApplyAll(r.After, KeptOps(previous))
			if err == nil {
				r.Ops = append(r.Ops, applied...)
			}
		} else {
			rep.Status, rep.Feedback = TaskPlanned, feedback
			tin := in
			tin.Feedback = feedback
			if feedback == "" {
				// Planned afresh: what it proposed before depended on a
				// task that is planned again.
				previous = nil
			}
			tin.Previous = previous
			inverses, err = st.steps(ctx, tin, t.Steps(feedback), t.ID)
		}
		rep.Notes = slices.Clone(r.Notes[notes:])
		if errors.Is(err, errAsked) {
			rep.Status = TaskAsking
			return nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			if undoErr := schedule.Undo(r.After, inverses); undoErr != nil {
				return errors.Join(err, undoErr)
			}
			r.Ops = slices.DeleteFunc(r.Ops, func(op schedule.Op) bool { return op.Task == t.ID })
			rep.Status, rep.Error = TaskFailed, err.Error()
			r.Notes = append(r.Notes, TaskFailedNote(t, err, tasks))
			failures = append(failures, fmt.Errorf("task %s: %w", t.ID, err))
		}
	}
	if len(failures) > 0 && !slices.ContainsFunc(r.Tasks, func(x TaskReport) bool { return x.Status == TaskPlanned || x.Status == TaskKept }) {
		return errors.Join(failures...) // nothing left to review, as the dispatch fails
	}
	return nil
}

// KeptOps are a kept task's previous ops to apply again: the same ops
// (so the same activities and links), without the IDs they had.
func KeptOps(previous []schedule.Op) []schedule.Op {
	out := slices.Clone(previous)
	for i := range out {
		out[i].ID = ""
	}
	return out
}

// TaskFailedNote says a task failed, why, and which tasks that blocks.
func TaskFailedNote(t Task, err error, tasks []Task) string {
	var blocked []string
	failed := map[string]bool{t.ID: true}
	for _, x := range tasks {
		for _, d := range x.DependsOn {
			if failed[d] && !failed[x.ID] {
				failed[x.ID] = true
				blocked = append(blocked, x.ID)
			}
		}
	}
	note := fmt.Sprintf("task %s (%s) failed: %v", t.ID, t.Prompt, err)
	if len(blocked) > 0 {
		note += fmt.Sprintf("; it blocks task %s", strings.Join(blocked, ", "))
	}
	return note
}
