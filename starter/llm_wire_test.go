package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// A real model on the wire: llama.cpp's llama-server (scripts/llm.sh, `make
// llm`) serving a tiny instruction model, driven through the real openai-go
// client. What the model answers is not judged, only that the protocol
// holds and that whatever it proposes is validated: every op proposed
// refers to what exists and applies, and nothing else reaches the store.

// realModel is the endpoint of scripts/llm.sh (AUTOSCHEDULER_TEST_LLM_URL,
// AUTOSCHEDULER_TEST_LLM_MODEL). Unset or not answering, the test skips,
// but fails under CI=true.
func realModel(t *testing.T) llm.Config {
	t.Helper()
	unavailable := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s", msg)
		}
		t.Skipf("%s: run eval \"$(scripts/llm.sh up)\" (make llm) to test against a real model", msg)
	}
	base := strings.TrimSuffix(os.Getenv("AUTOSCHEDULER_TEST_LLM_URL"), "/")
	if base == "" {
		unavailable("AUTOSCHEDULER_TEST_LLM_URL is not set")
	}
	hc := http.Client{Timeout: 5 * time.Second}
	res, err := hc.Get(base + "/models")
	if err != nil {
		unavailable("%s does not answer: %v", base, err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		unavailable("%s/models answers %s", base, res.Status)
	}
	model := os.Getenv("AUTOSCHEDULER_TEST_LLM_MODEL")
	if model == "" {
		model = "local"
	}
	// No key: the local server needs none, and the environment's must not
	// reach it (nor make the stores embed through it).
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("AUTOSCHEDULER_CHAT_MODEL", "")
	return llm.Config{BaseURL: base, ChatModel: model}
}

// TestRealModelClient: both ways of asking, straight through the client,
// with the fallbacks the server makes it take.
func TestRealModelClient(t *testing.T) {
	cfg := realModel(t)
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	type split struct {
		Removals  string `json:"removals" desc:"what to remove; empty if nothing"`
		Additions string `json:"additions" desc:"what to add; empty if nothing"`
	}
	start := time.Now()
	sep, u, err := llm.ParseStructured[split](ctx, c, []llm.Message{
		{Role: llm.System, Content: "Split the request into what to remove and what to add."},
		{Role: llm.User, Content: "Delete activity Final inspection and add a handover meeting."},
	}, "separation")
	t.Logf("ParseStructured: %v, %+v, usage %+v, err %v", time.Since(start).Round(time.Millisecond), sep, u, err)
	checkModelError(t, err)

	type target struct {
		Activity string `json:"activity" desc:"the activity's exact name or id"`
	}
	tools := []llm.Tool{
		llm.ToolFor[target]("delete_activity", "Delete exactly one activity named in the request."),
		llm.ToolFor[struct{}]("finish", "Nothing to delete."),
	}
	start = time.Now()
	calls, u, err := c.PromptWithTools(ctx, []llm.Message{
		{Role: llm.System, Content: "You turn a request into tool calls."},
		{Role: llm.User, Content: "Request: delete activity Final inspection"},
	}, tools)
	var shown []string
	for _, call := range calls {
		var args bytes.Buffer
		_ = json.Compact(&args, call.Arguments)
		shown = append(shown, call.Name+args.String())
	}
	t.Logf("PromptWithTools: %v, calls %s, usage %+v, err %v", time.Since(start).Round(time.Millisecond), shown, u, err)
	checkModelError(t, err)
	t.Logf("negotiated with %s: %s", cfg.BaseURL, c.Negotiated())
}

// checkModelError lets through only the model's output being refused by
// validation (after its repair round): anything else is the wire failing.
func checkModelError(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var e *llm.Error
	if errors.As(err, &e) && e.Kind == llm.KindInvalidOutput {
		t.Logf("the model's reply was refused by validation (a business outcome): %v", err)
		return
	}
	t.Fatalf("protocol error: %v", err)
}

// TestRealModelPlan: `plan --llm openai` against the real model.
func TestRealModelPlan(t *testing.T) {
	cfg := realModel(t)
	t.Setenv("OPENAI_BASE_URL", cfg.BaseURL)
	t.Setenv("AUTOSCHEDULER_CHAT_MODEL", cfg.ChatModel)
	original, _, err := interchange.Load("../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []string{"delete activity A007", "Delete activity Final inspection"} {
		t.Run(prompt, func(t *testing.T) {
			start := time.Now()
			code, out, errOut := runCLI(t, "plan", prompt, "--file", "../examples/building.json", "--llm", "openai", "--format", "json")
			took := time.Since(start).Round(time.Millisecond)
			if code != 0 {
				t.Logf("plan %q: %v, exit %d: %s", prompt, took, code, errOut)
				if strings.Contains(errOut, "invalid_output") {
					return // the model's reply refused by validation: nothing proposed
				}
				t.Fatalf("protocol error: %s", errOut)
			}
			var p struct {
				Ops      []schedule.Op  `json:"ops"`
				Question string         `json:"question"`
				Notes    []string       `json:"notes"`
				Usage    map[string]int `json:"token_usage"`
			}
			if err := json.Unmarshal([]byte(out), &p); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var calls []string
			for _, op := range p.Ops {
				calls = append(calls, op.Call)
			}
			t.Logf("plan %q: %v, usage %v; proposed %q, question %q, notes %q", prompt, took, p.Usage, calls, p.Question, p.Notes)
			checkProposal(t, original, p.Ops)
		})
	}
}

// checkProposal: every op refers to what exists in s (or what an earlier op
// of the proposal added) and the engine applies them all.
func checkProposal(t *testing.T, s *schedule.Schedule, ops []schedule.Op) {
	t.Helper()
	work := s.Clone()
	for i := range ops {
		op := ops[i]
		switch op.Kind {
		case schedule.RemoveActivityOp, schedule.DissolveActivityOp, schedule.UpdateActivityOp:
			if _, ok := work.Activity(op.ActivityID); !ok {
				t.Errorf("op %d (%s) names activity %q, which does not exist", i, op.Call, op.ActivityID)
			}
		case schedule.RemoveRelationshipOp:
			if _, ok := work.Relationship(op.RelationshipID); !ok {
				t.Errorf("op %d (%s) names relationship %q, which does not exist", i, op.Call, op.RelationshipID)
			}
		case schedule.AddRelationshipOp:
			for _, end := range []string{op.Relationship.Predecessor, op.Relationship.Successor} {
				if _, ok := work.Activity(end); !ok {
					t.Errorf("op %d (%s) links activity %q, which does not exist", i, op.Call, end)
				}
			}
		}
		if _, err := schedule.Apply(work, &op); err != nil {
			t.Errorf("op %d (%s) does not apply: %v", i, op.Call, err)
		}
	}
}

// TestRealModelDispatch: one whole dispatch through DispatchWorkflow on the
// in-process dev server, planned by the real model, auto-accepted. The
// store afterwards is the original with exactly the committed ops applied
// by the engine, or the original itself.
func TestRealModelDispatch(t *testing.T) {
	cfg := realModel(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "store.db")
	if code, _, errOut := runCLI(t, "import", "../examples/building.json", "--schedule", "building", "--db", db, "--neo4j-uri=", "--weaviate-url="); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	stores := config.Stores{DBPath: db}
	ctx := context.Background()
	before := loadStored(t, &stores, "building")

	dev := startDev(t, dir, &devOptions{stores: &stores, planning: &config.Planning{Kind: config.PlannerOpenAI, LLM: cfg}})
	tc := dev.client

	const prompt = "delete activity Final inspection"
	start := time.Now()
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: workflows.DispatchWorkflowID("building"), TaskQueue: workflows.TaskQueue},
		workflows.DispatchWorkflow, workflows.DispatchInput{ScheduleID: "building", Prompt: prompt, AutoAccept: true,
			// A question from the model is not answered: the dispatch
			// times out and is compensated.
			ReviewTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var res workflows.DispatchResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("the dispatch failed as a workflow: %v", err)
	}
	took := time.Since(start).Round(time.Millisecond)
	if err := dev.stop(); err != nil {
		t.Fatalf("dev: %v", err)
	}
	var committed []schedule.Op
	var calls []string
	for _, ch := range res.Changes {
		calls = append(calls, ch.Call+" ["+ch.Status+"]")
		if ch.Status == workflows.ChangeCommitted {
			committed = append(committed, ch.Op)
		}
	}
	t.Logf("dispatch %q: %v, status %s, %d round(s), usage %+v; changes %q; error %q", prompt, took, res.Status, res.Rounds, res.TokenUsage, calls, res.Error)

	switch res.Status {
	case workflows.StatusAccepted:
	case workflows.StatusTimedOut:
		if len(committed) > 0 {
			t.Errorf("a timed-out dispatch committed %q", calls)
		}
	case workflows.StatusFailed:
		// Only the model's reply being refused (after its repair round) is
		// a business outcome; anything else is the wire failing.
		if !strings.Contains(res.Error, "invalid_output") {
			t.Fatalf("protocol error: %s", res.Error)
		}
	default:
		t.Fatalf("status %q", res.Status)
	}
	checkProposal(t, before, committed)
	want := before.Clone()
	if _, _, err := schedule.ApplyAll(want, committed); err != nil {
		t.Fatalf("the committed ops do not apply to the original: %v", err)
	}
	if got := loadStored(t, &stores, "building"); canonical(got) != canonical(want) {
		t.Errorf("the store is neither the original nor the original with the committed ops (%q)", calls)
	}
}

func loadStored(t *testing.T, stores *config.Stores, id string) *schedule.Schedule {
	t.Helper()
	ctx := context.Background()
	c, err := stores.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	s, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// canonical is s as JSON with activities and relationships in id order.
func canonical(s *schedule.Schedule) string {
	c := s.Clone()
	schedule.SortByID(c)
	b, _ := json.Marshal(c)
	return string(b)
}

// TestRealModelAsk: `ask --llm openai` against the real model. The tiny
// model is not expected to answer well: only that the answer is well
// formed ({"answer", "activities"}) and either the model's grounded answer
// (its ids exist in the schedule) or the honest offline fallback.
func TestRealModelAsk(t *testing.T) {
	cfg := realModel(t)
	t.Setenv("OPENAI_BASE_URL", cfg.BaseURL)
	t.Setenv("AUTOSCHEDULER_CHAT_MODEL", cfg.ChatModel)
	const file = "../examples/building.json"
	v, err := loadView(context.Background(), nil, io.Discard, file, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, question := range []string{"what drives Painting Level 4", "when does the project finish"} {
		t.Run(question, func(t *testing.T) {
			start := time.Now()
			code, out, errOut := runCLI(t, "ask", question, "--file", file, "--llm", "openai", "--json")
			took := time.Since(start).Round(time.Millisecond)
			if code != 0 {
				t.Fatalf("ask %q: %v, exit %d: %s", question, took, code, errOut)
			}
			ans := askJSON(t, out)
			t.Logf("ask %q: %v, %s; answer %q, activities %q", question, took, strings.TrimSpace(errOut), ans.Answer, ans.Activities)
			if strings.Contains(ans.Answer, "so this is the offline answer.") {
				if off := insight.Ask(v, question); !strings.HasPrefix(ans.Answer, off.Answer) || !slices.Equal(ans.Activities, off.Activities) {
					t.Errorf("a fallback that is not the offline answer %q %q", off.Answer, off.Activities)
				}
				return
			}
			if strings.TrimSpace(ans.Answer) == "" || len(ans.Activities) == 0 {
				t.Errorf("a model answer with no text or no ids")
			}
			for _, id := range ans.Activities {
				if _, ok := v.Index(id); !ok {
					t.Errorf("cited %q, which does not exist", id)
				}
			}
		})
	}
}
