package schedule

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The call strings are the seed design's "buffer memory": each op written as
// the function call a planner reads, with activity names rather than ids.

func quote(s string) string { return strconv.Quote(s) }

func formatDays(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// describe writes op as a call, resolving names against s.
func describe(s *Schedule, op Op) string { return describeWith(s, s.activityName, op) }

func describeWith(s *Schedule, name func(id string) string, op Op) string {
	switch op.Kind {
	case AddActivityOp:
		if op.Activity == nil {
			break
		}
		a := op.Activity
		call := fmt.Sprintf("add_activity(name=%s, duration=%s", quote(a.Name), quote(a.Duration))
		if a.Description != "" {
			call += ", description=" + quote(a.Description)
		}
		return call + ")"
	case RemoveActivityOp:
		return fmt.Sprintf("delete_activity(name=%s)", quote(name(op.ActivityID)))
	case DissolveActivityOp:
		return fmt.Sprintf("dissolve_activity(name=%s)", quote(name(op.ActivityID)))
	case UpdateActivityOp:
		if op.Activity == nil {
			break
		}
		old, ok := s.Activity(op.Activity.ID)
		if !ok {
			return fmt.Sprintf("update_activity(id=%s)", quote(op.Activity.ID))
		}
		return describeUpdate(*op.Activity, old)
	case AddRelationshipOp:
		if op.Relationship == nil {
			break
		}
		return describeRelationship("add_relationship", name, *op.Relationship)
	case UpdateRelationshipOp:
		if op.Relationship == nil {
			break
		}
		if old, ok := s.Relationship(op.Relationship.ID); ok {
			return describeRelationshipUpdate(name, *op.Relationship, old)
		}
		return fmt.Sprintf("update_relationship(id=%s)", quote(op.Relationship.ID))
	case SetDataDateOp:
		return fmt.Sprintf("set_data_date(date=%s)", quote(op.DataDate))
	case RemoveRelationshipOp:
		if r, ok := s.Relationship(op.RelationshipID); ok {
			return describeRelationship("delete_relationship", name, r)
		}
		return fmt.Sprintf("delete_relationship(id=%s)", quote(op.RelationshipID))
	}
	return string(op.Kind) + "()"
}

// describeUpdate names the activity as it was and lists only what changes.
func describeUpdate(to, from Activity) string {
	args := []string{"name=" + quote(from.Name)}
	if to.Name != from.Name {
		args = append(args, "new_name="+quote(to.Name))
	}
	if to.Duration != from.Duration {
		args = append(args, "duration="+quote(to.Duration))
	}
	if to.Description != from.Description {
		args = append(args, "description="+quote(to.Description))
	}
	args = append(args, liveChanges(to, from)...)
	return "update_activity(" + strings.Join(args, ", ") + ")"
}

// liveChanges lists the live fields (constraint, progress, calendar ...)
// an update changes, by name, each as name=its new JSON value, or
// name=none when it is cleared: a reviewer sees what an update that keeps
// name and duration does.
func liveChanges(to, from Activity) []string {
	now, was := liveFields(to), liveFields(from)
	names := slices.Sorted(maps.Keys(now))
	for k := range was {
		if _, ok := now[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var args []string
	for _, k := range names {
		if string(now[k]) == string(was[k]) {
			continue
		}
		v := string(now[k])
		if v == "" {
			v = "none"
		}
		args = append(args, k+"="+v)
	}
	return args
}

func describeRelationship(fn string, name func(string) string, r Relationship) string {
	call := fmt.Sprintf("%s(type=%s, predecessor=%s, successor=%s", fn,
		quote(string(r.Type)), quote(name(r.Predecessor)), quote(name(r.Successor)))
	if fn == "add_relationship" || r.Lag != 0 {
		call += ", lag=" + formatDays(r.Lag)
	}
	return call + ")"
}

// describeRelationshipUpdate names the link as it was and lists what changes.
func describeRelationshipUpdate(name func(string) string, to, from Relationship) string {
	args := []string{"predecessor=" + quote(name(from.Predecessor)), "successor=" + quote(name(from.Successor))}
	if to.Type != from.Type {
		args = append(args, "type="+quote(string(to.Type)))
	}
	if to.Lag != from.Lag {
		args = append(args, "lag="+formatDays(to.Lag))
	}
	return "update_relationship(" + strings.Join(args, ", ") + ")"
}
