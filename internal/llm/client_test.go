package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/llm/llmtest"
)

// Plan is a structured reply like the scope manager's.
type Plan struct {
	Summary    string     `json:"summary" desc:"One sentence on what changes."`
	Activities []Activity `json:"activities"`
	Links      []Link     `json:"links"`
	Question   *string    `json:"question" desc:"A question for the planner, or null."`
}

type Activity struct {
	Name      string `json:"name"`
	Duration  string `json:"duration" desc:"Working days, or a distribution such as pert(2,3,5)."`
	Milestone bool   `json:"milestone"`
}

type Link struct {
	Type        string  `json:"type" enum:"FS,SS,FF,SF"`
	Predecessor string  `json:"predecessor"`
	Successor   string  `json:"successor"`
	Lag         float64 `json:"lag"`
}

type AddActivityArgs struct {
	Name     string `json:"name"`
	Duration string `json:"duration"`
}

type RemoveActivityArgs struct {
	Name string `json:"name"`
}

var tools = []llm.Tool{
	llm.ToolFor[AddActivityArgs]("add_activity", "Add an activity to the schedule."),
	llm.ToolFor[RemoveActivityArgs]("remove_activity", "Remove an activity and its relationships."),
}

var prompt = []llm.Message{
	{Role: llm.System, Content: "You edit CPM schedules."},
	{Role: llm.User, Content: "Add excavation on floor 1 before the slab."},
}

var goodPlan = map[string]any{
	"summary":    "Add excavation before the slab.",
	"activities": []any{map[string]any{"name": "Excavate L1", "duration": "5", "milestone": false}},
	"links": []any{
		map[string]any{"type": "FS", "predecessor": "Excavate L1", "successor": "Pour slab L1", "lag": 0},
	},
	"question": nil,
}

// planWith is goodPlan with links[2] replaced by link: three links, so
// errors name links[2].
func planWith(link map[string]any) map[string]any {
	p := map[string]any{}
	for k, v := range goodPlan {
		p[k] = v
	}
	ok := map[string]any{"type": "SS", "predecessor": "A", "successor": "B", "lag": 1}
	p["links"] = []any{ok, ok, link}
	return p
}

func newClient(t *testing.T, srv *llmtest.Server, edit ...func(*llm.Config)) *llm.Client {
	t.Helper()
	cfg := srv.Config()
	for _, e := range edit {
		e(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func asError(t *testing.T, err error) *llm.Error {
	t.Helper()
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *llm.Error", err, err)
	}
	return e
}

func TestPrompt(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("Excavate, then pour."))
	c := newClient(t, srv)
	got, usage, err := c.Prompt(context.Background(), prompt)
	if err != nil {
		t.Fatal(err)
	}
	if got != "Excavate, then pour." {
		t.Errorf("text %q", got)
	}
	if want := srv.Usage(); usage != want || usage.Calls != 1 || usage.PromptTokens == 0 || usage.CompletionTokens == 0 {
		t.Errorf("usage %+v, server counted %+v", usage, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Model != llmtest.Model || !reflect.DeepEqual(r.Messages, prompt) || r.Tools != nil || r.ResponseFormat != "" {
		t.Errorf("request %+v", r)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+llmtest.Key {
		t.Errorf("Authorization %q", got)
	}
}

func TestPromptSendsConversation(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("done"))
	c := newClient(t, srv)
	call := llm.ToolCall{ID: "call_1", Name: "remove_activity", Arguments: json.RawMessage(`{"name":"Paint L2"}`)}
	msgs := append(append([]llm.Message(nil), prompt...),
		llm.Message{Role: llm.Assistant, ToolCalls: []llm.ToolCall{call}},
		llm.Message{Role: llm.ToolResult, ToolCallID: "call_1", Content: "removed"},
	)
	if _, _, err := c.Prompt(context.Background(), msgs); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].Messages; !reflect.DeepEqual(got, msgs) {
		t.Errorf("server read\n%+v\nwant\n%+v", got, msgs)
	}
}

func TestPromptRejectsBadMessages(t *testing.T) {
	srv := llmtest.New(t)
	c := newClient(t, srv)
	for _, msgs := range [][]llm.Message{
		nil,
		{{Role: "narrator", Content: "x"}},
		{{Role: llm.ToolResult, Content: "x"}},
	} {
		_, _, err := c.Prompt(context.Background(), msgs)
		if e := asError(t, err); e.Kind != llm.KindBadRequest || e.Retryable {
			t.Errorf("%v: %+v", msgs, e)
		}
	}
}

func TestPromptWithTools(t *testing.T) {
	srv := llmtest.New(t, llmtest.Calls(
		llmtest.Call("remove_activity", RemoveActivityArgs{Name: "Paint L2"}),
		llmtest.Call("add_activity", AddActivityArgs{Name: "Excavate L1", Duration: "5"}),
	))
	c := newClient(t, srv)
	calls, usage, err := c.PromptWithTools(context.Background(), prompt, tools)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 || calls[0].Name != "remove_activity" || calls[1].Name != "add_activity" {
		t.Fatalf("calls %+v", calls)
	}
	var args AddActivityArgs
	if err := json.Unmarshal(calls[1].Arguments, &args); err != nil || args != (AddActivityArgs{"Excavate L1", "5"}) {
		t.Errorf("arguments %s: %v", calls[1].Arguments, err)
	}
	if calls[0].ID == "" || calls[0].ID == calls[1].ID {
		t.Errorf("call IDs %q, %q", calls[0].ID, calls[1].ID)
	}
	if usage != srv.Usage() || usage.Calls != 1 {
		t.Errorf("usage %+v, server %+v", usage, srv.Usage())
	}
	r := srv.Requests()[0]
	if !reflect.DeepEqual(r.Tools, []string{"add_activity", "remove_activity"}) || r.ToolChoice != "required" {
		t.Errorf("tools %v, tool_choice %q", r.Tools, r.ToolChoice)
	}
}

func TestPromptWithToolsRepair(t *testing.T) {
	good := llmtest.Calls(llmtest.Call("add_activity", AddActivityArgs{Name: "Excavate L1", Duration: "5"}))
	tests := []struct {
		name  string
		first llmtest.Step
		want  string // in the repair request
	}{
		{"unknown tool", llmtest.Calls(llmtest.Call("delete_everything", map[string]any{})), `there is no tool "delete_everything"`},
		{"missing argument", llmtest.Calls(llmtest.Call("add_activity", map[string]any{"name": "X"})), `missing required property "duration"`},
		{"wrong type", llmtest.Calls(llmtest.Call("remove_activity", map[string]any{"name": 7})), `name: expected string, got 7`},
		{"arguments not JSON", llmtest.Calls(llmtest.Call("remove_activity", `{"name": "X"`)), `not JSON`},
		{"no call", llmtest.Text("Which floor?"), `You must answer by calling one or more of these tools: add_activity, remove_activity`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := []llmtest.Step{tt.first, good}
			if tt.name == "no call" {
				// Without a call under tool_choice "required" the server
				// is not enforcing it and the tools move to the prompt
				// (TestToolNegotiation); a reply without a call is the
				// model's under tool_choice auto.
				steps = append([]llmtest.Step{llmtest.APIError(400, `"tool_choice" must be "auto" or "none"`, "")}, steps...)
			}
			srv := llmtest.New(t, steps...)
			c := newClient(t, srv)
			calls, usage, err := c.PromptWithTools(context.Background(), prompt, tools)
			if err != nil {
				t.Fatal(err)
			}
			if len(calls) != 1 || calls[0].Name != "add_activity" {
				t.Errorf("calls %+v", calls)
			}
			if usage.Calls != 2 || usage != srv.Usage() {
				t.Errorf("usage %+v, server %+v", usage, srv.Usage())
			}
			reqs := srv.Requests()
			repair := reqs[len(reqs)-1].Messages
			if len(repair) < len(prompt)+2 || !reflect.DeepEqual(repair[:len(prompt)], prompt) {
				t.Fatalf("repair request %+v", repair)
			}
			var text strings.Builder
			for _, m := range repair[len(prompt):] {
				text.WriteString(m.Content + "\n")
			}
			if !strings.Contains(text.String(), tt.want) {
				t.Errorf("repair turn does not say %q:\n%s", tt.want, text.String())
			}
			if after := repair[len(prompt)]; after.Role != llm.Assistant {
				t.Errorf("repair starts with %+v, want the model's reply", after)
			}
		})
	}
}

func TestPromptWithToolsRepairAnswersEveryCall(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Calls(
			llm.ToolCall{ID: "a", Name: "remove_activity", Arguments: json.RawMessage(`{"name":"Paint L2"}`)},
			llm.ToolCall{ID: "b", Name: "remove_activity", Arguments: json.RawMessage(`{}`)},
		),
		llmtest.Calls(llmtest.Call("remove_activity", RemoveActivityArgs{"Paint L2"})),
	)
	c := newClient(t, srv)
	if _, _, err := c.PromptWithTools(context.Background(), prompt, tools); err != nil {
		t.Fatal(err)
	}
	turn := srv.Requests()[1].Messages[len(prompt):]
	if len(turn) != 4 || len(turn[0].ToolCalls) != 2 || turn[1].ToolCallID != "a" || turn[2].ToolCallID != "b" || turn[3].Role != llm.User {
		t.Fatalf("repair turn %+v", turn)
	}
	if !strings.HasPrefix(turn[1].Content, "Valid") || !strings.Contains(turn[2].Content, `missing required property "name"`) {
		t.Errorf("answers %q, %q", turn[1].Content, turn[2].Content)
	}
}

func TestPromptWithToolsInvalidTwice(t *testing.T) {
	bad := llmtest.Calls(llmtest.Call("add_activity", map[string]any{"name": "X", "duration": 5}))
	srv := llmtest.New(t, bad, bad)
	c := newClient(t, srv)
	_, usage, err := c.PromptWithTools(context.Background(), prompt, tools)
	e := asError(t, err)
	if e.Kind != llm.KindInvalidOutput || e.Retryable || !strings.Contains(e.Message, "duration: expected string, got 5") {
		t.Errorf("error %v", e)
	}
	if usage.Calls != 2 {
		t.Errorf("usage %+v", usage)
	}
}

func TestPromptWithToolsWithoutRequiredChoice(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.APIError(400, `"tool_choice" must be "auto" or "none"`, ""),
		llmtest.Calls(llmtest.Call("remove_activity", RemoveActivityArgs{"Paint L2"})),
		llmtest.Calls(llmtest.Call("remove_activity", RemoveActivityArgs{"Paint L3"})),
	)
	c := newClient(t, srv)
	for range 2 {
		if _, _, err := c.PromptWithTools(context.Background(), prompt, tools); err != nil {
			t.Fatal(err)
		}
	}
	var choices []string
	for _, r := range srv.Requests() {
		choices = append(choices, r.ToolChoice)
	}
	if !reflect.DeepEqual(choices, []string{"required", "", ""}) {
		t.Errorf("tool_choice per request %q: want required, then none, remembered", choices)
	}
}

func TestPromptWithToolsRejectsBadTools(t *testing.T) {
	c := newClient(t, llmtest.New(t))
	for _, ts := range [][]llm.Tool{nil, {{Name: "", Parameters: map[string]any{}}}, {tools[0], tools[0]}, {{Name: "x"}}} {
		if _, _, err := c.PromptWithTools(context.Background(), prompt, ts); asError(t, err).Kind != llm.KindBadRequest {
			t.Errorf("%v: %v", ts, err)
		}
	}
}

func TestParseStructured(t *testing.T) {
	srv := llmtest.New(t, llmtest.JSON(goodPlan))
	c := newClient(t, srv)
	plan, usage, err := llm.ParseStructured[Plan](context.Background(), c, prompt, "plan")
	if err != nil {
		t.Fatal(err)
	}
	want := Plan{
		Summary:    "Add excavation before the slab.",
		Activities: []Activity{{Name: "Excavate L1", Duration: "5"}},
		Links:      []Link{{Type: "FS", Predecessor: "Excavate L1", Successor: "Pour slab L1"}},
	}
	if !reflect.DeepEqual(plan, want) {
		t.Errorf("plan %+v", plan)
	}
	if usage != srv.Usage() || usage.Calls != 1 {
		t.Errorf("usage %+v, server %+v", usage, srv.Usage())
	}
	r := srv.Requests()[0]
	if r.ResponseFormat != "plan" {
		t.Errorf("response_format %q", r.ResponseFormat)
	}
	wantSchema := roundTrip(t, llm.SchemaFor[Plan]())
	if !reflect.DeepEqual(r.Schema, wantSchema) {
		t.Errorf("schema sent %v", r.Schema)
	}
	if !strings.Contains(string(r.Body), `"strict":true`) {
		t.Errorf("request not strict: %s", r.Body)
	}
}

func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParseStructuredRepair(t *testing.T) {
	withExtra := planWith(map[string]any{"type": "FS", "predecessor": "A", "successor": "B", "lag": 0, "kind": "hard"})
	tests := []struct {
		name  string
		first llmtest.Step
		want  string
	}{
		{"malformed JSON", llmtest.Text(`{"summary": "Add excavation", "activities": [`), "not JSON: unexpected end of input"},
		{"prose", llmtest.Text(`Sure! Here is the plan.`), "not JSON"},
		{"wrong enum", llmtest.JSON(planWith(map[string]any{"type": "XX", "predecessor": "A", "successor": "B", "lag": 0})), `links[2].type: "XX" is not one of FS, SS, FF, SF`},
		{"missing field", llmtest.JSON(planWith(map[string]any{"type": "FS", "predecessor": "A", "lag": 0})), `links[2]: missing required property "successor"`},
		{"extra field", llmtest.JSON(withExtra), `links[2]: unknown property "kind"`},
		{"wrong type", llmtest.JSON(planWith(map[string]any{"type": "FS", "predecessor": "A", "successor": "B", "lag": "two"})), `links[2].lag: expected number, got "two"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.first, llmtest.JSON(goodPlan))
			c := newClient(t, srv)
			plan, usage, err := llm.ParseStructured[Plan](context.Background(), c, prompt, "plan")
			if err != nil {
				t.Fatal(err)
			}
			if plan.Summary == "" || len(plan.Links) != 1 {
				t.Errorf("plan %+v", plan)
			}
			if usage.Calls != 2 || usage != srv.Usage() {
				t.Errorf("usage %+v, server %+v", usage, srv.Usage())
			}
			reqs := srv.Requests()
			repair := reqs[1].Messages
			if len(repair) != len(prompt)+2 {
				t.Fatalf("repair request %+v", repair)
			}
			if got := repair[len(prompt)]; got.Role != llm.Assistant || got.Content != reqs0Reply(t, tt.first) {
				t.Errorf("repair shows %+v, want the model's reply", got)
			}
			if got := repair[len(prompt)+1]; got.Role != llm.User || !strings.Contains(got.Content, tt.want) {
				t.Errorf("repair says %q, want it to contain %q", got.Content, tt.want)
			}
			if reqs[1].ResponseFormat != "plan" {
				t.Errorf("repair response_format %q", reqs[1].ResponseFormat)
			}
		})
	}
}

// reqs0Reply is the content a Text or JSON step sends: what the model
// "said" in the first round.
func reqs0Reply(t *testing.T, step llmtest.Step) string {
	t.Helper()
	srv := llmtest.New(t, step)
	got, _, err := newClient(t, srv).Prompt(context.Background(), prompt)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestParseStructuredInvalidTwice(t *testing.T) {
	bad := llmtest.JSON(planWith(map[string]any{"type": "XX", "predecessor": "A", "successor": "B", "lag": 0}))
	srv := llmtest.New(t, bad, bad)
	c := newClient(t, srv)
	_, usage, err := llm.ParseStructured[Plan](context.Background(), c, prompt, "plan")
	e := asError(t, err)
	if e.Kind != llm.KindInvalidOutput || e.Retryable {
		t.Errorf("error %+v", e)
	}
	if want := `links[2].type: "XX" is not one of FS, SS, FF, SF`; !strings.Contains(e.Error(), want) {
		t.Errorf("error %q does not name %q", e.Error(), want)
	}
	if usage.Calls != 2 || len(srv.Requests()) != 2 {
		t.Errorf("usage %+v, %d requests", usage, len(srv.Requests()))
	}
}

func TestParseStructuredNotAnObject(t *testing.T) {
	srv := llmtest.New(t, llmtest.JSON(map[string]any{"value": []string{"Excavate L1", "Pour slab L1"}}))
	c := newClient(t, srv)
	names, _, err := llm.ParseStructured[[]string](context.Background(), c, prompt, "activity names")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(names, []string{"Excavate L1", "Pour slab L1"}) {
		t.Errorf("names %q", names)
	}
	r := srv.Requests()[0]
	if r.ResponseFormat != "activity_names" || r.Schema["type"] != "object" {
		t.Errorf("response_format %q, schema %v", r.ResponseFormat, r.Schema)
	}
}

func TestParseStructuredCodeFence(t *testing.T) {
	b, _ := json.Marshal(goodPlan)
	srv := llmtest.New(t, llmtest.Text("```json\n"+string(b)+"\n```"))
	if _, _, err := llm.ParseStructured[Plan](context.Background(), newClient(t, srv), prompt, "plan"); err != nil {
		t.Fatal(err)
	}
}

// llamaCppPythonRefusal is what llama-cpp-python's server answers a
// response_format it does not know: a 500 carrying pydantic's message.
const llamaCppPythonRefusal = `{"error":{"message":"1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  Input should be 'text' or 'json_object' [type=literal_error, input_value='json_schema', input_type=str]","type":"internal_server_error","param":null,"code":null}}`

// TestStructuredNegotiation: a server that refuses json_schema is asked with
// json_object and the schema in the prompt, one that refuses that too with
// the schema in the prompt alone; the step down happens once (no retries
// of a refusal) and is remembered for the next call.
func TestStructuredNegotiation(t *testing.T) {
	tests := []struct {
		name    string
		steps   []llmtest.Step
		calls   int      // ParseStructured calls made
		formats []string // response_format per request: the schema's name, json_object or ""
		after   string   // Negotiated() afterwards
		errKind string   // of the first call, "" for none
	}{
		{"400 names json_schema",
			[]llmtest.Step{llmtest.APIError(400, "response_format type json_schema is not supported", ""), llmtest.JSON(goodPlan), llmtest.JSON(goodPlan)},
			2, []string{"plan", "json_object", "json_object"}, "structured output json_object", ""},
		{"500 names response_format (llama-cpp-python)",
			[]llmtest.Step{llmtest.Status(500, llamaCppPythonRefusal), llmtest.JSON(goodPlan), llmtest.JSON(goodPlan)},
			2, []string{"plan", "json_object", "json_object"}, "structured output json_object", ""},
		{"501 names response_format",
			[]llmtest.Step{llmtest.APIError(501, "response_format is not implemented", ""), llmtest.JSON(goodPlan)},
			1, []string{"plan", "json_object"}, "structured output json_object", ""},
		{"json_object refused too: the schema in the prompt",
			[]llmtest.Step{
				llmtest.Status(500, llamaCppPythonRefusal),
				llmtest.APIError(400, "'response_format' of type 'json_object' is not supported with this model", ""),
				llmtest.JSON(goodPlan), llmtest.JSON(goodPlan),
			},
			2, []string{"plan", "json_object", "", ""}, "structured output text", ""},
		{"a 500 naming no option is a server failure, retried",
			[]llmtest.Step{llmtest.APIError(500, "CUDA out of memory", ""), llmtest.JSON(goodPlan)},
			1, []string{"plan", "plan"}, "structured output json_schema", ""},
		{"a 500 naming response_format without refusing it is retried",
			[]llmtest.Step{llmtest.APIError(500, "timeout while applying response_format grammar", ""), llmtest.JSON(goodPlan)},
			1, []string{"plan", "plan"}, "structured output json_schema", ""},
		{"a 400 naming no option is the caller's error",
			[]llmtest.Step{llmtest.APIError(400, "Invalid value for 'messages'", "")},
			1, []string{"plan"}, "structured output json_schema", llm.KindBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.steps...)
			c := newClient(t, srv)
			for i := range tt.calls {
				plan, _, err := llm.ParseStructured[Plan](context.Background(), c, prompt, "plan")
				if i == 0 && tt.errKind != "" {
					if e := asError(t, err); e.Kind != tt.errKind || e.Attempts != 1 {
						t.Fatalf("error %+v, want %s after 1 attempt", e, tt.errKind)
					}
					continue
				}
				if err != nil {
					t.Fatalf("call %d: %v", i+1, err)
				}
				if plan.Summary != goodPlan["summary"] {
					t.Errorf("plan %+v", plan)
				}
			}
			var formats []string
			for _, r := range srv.Requests() {
				formats = append(formats, r.ResponseFormat)
			}
			if !reflect.DeepEqual(formats, tt.formats) {
				t.Errorf("response_format per request %q, want %q", formats, tt.formats)
			}
			if got := c.Negotiated(); !strings.HasPrefix(got, tt.after) {
				t.Errorf("Negotiated() = %q, want %q…", got, tt.after)
			}
			for i, r := range srv.Requests() {
				if r.ResponseFormat == "plan" {
					continue
				}
				last := r.Messages[len(r.Messages)-1]
				if last.Role != llm.System || !strings.Contains(last.Content, `"additionalProperties":false`) {
					t.Errorf("request %d asks without json_schema but does not give the schema in the prompt: %+v", i+1, last)
				}
			}
		})
	}
}

// TestToolNegotiation: a server that refuses tools is given them in the
// prompt and asked for the calls as structured output; the calls are
// validated and repaired as native ones are.
func TestToolNegotiation(t *testing.T) {
	paint := map[string]any{"calls": []any{map[string]any{"name": "remove_activity", "arguments": map[string]any{"name": "Paint L2"}}}}
	tests := []struct {
		name    string
		steps   []llmtest.Step
		calls   int
		tools   []int    // tools offered per request
		formats []string // response_format per request
		choices []string // tool_choice per request
		after   string
		repair  string // in the last request, when a repair was made
	}{
		{"tool_choice refused (500)",
			[]llmtest.Step{
				llmtest.APIError(500, "tool_choice 'required' is not supported", ""),
				llmtest.Calls(llmtest.Call("remove_activity", RemoveActivityArgs{"Paint L2"})),
				llmtest.Calls(llmtest.Call("remove_activity", RemoveActivityArgs{"Paint L2"})),
			},
			2, []int{2, 2, 2}, []string{"", "", ""}, []string{"required", "", ""}, "tools, tool_choice auto", ""},
		{"tools refused (llama-server without --jinja)",
			[]llmtest.Step{llmtest.APIError(400, "tools param requires --jinja flag", ""), llmtest.JSON(paint), llmtest.JSON(paint)},
			2, []int{2, 0, 0}, []string{"", "tool_calls", "tool_calls"}, []string{"required", "", ""}, "tools in the prompt", ""},
		{"tools refused after tool_choice",
			[]llmtest.Step{
				llmtest.APIError(400, `"tool_choice" must be "auto" or "none"`, ""),
				llmtest.APIError(400, "this model does not support tools", ""),
				llmtest.JSON(paint),
			},
			1, []int{2, 2, 0}, []string{"", "", "tool_calls"}, []string{"required", "", ""}, "tools in the prompt", ""},
		{"tool_choice required answered without a call (llama-server, a template without tools)",
			[]llmtest.Step{llmtest.Text("Request: add to activity<|im_end|>"), llmtest.JSON(paint), llmtest.JSON(paint)},
			2, []int{2, 0, 0}, []string{"", "tool_calls", "tool_calls"}, []string{"required", "", ""}, "tools in the prompt", ""},
		{"tools and json_schema refused",
			[]llmtest.Step{llmtest.APIError(400, "tools param requires --jinja flag", ""), llmtest.Status(500, llamaCppPythonRefusal), llmtest.JSON(paint)},
			1, []int{2, 0, 0}, []string{"", "tool_calls", "json_object"}, []string{"required", "", ""}, "tools in the prompt", ""},
		{"calls in the prompt repaired",
			[]llmtest.Step{
				llmtest.APIError(400, "tools param requires --jinja flag", ""),
				llmtest.JSON(map[string]any{"calls": []any{map[string]any{"name": "delete_everything", "arguments": map[string]any{}}}}),
				llmtest.JSON(paint),
			},
			1, []int{2, 0, 0}, []string{"", "tool_calls", "tool_calls"}, []string{"required", "", ""}, "tools in the prompt", "Your reply is not valid: the calls are not valid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.steps...)
			c := newClient(t, srv)
			for i := range tt.calls {
				calls, _, err := c.PromptWithTools(context.Background(), prompt, tools)
				if err != nil {
					t.Fatalf("call %d: %v", i+1, err)
				}
				var args RemoveActivityArgs
				if len(calls) != 1 || calls[0].Name != "remove_activity" || json.Unmarshal(calls[0].Arguments, &args) != nil || args.Name != "Paint L2" || calls[0].ID == "" {
					t.Fatalf("calls %+v", calls)
				}
			}
			reqs := srv.Requests()
			var offered []int
			var formats, choices []string
			for _, r := range reqs {
				offered = append(offered, len(r.Tools))
				formats = append(formats, r.ResponseFormat)
				choices = append(choices, r.ToolChoice)
			}
			if !reflect.DeepEqual(offered, tt.tools) || !reflect.DeepEqual(formats, tt.formats) || !reflect.DeepEqual(choices, tt.choices) {
				t.Errorf("per request: tools %v, response_format %q, tool_choice %q; want %v, %q, %q", offered, formats, choices, tt.tools, tt.formats, tt.choices)
			}
			if got := c.Negotiated(); !strings.HasSuffix(got, tt.after) {
				t.Errorf("Negotiated() = %q, want …%q", got, tt.after)
			}
			for i, r := range reqs {
				if len(r.Tools) > 0 {
					continue
				}
				var text strings.Builder
				for _, m := range r.Messages {
					text.WriteString(m.Content + "\n")
				}
				if !strings.Contains(text.String(), "- remove_activity: Remove an activity") {
					t.Errorf("request %d takes no tools but does not describe them:\n%s", i+1, text.String())
				}
			}
			if tt.repair != "" {
				last := reqs[len(reqs)-1].Messages
				if m := last[len(last)-2]; m.Role != llm.User || !strings.Contains(m.Content, tt.repair) {
					t.Errorf("repair turn %+v, want %q", m, tt.repair)
				}
			}
		})
	}
}

// TestRedactsOnlyTheKey: a placeholder key like "x" (local servers want
// none) is no secret and stays in messages; a real key is redacted as the
// exact string, whatever its shape.
func TestRedactsOnlyTheKey(t *testing.T) {
	tests := []struct {
		name, key, message string
		want, notWant      string
	}{
		{"short key", "x", "response_format: expected 'text' or 'json_object', got 'xyz'", "expected 'text' or 'json_object', got 'xyz'", "[redacted]"},
		{"long key", "local-proxy-key-7f3a9", "key local-proxy-key-7f3a9 is not valid", "key [redacted] is not valid", "local-proxy-key"},
		{"long key elsewhere in words", "local-proxy-key-7f3a9", "no local proxy here", "no local proxy here", "[redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.APIError(400, tt.message, ""))
			c := newClient(t, srv, func(c *llm.Config) { c.APIKey = tt.key })
			_, _, err := c.Prompt(context.Background(), prompt)
			e := asError(t, err)
			if !strings.Contains(e.Message, tt.want) || strings.Contains(err.Error(), tt.notWant) {
				t.Errorf("error %q: want %q, not %q", err, tt.want, tt.notWant)
			}
			if got := c.Config().String(); strings.Contains(got, "[redacted]") {
				t.Errorf("Config().String() = %q", got)
			}
		})
	}
}

func TestParseStructuredRefusal(t *testing.T) {
	srv := llmtest.New(t, llmtest.Refusal("I can't help with that."))
	_, _, err := llm.ParseStructured[Plan](context.Background(), newClient(t, srv), prompt, "plan")
	if e := asError(t, err); e.Kind != llm.KindContentFilter || e.Retryable || !strings.Contains(e.Message, "can't help") {
		t.Errorf("error %+v", e)
	}
}

func TestErrors(t *testing.T) {
	ok := llmtest.Text("ok")
	tests := []struct {
		name      string
		steps     []llmtest.Step
		kind      string // "" for success
		status    int
		retryable bool
		requests  int
	}{
		{"429 then success", []llmtest.Step{llmtest.RateLimited("0"), ok}, "", 0, false, 2},
		{"429 retry-after-ms then success", []llmtest.Step{llmtest.RateLimited("").WithHeader("Retry-After-Ms", "20"), ok}, "", 0, false, 2},
		{"429 until attempts run out", []llmtest.Step{llmtest.RateLimited("0"), llmtest.RateLimited("0"), llmtest.RateLimited("0")}, llm.KindRateLimited, 429, true, 3},
		{"quota exhausted", []llmtest.Step{llmtest.APIError(429, "You exceeded your current quota", "insufficient_quota")}, llm.KindRateLimited, 429, false, 1},
		{"500 then success", []llmtest.Step{llmtest.Status(500, `{"error":{"message":"boom"}}`), ok}, "", 0, false, 2},
		{"500 until attempts run out", []llmtest.Step{llmtest.Status(500, "boom"), llmtest.Status(502, "<html>bad gateway</html>"), llmtest.Status(503, "")}, llm.KindServer, 503, true, 3},
		{"400", []llmtest.Step{llmtest.APIError(400, "Invalid value for 'messages'", "")}, llm.KindBadRequest, 400, false, 1},
		{"401", []llmtest.Step{llmtest.APIError(401, "Incorrect API key provided", "invalid_api_key")}, llm.KindAuth, 401, false, 1},
		{"403", []llmtest.Step{llmtest.APIError(403, "Country not supported", "")}, llm.KindForbidden, 403, false, 1},
		{"404", []llmtest.Step{llmtest.APIError(404, "The model does not exist", "model_not_found")}, llm.KindNotFound, 404, false, 1},
		{"content filter (400)", []llmtest.Step{llmtest.APIError(400, "The response was filtered", "content_filter")}, llm.KindContentFilter, 400, false, 1},
		{"content filter (Azure innererror)", []llmtest.Step{llmtest.Status(400, `{"error":{"message":"filtered","code":"BadRequest","innererror":{"code":"ResponsibleAIPolicyViolation"}}}`)}, llm.KindContentFilter, 400, false, 1},
		{"content filter (finish_reason)", []llmtest.Step{llmtest.ContentFilter()}, llm.KindContentFilter, 200, false, 1},
		{"malformed body then success", []llmtest.Step{llmtest.Raw(`{"id": "chatcmpl-1", "choices": [`), ok}, "", 0, false, 2},
		{"no choices then success", []llmtest.Step{llmtest.Raw(`{"id":"x","object":"chat.completion","choices":[]}`), ok}, "", 0, false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.steps...)
			c := newClient(t, srv)
			text, usage, err := c.Prompt(context.Background(), prompt)
			if n := len(srv.Requests()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			// The server counts only the completions it composed, not Raw
			// bodies; the client counts every completion it decoded.
			if want := srv.Usage(); usage.PromptTokens != want.PromptTokens || usage.CompletionTokens != want.CompletionTokens {
				t.Errorf("usage %+v, server %+v", usage, want)
			}
			if tt.kind == "" {
				if err != nil || text != "ok" {
					t.Fatalf("got %q, %v", text, err)
				}
				return
			}
			e := asError(t, err)
			if e.Kind != tt.kind || e.Status != tt.status || e.Retryable != tt.retryable || e.Attempts != tt.requests {
				t.Errorf("error %+v (%v), want kind %s status %d retryable %v attempts %d", e, e, tt.kind, tt.status, tt.retryable, tt.requests)
			}
			if llm.IsRetryable(err) != tt.retryable {
				t.Errorf("IsRetryable %v", !tt.retryable)
			}
		})
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	srv := llmtest.New(t, llmtest.RateLimited("").WithHeader("Retry-After-Ms", "300"), llmtest.Text("ok"))
	start := time.Now()
	if _, _, err := newClient(t, srv).Prompt(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("retried after %v, server asked for 300ms", d)
	}
}

func TestRetryAfterTooLongIsLeftToTheCaller(t *testing.T) {
	srv := llmtest.New(t, llmtest.RateLimited("120"))
	start := time.Now()
	_, _, err := newClient(t, srv).Prompt(context.Background(), prompt)
	e := asError(t, err)
	if e.Kind != llm.KindRateLimited || !e.Retryable || e.RetryAfter != 120*time.Second || e.Attempts != 1 {
		t.Errorf("error %+v", e)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("waited %v", d)
	}
}

func TestTimeout(t *testing.T) {
	fast := func(attempts int) func(*llm.Config) {
		return func(c *llm.Config) { c.Timeout, c.MaxAttempts = 100*time.Millisecond, attempts }
	}
	t.Run("then success", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Text("late").After(2*time.Second), llmtest.Text("ok"))
		got, usage, err := newClient(t, srv, fast(2)).Prompt(context.Background(), prompt)
		if err != nil || got != "ok" {
			t.Fatalf("got %q, %v", got, err)
		}
		if usage.Calls != 1 {
			t.Errorf("usage %+v: the timed-out attempt returned no completion", usage)
		}
	})
	t.Run("every attempt", func(t *testing.T) {
		slow := llmtest.Text("late").After(2 * time.Second)
		srv := llmtest.New(t, slow, slow)
		start := time.Now()
		_, _, err := newClient(t, srv, fast(2)).Prompt(context.Background(), prompt)
		e := asError(t, err)
		if e.Kind != llm.KindTimeout || !e.Retryable || e.Attempts != 2 {
			t.Errorf("error %+v", e)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 1500*time.Millisecond {
			t.Errorf("took %v", d)
		}
	})
}

func TestCallerContext(t *testing.T) {
	t.Run("cancelled while backing off", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.RateLimited("").WithHeader("Retry-After-Ms", "10000"))
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		_, _, err := newClient(t, srv).Prompt(ctx, prompt)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
	t.Run("deadline before the retry", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.RateLimited("").WithHeader("Retry-After-Ms", "5000"))
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		_, _, err := newClient(t, srv).Prompt(ctx, prompt)
		if e := asError(t, err); e.Kind != llm.KindRateLimited || !e.Retryable {
			t.Errorf("error %+v", e)
		}
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("waited %v for a retry the deadline does not allow", d)
		}
	})
}

func TestKeyNeverShown(t *testing.T) {
	echo := `{"error":{"message":"Incorrect API key provided: ` + llmtest.Key + `. Header was Authorization: Bearer ` + llmtest.Key + `","code":"invalid_api_key"}}`
	for _, step := range []llmtest.Step{
		llmtest.Status(401, echo),
		llmtest.Status(400, echo),
		llmtest.Status(401, "key "+llmtest.Key+" is not valid"),
	} {
		srv := llmtest.New(t, step)
		c := newClient(t, srv)
		_, _, err := c.Prompt(context.Background(), prompt)
		if err == nil {
			t.Fatal("no error")
		}
		for _, s := range []string{err.Error(), asError(t, err).Message, c.Config().String()} {
			if strings.Contains(s, llmtest.Key) || strings.Contains(s, llmtest.Key[:12]) {
				t.Errorf("key shown: %s", s)
			}
		}
		if !strings.Contains(err.Error(), "[redacted]") {
			t.Errorf("error %q: the server's message should stay, redacted", err)
		}
	}
}

func TestEnvironmentKeyNotSentElsewhere(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-env-key-for-openai-only")
	srv := llmtest.New(t, llmtest.Text("ok"))
	c, err := llm.New(llm.Config{BaseURL: srv.URL, ChatModel: "llama3.2"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Prompt(context.Background(), prompt); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if auth := r.Header.Get("Authorization"); strings.Contains(auth, "sk-env") {
		t.Errorf("Authorization %q: the environment's key went to a server it was not configured for", auth)
	}
	if r.Model != "llama3.2" {
		t.Errorf("model %q", r.Model)
	}
}

func TestAzureDeploymentURL(t *testing.T) {
	var got *http.Request
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(context.Background())
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"ok"}}],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`))
	}))
	defer ts.Close()
	c, err := llm.New(llm.Config{APIKey: "azure-key", BaseURL: ts.URL + "/openai/deployments/gpt4o?api-version=2024-10-21", ChatModel: "gpt4o"})
	if err != nil {
		t.Fatal(err)
	}
	text, usage, err := c.Prompt(context.Background(), prompt)
	if err != nil || text != "ok" || usage != (llm.Usage{PromptTokens: 3, CompletionTokens: 1, Calls: 1}) {
		t.Fatalf("%q %+v %v", text, usage, err)
	}
	if got.URL.Path != "/openai/deployments/gpt4o/chat/completions" || got.URL.Query().Get("api-version") != "2024-10-21" {
		t.Errorf("request %s", got.URL)
	}
}

func TestNew(t *testing.T) {
	if _, err := llm.New(llm.Config{}); err == nil {
		t.Error("New with nothing configured: no error")
	}
	if _, err := llm.New(llm.Config{BaseURL: "localhost:11434"}); err == nil {
		t.Error("New with a base URL without scheme: no error")
	}
	c, err := llm.New(llm.Config{APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	want := llm.Config{APIKey: "k", ChatModel: "gpt-4o-mini", Timeout: 60 * time.Second, MaxAttempts: 3, MaxReplyBytes: 1 << 20}
	if got := c.Config(); got != want {
		t.Errorf("config %+v, want %+v", got, want)
	}
}

func TestConfig(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-secret-0123456789")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("AUTOSCHEDULER_CHAT_MODEL", "")
	cfg := llm.ConfigFromEnv()
	if cfg.APIKey != "sk-secret-0123456789" || cfg.BaseURL != "" || cfg.ChatModel != "gpt-4o-mini" || !cfg.Configured() {
		t.Errorf("config %+v", cfg)
	}
	tests := []struct {
		cfg  llm.Config
		want string
	}{
		{cfg, "openai gpt-4o-mini at https://api.openai.com/v1 (key set)"},
		{llm.Config{BaseURL: "http://localhost:11434/v1/", ChatModel: "llama3.2"}, "openai-compatible llama3.2 at http://localhost:11434/v1 (no key)"},
		{llm.Config{APIKey: "k", BaseURL: "https://acme.openai.azure.com/openai/v1", ChatModel: "gpt-4o"}, "azure gpt-4o at https://acme.openai.azure.com/openai/v1 (key set)"},
		{llm.Config{APIKey: "sk-secret-0123456789", BaseURL: "https://user:pw@proxy.example/v1?key=sk-secret-0123456789"}, "openai-compatible gpt-4o-mini at https://proxy.example/v1 (key set)"},
	}
	for _, tt := range tests {
		if got := tt.cfg.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
	if (llm.Config{}).Configured() {
		t.Error("empty config Configured")
	}
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "http://vllm:8000/v1")
	t.Setenv("AUTOSCHEDULER_CHAT_MODEL", "qwen2.5")
	if cfg := llm.ConfigFromEnv(); cfg.BaseURL != "http://vllm:8000/v1" || cfg.ChatModel != "qwen2.5" || !cfg.Configured() {
		t.Errorf("config %+v", cfg)
	}
}

func TestUsageAdd(t *testing.T) {
	got := llm.Usage{PromptTokens: 1, CompletionTokens: 2, Calls: 1}.Add(llm.Usage{PromptTokens: 10, CompletionTokens: 20, Calls: 2})
	if got != (llm.Usage{PromptTokens: 11, CompletionTokens: 22, Calls: 3}) || got.TotalTokens() != 33 {
		t.Errorf("%+v", got)
	}
}
