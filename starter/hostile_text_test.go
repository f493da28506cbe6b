package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// hostile are characters a name must not carry to another person's
// terminal (issue 26, item 3): an OSC title and a screen clear, the C1
// CSI, bell, NUL, DEL, carriage return, line break, tab, a bidi override
// and isolate, zero-width characters, the line separator, invalid UTF-8.
var hostile = []string{"\x1b]0;TITLE\a\x1b[2J", "\u009b2J", "\a", "\x00", "\x7f", "\r", "\n", "\t", "\u202e", "\u2066", "\u200b", "\ufeff", "\u2028", "\xff"}

// rawControl returns the first control or invisible formatting character
// (or byte of invalid UTF-8) in s that a terminal would act on; line
// breaks and tabs between lines and columns of output are fine.
func rawControl(s string) (string, bool) {
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case r == utf8.RuneError:
			return s[i:min(len(s), i+4)], true
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == '\u2028', r == '\u2029', unicode.Is(unicode.Cf, r):
			return string(r), true
		}
	}
	return "", false
}

func assertNoRawControl(t *testing.T, what, s string) {
	t.Helper()
	if c, ok := rawControl(s); ok {
		t.Errorf("%s prints the raw character %q:\n%q", what, c, s)
	}
}

// --as is refused before anything is sent, with a usage error naming the
// flag and the character; the error is printed escaped.
func TestAsRefusesControlCharacters(t *testing.T) {
	f := &fakeTemporal{result: workflows.DispatchResult{Status: workflows.StatusAccepted, Rounds: 1}}
	var names []string
	for _, bad := range hostile {
		names = append(names, "Mallory"+bad)
	}
	names = append(names, "   ", strings.Repeat("x", usertext.MaxName+1))
	for _, name := range names {
		for _, args := range [][]string{
			{"review", "dispatch-building", "accept"},
			{"review", "dispatch-building", "cancel"},
			{"clarify", "dispatch-building", "Pour slab Level 2"},
			{"prompt", "delete activity Handover", "-s", "building", "--yes"},
			{"dispatch", "cancel", "dispatch-building"},
		} {
			code, out, errOut := runFake(t, f, "", append(args, "--as", name)...)
			if code != exitUsage || !strings.Contains(errOut, "--as") || out != "" {
				t.Errorf("%v --as %q: exit %d, stdout %q, stderr %q; want a usage error naming --as", args, name, code, out, errOut)
			}
			assertNoRawControl(t, "the --as refusal", errOut)
		}
	}
	if len(f.reviews)+len(f.answers)+len(f.inputs) != 0 {
		t.Errorf("sent under a refused name: reviews %+v, answers %+v, dispatches %+v", f.reviews, f.answers, f.inputs)
	}
	// A name is still a name: letters of any script, spaces, punctuation.
	code, _, errOut := runFake(t, f, "", "review", "dispatch-building", "accept", "--as", "Zoë O'Brien-Łukasz 王")
	if code != exitOK || len(f.reviews) != 1 || f.reviews[0].Reviewer != "Zoë O'Brien-Łukasz 王" {
		t.Errorf("a plain name: exit %d, %s, reviews %+v", code, errOut, f.reviews)
	}
}

// review --feedback and clarify's answer carry no control characters
// either; a blank answer is a usage error (exit 2), as a blank prompt,
// question or query is (issue 26, item 16).
func TestReviewTextAndBlankAnswer(t *testing.T) {
	f := &fakeTemporal{}
	for _, answer := range []string{"", "   ", "\t \n"} {
		code, out, errOut := runFake(t, f, "", "clarify", "dispatch-building", answer)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "clarify: the answer is empty") {
			t.Errorf("clarify %q: exit %d, stdout %q, stderr %q; want exit 2", answer, code, out, errOut)
		}
	}
	code, _, errOut := runFake(t, f, "", "clarify", "dispatch-building", "Pour slab\x1b[2J Level 2")
	if code != exitUsage || !strings.Contains(errOut, "clarify: answer: has the control character U+001B (ESC) at character 10") {
		t.Errorf("clarify with an escape: exit %d, %s", code, errOut)
	}
	code, _, errOut = runFake(t, f, "", "review", "dispatch-building", "reject", "--feedback", "keep the roof\x1b]0;x\a")
	if code != exitUsage || !strings.Contains(errOut, "review: feedback: has the control character U+001B (ESC) at character 14") {
		t.Errorf("review --feedback with an escape: exit %d, %s", code, errOut)
	}
	assertNoRawControl(t, "the --feedback refusal", errOut)
	if len(f.reviews)+len(f.answers) != 0 {
		t.Errorf("sent: reviews %+v, answers %+v", f.reviews, f.answers)
	}
	// Feedback may have lines and tabs.
	if code, _, errOut := runFake(t, f, "", "review", "dispatch-building", "reject", "--feedback", "keep the roof\n\tand the crane"); code != exitOK || len(f.reviews) != 1 {
		t.Errorf("feedback of two lines: exit %d, %s", code, errOut)
	}
}

// dispatch show and dispatch list print what other people typed, and
// what was stored before names were checked, escaped; --json stays JSON.
func TestDispatchShowEscapesStoredText(t *testing.T) {
	for _, bad := range hostile {
		d := &workflows.Detail{
			Summary: workflows.Summary{ID: "dispatch-building", RunID: "run-1", Open: true, Stage: "awaiting_clarification",
				Author: "Mallory" + bad, Prompt: "delete the pour" + bad},
			Round: 1,
			Status: &workflows.Status{Stage: workflows.StageAwaitingClarification, Round: 1, AwaitingClarification: true,
				Question: `"the pour` + bad + `" matches 9 activities`},
			Reviews: []workflows.Review{{Decision: "reject", Reviewer: "Eve" + bad, Feedback: "no" + bad}},
			Changes: []workflows.ChangeRecord{{Round: 1, Status: "applied", Call: `delete_activity(name="Pour` + bad + `")`,
				Op: schedule.Op{Task: "t" + bad}}},
			Result:     &workflows.DispatchResult{Reason: "cancelled by Eve" + bad, Error: "activity Pour" + bad + " not found"},
			Failure:    "failed" + bad,
			QueryError: "query" + bad,
		}
		var out, errOut bytes.Buffer
		if err := printDispatch(&cmdutil.IOStreams{Out: &out, ErrOut: &errOut}, d); err != nil {
			t.Fatal(err)
		}
		assertNoRawControl(t, "dispatch show", out.String())
		assertNoRawControl(t, "dispatch show's stderr", errOut.String())
		for _, want := range []string{"author: Mallory", "review: reject by Eve", "The planner asks:", "Pour", "dispatch cancel dispatch-building"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("dispatch show lacks %q:\n%s", want, out.String())
			}
		}
		var js bytes.Buffer
		if err := cmdutil.WriteJSON(&js, d); err != nil {
			t.Fatal(err)
		}
		assertNoRawControl(t, "dispatch show --json", strings.ReplaceAll(js.String(), "\n", ""))
		var back workflows.Detail
		if err := json.Unmarshal(js.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		if utf8.ValidString(bad) && (back.Author != d.Author || back.Reviews[0].Reviewer != d.Reviews[0].Reviewer) {
			t.Errorf("--json does not keep the stored names: %q, %q", back.Author, back.Reviews[0].Reviewer)
		}
	}

	completed := enums.WORKFLOW_EXECUTION_STATUS_COMPLETED
	f := &fakeTemporal{pages: [][]*workflowpb.WorkflowExecutionInfo{{
		execution("dispatch-a", "r1", completed, map[string]string{"ScheduleID": "a", "DispatchOutcome": "rejected"}, map[string]string{"author": "Mallory\x1b]0;TITLE\a\x1b[2J"}),
		execution("dispatch-b", "r2", completed, map[string]string{"ScheduleID": "b", "DispatchOutcome": "accepted\u202e"}, map[string]string{"author": "Eve\u009b2J"}),
	}}}
	code, out, errOut := runFake(t, f, "", "dispatch", "list")
	if code != exitOK || !strings.Contains(out, `Mallory\x1b]0;TITLE\x07\x1b[2J`) || !strings.Contains(out, `Eve\u009b2J`) {
		t.Errorf("dispatch list: exit %d\n%s%s", code, out, errOut)
	}
	assertNoRawControl(t, "dispatch list", out)
}

// prefs set refuses a value with control characters, naming the key
// (usage error); prefs show prints preferences stored before values were
// checked escaped.
func TestPrefsRefuseAndEscapeControlCharacters(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	db := embeddedArgs(t)
	cli := func(args ...string) (int, string, string) { return runCLI(t, append(args, db...)...) }
	if code, _, errOut := cli("import", "../examples/building.json", "--schedule", "building"); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	for _, bad := range hostile {
		for _, arg := range []string{"naming=X" + bad + " {Trade} Level {n}", "trades=drywall=gyp" + bad + "sum", "link:insp" + bad + "ection=FS"} {
			code, out, errOut := cli("prefs", "set", "--schedule", "building", arg)
			if code != exitUsage || out != "" || !strings.Contains(errOut, "prefs set: ") || !strings.Contains(errOut, "character") && !strings.Contains(errOut, "UTF-8") {
				t.Errorf("prefs set %q: exit %d, stdout %q, stderr %q; want a usage error", arg, code, out, errOut)
			}
			assertNoRawControl(t, "the prefs set refusal", errOut)
		}
		code, _, errOut := cli("prefs", "set", "--schedule", "building", "--remember", "name new activities <Trade>"+bad+" Level <n>")
		if code == exitOK {
			t.Errorf("prefs set --remember with %q saved it", bad)
		}
		assertNoRawControl(t, "the prefs set --remember refusal", errOut)
	}
	if code, out, _ := cli("prefs", "show", "--schedule", "building"); code != 0 || !strings.Contains(out, "no preferences set") {
		t.Errorf("refused values were stored:\n%s", out)
	}

	// Stored before values were checked (the store refuses them now).
	p := prefs.Preferences{Naming: "X\x1b]0;TITLE\a\x1b[2J {Trade}", Trades: []prefs.Trade{{Name: "drywall", Synonyms: []string{"gyp\u202esum"}}},
		Links: []prefs.LinkDefault{{Scope: "insp\u0085ection", Type: schedule.FS, Lag: 1}}}
	var out bytes.Buffer
	if err := printPrefs(&cmdutil.IOStreams{Out: &out}, prefsOutput{Schedule: "building", Preferences: p}, false); err != nil {
		t.Fatal(err)
	}
	assertNoRawControl(t, "prefs show", out.String())
	if !strings.Contains(out.String(), `X\x1b]0;TITLE\x07\x1b[2J {Trade}`) {
		t.Errorf("prefs show:\n%s", out.String())
	}
	out.Reset()
	if err := printPrefs(&cmdutil.IOStreams{Out: &out}, prefsOutput{Schedule: "building", Preferences: p}, true); err != nil {
		t.Fatal(err)
	}
	var back prefsOutput
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back.Preferences.Naming != p.Naming {
		t.Errorf("prefs show --json: %v, %q", err, back.Preferences.Naming)
	}
	assertNoRawControl(t, "prefs show --json", strings.ReplaceAll(out.String(), "\n", ""))
}

// dispatch cancel sends a cancel under --as, waits for the compensation
// and exits 0 when the dispatch ended cancelled, 1 otherwise (issue 26,
// item 14); the dispatch takes it at any stage (workflows' TestCancel*).
func TestDispatchCancelCmd(t *testing.T) {
	f := &fakeTemporal{result: workflows.DispatchResult{Status: workflows.StatusCancelled, Rounds: 1, Reason: "cancelled by dana while awaiting clarification (round 1)"}}
	code, out, errOut := runFake(t, f, "", "dispatch", "cancel", "dispatch-building", "--as", "dana")
	if code != exitOK || out != "dispatch-building: cancelled after 1 round(s)\n" || !strings.Contains(errOut, "cancel sent as dana") || !strings.Contains(errOut, "while awaiting clarification") {
		t.Errorf("dispatch cancel: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if want := (workflows.Review{Decision: workflows.DecisionCancel, Reviewer: "dana"}); len(f.reviews) != 1 || f.reviews[0] != want {
		t.Errorf("sent %+v, want %+v", f.reviews, want)
	}
	code, out, _ = runFake(t, f, "", "dispatch", "cancel", "dispatch-building", "--as", "dana", "--json")
	var res workflows.DispatchResult
	if err := json.Unmarshal([]byte(out), &res); code != exitOK || err != nil || res.Status != workflows.StatusCancelled {
		t.Errorf("dispatch cancel --json: exit %d, %v, %q", code, err, out)
	}
	f.result = workflows.DispatchResult{Status: workflows.StatusAccepted, Rounds: 1}
	if code, _, errOut := runFake(t, f, "", "dispatch", "cancel", "dispatch-building"); code != exitError || !strings.Contains(errOut, "ended accepted before the cancel was taken") {
		t.Errorf("dispatch cancel of a dispatch that ended accepted: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runFake(t, f, "", "dispatch", "cancel"); code != exitUsage {
		t.Errorf("dispatch cancel without an id: exit %d, %s", code, errOut)
	}
}
