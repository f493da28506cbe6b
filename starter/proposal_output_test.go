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
