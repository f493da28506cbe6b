package scope

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Minimal is a deliberately small deterministic planner for tests, and the
// stand-in until the rules planner lands. Its grammar, one command per part
// (parts are separated by " and then " or "; "):
//
//	delete activity <name or id>          (also: remove activity ...)
//	dissolve activity <name or id>
//	delete relationship <pred> -> <succ>  (names or ids)
//	add activity "<name>" <N> days [after "<name or id>"]
//
// Names match exactly, ignoring letter case, and may be quoted. A name that
// matches nothing or several things becomes a Question, never a guess;
// anything else becomes a Note. Reviewer feedback written in the same grammar
// replaces the prompt's commands of that kind in the next round.
type Minimal struct{}

var _ Planner = Minimal{}

// NotUnderstood ends the Note for a part the minimal planner cannot parse.
const NotUnderstood = "not understood by the minimal planner"

var partSep = regexp.MustCompile(`(?i)\s+and\s+then\s+|;\s+|;$`)

// parts splits text into trimmed, non-empty commands.
func parts(text string) []string {
	var out []string
	for _, p := range partSep.Split(text, -1) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func isRemoval(part string) bool {
	first, _, _ := strings.Cut(strings.ToLower(part), " ")
	switch first {
	case "delete", "remove", "dissolve":
		return true
	}
	return false
}

// Separate classifies each part as a removal (it starts with delete, remove
// or dissolve) or an addition, keeping the order within each kind.
func (Minimal) Separate(_ context.Context, prompt string) (Separation, error) {
	var rem, add []string
	for _, p := range parts(prompt) {
		if isRemoval(p) {
			rem = append(rem, p)
		} else {
			add = append(add, p)
		}
	}
	return Separation{Removals: strings.Join(rem, "; "), Additions: strings.Join(add, "; ")}, nil
}

// commands picks the text to plan from: the feedback's commands of the
// wanted kind if there are any, else the prompt's.
func commands(in PlanInput, removals bool) []string {
	pick := func(text string) []string {
		var out []string
		for _, p := range parts(text) {
			if isRemoval(p) == removals {
				out = append(out, p)
			}
		}
		return out
	}
	if fb := pick(in.Feedback); len(fb) > 0 {
		return fb
	}
	return pick(in.Prompt)
}

var (
	reDeleteActivity   = regexp.MustCompile(`(?i)^(?:delete|remove)\s+activity\s+(.+)$`)
	reDissolveActivity = regexp.MustCompile(`(?i)^dissolve\s+activity\s+(.+)$`)
	reDeleteRel        = regexp.MustCompile(`(?i)^(?:delete|remove)\s+relationship\s+(.+?)\s*->\s*(.+)$`)
	reAddActivity      = regexp.MustCompile(`(?i)^add\s+activity\s+"([^"]+)"\s+(\d+(?:\.\d+)?)\s+days?(?:\s+after\s+(.+))?$`)
)

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	return strings.TrimSpace(s)
}

// findActivity resolves a name or id: an exact id wins, else the activities
// whose name matches ignoring case. It returns a question when the answer
// is not exactly one activity.
func findActivity(acts []schedule.Activity, ref string) (schedule.Activity, string) {
	ref = unquote(ref)
	var hits []schedule.Activity
	for _, a := range acts {
		if a.ID == ref {
			return a, ""
		}
		if strings.EqualFold(a.Name, ref) {
			hits = append(hits, a)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], ""
	case 0:
		return schedule.Activity{}, fmt.Sprintf("No activity is named %q: which activity did you mean?", ref)
	}
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return schedule.Activity{}, fmt.Sprintf("%d activities are named %q (ids %s): which one?", len(hits), ref, strings.Join(ids, ", "))
}

func notUnderstood(part string) string { return fmt.Sprintf("%q: %s", part, NotUnderstood) }

// PlanRemovals understands delete activity, dissolve activity and delete
// relationship.
func (Minimal) PlanRemovals(_ context.Context, s *schedule.Schedule, in PlanInput) (Plan, error) {
	var plan Plan
	var questions []string
	for _, part := range commands(in, true) {
		if m := reDeleteRel.FindStringSubmatch(part); m != nil {
			pred, q1 := findActivity(s.Activities, m[1])
			succ, q2 := findActivity(s.Activities, m[2])
			if q1 != "" || q2 != "" {
				questions = appendNonEmpty(questions, q1, q2)
				continue
			}
			var links []schedule.Relationship
			for _, r := range s.Relationships {
				if r.Predecessor == pred.ID && r.Successor == succ.ID {
					links = append(links, r)
				}
			}
			switch len(links) {
			case 0:
				questions = append(questions, fmt.Sprintf("%q does not precede %q directly: which relationship did you mean?", pred.Name, succ.Name))
			case 1:
				plan.Ops = append(plan.Ops, schedule.RemoveRelationship(links[0].ID))
			default:
				kinds := make([]string, len(links))
				for i, l := range links {
					kinds[i] = fmt.Sprintf("%s (%s)", l.Type, l.ID)
				}
				questions = append(questions, fmt.Sprintf("%q and %q are linked %d ways, %s: which one?", pred.Name, succ.Name, len(links), strings.Join(kinds, ", ")))
			}
			continue
		}
		if m := reDeleteActivity.FindStringSubmatch(part); m != nil {
			a, q := findActivity(s.Activities, m[1])
			if q != "" {
				questions = append(questions, q)
				continue
			}
			plan.Ops = append(plan.Ops, schedule.RemoveActivity(a.ID))
			continue
		}
		if m := reDissolveActivity.FindStringSubmatch(part); m != nil {
			a, q := findActivity(s.Activities, m[1])
			if q != "" {
				questions = append(questions, q)
				continue
			}
			plan.Ops = append(plan.Ops, schedule.DissolveActivity(a.ID))
			continue
		}
		plan.Notes = append(plan.Notes, notUnderstood(part))
	}
	plan.Question = strings.Join(questions, " ")
	return plan, nil
}

// PlanAdditions understands add activity "<name>" <N> days [after "<name>"].
// New ids derive from the command text and the round, so a retried step
// proposes the same ids; the after-activity may be one added earlier in the
// same plan.
func (Minimal) PlanAdditions(_ context.Context, s *schedule.Schedule, in PlanInput) (Plan, error) {
	var plan Plan
	var questions []string
	acts := append([]schedule.Activity(nil), s.Activities...)
	for i, part := range commands(in, false) {
		m := reAddActivity.FindStringSubmatch(part)
		if m == nil {
			plan.Notes = append(plan.Notes, notUnderstood(part))
			continue
		}
		a := schedule.Activity{
			ID:       schedule.DerivedID("minimal-activity", in.Prompt, in.Feedback, strconv.Itoa(in.Round), strconv.Itoa(i), part),
			Name:     strings.TrimSpace(m[1]),
			Duration: m[2],
		}
		var link *schedule.Relationship
		if m[3] != "" {
			after, q := findActivity(acts, m[3])
			if q != "" {
				questions = append(questions, q)
				continue
			}
			link = &schedule.Relationship{
				ID:          schedule.DerivedID("minimal-relationship", a.ID, after.ID),
				Type:        schedule.FS,
				Predecessor: after.ID,
				Successor:   a.ID,
			}
		}
		acts = append(acts, a)
		plan.Ops = append(plan.Ops, schedule.AddActivity(a))
		if link != nil {
			plan.Ops = append(plan.Ops, schedule.AddRelationship(*link))
		}
	}
	plan.Question = strings.Join(questions, " ")
	return plan, nil
}

func appendNonEmpty(list []string, items ...string) []string {
	for _, it := range items {
		if it != "" {
			list = append(list, it)
		}
	}
	return list
}
