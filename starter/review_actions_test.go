package main

import (
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// review takes redo, back and cancel besides accept and reject; bad uses
// are usage errors, refused before anything is sent.
func TestReviewActionsUsage(t *testing.T) {
	f := &fakeTemporal{}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"maybe"}, `review: decision "maybe": want one of accept, reject, redo, back, cancel`},
		{[]string{"redo", "--feedback", "x"}, "review: --feedback goes with reject"},
		{[]string{"cancel", "--feedback", "x"}, "review: --feedback goes with reject"},
		{[]string{"back", "--round", "1"}, "review: back: round 1 has no previous round to go back to"},
		{[]string{"redo", "--round", "-2"}, "review: --round -2: rounds count from 1"},
	} {
		code, _, errOut := runFake(t, f, "", append([]string{"review", "dispatch-building"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("review %v: exit %d, %s, want usage error %q", tc.args, code, errOut, tc.want)
		}
	}
	if len(f.reviews) != 0 {
		t.Errorf("refused reviews were sent: %+v", f.reviews)
	}
	code, out, _ := runFake(t, f, "", "review", "--help")
	for _, want := range []string{"accept|reject|redo|back|cancel", "redo     undo them and plan the same prompt again", "back     undo them and propose the previous round's changes again", "cancel   undo them and end the dispatch cancelled"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("review --help lacks %q:\n%s", want, out)
		}
	}
}

func TestReviewActionsSent(t *testing.T) {
	f := &fakeTemporal{result: workflows.DispatchResult{Status: workflows.StatusCancelled, Rounds: 1, Reviewer: "bob"}}
	// Redo and back start another round: nothing to wait for.
	for _, tc := range []struct{ d, next string }{
		{"redo", "the next round is being planned"},
		{"back", "the next round applies the previous round's changes again"},
	} {
		d, next := tc.d, tc.next
		code, out, errOut := runFake(t, f, "", "review", "dispatch-building", d, "--round", "2", "--as", "bob")
		if code != exitOK || out != "" || !strings.Contains(errOut, d+" sent as bob") || !strings.Contains(errOut, next) {
			t.Errorf("review %s: exit %d, stdout %q, stderr %q", d, code, out, errOut)
		}
	}
	// Cancel waits for the compensation and prints the outcome (exit 1).
	code, out, errOut := runFake(t, f, "", "review", "dispatch-building", "cancel", "--as", "bob")
	if code != exitError || !strings.Contains(out, "dispatch-building: cancelled after 1 round(s)") || !strings.Contains(errOut, "cancel sent as bob") {
		t.Errorf("review cancel: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	want := []workflows.Review{
		{Decision: workflows.DecisionRedo, Reviewer: "bob", Round: 2},
		{Decision: workflows.DecisionBack, Reviewer: "bob", Round: 2},
		{Decision: workflows.DecisionCancel, Reviewer: "bob"},
	}
	wantReviews(t, f.reviews, want)
}

// The interactive review (prompt, and the menu's Open prompt) offers d
// (redo), b (back, from round 2) and c (cancel); redo and back go on to
// the next round's proposal.
func TestPromptReviewActions(t *testing.T) {
	f := &fakeTemporal{
		proposals: []workflows.Proposal{proposal(1), proposal(2), proposal(3)},
		result:    workflows.DispatchResult{Status: workflows.StatusCancelled, Rounds: 3},
	}
	code, out, errOut := runFake(t, f, "b\nd\nb\nc\n", "prompt", "delete activity Handover", "-s", "building", "--as", "bob")
	if code != exitError || !strings.Contains(out, "cancelled after 3 round(s)") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "Round 1 has no previous round to go back to.") ||
		!strings.Contains(errOut, "[a/r/f] (or d to redo, c to cancel)") ||
		!strings.Contains(errOut, "[a/r/f] (or d to redo, b to go back to round 1, c to cancel)") {
		t.Errorf("the question:\n%s", errOut)
	}
	want := []workflows.Review{
		{Decision: workflows.DecisionRedo, Reviewer: "bob", Round: 1},
		{Decision: workflows.DecisionBack, Reviewer: "bob", Round: 2},
		{Decision: workflows.DecisionCancel, Reviewer: "bob", Round: 3},
	}
	wantReviews(t, f.reviews, want)
}

// The menu's Open prompt asks the same question: redo, then cancel.
func TestMenuReviewActions(t *testing.T) {
	f := &fakeTemporal{
		proposals: []workflows.Proposal{proposal(1), proposal(2)},
		result:    workflows.DispatchResult{Status: workflows.StatusCancelled, Rounds: 2},
	}
	code, out, errOut := runFake(t, f, "6\ndelete activity Handover\nd\nc\n8\n", "menu", "-s", "building", "--as", "bob")
	if code != exitOK || !strings.Contains(out, "cancelled after 2 round(s)") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if len(f.reviews) != 2 || f.reviews[0].Decision != workflows.DecisionRedo || f.reviews[1].Decision != workflows.DecisionCancel || f.reviews[1].Round != 2 {
		t.Errorf("reviews = %+v", f.reviews)
	}
}

// wantReviews checks the reviews sent, in order.
func wantReviews(t *testing.T, got, want []workflows.Review) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("reviews = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("review %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
