package scope_test

import (
	"context"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/llm/llmtest"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// The LLM scope manager's constraint and progress tools, on a statused
// programme (data date 2026-03-16): what the model asks for is checked as
// the rules planner checks it, never applied blindly.
func TestManagerConstraintAndProgressTools(t *testing.T) {
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
		call       string // the op's call; "" none
		note       string
		question   string
	}{
		{name: "constraint", tool: "set_constraint", args: map[string]any{"activity": "Site set-up", "type": "start_on_or_after", "date": "2026-04-01"},
			call: `update_activity(name="Site set-up", constraint={"type":"start_on_or_after","date":"2026-04-01"})`},
		{name: "constraint off", tool: "set_constraint", args: map[string]any{"activity": "Excavate footings", "type": "none", "date": ""},
			call: `update_activity(name="Excavate footings", constraint=none, secondary_constraint=none)`},
		{name: "bad date", tool: "set_constraint", args: map[string]any{"activity": "Site set-up", "type": "finish_on", "date": "1 April"}, note: "is not YYYY-MM-DD"},
		{name: "ambiguous name asks", tool: "set_constraint", args: map[string]any{"activity": "footings", "type": "finish_on", "date": "2026-04-01"}, question: "matches 2 activities"},
		{name: "finish", tool: "report_progress", args: map[string]any{"activity": "Pour footings", "actual_start": "", "actual_finish": "2026-03-13", "percent_complete": nil, "remaining": ""},
			call: `update_activity(name="Pour footings", actual_finish="2026-03-13", percent_complete=100, remaining="0")`},
		{name: "after the data date", tool: "report_progress", args: map[string]any{"activity": "Pour footings", "actual_start": "", "actual_finish": "2026-03-20", "percent_complete": nil, "remaining": ""}, note: "after the data date"},
		{name: "percent without a start asks", tool: "report_progress", args: map[string]any{"activity": "Site set-up", "actual_start": "", "actual_finish": "", "percent_complete": 50, "remaining": ""}, question: "has no actual start"},
		{name: "data date", tool: "set_data_date", args: map[string]any{"date": "2026-04-13"},
			call: `set_data_date(date="2026-04-13T08:00")`, note: "keep their remaining durations"},
		{name: "data date unread", tool: "set_data_date", args: map[string]any{"date": "13 April"}, note: "not YYYY-MM-DD"},
		{name: "percent over 100", tool: "report_progress", args: map[string]any{"activity": "Pour footings", "actual_start": "", "actual_finish": "", "percent_complete": 150, "remaining": ""}, note: "is not a percent complete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := storetest.LiveSchedule()
			srv := llmtest.New(t, llmtest.Calls(llmtest.Call(tc.tool, tc.args)))
			m := &scope.Manager{LLM: client(t, srv.Config()), Candidates: 10}
			plan, err := m.PlanAdditions(context.Background(), scope.Snapshot{Schedule: s}, scope.PlanInput{Prompt: "the request", Round: 1})
			if err != nil {
				t.Fatal(err)
			}
			applied, _, err := schedule.ApplyAll(s.Clone(), plan.Ops)
			if err != nil {
				t.Fatal(err)
			}
			var calls []string
			for _, op := range applied {
				calls = append(calls, op.Call)
			}
			if got := strings.Join(calls, "; "); got != tc.call {
				t.Errorf("calls %q, want %q (notes %q)", got, tc.call, plan.Notes)
			}
			if !strings.Contains(strings.Join(plan.Notes, "\n"), tc.note) {
				t.Errorf("notes %q, want %q", plan.Notes, tc.note)
			}
			if !strings.Contains(plan.Question, tc.question) || (tc.question == "") != (plan.Question == "") {
				t.Errorf("question %q, want %q", plan.Question, tc.question)
			}
		})
	}
}

// The LLM scope manager's copy_place tool copies as the rules planner's
// "copy span 3 as span 5" does, and asks about a place with nothing on it.
func TestManagerCopyPlaceTool(t *testing.T) {
	bridge, _, err := interchange.Load("testdata/bridge.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     map[string]any
		adds     int
		note     string
		question string
	}{
		{name: "copy", args: map[string]any{"from": "span 3", "to": "span 5"}, adds: 4 + 3 + 1 + 3, note: "Span 5 is a copy of Span 3"},
		{name: "nothing there asks", args: map[string]any{"from": "span 9", "to": "span 5"}, question: "Which place should Span 5 copy? \"span 9\" names no place with activities. Answer like \"span 1\""},
		{name: "taken place", args: map[string]any{"from": "span 3", "to": "span 4"}, note: "Span 4 has activities already"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Calls(llmtest.Call("copy_place", tc.args)))
			m := &scope.Manager{LLM: client(t, srv.Config()), Candidates: 10}
			plan, err := m.PlanAdditions(context.Background(), scope.Snapshot{Schedule: bridge}, scope.PlanInput{Prompt: "the request", Round: 1})
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := schedule.ApplyAll(bridge.Clone(), plan.Ops); err != nil {
				t.Fatal(err)
			}
			if len(plan.Ops) != tc.adds {
				t.Errorf("%d ops, want %d (notes %q)", len(plan.Ops), tc.adds, plan.Notes)
			}
			if !strings.Contains(strings.Join(plan.Notes, "\n"), tc.note) {
				t.Errorf("notes %q, want %q", plan.Notes, tc.note)
			}
			if !strings.Contains(plan.Question, tc.question) || (tc.question == "") != (plan.Question == "") {
				t.Errorf("question %q, want %q", plan.Question, tc.question)
			}
		})
	}
}
