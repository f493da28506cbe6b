package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// TestProposalOutputEscapesControls: a proposal's question, notes and
// calls carry text people wrote (activity names, prompts); printed on a
// terminal, their control characters are shown, never obeyed.
func TestProposalOutputEscapesControls(t *testing.T) {
	hostile := "Pour\x1b]0;owned\a\x1b[2J slab\u202e"
	for name, p := range map[string]workflows.Proposal{
		"question": {Round: 1, AwaitingClarification: true, Question: "Which " + hostile + "?"},
		"round": {Round: 1, Notes: []string{"note " + hostile}, Question: "also " + hostile,
			Changes: []workflows.ChangeRecord{{Status: "applied", Call: `delete_activity(name="` + hostile + `")`, Op: schedule.Op{}}}},
	} {
		var out bytes.Buffer
		opts := &promptOptions{io: &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: io.Discard}}
		if err := printProposal(opts, "dispatch-x", p); err != nil {
			t.Fatal(err)
		}
		if s := out.String(); strings.ContainsAny(s, "\x1b\a\u202e") || !strings.Contains(s, `\x1b]0;owned\x07`) {
			t.Errorf("%s: printed %q", name, s)
		}
	}
}

// TestProposalOutputRiskFirst: the round's risk rating comes before its
// changes in the text and first in --json; a finish earlier only because
// logic was cut is not printed as good news.
func TestProposalOutputRiskFirst(t *testing.T) {
	rating := &schedule.RiskRating{Level: schedule.RiskCritical, Summary: "Critical risk: Logic cut.", FinishFromCutLogic: true,
		Reasons:         []schedule.RiskReason{{Kind: schedule.RiskLogicCut, Level: schedule.RiskCritical, Text: "Logic cut: A -> B deleted -> C.", Items: []schedule.RiskItem{}}},
		DissolveInstead: []schedule.RiskItem{{ID: "B", Name: "Pour slab"}}, DissolveFeedback: "dissolve instead"}
	p := workflows.Proposal{Round: 1,
		Changes: []workflows.ChangeRecord{{Status: "applied", Call: `delete_activity(name="Pour slab")`}},
		Impact: &workflows.Impact{RiskRating: rating, Diff: &schedule.Comparison{
			Impact: &schedule.CPMChange{Finishes: schedule.FinishesOf(10, 6, "", "")}}}}
	var out bytes.Buffer
	opts := &promptOptions{io: &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: io.Discard}}
	if err := printProposal(opts, "dispatch-x", p); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.HasPrefix(text, "Round 1 of dispatch-x:\nRisk: CRITICAL\n  critical  Logic cut: A -> B deleted -> C.\n  Instead: dissolve Pour slab (B)") {
		t.Errorf("the risk is not first:\n%s", text)
	}
	if !strings.Contains(text, "finish earlier only because logic was cut (by 4 working days)") || strings.Contains(text, "finish moves earlier") {
		t.Errorf("the finish reads as good news:\n%s", text)
	}
	out.Reset()
	opts.JSON = true
	if err := printProposal(opts, "dispatch-x", p); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.HasPrefix(strings.TrimSpace(got), `{`) || !strings.Contains(got, `"risk"`) ||
		strings.Index(got, `"risk"`) > strings.Index(got, `"dispatch"`) || !strings.Contains(got, `"risk_rating"`) {
		t.Errorf("--json: the risk is not first:\n%s", got)
	}
}
