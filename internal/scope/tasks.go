package scope

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
)

// Task is one request of a multi-part prompt: "delete the level 4
// ceilings", "add a 2 day fire-stopping after drywall board on each
// level", "then make the roof start after the new level 4 fire-stopping".
// A round plans and applies the tasks in dependency order, each as its own
// removals and additions steps, so a task planned after the tasks it
// depends on sees what they created.
type Task struct {
	// ID is the task's number as the review shows it ("1", "2", ...).
	ID     string `json:"id"`
	Prompt string `json:"prompt"`
	// Removals and Additions are the task's prompt separated by intent.
	Removals  string `json:"removals"`
	Additions string `json:"additions"`
	// DependsOn are the IDs of earlier tasks this one needs first: it
	// refers to what they create, or the prompt sequenced it after them.
	DependsOn []string `json:"depends_on,omitempty"`
}

// Steps are the task's planning steps, as RoundInput.Steps lists a
// round's: without those that have nothing to plan.
func (t Task) Steps(feedback string) []Step {
	return RoundInput{Separation: &Separation{Removals: t.Removals, Additions: t.Additions}, Feedback: feedback}.Steps()
}

// Decompose splits a prompt into tasks, one a request, with the
// dependencies its words show: a request sequenced after the one before
// ("…, then …", "after that …") depends on it, and a request that refers
// to what an earlier one creates ("the new level 4 fire-stopping", or the
// name an earlier request gives) depends on that one. A prompt of one
// request has no tasks (nil): the round plans it whole, as before.
//
// It reads the prompt without a schedule, like Classify, so it is the same
// for every planner and every round.
func Decompose(prompt string) []Task {
	tasks, _ := DecomposeContext(context.Background(), prompt)
	return tasks
}

// DecomposeContext is Decompose, stopped with ctx's error when ctx is done.
func DecomposeContext(ctx context.Context, prompt string) ([]Task, error) {
	reqs := lang.Requests(prompt, lang.Options{Context: ctx})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return decompose(reqs), nil
}

// decompose is Decompose of a prompt read into its requests.
func decompose(reqs []lang.Request) []Task {
	if len(reqs) < 2 {
		return nil
	}
	tasks := make([]Task, len(reqs))
	created := make([][]map[string]bool, len(reqs)) // the names each request creates, as content words
	for i, r := range reqs {
		t := Task{ID: strconv.Itoa(i + 1), Prompt: r.Source}
		var rem, add []string
		for _, c := range r.Commands {
			if c.Kind.Removal() {
				rem = appendOnce(rem, r.Source)
			}
			if c.Kind.Addition() {
				add = appendOnce(add, r.Source)
			}
			created[i] = append(created[i], createdNames(c)...)
		}
		t.Removals, t.Additions = strings.Join(rem, "; "), strings.Join(add, "; ")
		var deps []int
		if r.Sequenced {
			deps = append(deps, i-1)
		}
		for _, ref := range references(r.Commands) {
			if j := creator(ref, created[:i]); j >= 0 {
				deps = append(deps, j)
			}
		}
		slices.Sort(deps)
		for _, j := range slices.Compact(deps) {
			t.DependsOn = append(t.DependsOn, tasks[j].ID)
		}
		tasks[i] = t
	}
	return tasks
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// createdNames are the names a command gives new or renamed activities,
// as content words: "Fire-stopping" {fire, stopping}; "add activities for
// excavation on floor 1" {excavation}.
func createdNames(c lang.Command) []map[string]bool {
	var names []string
	switch c.Kind {
	case lang.Add, lang.Rename:
		names = append(names, c.Name)
	case lang.AddScope:
		for _, t := range c.Targets {
			names = append(names, t.Words)
		}
	}
	var out []map[string]bool
	for _, n := range names {
		if w := contentWords(n); len(w) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// references are the activities a request's commands refer to.
func references(cmds []lang.Command) []lang.Ref {
	var out []lang.Ref
	for _, c := range cmds {
		out = append(out, c.Targets...)
		out = append(out, c.From...)
		out = append(out, c.To...)
		out = append(out, c.After...)
		out = append(out, c.Before...)
		if c.Instead != nil {
			out = append(out, *c.Instead)
		}
	}
	return out
}

// freshWords mark a reference to something the prompt creates.
var freshWords = map[string]bool{"new": true, "newly": true, "added": true, "created": true, "inserted": true}

// creator is the latest earlier request whose created names ref names
// (all of a created name's content words are in ref), or, when ref says
// "new"/"added" and names none of them, the latest earlier request that
// creates anything; -1 when none.
func creator(ref lang.Ref, created [][]map[string]bool) int {
	words := contentWords(ref.Words)
	fresh := false
	for _, w := range strings.Fields(strings.ToLower(ref.Words)) {
		fresh = fresh || freshWords[w]
	}
	for j := len(created) - 1; j >= 0; j-- {
		for _, name := range created[j] {
			if subset(name, words) {
				return j
			}
		}
	}
	if fresh {
		for j := len(created) - 1; j >= 0; j-- {
			if len(created[j]) > 0 {
				return j
			}
		}
	}
	return -1
}

func subset(a, b map[string]bool) bool {
	if len(a) == 0 {
		return false
	}
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return true
}

// nameStopWords are the words of a reference that do not name work.
var nameStopWords = map[string]bool{"the": true, "a": true, "an": true, "new": true, "newly": true, "added": true, "created": true,
	"inserted": true, "on": true, "of": true, "in": true, "at": true, "for": true, "to": true, "and": true, "each": true, "every": true,
	"all": true, "activity": true,
	"activities": true, "task": true, "tasks": true, "work": true, "works": true, "its": true, "their": true, "that": true, "this": true,
	"these": true, "those": true, "one": true, "ones": true}

// contentWords are the lower-case words of s that name work: no stop
// words, level words ("floor", "storey"), numbers or place marks ("l4",
// "storey4", "zone3", "gf"; see lexicon).
func contentWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if nameStopWords[w] || lexicon.IsLevelWord(w) || strings.IndexFunc(w, unicode.IsLetter) < 0 || lexicon.IsMark(w) {
			continue
		}
		out[w] = true
	}
	return out
}

// CheckTasks validates tasks from a planner (an LLM's decomposition): ids
// unique and non-empty, each with a prompt, dependencies on earlier tasks
// only (so the order written is a dependency order). The error says which
// task is wrong and how.
func CheckTasks(tasks []Task) error {
	seen := map[string]bool{}
	for n, t := range tasks {
		switch {
		case strings.TrimSpace(t.ID) == "":
			return fmt.Errorf("task %d has no id", n+1)
		case seen[t.ID]:
			return fmt.Errorf("task %q appears twice", t.ID)
		case strings.TrimSpace(t.Prompt) == "":
			return fmt.Errorf("task %q has no prompt", t.ID)
		}
		for _, d := range t.DependsOn {
			if !seen[d] {
				return fmt.Errorf("task %q depends on %q, which is not an earlier task", t.ID, d)
			}
		}
		seen[t.ID] = true
	}
	return nil
}

// Task statuses in a round.
const (
	TaskPending  = "pending"  // not reached yet
	TaskPlanning = "planning" // being planned or applied
	TaskPlanned  = "planned"  // planned (again) and applied this round
	TaskKept     = "kept"     // feedback named other tasks: its ops re-applied as they were
	TaskFailed   = "failed"   // its planning or applying failed: nothing of it applied
	TaskBlocked  = "blocked"  // a task it depends on failed or was blocked
	TaskAsking   = "asking"   // waits for an answer to its question
)

// TaskReport is how a task fared in a round.
type TaskReport struct {
	ID        string   `json:"id"`
	Prompt    string   `json:"prompt"`
	DependsOn []string `json:"depends_on,omitempty"`
	Status    string   `json:"status"`
	// Feedback is the reviewer's feedback the task was planned with.
	Feedback string `json:"feedback,omitempty"`
	// Error says why the task failed; BlockedBy are the failed tasks a
	// blocked one waited on.
	Error     string   `json:"error,omitempty"`
	BlockedBy []string `json:"blocked_by,omitempty"`
	Notes     []string `json:"notes,omitempty"`
}

// NewTaskReports are the round's task reports before it starts: every
// task pending.
func NewTaskReports(tasks []Task) []TaskReport {
	out := make([]TaskReport, len(tasks))
	for i, t := range tasks {
		out[i] = TaskReport{ID: t.ID, Prompt: t.Prompt, DependsOn: slices.Clone(t.DependsOn), Status: TaskPending}
	}
	return out
}

// Blockers are the tasks t depends on that failed or were blocked, per
// the reports so far.
func Blockers(t Task, reports []TaskReport) []string {
	var out []string
	for _, d := range t.DependsOn {
		for _, r := range reports {
			if r.ID == d && (r.Status == TaskFailed || r.Status == TaskBlocked) {
				out = append(out, d)
			}
		}
	}
	return out
}

// TaskFeedback is a reviewer's feedback read against a round's tasks:
// the parts that name a task ("task 2: 3 days, not 2") and the rest.
type TaskFeedback struct {
	// Named maps a task ID to the feedback that names it, in the order
	// the tasks are listed.
	Named []NamedFeedback
	// General is the feedback that names no task ("" when all of it does).
	General string
	// Unknown are task numbers the feedback names that the round has not.
	Unknown []string
}

// NamedFeedback is feedback for one task.
type NamedFeedback struct {
	Task string
	Text string
}

// taskMention is "task 2", "tasks 2 and 3", "#2", "for task 2", at the
// start of a part of the feedback, with the punctuation after it.
var taskMention = regexp.MustCompile(`(?i)(?:^|[\s;,.(])(?:(?:for|in|on|about|re|with)\s+)?(?:tasks\s*#?\s*(\d+(?:\s*(?:,|and|&|\+)\s*\d+)*)|task\s*#?\s*(\d+)|#(\d+))\b\s*(?:[:\-–—)]|,)?\s*`)

var taskNumbers = regexp.MustCompile(`\d+`)

// ReadTaskFeedback splits feedback by the tasks it names. The text after
// a mention, up to the next mention, is that task's feedback; the text
// before the first mention is general. When any task is named the general
// text goes with each named task too ("looks good except: task 2: 3
// days"), and the tasks not named keep their ops.
func ReadTaskFeedback(feedback string, tasks []Task) TaskFeedback {
	var fb TaskFeedback
	known := map[string]bool{}
	for _, t := range tasks {
		known[t.ID] = true
	}
	marks := taskMention.FindAllStringSubmatchIndex(feedback, -1)
	if len(marks) == 0 {
		fb.General = strings.TrimSpace(feedback)
		return fb
	}
	texts := map[string][]string{}
	general := strings.TrimSpace(feedback[:marks[0][0]])
	for n, m := range marks {
		end := len(feedback)
		if n+1 < len(marks) {
			end = marks[n+1][0]
		}
		text := strings.Trim(strings.TrimSpace(feedback[m[1]:end]), ";,. ")
		nums := ""
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				nums = feedback[m[g]:m[g+1]]
			}
		}
		for _, id := range taskNumbers.FindAllString(nums, -1) {
			id = strings.TrimLeft(id, "0")
			if !known[id] {
				fb.Unknown = appendOnce(fb.Unknown, id)
				continue
			}
			if text != "" {
				texts[id] = append(texts[id], text)
			}
		}
	}
	for _, t := range tasks {
		if parts, ok := texts[t.ID]; ok {
			text := strings.Join(parts, "; ")
			if general != "" {
				text = general + " " + text
			}
			fb.Named = append(fb.Named, NamedFeedback{Task: t.ID, Text: text})
		}
	}
	if len(fb.Named) == 0 {
		// Only unknown tasks named: the whole feedback is general.
		fb.General = strings.TrimSpace(feedback)
		return fb
	}
	return fb
}

// For is the feedback task t is planned with, and whether it is planned
// again at all: with no task named, every task is, with the general
// feedback; with tasks named, the named ones with their feedback and the
// tasks that depend on them (directly or not) afresh, without feedback;
// the others keep their ops.
func (fb TaskFeedback) For(t Task, tasks []Task) (feedback string, replan bool) {
	if len(fb.Named) == 0 {
		return fb.General, true
	}
	for _, n := range fb.Named {
		if n.Task == t.ID {
			return n.Text, true
		}
	}
	return "", fb.dependsOnNamed(t, tasks)
}

// dependsOnNamed reports whether t depends, directly or through other
// tasks, on a task the feedback names.
func (fb TaskFeedback) dependsOnNamed(t Task, tasks []Task) bool {
	byID := map[string]Task{}
	for _, x := range tasks {
		byID[x.ID] = x
	}
	seen := map[string]bool{}
	var walk func(Task) bool
	walk = func(x Task) bool {
		for _, d := range x.DependsOn {
			if seen[d] {
				continue
			}
			seen[d] = true
			for _, n := range fb.Named {
				if n.Task == d {
					return true
				}
			}
			if walk(byID[d]) {
				return true
			}
		}
		return false
	}
	return walk(t)
}

// UnknownTasksNote says which tasks feedback named that the round has not.
func (fb TaskFeedback) UnknownTasksNote(tasks []Task) string {
	if len(fb.Unknown) == 0 {
		return ""
	}
	return fmt.Sprintf("the feedback names task %s, but this dispatch has tasks %s to %s", strings.Join(fb.Unknown, ", "), tasks[0].ID, tasks[len(tasks)-1].ID)
}

// Outcome says in words how the task fared: "planned", "kept from the
// last round", "FAILED: …", "blocked: task 2 failed".
func (r TaskReport) Outcome() string {
	switch r.Status {
	case TaskKept:
		return "kept from the last round"
	case TaskFailed:
		return "FAILED: " + r.Error + "; nothing of it is applied"
	case TaskBlocked:
		return "blocked: task " + strings.Join(r.BlockedBy, ", ") + " failed"
	case TaskPlanned:
		if r.Feedback != "" {
			return fmt.Sprintf("planned again with %q", r.Feedback)
		}
		return "planned"
	}
	return r.Status
}

// TaskFeedbackHint tells a reviewer how to name a task in feedback.
const TaskFeedbackHint = `Reject with feedback naming a task ("task 2: 3 days, not 2") to plan that task and the tasks after it again; the others keep their changes.`
