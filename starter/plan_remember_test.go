package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanFeedbackRemembers: `plan --previous … --feedback` previews the
// round a dispatch plans from that feedback: "remember: …" is a
// preference the round already follows (FS+1 into the new inspection, as
// a redo plans it), said in a note, and the rest of the feedback changes
// the proposal ("make it 3 days").
func TestPlanFeedbackRemembers(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	const prompt = "add a 2 day scaffold inspection after drywall board level 2"
	code, out, errOut := runCLI(t, "plan", prompt, "--file", "../examples/building.json", "--format", "json")
	if code != 0 {
		t.Fatalf("round 1: exit %d: %s", code, errOut)
	}
	prev := filepath.Join(t.TempDir(), "round1.json")
	if err := os.WriteFile(prev, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `successor=\"Scaffold inspection\", lag=0`) {
		t.Fatalf("round 1 has no FS+0 link into the inspection:\n%s", out)
	}
	for _, c := range []struct{ feedback, duration string }{
		{"make it 3 days. Remember: use FS+1 for new inspections", `duration=\"3\"`},
		{"remember: use FS+1 for new inspections", `duration=\"2\"`}, // only a preference: planned afresh
	} {
		p := planOf(t, prompt, "--previous", prev, "--feedback", c.feedback)
		calls := ""
		for _, op := range p.Ops {
			calls += op.Call + "\n"
		}
		if !strings.Contains(calls, `successor="Scaffold inspection", lag=1`) || !strings.Contains(calls, strings.ReplaceAll(c.duration, `\"`, `"`)) {
			t.Errorf("%q: round 2 is\n%s", c.feedback, calls)
		}
		if !strings.Contains(strings.Join(p.Notes, "\n"), "preference for this round") {
			t.Errorf("%q: notes %q", c.feedback, p.Notes)
		}
	}
}
