package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// writeTaskChanges prints a multi-part prompt's round task by task: each
// task's prompt, what it depends on, how it fared and its changes.
func writeTaskChanges(w io.Writer, p workflows.Proposal) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range p.Tasks {
		fmt.Fprintf(tw, "  %s\n", usertext.Terminal(taskHeading(t)))
		n := 0
		for _, ch := range p.Changes {
			if ch.Op.Task == t.ID {
				fmt.Fprintf(tw, "    %s\t%s\n", ch.Status, usertext.Terminal(ch.Call))
				n++
			}
		}
		if n == 0 && (t.Status == scope.TaskPlanned || t.Status == scope.TaskKept) {
			fmt.Fprintln(tw, "    (no changes)")
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "  "+scope.TaskFeedbackHint)
}

// taskHeading is "Task 3 (after 2): make … — planned".
func taskHeading(t workflows.TaskReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Task %s", t.ID)
	if len(t.DependsOn) > 0 {
		fmt.Fprintf(&b, " (after %s)", strings.Join(t.DependsOn, ", "))
	}
	fmt.Fprintf(&b, ": %s — %s", t.Prompt, t.Outcome())
	return b.String()
}

// writeChoices lists the answers a question offers, numbered from 1: the
// CLI's pick list.
func writeChoices(w io.Writer, choices []workflows.Choice, several bool) {
	if len(choices) == 0 {
		return
	}
	pick := "Pick one"
	if several {
		pick = "Pick one or more"
	}
	fmt.Fprintf(w, "%s:\n", pick)
	width := len(strconv.Itoa(len(choices)))
	for i, c := range choices {
		fmt.Fprintf(w, "  %*d) %s\n", width, i+1, usertext.Terminal(c.Label))
	}
}

// choiceNumbers is an answer made of choice numbers: "2", "1, 3", "1 3".
var choiceNumbers = regexp.MustCompile(`^\d+(?:\s*[,\s]\s*\d+)*$`)

// pickChoices is the answer text stands for: the Answer of each choice it
// numbers (from 1), joined with ", ", when text is only numbers; text
// itself otherwise (words, an id, "none"). A number out of range, or
// several numbers where the question takes one, is an error saying so.
func pickChoices(choices []workflows.Choice, several bool, text string) (string, error) {
	text = strings.TrimSpace(text)
	if len(choices) == 0 || !choiceNumbers.MatchString(text) {
		return text, nil
	}
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(fields) > 1 && !several {
		return "", fmt.Errorf("%q picks %d choices: this question takes one (1-%d)", text, len(fields), len(choices))
	}
	answers := make([]string, 0, len(fields))
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > len(choices) {
			return "", fmt.Errorf("%q: there is no choice %s: pick 1-%d", text, f, len(choices))
		}
		answers = append(answers, choices[n-1].Answer)
	}
	return strings.Join(answers, ", "), nil
}
