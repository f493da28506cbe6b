package scope_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/scope/scopetest"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestPlanRoundAnswersGoWhereTheyWereAsked: an answer to the additions
// step's question reaches the additions step, not the removals step that
// ran before it was asked — as in a dispatch, which plans removals before
// the question exists.
func TestPlanRoundAnswersGoWhereTheyWereAsked(t *testing.T) {
	s := storetest.Building(t)
	rec := &scopetest.Recorder{Planner: scope.Rules{}}
	in := scope.PlanInput{Prompt: `delete activity Site hoarding; add activity "Crane check" 1 day after the pour`, Round: 1}
	r, err := scope.PlanRound(context.Background(), rec, s, in)
	if err != nil {
		t.Fatal(err)
	}
	if r.Question == "" {
		t.Fatalf("the additions step did not ask: %+v", r)
	}
	in.Clarifications = []scope.Clarification{{About: r.About, Question: r.Question, Answer: "Pour slab Level 2"}}
	rec.Reset()
	if r, err = scope.PlanRound(context.Background(), rec, s, in); err != nil || r.Question != "" {
		t.Fatalf("round with the answer = %+v, %v", r, err)
	}
	var got []string
	for _, c := range rec.Calls() {
		got = append(got, c.Kind+" "+strings.Repeat("+", len(c.Input.Clarifications)))
	}
	// removals without answers; additions asks, then plans with its answer.
	if want := []string{"removals ", "additions ", "additions +"}; !slices.Equal(got, want) {
		t.Errorf("steps and answers = %q, want %q", got, want)
	}
	if calls := opCalls(r.Ops); !strings.Contains(calls, "Site hoarding") || !strings.Contains(calls, "Crane check") {
		t.Errorf("ops:\n%s", calls)
	}
}

// TestPlanRoundQuestionLimit: a step still asking after
// MaxQuestionsPerStep answers is left out with a note, the rest planned.
func TestPlanRoundQuestionLimit(t *testing.T) {
	s := storetest.Building(t)
	p := askingPlanner{Rules: scope.Rules{}}
	var answers []scope.Clarification
	for range scope.MaxQuestionsPerStep + 3 {
		answers = append(answers, scope.Clarification{Answer: "that one"})
	}
	r, err := scope.PlanRound(context.Background(), p, s, scope.PlanInput{Prompt: "delete activity Site hoarding; add activity \"Crane check\" 1 day", Round: 1, Clarifications: answers})
	if err != nil {
		t.Fatal(err)
	}
	if r.Question != "" || len(r.Notes) == 0 || !strings.Contains(r.Notes[0], "the removals step asked 5 questions") {
		t.Fatalf("round = question %q, notes %q", r.Question, r.Notes)
	}
	if calls := opCalls(r.Ops); strings.Contains(calls, "Site hoarding") || !strings.Contains(calls, "Crane check") {
		t.Errorf("ops:\n%s", calls)
	}
}

// askingPlanner's removals step never stops asking.
type askingPlanner struct{ scope.Rules }

func (askingPlanner) PlanRemovals(context.Context, scope.Snapshot, scope.PlanInput) (scope.Plan, error) {
	return scope.Plan{Question: "which one?", About: "it"}, nil
}

func opCalls(ops []schedule.Op) string {
	var out []string
	for _, op := range ops {
		out = append(out, op.Call)
	}
	return strings.Join(out, "\n")
}

// script is RoundEffects that log what the round asks of them: each
// planning step asks, questions times, before it proposes one op.
type script struct {
	questions int    // a step asks this many questions, then plans
	answers   int    // answers the person gives in all (then none comes)
	asked     int    // questions asked of the current step
	step      string // the current step's kind and prompt
	log       []string
}

func (s *script) Separate(context.Context) (scope.Separation, error) {
	s.log = append(s.log, "separate")
	return scope.Separation{Removals: "delete A; delete B", Additions: "add C", Tasks: []scope.Task{
		{ID: "1", Prompt: "delete A", Removals: "delete A"}, {ID: "2", Prompt: "delete B, then add C", Removals: "delete B", Additions: "add C", DependsOn: []string{"1"}},
	}}, nil
}

func (s *script) Begin(task string) { s.log = append(s.log, "begin "+task) }

func (s *script) Plan(_ context.Context, st scope.Step, in scope.PlanInput) (scope.Plan, error) {
	s.log = append(s.log, fmt.Sprintf("plan %s %q answers=%d", st.Kind, in.Prompt, len(in.Clarifications)))
	if step := st.Kind + in.Prompt; step != s.step {
		s.step, s.asked = step, 0
	}
	if s.asked < s.questions {
		s.asked++
		return scope.Plan{Question: "which one?", About: in.Prompt, Ops: []schedule.Op{schedule.RemoveActivity("x")}}, nil
	}
	return scope.Plan{Ops: []schedule.Op{schedule.RemoveActivity(in.Prompt)}}, nil
}

func (s *script) Ask(context.Context, scope.Step, scope.Plan) (string, bool, error) {
	if s.answers == 0 {
		return "", false, nil
	}
	s.answers--
	s.log = append(s.log, "answered")
	return "that one", true, nil
}

func (s *script) Apply(_ context.Context, st scope.Step, task string, ops []schedule.Op) error {
	s.log = append(s.log, fmt.Sprintf("apply %s task=%q %s", st.Kind, task, ops[0].ActivityID))
	return nil
}

func (s *script) Fail(context.Context, scope.Task, error) error { return nil }
func (s *script) Ends(error) bool                               { return false }

// TestRunRoundLegacy: the behaviours of dispatches recorded before a
// versioned change, which they replay, beside today's round.
func TestRunRoundLegacy(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name                string
		old                 scope.Legacy
		questions, answers  int
		want, question, tag string
	}{
		{"today: tasks in order, each step asking once", scope.Legacy{}, 1, 9,
			"separate|begin 1|plan removals \"delete A\" answers=0|answered|plan removals \"delete A\" answers=1|apply removals task=\"1\" delete A|" +
				"begin 2|plan removals \"delete B\" answers=1|answered|plan removals \"delete B\" answers=2|apply removals task=\"2\" delete B|" +
				"plan additions \"add C\" answers=2|answered|plan additions \"add C\" answers=3|apply additions task=\"2\" add C", "", "1:planned 2:planned"},
		{"today: no answer stops the round at the question", scope.Legacy{}, 1, 1,
			"separate|begin 1|plan removals \"delete A\" answers=0|answered|plan removals \"delete A\" answers=1|apply removals task=\"1\" delete A|" +
				"begin 2|plan removals \"delete B\" answers=1", "which one?", "1:planned 2:asking"},
		{"today: a step still asking after the cap is left out", scope.Legacy{NoTasks: true}, 9, 99,
			"separate|begin |" + strings.Repeat("plan removals \"delete A; delete B\" answers=N|answered|", scope.MaxQuestionsPerStep) +
				"plan removals \"delete A; delete B\" answers=N|" + strings.Repeat("plan additions \"add C\" answers=N|answered|", scope.MaxQuestionsPerStep) +
				"plan additions \"add C\" answers=N", "", ""},
		{"before task-graph and clarification-stage: the prompt whole, questions at review", scope.Legacy{NoTasks: true, QuestionsAtReview: true}, 1, 9,
			"separate|begin |plan removals \"delete A; delete B\" answers=N|apply removals task=\"\" x|plan additions \"add C\" answers=N|apply additions task=\"\" x",
			"which one? which one?", ""},
		{"before bounded-dispatch: no cap on questions", scope.Legacy{NoTasks: true, UnboundedQuestions: true}, scope.MaxQuestionsPerStep + 1, 99,
			"separate|begin |" + strings.Repeat("plan removals \"delete A; delete B\" answers=N|answered|", scope.MaxQuestionsPerStep+1) +
				"plan removals \"delete A; delete B\" answers=N|apply removals task=\"\" delete A; delete B|" +
				strings.Repeat("plan additions \"add C\" answers=N|answered|", scope.MaxQuestionsPerStep+1) + "plan additions \"add C\" answers=N|apply additions task=\"\" add C", "", ""},
	}
	answersN := regexp.MustCompile(`answers=\d+`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := &script{questions: c.questions, answers: c.answers}
			var rep scope.RoundReport
			if err := scope.RunRound(ctx, fx, scope.RoundInput{Round: 1}, c.old, &rep); err != nil {
				t.Fatal(err)
			}
			got := strings.Join(fx.log, "|")
			if strings.Contains(c.want, "answers=N") {
				got = answersN.ReplaceAllString(got, "answers=N")
			}
			if got != c.want {
				t.Errorf("effects:\n got %s\nwant %s", strings.ReplaceAll(got, "|", "\n     "), strings.ReplaceAll(c.want, "|", "\n     "))
			}
			var tasks []string
			for _, r := range rep.Tasks {
				tasks = append(tasks, r.ID+":"+r.Status)
			}
			if rep.Question != c.question || strings.Join(tasks, " ") != c.tag {
				t.Errorf("question %q, tasks %q", rep.Question, tasks)
			}
		})
	}
}

// TestRunRoundTaskWithoutOps: feedback that names task 2 plans task 1
// again when the last round left none of its ops (it failed, was blocked
// or planned nothing); dispatches recorded before replan-failed-tasks kept
// it as it was, planning nothing.
func TestRunRoundTaskWithoutOps(t *testing.T) {
	for _, c := range []struct {
		old  scope.Legacy
		want string
	}{
		{scope.Legacy{}, "1:planned 2:planned"},
		{scope.Legacy{KeepTasksWithoutOps: true}, "1:kept 2:planned"},
	} {
		fx := &script{answers: 9}
		var rep scope.RoundReport
		in := scope.RoundInput{Round: 2, Feedback: "task 2: not B"}
		if err := scope.RunRound(context.Background(), fx, in, c.old, &rep); err != nil {
			t.Fatal(err)
		}
		var tasks []string
		for _, r := range rep.Tasks {
			tasks = append(tasks, r.ID+":"+r.Status)
		}
		if got := strings.Join(tasks, " "); got != c.want {
			t.Errorf("%+v: tasks %s, want %s (effects %s)", c.old, got, c.want, strings.Join(fx.log, "|"))
		}
	}
}
