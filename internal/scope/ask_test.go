package scope_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/llm/llmtest"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
)

// askView is examples/building.json computed: Painting Level 4 is A110
// (early start day 130, 2026-07-10 08:00), driven by A107 and A109 on a
// 44-activity path; the project finishes on day 167 (2026-09-01 17:00);
// 54 of 147 activities are critical.
func askView(t *testing.T) *insight.View {
	t.Helper()
	s, net, err := interchange.Load("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := insight.NewOf(s, net.Compute())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// readTools are the tools the asker may offer, in order: the read tools
// and the answer.
var readTools = []string{"find_activities", "activity_details", "driving_path", "path_to_finish", "near_critical",
	"float_by_group", "critical_path", "project_finish", "schedule_checks", "what_if", "answer"}

// writeTools are the scope manager's tools that change a schedule.
var writeTools = []string{"delete_activity", "dissolve_activity", "delete_relationship", "remove_scope",
	"add_activity", "add_relationship", "add_scope"}

// scripted is a fake model: turn n (from 0) answers script[n] (the last
// one again once the script runs out); it records what it was offered and
// sent.
type scripted struct {
	script [][]llm.ToolCall
	err    error
	turns  int
	offers [][]string
	sent   [][]llm.Message
}

func (f *scripted) PromptWithTools(_ context.Context, msgs []llm.Message, tools []llm.Tool) ([]llm.ToolCall, llm.Usage, error) {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	f.offers = append(f.offers, names)
	f.sent = append(f.sent, slices.Clone(msgs))
	n := min(f.turns, len(f.script)-1)
	f.turns++
	if f.err != nil {
		return nil, llm.Usage{Calls: 1}, f.err
	}
	calls := slices.Clone(f.script[n])
	for i := range calls {
		calls[i].ID = "call_" + string(rune('a'+f.turns)) + string(rune('0'+i))
	}
	return calls, llm.Usage{PromptTokens: 10, CompletionTokens: 2, Calls: 1}, nil
}

func call(name string, args any) llm.ToolCall {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return llm.ToolCall{Name: name, Arguments: b}
}

func answer(text string, ids ...string) llm.ToolCall {
	if ids == nil {
		ids = []string{}
	}
	return call("answer", map[string]any{"text": text, "activities": ids})
}

func turn(calls ...llm.ToolCall) []llm.ToolCall { return calls }

// toolResults are the tool-result messages of the last request sent.
func toolResults(f *scripted) []string {
	var out []string
	for _, m := range f.sent[len(f.sent)-1] {
		if m.Role == llm.ToolResult {
			out = append(out, m.Content)
		}
	}
	return out
}

func canonicalSchedule(t *testing.T, v *insight.View) string {
	t.Helper()
	b, err := json.Marshal(v.S)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const paintingAnswer = "Painting Level 4 (A110) starts on day 130 (2026-07-10 08:00). It is driven by Suspended ceilings Level 4 (A107) and Doors and frames Level 4 (A109); the driving path has 44 activities."

// TestAskGrounding: what the model answers, and what the asker makes of
// it. A grounded answer is returned as it is; one that is not is sent back
// with what is unsupported, and after two repairs the offline answer is
// given instead.
func TestAskGrounding(t *testing.T) {
	v := askView(t)
	path := call("driving_path", map[string]string{"activity": "A110"})
	finish := call("project_finish", map[string]any{})
	cases := []struct {
		name     string
		question string
		script   [][]llm.ToolCall
		grounded bool
		ids      []string
		text     string   // the answer's text, when grounded
		problems []string // in the repair sent back after the first answer
		turns    int
	}{
		{
			name: "tools then a grounded answer", question: "what drives Painting Level 4",
			script:   [][]llm.ToolCall{turn(path), turn(answer(paintingAnswer, "A107", "A109", "A110"))},
			grounded: true, ids: []string{"A107", "A109", "A110"}, text: paintingAnswer, turns: 2,
		},
		{
			name: "an activity named instead of its id", question: "what drives Painting Level 4",
			script:   [][]llm.ToolCall{turn(call("driving_path", map[string]string{"activity": "painting level 4"})), turn(answer(paintingAnswer, "A110", "A110"))},
			grounded: true, ids: []string{"A110"}, text: paintingAnswer, turns: 2,
		},
		{
			name: "a number and a date no tool returned, then corrected", question: "when does the project finish",
			script: [][]llm.ToolCall{turn(finish),
				turn(answer("The project finishes on day 170, 2026-09-03.", "A147")),
				turn(answer("The project finishes on day 167 (2026-09-01 17:00).", "A147"))},
			grounded: true, ids: []string{"A147"}, text: "The project finishes on day 167 (2026-09-01 17:00).",
			problems: []string{"170", "2026-09-03"}, turns: 3,
		},
		{
			name: "a count the model worked out", question: "what drives Painting Level 4",
			script: [][]llm.ToolCall{turn(path),
				turn(answer("Painting Level 4 (A110) is at the end of a driving path of 45 activities.", "A110")),
				turn(answer("Painting Level 4 (A110) is at the end of a driving path of 45 activities.", "A110")),
				turn(answer("Painting Level 4 (A110) is at the end of a driving path of 45 activities.", "A110"))},
			problems: []string{"45"}, turns: 4,
		},
		{
			name: "a number the question gave, and a negative that no tool gave", question: "what if piling takes 5 more days",
			script: [][]llm.ToolCall{
				turn(call("what_if", map[string]any{"durations": []map[string]any{{"activity": "A009", "days": 5, "delta": true}}, "delays": []any{}, "remove_links": []any{}})),
				turn(answer("If Piling (A009) takes 5 more days, the finish moves from day 167 to day 172, -5 days.", "A009")),
				turn(answer("If Piling (A009) takes 5 more days, the finish moves from day 167 to day 172 (2026-09-08 17:00), 5 days later.", "A009"))},
			grounded: true, ids: []string{"A009"}, problems: []string{"-5"}, turns: 3,
			text: "If Piling (A009) takes 5 more days, the finish moves from day 167 to day 172 (2026-09-08 17:00), 5 days later.",
		},
		{
			name: "an id that does not exist", question: "what drives Painting Level 4",
			script: [][]llm.ToolCall{turn(path),
				turn(answer("Painting Level 4 (A110) is driven by Suspended ceilings Level 4 (A107).", "A110", "A999"))},
			problems: []string{`there is no activity "A999"`}, turns: 4,
		},
		{
			name: "an id no tool returned", question: "what drives Painting Level 4",
			script: [][]llm.ToolCall{turn(path),
				turn(answer("Painting Level 4 (A110) is driven by Final inspection (A145).", "A110"))},
			problems: []string{"A145"}, turns: 4,
		},
		{
			name: "an answer before any tool", question: "when does the project finish",
			script:   [][]llm.ToolCall{turn(answer("The project finishes on day 167.", "A147"))},
			problems: []string{"167", "A147 was returned by no tool"}, turns: 3,
		},
		{
			name: "no ids cited", question: "when does the project finish",
			script:   [][]llm.ToolCall{turn(finish), turn(answer("The project finishes on day 167."))},
			problems: []string{"no activity ids are cited"}, turns: 4,
		},
		{
			name: "an answer beside the call it needs", question: "when does the project finish",
			script: [][]llm.ToolCall{turn(finish, answer("The project finishes on day 167.", "A147")),
				turn(answer("The project finishes on day 167.", "A147"))},
			grounded: true, ids: []string{"A147"}, text: "The project finishes on day 167.", problems: []string{"167"}, turns: 2,
		},
		{
			name: "a number rounded to the decimals it shows", question: "float by level",
			script: [][]llm.ToolCall{turn(call("float_by_group", map[string]string{"group": "level"})),
				turn(answer("Mean total float: Level 1 29.36, no level 17.98 (17.979), least 0.", "A001"))},
			grounded: true, ids: []string{"A001"}, turns: 2,
			text: "Mean total float: Level 1 29.36, no level 17.98 (17.979), least 0.",
		},
		{
			name: "a number rounded to a whole", question: "float by level",
			script: [][]llm.ToolCall{turn(call("float_by_group", map[string]string{"group": "level"})),
				turn(answer("Activities with no level have a mean total float of 18 days.", "A001")),
				turn(answer("Activities with no level have a mean total float of 17.978723 days.", "A001"))},
			grounded: true, ids: []string{"A001"}, problems: []string{"in no tool result: 18"}, turns: 3,
			text: "Activities with no level have a mean total float of 17.978723 days.",
		},
		{
			name: "list markers, ids and names are not numbers", question: "what is the critical path",
			script: [][]llm.ToolCall{turn(call("critical_path", map[string]any{})),
				turn(answer("54 of 147 activities are critical. The first are:\n1. Notice to proceed (A001)\n2) Mobilisation (A002)\n3. Slab edge formwork Level 1 (A014), L1", "A001", "A002", "A014"))},
			grounded: true, ids: []string{"A001", "A002", "A014"}, turns: 2,
			text: "54 of 147 activities are critical. The first are:\n1. Notice to proceed (A001)\n2) Mobilisation (A002)\n3. Slab edge formwork Level 1 (A014), L1",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &scripted{script: tc.script}
			a := &scope.Asker{LLM: f}
			res, err := a.AskDetailed(context.Background(), v, tc.question)
			if err != nil {
				t.Fatal(err)
			}
			if res.Grounded != tc.grounded || res.Turns != tc.turns || f.turns != tc.turns {
				t.Fatalf("grounded %v after %d turns (model asked %d times), want %v after %d; fallback %q", res.Grounded, res.Turns, f.turns, tc.grounded, tc.turns, res.Fallback)
			}
			if res.Usage.Calls != tc.turns || res.Usage.PromptTokens != 10*tc.turns {
				t.Errorf("usage %+v", res.Usage)
			}
			if tc.grounded {
				if res.Answer.Answer != tc.text || !slices.Equal(res.Answer.Activities, tc.ids) || res.Fallback != "" {
					t.Errorf("answer %q %q, want %q %q", res.Answer.Answer, res.Answer.Activities, tc.text, tc.ids)
				}
			} else {
				// The offline answer, with the note.
				off := insight.Ask(v, tc.question)
				if !strings.HasPrefix(res.Answer.Answer, off.Answer+"\n\n(The model's answer was not used") ||
					!strings.Contains(res.Answer.Answer, "so this is the offline answer.") ||
					!slices.Equal(res.Answer.Activities, off.Activities) || res.Fallback == "" {
					t.Errorf("fallback answer %q %q (fallback %q), want the offline %q %q", res.Answer.Answer, res.Answer.Activities, res.Fallback, off.Answer, off.Activities)
				}
				for _, p := range tc.problems {
					if !strings.Contains(res.Fallback, p) {
						t.Errorf("fallback %q does not say %q", res.Fallback, p)
					}
				}
			}
			if len(tc.problems) > 0 {
				// The first repair names exactly what was unsupported.
				var repair string
				for _, msgs := range f.sent {
					for _, m := range msgs {
						if m.Role == llm.ToolResult && strings.HasPrefix(m.Content, "Error: your answer was not accepted") && repair == "" {
							repair = m.Content
						}
					}
				}
				for _, p := range tc.problems {
					if !strings.Contains(repair, p) {
						t.Errorf("repair %q does not say %q", repair, p)
					}
				}
			}
			for _, offered := range f.offers {
				if !slices.Equal(offered, readTools) {
					t.Errorf("offered %q", offered)
				}
			}
		})
	}
}

// TestAskRefusesWriteTools: the model calling a write tool (or anything
// not offered) is answered with an error and the call never runs; the
// schedule is unchanged; only read tools were ever offered.
func TestAskRefusesWriteTools(t *testing.T) {
	v := askView(t)
	before := canonicalSchedule(t, v)
	f := &scripted{script: [][]llm.ToolCall{
		turn(call("delete_activity", map[string]string{"activity": "A110"}),
			call("add_relationship", map[string]any{"predecessor": "A001", "successor": "A110", "type": "FS", "lag": 0}),
			call("remove_scope", map[string]string{"description": "everything on level 4"}),
			call("critical_path", map[string]any{})),
		turn(call("dissolve_activity", map[string]string{"activity": "A009"})),
		turn(answer("54 of 147 activities are critical, from Notice to proceed (A001).", "A001")),
	}}
	res, err := (&scope.Asker{LLM: f}).AskDetailed(context.Background(), v, "what is the critical path")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Grounded || !slices.Equal(res.Answer.Activities, []string{"A001"}) {
		t.Errorf("answer %+v (fallback %q)", res.Answer, res.Fallback)
	}
	if want := []string{"delete_activity", "add_relationship", "remove_scope", "dissolve_activity"}; !slices.Equal(res.Refused, want) {
		t.Errorf("refused %q, want %q", res.Refused, want)
	}
	if !slices.Equal(res.Called, []string{"critical_path"}) {
		t.Errorf("ran %q", res.Called)
	}
	results := toolResults(f)
	if len(results) != 5 {
		t.Fatalf("%d tool results: %q", len(results), results)
	}
	for _, i := range []int{0, 1, 2, 4} {
		if !strings.Contains(results[i], "it was not run") || !strings.Contains(results[i], "only read the schedule") {
			t.Errorf("result %d: %q", i, results[i])
		}
	}
	for _, offered := range f.offers {
		for _, w := range writeTools {
			if slices.Contains(offered, w) {
				t.Errorf("offered %s", w)
			}
		}
	}
	if canonicalSchedule(t, v) != before {
		t.Error("the schedule changed")
	}
	// The offered list is the asker's whole toolkit.
	var names []string
	for _, tool := range scope.AskTools() {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, readTools) {
		t.Errorf("AskTools = %q", names)
	}
}

// TestAskOverTheWire: the real client against the scripted server. Every
// request offers the read tools only; a write tool the model calls is
// refused by the client's validation (its repair round says there is no
// such tool), never run, and a model that insists gets the offline answer.
func TestAskOverTheWire(t *testing.T) {
	v := askView(t)
	before := canonicalSchedule(t, v)
	del := llmtest.Call("delete_activity", map[string]string{"activity": "A110"})
	cases := []struct {
		name     string
		steps    []llmtest.Step
		grounded bool
	}{
		{"tools then an answer", []llmtest.Step{
			llmtest.Calls(llmtest.Call("driving_path", map[string]string{"activity": "A110"})),
			llmtest.Calls(llmtest.Call("answer", map[string]any{"text": paintingAnswer, "activities": []string{"A107", "A109", "A110"}})),
		}, true},
		{"a write tool, then the model corrects itself", []llmtest.Step{
			llmtest.Calls(del),
			llmtest.Calls(llmtest.Call("driving_path", map[string]string{"activity": "A110"})),
			llmtest.Calls(llmtest.Call("answer", map[string]any{"text": paintingAnswer, "activities": []string{"A110"}})),
		}, true},
		{"a write tool, twice", []llmtest.Step{
			llmtest.Calls(del),
			llmtest.Calls(llmtest.Call("add_relationship", map[string]any{"predecessor": "A001", "successor": "A110", "type": "FS", "lag": 0})),
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, tc.steps...)
			res, err := (&scope.Asker{LLM: client(t, srv.Config())}).AskDetailed(context.Background(), v, "what drives Painting Level 4")
			if err != nil {
				t.Fatal(err)
			}
			if res.Grounded != tc.grounded {
				t.Fatalf("grounded %v, fallback %q, answer %q", res.Grounded, res.Fallback, res.Answer.Answer)
			}
			if tc.grounded && !strings.HasPrefix(res.Answer.Answer, "Painting Level 4 (A110) starts on day 130") {
				t.Errorf("answer %q", res.Answer.Answer)
			}
			if !tc.grounded && (!strings.Contains(res.Fallback, `there is no tool "add_relationship"`) || !strings.Contains(res.Answer.Answer, "so this is the offline answer")) {
				t.Errorf("fallback %q, answer %q", res.Fallback, res.Answer.Answer)
			}
			reqs := srv.Requests()
			if len(reqs) != len(tc.steps) {
				t.Errorf("%d requests for %d steps", len(reqs), len(tc.steps))
			}
			for i, r := range reqs {
				if !slices.Equal(r.Tools, readTools) {
					t.Errorf("request %d offered %q", i, r.Tools)
				}
			}
			if res.Usage != srv.Usage() {
				t.Errorf("usage %+v, server counted %+v", res.Usage, srv.Usage())
			}
			if canonicalSchedule(t, v) != before {
				t.Error("the schedule changed")
			}
		})
	}
}

// TestAskLoopCap: a model that never answers is stopped after MaxTurns
// turns and the offline answer given.
func TestAskLoopCap(t *testing.T) {
	v := askView(t)
	for _, max := range []int{0, 3} {
		f := &scripted{script: [][]llm.ToolCall{turn(call("project_finish", map[string]any{}))}}
		res, err := (&scope.Asker{LLM: f, MaxTurns: max}).AskDetailed(context.Background(), v, "when does the project finish")
		if err != nil {
			t.Fatal(err)
		}
		want := max
		if want == 0 {
			want = 8
		}
		if f.turns != want || res.Turns != want || res.Grounded || !strings.Contains(res.Fallback, "no grounded answer in") {
			t.Errorf("MaxTurns %d: %d turns (%d), grounded %v, fallback %q", max, f.turns, res.Turns, res.Grounded, res.Fallback)
		}
		if off := insight.Ask(v, "when does the project finish"); !strings.HasPrefix(res.Answer.Answer, off.Answer) {
			t.Errorf("answer %q", res.Answer.Answer)
		}
	}
}

// TestAskModelErrors: an endpoint failing is an error (with the usage so
// far); a reply the client could not use after its repair is the offline
// answer.
func TestAskModelErrors(t *testing.T) {
	v := askView(t)
	down := &scripted{script: [][]llm.ToolCall{nil}, err: &llm.Error{Kind: llm.KindServer, Message: "boom"}}
	_, u, err := (&scope.Asker{LLM: down}).Ask(context.Background(), v, "when does the project finish")
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindServer || u.Calls != 1 {
		t.Errorf("err %v, usage %+v", err, u)
	}
	bad := &scripted{script: [][]llm.ToolCall{nil}, err: &llm.Error{Kind: llm.KindInvalidOutput, Message: "no tool called"}}
	ans, _, err := (&scope.Asker{LLM: bad}).Ask(context.Background(), v, "when does the project finish")
	if err != nil || !strings.Contains(ans.Answer, "could not be used") || !strings.Contains(ans.Answer, "day 167") {
		t.Errorf("answer %q, err %v", ans.Answer, err)
	}
}

// TestAskToolResults: the read tools answer as insight does, in JSON the
// model reads; an unknown activity is an error result, not a failure.
func TestAskToolResults(t *testing.T) {
	v := askView(t)
	f := &scripted{script: [][]llm.ToolCall{
		turn(call("critical_path", map[string]any{}),
			call("near_critical", map[string]any{"days": 5}),
			call("float_by_group", map[string]any{"group": "level"}),
			call("find_activities", map[string]any{"text": "painting", "level": "", "trade": "", "critical": nil, "min_total_float": nil, "max_total_float": nil,
				"from": "", "to": "", "min_duration": nil, "max_duration": nil, "limit": 0}),
			call("activity_details", map[string]string{"activity": "A110"}),
			call("path_to_finish", map[string]any{}),
			call("driving_path", map[string]string{"activity": "Nonexistent thing"})),
		turn(answer("54 of 147 activities are critical.", "A001")),
	}}
	res, err := (&scope.Asker{LLM: f}).AskDetailed(context.Background(), v, "tell me")
	if err != nil || !res.Grounded {
		t.Fatalf("%+v %v", res, err)
	}
	r := toolResults(f)
	for i, want := range []string{
		`{"count":54,"total_activities":147,"shown":54,"activities":[{"id":"A001","name":"Notice to proceed","duration":0,`,
		`{"count":`,
		`{"groups":[{"group":"1","label":"Level 1",`,
		`{"total":4,"shown":4,"activities":[`,
		`{"activity":{"id":"A110","name":"Painting Level 4","duration":`,
		`{"count":`,
		`Error: no activity "Nonexistent thing": find its id with find_activities`,
	} {
		if !strings.HasPrefix(r[i], want) {
			t.Errorf("result %d: %.200s, want it to start %s", i, r[i], want)
		}
	}
}

// TestAskLongPath: a path longer than 100 activities is cut to the 100
// nearest its end, with the count of all of them, so one result cannot
// fill the model's context.
func TestAskLongPath(t *testing.T) {
	s := &schedule.Schedule{}
	for i := 1; i <= 120; i++ {
		s.Activities = append(s.Activities, schedule.Activity{ID: fmt.Sprintf("X%03d", i), Name: fmt.Sprintf("Step %d", i), Duration: "1"})
		if i > 1 {
			s.Relationships = append(s.Relationships, schedule.Relationship{ID: fmt.Sprintf("R%03d", i), Type: schedule.FS,
				Predecessor: fmt.Sprintf("X%03d", i-1), Successor: fmt.Sprintf("X%03d", i)})
		}
	}
	v, err := insight.New(s)
	if err != nil {
		t.Fatal(err)
	}
	f := &scripted{script: [][]llm.ToolCall{
		turn(call("path_to_finish", map[string]any{})),
		turn(answer("The finish, day 120, is driven by a path of 120 activities ending with Step 120 (X120).", "X120")),
	}}
	res, err := (&scope.Asker{LLM: f}).AskDetailed(context.Background(), v, "path to finish")
	if err != nil || !res.Grounded {
		t.Fatalf("%+v %v", res, err)
	}
	var p struct {
		Count, Shown int
		Activities   []struct{ ID string }
		Links        []struct{ Predecessor string }
	}
	if err := json.Unmarshal([]byte(toolResults(f)[0]), &p); err != nil {
		t.Fatal(err)
	}
	if p.Count != 120 || p.Shown != 100 || len(p.Activities) != 100 || p.Activities[0].ID != "X021" || len(p.Links) != 99 || p.Links[0].Predecessor != "X021" {
		t.Errorf("count %d, shown %d, %d activities from %v, %d links", p.Count, p.Shown, len(p.Activities), p.Activities[0], len(p.Links))
	}
}
