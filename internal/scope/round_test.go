package scope_test

import (
	"context"
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
