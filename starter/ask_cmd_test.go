package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Level 3's critical activities, by early start (the CPM table: A064
// 65.5, A065 67.5, A066 71.5, A067 74.5, A068 75.5, A069 78.5).
var askLevel3 = []string{"A064", "A065", "A066", "A067", "A068", "A069"}

// askOffline makes the test's commands answer offline, whatever LLM the
// environment configures.
func askOffline(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("AUTOSCHEDULER_PLANNER", "")
}

// `ask --json` prints exactly {"answer": "...", "activities": [...]}.
func TestAskFileJSON(t *testing.T) {
	askOffline(t)
	code, out, errOut := runCLI(t, "ask", "what's critical on level 3?", "--file", "../examples/building.json", "--json")
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil || len(raw) != 2 || raw["answer"] == nil || raw["activities"] == nil {
		t.Fatalf("not exactly answer and activities: %s (%v)", out, err)
	}
	var ans struct {
		Answer     string   `json:"answer"`
		Activities []string `json:"activities"`
	}
	json.Unmarshal([]byte(out), &ans)
	if !slices.Equal(ans.Activities, askLevel3) || !strings.Contains(ans.Answer, "6 of the 25 activities on level 3 are critical") {
		t.Errorf("answer %+v", ans)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("not one line: %q", out)
	}
}

// MSPDI files answer too: Task 2 at 3 days takes mspdirelations from 3 to
// 4 working days (Mon 25 to Tue 26 Sep 2006).
func TestAskFileText(t *testing.T) {
	askOffline(t)
	code, out, errOut := runCLI(t, "ask", "what if task 2 takes 3 days", "-f", "../../shared/data/mspdi/mspdirelations.xml")
	if code != exitOK || !strings.Contains(out, "day 4 (2006-09-26 17:00) instead of day 3 (2006-09-25 17:00)") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	// An unknown question is answered (exit 0) with the forms.
	code, out, _ = runCLI(t, "ask", "hello there", "-f", "../examples/building.json")
	if code != exitOK || !strings.Contains(out, "I can answer:") {
		t.Errorf("unknown question: exit %d\n%s", code, out)
	}
	// An ambiguous name is asked back, with the candidates as the ids.
	code, out, _ = runCLI(t, "ask", "what drives task 2", "-f", "../../shared/data/mspdi/task-links-project2007-mspdi.xml", "--json")
	if code != exitOK || !strings.Contains(out, `"activities":["2","4","6","8","10","12","14","16"]`) || !strings.Contains(out, "matches 8 activities") {
		t.Errorf("ambiguous: exit %d\n%s", code, out)
	}
}

func TestAskUsageAndErrors(t *testing.T) {
	askOffline(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"ask", "what drives piling"}, exitUsage, "give one of --file and --schedule"},
		{[]string{"ask", "what drives piling", "-f", "../examples/building.json", "-s", "building"}, exitUsage, "give one of --file and --schedule"},
		{[]string{"ask", "  ", "-f", "../examples/building.json"}, exitUsage, "the question is empty"},
		{[]string{"ask", "-f", "../examples/building.json"}, exitUsage, "accepts 1 arg"},
		{[]string{"ask", "what drives piling", "-f", "testdata/nosuch.json"}, exitError, "nosuch.json"},
	} {
		code, out, errOut := runCLI(t, tc.args...)
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
}

// --schedule reads the stores (here an embedded one holding the building).
func TestAskStored(t *testing.T) {
	askOffline(t)
	args := storeArgs(t)
	code, out, errOut := runCLI(t, append([]string{"ask", "what drives Painting Level 4", "--schedule", "building", "--json"}, args...)...)
	if code != exitOK || !strings.Contains(out, `"activities":["A001","A002","A007",`) || !strings.Contains(out, `"A107","A109","A110"]`) {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, append([]string{"ask", "what drives Piling", "--schedule", "nosuch"}, args...)...)
	if code != exitError || out != "" || !strings.Contains(errOut, `schedule not found: "nosuch"`) {
		t.Errorf("unknown schedule: exit %d\n%s%s", code, out, errOut)
	}
}

// A prompt that is a question is answered from the stored schedule and
// starts no dispatch; a change with a question in it is still dispatched.
func TestPromptAnswersQuestions(t *testing.T) {
	askOffline(t)
	f := &fakeTemporal{}
	code, out, errOut := runFake(t, f, "", "prompt", "what's critical on level 3?", "-s", "building")
	if code != exitOK || !strings.Contains(out, "6 of the 25 activities on level 3 are critical") || len(f.inputs) != 0 {
		t.Errorf("exit %d, %d dispatches\n%s%s", code, len(f.inputs), out, errOut)
	}
	code, out, _ = runFake(t, f, "", "prompt", "float of piling", "-s", "building", "--json")
	if code != exitOK || out != "{\"answer\":\"Piling (A009) has 0 working days of total float and 0 working days of free float; it is critical: any delay to it delays the project finish. Early start day 11.5 (2026-01-20 13:00), late start day 11.5 (2026-01-20 13:00).\",\"activities\":[\"A009\"]}\n" || len(f.inputs) != 0 {
		t.Errorf("json: exit %d, %d dispatches\n%s", code, len(f.inputs), out)
	}
}

// `plan` answers a question instead of planning it.
func TestPlanAnswersQuestions(t *testing.T) {
	askOffline(t)
	code, out, errOut := runCLI(t, "plan", "what's critical on level 3", "--file", "../examples/building.json", "--format", "json")
	var got planOutput
	if code != exitOK || json.Unmarshal([]byte(out), &got) != nil || len(got.Ops) != 0 || !slices.Equal(got.Activities, askLevel3) || got.Answer == "" {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, "plan", "what if piling takes 5 more days", "--file", "../examples/building.json")
	if code != exitOK || !strings.Contains(out, "day 172") {
		t.Errorf("what-if: exit %d\n%s", code, out)
	}
}

// A long path is printed shortened, its first activities, how many more
// and its end; --full prints it whole; --json keeps it whole.
func TestAskLongPathCollapses(t *testing.T) {
	askOffline(t)
	for _, tc := range []struct {
		args []string
		says []string
		not  []string
	}{
		{[]string{}, []string{"Underground drainage (A011) → … 46 more … → Handover (A147)."}, []string{"Substantial completion (A146)"}},
		{[]string{"--full"}, []string{"Substantial completion (A146) → Handover (A147)."}, []string{"more …"}},
		{[]string{"--json"}, []string{"Substantial completion (A146)"}, []string{"more …"}},
	} {
		args := append([]string{"ask", "what drives the finish", "--file", "../examples/building.json"}, tc.args...)
		code, out, errOut := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		for _, w := range tc.says {
			if !strings.Contains(out, w) {
				t.Errorf("%v: no %q in\n%s", tc.args, w, out)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(out, w) {
				t.Errorf("%v: %q in\n%s", tc.args, w, out)
			}
		}
	}
}
