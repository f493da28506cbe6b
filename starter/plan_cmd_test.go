package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope/scopetest"
)

type planJSON struct {
	Ops []struct {
		Op         string `json:"op"`
		Call       string `json:"call"`
		ActivityID string `json:"activity_id"`
	} `json:"ops"`
	Question string               `json:"question"`
	Notes    []string             `json:"notes"`
	Risk     *schedule.RiskRating `json:"risk"`
	Usage    struct {
		Calls int `json:"calls"`
	} `json:"token_usage"`
}

func planOf(t *testing.T, args ...string) planJSON {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"plan", "--file", "../examples/building.json", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var p planJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return p
}

func TestPlanRules(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	p := planOf(t, "Delete activity A007")
	if len(p.Ops) != 1 || p.Ops[0].ActivityID != "A007" || p.Question != "" {
		t.Fatalf("plan = %+v", p)
	}
	p = planOf(t, "delete the pour")
	if len(p.Ops) != 0 || !strings.Contains(p.Question, `"the pour" matches 9`) {
		t.Fatalf("plan = %+v", p)
	}
	p = planOf(t, "delete the pour", "--answer", "A041")
	if len(p.Ops) != 1 || p.Ops[0].ActivityID != "A041" {
		t.Fatalf("answered plan = %+v", p)
	}
	code, out, _ := runCLI(t, "plan", "Make fitouts on floor 4 come after fitouts on floor 2 instead of floor 3", "--file", "../examples/building.json")
	if code != 0 || !strings.Contains(out, "+ Painting Level 2 -SS+5-> Painting Level 4") || !strings.Contains(out, "Project finish") {
		t.Fatalf("table output:\n%s", out)
	}
}

// TestPlanOpenAI runs the LLM planner through the CLI's own configuration
// against the scripted model.
func TestPlanOpenAI(t *testing.T) {
	model := scopetest.NewModel(t)
	t.Setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
	t.Setenv("OPENAI_BASE_URL", model.Config().BaseURL)
	p := planOf(t, "Make fitouts on floor 4 come after fitouts on floor 2 instead of floor 3", "--llm", "openai")
	if len(p.Ops) != 2 || p.Usage.Calls != model.Usage().Calls || p.Usage.Calls == 0 {
		t.Fatalf("plan = %+v (server counted %+v)", p, model.Usage())
	}
}

func TestPlanErrors(t *testing.T) {
	for _, args := range [][]string{
		{"plan", "x"},
		{"plan", "x", "--file", "../examples/building.json", "--format", "xml"},
		{"plan", "x", "--file", "../examples/building.json", "--llm", "magic"},
	} {
		if code, _, errOut := runCLI(t, args...); code == 0 || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestPlanFeedback previews a feedback round from a saved first round:
// feedback understood narrows it; feedback not understood says so at the
// top and proposes the same changes again.
func TestPlanFeedback(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	prompt := "Delete all drywall activities on the second floor"
	code, first, errOut := runCLI(t, "plan", prompt, "--file", "../examples/building.json", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	prev := t.TempDir() + "/round1.json"
	if err := os.WriteFile(prev, []byte(first), 0o644); err != nil {
		t.Fatal(err)
	}
	p := planOf(t, prompt, "--previous", prev, "--feedback", "only delete the drywall board on level 2")
	if len(p.Ops) != 1 || p.Ops[0].ActivityID != "A055" {
		t.Fatalf("narrowed round = %+v", p)
	}
	code, out, _ := runCLI(t, "plan", prompt, "--file", "../examples/building.json", "--previous", prev, "--feedback", "bananas")
	if code != 0 || !strings.HasPrefix(out, `Note: your feedback "bananas" was not understood; the proposal is unchanged`) || strings.Count(out, "delete_activity(") != 3 {
		t.Fatalf("round with feedback not understood:\n%s", out)
	}
	if !strings.Contains(out, `from "Delete all drywall activities on the second floor"`) {
		t.Errorf("the ops do not show the words they came from:\n%s", out)
	}
	if code, _, errOut := runCLI(t, "plan", prompt, "--file", "../examples/building.json", "--feedback", "x"); code != 2 || errOut == "" {
		t.Errorf("--feedback without --previous: exit %d, %q", code, errOut)
	}
}

// TestPlanShowsTheRisk: the offline plan rates its round as a dispatch
// does, before the changes in the text and under "risk" in the JSON.
func TestPlanShowsTheRisk(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	code, out, errOut := runCLI(t, "plan", "delete activity Pour slab Level 3", "--file", "../examples/building.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "Risk: CRITICAL\n  critical  Logic cut: Slab reinforcement Level 3 (A065) no longer drives ") ||
		!strings.Contains(out, `Instead: dissolve Pour slab Level 3 (A066)`) || !strings.Contains(out, "finish earlier only because logic was cut") {
		t.Errorf("plan text:\n%s", out)
	}
	p := planOf(t, "set the duration of Temporary water connection to 3 days")
	if p.Risk == nil || p.Risk.Level != schedule.RiskLow {
		t.Errorf("plan --format json risk: %+v", p.Risk)
	}
}
