package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/llm/llmtest"
)

// askReadTools are the tools `ask` offers a model: the read tools and the
// answer, nothing that writes.
var askReadTools = []string{"find_activities", "activity_details", "driving_path", "path_to_finish", "near_critical",
	"float_by_group", "critical_path", "project_finish", "schedule_checks", "what_if", "answer"}

// askJSON decodes `ask --json` output, which must be exactly {"answer":
// "...", "activities": [...]}.
func askJSON(t *testing.T, out string) insight.Answer {
	t.Helper()
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &keys); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(keys) != 2 || keys["answer"] == nil || keys["activities"] == nil {
		t.Fatalf("want exactly answer and activities: %s", out)
	}
	var ans insight.Answer
	if err := json.Unmarshal([]byte(out), &ans); err != nil {
		t.Fatal(err)
	}
	return ans
}

func offlineAnswer(t *testing.T, question string) insight.Answer {
	t.Helper()
	v, err := loadView(t.Context(), nil, io.Discard, "../examples/building.json", "")
	if err != nil {
		t.Fatal(err)
	}
	return insight.Ask(v, question)
}

// TestAskLLM: `ask --json` with the model behind OPENAI_BASE_URL (the
// scripted server): the model's grounded answer in the JSON contract, token
// usage on stderr only, every request offering only read tools, the file
// untouched.
func TestAskLLM(t *testing.T) {
	const file = "../examples/building.json"
	srv := llmtest.New(t,
		llmtest.Calls(llmtest.Call("driving_path", map[string]string{"activity": "A110"})),
		llmtest.Calls(llmtest.Call("answer", map[string]any{
			"text":       "Painting Level 4 (A110) starts on day 130 (2026-07-10), driven by Suspended ceilings Level 4 (A107) and Doors and frames Level 4 (A109).",
			"activities": []string{"A107", "A109", "A110"},
		})),
	)
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "ask", "what drives Painting Level 4", "--file", file, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ans := askJSON(t, out)
	if !strings.HasPrefix(ans.Answer, "Painting Level 4 (A110) starts on day 130") || !slices.Equal(ans.Activities, []string{"A107", "A109", "A110"}) {
		t.Errorf("answer %+v", ans)
	}
	u := srv.Usage()
	if !strings.Contains(errOut, "token usage:") || !strings.Contains(errOut, " in 2 model call(s)") || u.Calls != 2 || strings.Contains(out, "token") {
		t.Errorf("stderr %q (server counted %+v), stdout %q", errOut, u, out)
	}
	for i, r := range srv.Requests() {
		if !slices.Equal(r.Tools, askReadTools) {
			t.Errorf("request %d offered %q", i, r.Tools)
		}
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Error("the file changed")
	}
}

// TestAskLLMCannotWrite: a model that calls write tools through `ask`
// reaches none: they were never offered, the client refuses the calls, and
// a model that insists gets the offline answer with a note. The stored
// schedule (--schedule) and the file (--file) are unchanged.
func TestAskLLMCannotWrite(t *testing.T) {
	const file = "../examples/building.json"
	const question = "what drives Painting Level 4"
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	db := filepath.Join(t.TempDir(), "store.db")
	dbArgs := []string{"--db", db, "--neo4j-uri=", "--weaviate-url="}
	if code, _, errOut := runCLI(t, append([]string{"import", file, "--schedule", "building"}, dbArgs...)...); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	stores := config.Stores{DBPath: db}
	storedBefore := canonical(loadStored(t, &stores, "building"))
	fileBefore, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	offline := offlineAnswer(t, question)
	for _, source := range [][]string{{"--file", file}, append([]string{"--schedule", "building"}, dbArgs...)} {
		t.Run(source[0], func(t *testing.T) {
			srv := llmtest.New(t,
				llmtest.Calls(llmtest.Call("delete_activity", map[string]string{"activity": "A110"}),
					llmtest.Call("remove_scope", map[string]string{"description": "level 4"})),
				llmtest.Calls(llmtest.Call("add_relationship", map[string]any{"predecessor": "A001", "successor": "A110", "type": "FS", "lag": 0})),
			)
			t.Setenv("OPENAI_BASE_URL", srv.URL)
			code, out, errOut := runCLI(t, append([]string{"ask", question, "--json", "--llm", "openai"}, source...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			ans := askJSON(t, out)
			if !strings.HasPrefix(ans.Answer, offline.Answer+"\n\n(The model's answer was not used") || !slices.Equal(ans.Activities, offline.Activities) {
				t.Errorf("answer %q %q", ans.Answer, ans.Activities)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Errorf("%d requests", len(reqs))
			}
			for i, r := range reqs {
				if !slices.Equal(r.Tools, askReadTools) {
					t.Errorf("request %d offered %q", i, r.Tools)
				}
			}
			// The client's repair round told the model there is no such tool.
			if repair := reqs[1].Messages; !strings.Contains(repair[len(repair)-1].Content+repair[len(repair)-2].Content, `there is no tool "remove_scope"`) {
				t.Errorf("repair round: %+v", repair[len(repair)-3:])
			}
			if !strings.Contains(errOut, "token usage:") {
				t.Errorf("stderr %q", errOut)
			}
		})
	}
	if got := canonical(loadStored(t, &stores, "building")); got != storedBefore {
		t.Error("the stored schedule changed")
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(fileBefore, after) {
		t.Error("the file changed")
	}
}

// TestAskWithoutLLM: with no LLM configured, or --llm rules, `ask` answers
// offline and asks no model; --llm openai with none configured is an error.
func TestAskWithoutLLM(t *testing.T) {
	const question = "when does the project finish"
	offline := offlineAnswer(t, question)
	srv := llmtest.New(t) // any request fails the test
	for _, tc := range []struct {
		name, baseURL string
		args          []string
	}{
		{"nothing configured", "", nil},
		{"--llm rules", srv.URL, []string{"--llm", "rules"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OPENAI_API_KEY", "")
			t.Setenv("OPENAI_BASE_URL", tc.baseURL)
			code, out, errOut := runCLI(t, append([]string{"ask", question, "--file", "../examples/building.json", "--json"}, tc.args...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if ans := askJSON(t, out); ans.Answer != offline.Answer || !slices.Equal(ans.Activities, offline.Activities) {
				t.Errorf("answer %+v, want %+v", ans, offline)
			}
		})
	}
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	if code, out, errOut := runCLI(t, "ask", question, "--file", "../examples/building.json", "--llm", "openai"); code != exitError || out != "" || !strings.Contains(errOut, "OPENAI_BASE_URL") {
		t.Errorf("--llm openai unconfigured: exit %d, %q %q", code, out, errOut)
	}
}
