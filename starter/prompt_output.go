package main

import (
	"fmt"
	"io"
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
