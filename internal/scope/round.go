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

// A round: RunRound is its control flow, the only copy. The dispatch
// workflow runs it with activities as its effects, PlanRound in memory, so
// `plan` previews exactly what a dispatch does.
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
//   - A prompt of several requests is planned task by task, in order, each
//     task its own steps (Task); see engine.tasks for kept, failed and
//     blocked tasks.

// MaxQuestionsPerStep bounds the questions one step of a round may ask. A
// planner that keeps asking would otherwise grow a dispatch's history
// without bound; five is more than any prompt of the labelled corpus needs
// (two is the most), so reaching it means the planner is stuck.
const MaxQuestionsPerStep = 5

// Step kinds, in the order a round runs them; StepKept applies a kept
// task's earlier ops again (RoundEffects.Apply), without planning.
const (
	StepRemovals  = "removals"
	StepAdditions = "additions"
	StepKept      = "kept"
)

// Step is one planning step of a round: its kind and the part of the
// separated prompt it plans.
type Step struct {
	Kind   string `json:"kind"`
	Prompt string `json:"prompt"`
}

// RoundInput is what a round is planned from besides the schedule.
type RoundInput struct {
	// Separation is the dispatch's; nil in its first round, which
	// separates the prompt (RoundEffects.Separate).
	Separation *Separation   `json:"separation"`
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
// the order asked, every step's); Removed is the effects' to fill.
func (r RoundInput) StepInput(st Step, answers []Clarification) PlanInput {
	return PlanInput{
		Prompt:         st.Prompt,
		Feedback:       r.Feedback,
		Previous:       slices.Clone(r.Previous),
		Round:          r.Round,
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

// RoundEffects are what a round does besides deciding what to do next:
// RunRound holds the round's control flow, the effects carry it out. The
// dispatch workflow's effects are activities on the stores and a wait for
// the person's answer (its ctx is context.Background: they run on their
// workflow.Context); PlanRound's plan on a copy of the schedule and take
// the answers given. A unit of work is the prompt of one request, or one
// task of a multi-part prompt: Begin starts one.
type RoundEffects interface {
	// Separate separates the prompt (once per dispatch: RoundInput.Separation
	// is nil only then).
	Separate(ctx context.Context) (Separation, error)
	// Begin starts a unit of work; task is "" for a prompt of one request.
	Begin(task string)
	// Plan runs a planning step. in.Removed is left to the effects: what
	// the unit's steps took out so far.
	Plan(ctx context.Context, step Step, in PlanInput) (Plan, error)
	// Ask puts plan's question to the person and returns the answer; ok
	// is false when no answer comes in this run (the round stops at the
	// question). An error ends the round.
	Ask(ctx context.Context, step Step, plan Plan) (answer string, ok bool, err error)
	// Apply applies ops, tagged with task, for step (StepKept: a kept
	// task's earlier ops, applied again).
	Apply(ctx context.Context, step Step, task string, ops []schedule.Op) error
	// Fail undoes what the unit of task t applied, as t failed with err.
	Fail(ctx context.Context, t Task, err error) error
	// Ends reports whether a unit's error ends the round (a cancellation)
	// rather than failing only its task; ctx's error always does.
	Ends(err error) bool
}

// Legacy are the behaviours of dispatches recorded before a versioned
// change (workflow.GetVersion), kept so that they replay: the zero value
// is today's round, PlanRound's.
type Legacy struct {
	// NoTasks: a multi-part prompt is planned whole (before task-graph).
	NoTasks bool
	// QuestionsAtReview: a step's question is shown at review and its ops
	// applied (before clarification-stage).
	QuestionsAtReview bool
	// UnboundedQuestions: a step may ask any number of questions (before
	// bounded-dispatch).
	UnboundedQuestions bool
	// KeepTasksWithoutOps: feedback that names other tasks keeps a task
	// that has no ops of the last round (it failed, was blocked or planned
	// nothing) as it is, planning nothing (before replan-failed-tasks).
	KeepTasksWithoutOps bool
}

// RoundReport is what a round shows as it goes (a dispatch's queries read
// it mid-round): notes, the open question, the tasks.
type RoundReport struct {
	Notes []string
	// Question stops the round: the step that asked applied nothing and
	// the steps after it did not run. About is what it asks about;
	// Choices and Several what it offers (Plan's).
	Question, About string
	Choices         []Choice
	Several         bool
	// Tasks report each task of a multi-part prompt (Separation.Tasks);
	// each op's Task names its task.
	Tasks []TaskReport
}

// PlannedAsTasks reports whether a round plans the separation as tasks: a
// prompt of several requests whose tasks are valid (CheckTasks).
func (s Separation) PlannedAsTasks() bool { return len(s.Tasks) > 1 && CheckTasks(s.Tasks) == nil }

// RunRound is a round's control flow, the only copy: the prompt separated
// (when in.Separation is nil), then a multi-part prompt's tasks in order
// or the prompt's steps, each step planned (asking until answered) and
// applied through fx. What the round shows goes to rep as it goes. A
// question the effects cannot answer now stops the round with
// rep.Question set and no error.
//
// The dispatch workflow runs it in its workflow code, so it stays
// deterministic: no I/O, clock, goroutines or map iteration order here;
// whatever else is done goes through fx.
func RunRound(ctx context.Context, fx RoundEffects, in RoundInput, old Legacy, rep *RoundReport) error {
	if in.Separation == nil {
		sep, err := fx.Separate(ctx)
		if err != nil {
			return err
		}
		in.Separation = &sep
	}
	e := &engine{fx: fx, old: old, rep: rep}
	if !old.NoTasks && in.Separation.PlannedAsTasks() {
		return e.tasks(ctx, in)
	}
	fx.Begin("")
	if err := e.steps(ctx, in, in.Steps(), ""); err != nil && !errors.Is(err, errAsked) {
		return err
	}
	return nil
}

// engine is a round being run.
type engine struct {
	fx      RoundEffects
	old     Legacy
	rep     *RoundReport
	answers []Clarification // the round's answers so far, every step's
}

// errAsked stops a round at a step's question.
var errAsked = errors.New("a step asked a question")

// steps plans and applies steps, their ops tagged with task. A question
// not answered now stops them (errAsked, with rep.Question set); an error
// of the effects fails them, undoing nothing (the caller decides).
func (e *engine) steps(ctx context.Context, in RoundInput, steps []Step, task string) error {
	for _, st := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		var plan Plan
		asked, unanswered := 0, false
		for {
			var err error
			if plan, err = e.fx.Plan(ctx, st, in.StepInput(st, e.answers)); err != nil {
				return err
			}
			if plan.Question == "" || e.old.QuestionsAtReview || (!e.old.UnboundedQuestions && asked == MaxQuestionsPerStep) {
				break
			}
			// The planner asks instead of guessing: nothing of this step is
			// applied until the person answers; then the step plans again.
			answer, ok, err := e.fx.Ask(ctx, st, plan)
			if err != nil {
				return err
			}
			if !ok {
				unanswered = true
				break
			}
			asked++
			e.answers = append(e.answers, Clarification{About: plan.About, Question: plan.Question, Answer: answer})
		}
		e.rep.Notes = append(e.rep.Notes, plan.Notes...)
		switch {
		case unanswered:
			e.rep.Question, e.rep.About, e.rep.Choices, e.rep.Several = plan.Question, plan.About, plan.Choices, plan.Several
			return errAsked
		case plan.Question != "" && !e.old.QuestionsAtReview && !e.old.UnboundedQuestions:
			// Still asking after MaxQuestionsPerStep answers: the step is
			// left out, said so at review.
			e.rep.Notes = append(e.rep.Notes, QuestionLimitNote(st, plan.Question))
			continue
		case plan.Question != "":
			e.rep.Question = strings.TrimSpace(e.rep.Question + " " + plan.Question)
		}
		if len(plan.Ops) == 0 {
			continue
		}
		if err := e.fx.Apply(ctx, st, task, TagTask(plan.Ops, task)); err != nil {
			return err
		}
	}
	return nil
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

// tasks plans a multi-part prompt's tasks in dependency order: a task
// whose dependency failed is blocked; with feedback that names tasks
// ("task 2: 3 days, not 2"), the named tasks are planned with it, the
// tasks that depend on them afresh, and the others keep their ops
// (applied again); a task that fails is undone and reported with the
// tasks it blocks, and the round goes on with the rest.
func (e *engine) tasks(ctx context.Context, in RoundInput) error {
	tasks := in.Separation.Tasks
	fb := ReadTaskFeedback(in.Feedback, tasks)
	if note := fb.UnknownTasksNote(tasks); note != "" {
		e.rep.Notes = append(e.rep.Notes, note)
	}
	e.rep.Tasks = NewTaskReports(tasks)
	var failures []error
	for i, t := range tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		rep := &e.rep.Tasks[i]
		if b := Blockers(t, e.rep.Tasks); len(b) > 0 {
			rep.Status, rep.BlockedBy = TaskBlocked, b
			continue
		}
		feedback, replan := fb.For(t, tasks)
		previous := TaskOps(in.Previous, t.ID)
		if !replan && len(previous) == 0 && !e.old.KeepTasksWithoutOps {
			// Nothing of it to keep (it failed, was blocked or planned
			// nothing last round): it is planned afresh, not reported kept.
			replan = true
		}
		notes := len(e.rep.Notes)
		e.fx.Begin(t.ID)
		rep.Status = TaskPlanning
		var err error
		if !replan {
			if ops := KeptOps(previous); len(ops) > 0 {
				err = e.fx.Apply(ctx, Step{Kind: StepKept}, t.ID, ops)
			}
			rep.Status = TaskKept
		} else {
			tin := in
			tin.Feedback, tin.Previous = feedback, previous
			if feedback == "" {
				tin.Previous = nil // planned afresh: a task it depends on changed
			}
			err = e.steps(ctx, tin, t.Steps(feedback), t.ID)
			rep.Status, rep.Feedback = TaskPlanned, feedback
		}
		rep.Notes = slices.Clone(e.rep.Notes[notes:])
		switch {
		case err == nil:
			continue
		case errors.Is(err, errAsked):
			rep.Status = TaskAsking
			return nil
		case ctx.Err() != nil || e.fx.Ends(err):
			return err
		}
		if undoErr := e.fx.Fail(ctx, t, err); undoErr != nil {
			return errors.Join(err, undoErr)
		}
		rep.Status, rep.Error = TaskFailed, err.Error()
		e.rep.Notes = append(e.rep.Notes, TaskFailedNote(t, err, tasks))
		failures = append(failures, fmt.Errorf("task %s: %w", t.ID, err))
	}
	if len(failures) > 0 && !slices.ContainsFunc(e.rep.Tasks, func(x TaskReport) bool { return x.Status == TaskPlanned || x.Status == TaskKept }) {
		return errors.Join(failures...) // nothing left to review: the round fails as a prompt of one request does
	}
	return nil
}

// Round is one round of a dispatch planned against a schedule in memory:
// what `autoscheduler plan --file` previews. Ops are as applied to the
// copy (ids and calls filled), removals first.
type Round struct {
	Separation Separation
	Ops        []schedule.Op
	RoundReport
	Usage TokenUsage
	After *schedule.Schedule
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
	r, err := planRound(ctx, &memory{p: p, prompt: in.Prompt}, s, RoundInput{Feedback: in.Feedback, Previous: in.Previous, Round: in.Round, Preferences: in.Preferences}, in.Clarifications)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// PlanSteps plans a round from a separation made earlier (a later round of
// the same dispatch): PlanRound without the separating. answers are used
// as PlanRound describes.
func PlanSteps(ctx context.Context, p Planner, s *schedule.Schedule, in RoundInput, answers []Clarification) (*Round, error) {
	if in.Separation == nil {
		return nil, errors.New("PlanSteps needs the round's separation")
	}
	return planRound(ctx, &memory{p: p}, s, in, answers)
}

func planRound(ctx context.Context, m *memory, s *schedule.Schedule, in RoundInput, answers []Clarification) (*Round, error) {
	m.r = &Round{After: s.Clone()}
	m.queue = slices.Clone(answers)
	if in.Separation != nil {
		m.r.Separation = *in.Separation
	}
	err := RunRound(ctx, m, in, Legacy{}, &m.r.RoundReport)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil && !m.r.Separation.PlannedAsTasks() {
		return nil, err
	}
	return m.r, err
}

// memory are PlanRound's effects: the round planned on r.After, a copy of
// the schedule, with the answers queued.
type memory struct {
	p      Planner
	prompt string
	r      *Round
	queue  []Clarification // the answers not yet taken
	took   []schedule.Op   // the inverses of what the round applied
	unit   int             // where the unit's inverses start in took
}

func (m *memory) Separate(ctx context.Context) (Separation, error) {
	sep, err := m.p.Separate(ctx, m.prompt)
	if err != nil {
		return Separation{}, err
	}
	m.r.Separation, m.r.Usage = sep, m.r.Usage.Add(sep.Usage)
	return sep, nil
}

func (m *memory) Begin(string) { m.unit = len(m.took) }

func (m *memory) Plan(ctx context.Context, step Step, in PlanInput) (Plan, error) {
	fn := m.p.PlanRemovals
	if step.Kind == StepAdditions {
		fn = m.p.PlanAdditions
	}
	in.Removed = slices.Clone(m.took[m.unit:])
	plan, err := fn(ctx, Snapshot{Schedule: m.r.After}, in)
	if err != nil {
		return Plan{}, err
	}
	m.r.Usage = m.r.Usage.Add(plan.Usage)
	return plan, nil
}

func (m *memory) Ask(context.Context, Step, Plan) (string, bool, error) {
	if len(m.queue) == 0 {
		return "", false, nil
	}
	answer := m.queue[0].Answer
	m.queue = m.queue[1:]
	return answer, true, nil
}

func (m *memory) Apply(_ context.Context, step Step, _ string, ops []schedule.Op) error {
	applied, inv, err := schedule.ApplyAll(m.r.After, ops)
	if err != nil && step.Kind != StepKept {
		return fmt.Errorf("the planner proposed an op the engine refuses: %w", err)
	} else if err != nil {
		return err
	}
	m.r.Ops = append(m.r.Ops, applied...)
	m.took = append(m.took, inv...)
	return nil
}

func (m *memory) Fail(_ context.Context, t Task, _ error) error {
	if err := schedule.Undo(m.r.After, m.took[m.unit:]); err != nil {
		return err
	}
	m.took = m.took[:m.unit]
	m.r.Ops = slices.DeleteFunc(m.r.Ops, func(op schedule.Op) bool { return op.Task == t.ID })
	return nil
}

func (m *memory) Ends(error) bool { return false }

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
