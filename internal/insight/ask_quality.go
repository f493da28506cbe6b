package insight

import (
	"fmt"
	"strings"
)

// quality answers "is this programme fit to submit": the schedule checks
// with their default thresholds, the failed ones first. The activities are
// the failed checks' offenders (for a link check, the activities at both
// ends of each offending link), in schedule order.
func (a *asker) quality() Answer {
	results, err := RunChecks(a.v, DefaultThresholds())
	if err != nil {
		return Answer{Answer: "The schedule checks could not run: " + err.Error() + "."}
	}
	var failed, passed []string
	bad := map[string]bool{}
	for _, c := range results {
		if c.Passed {
			passed = append(passed, c.Name)
			continue
		}
		line := fmt.Sprintf("%s: %d", c.Name, c.Count)
		if c.Of > 0 {
			line += fmt.Sprintf(" of %d %s", c.Of, c.Unit)
		}
		line += " (threshold " + c.Threshold + ")"
		if c.Detail != "" {
			line += "; " + c.Detail
		}
		failed = append(failed, line)
		for _, id := range c.Offenders {
			if _, ok := a.v.Index(id); ok {
				bad[id] = true
				continue
			}
			for k := range a.v.S.Relationships {
				if rel := &a.v.S.Relationships[k]; rel.ID == id {
					bad[rel.Predecessor], bad[rel.Successor] = true, true
				}
			}
		}
	}
	var b strings.Builder
	if len(failed) == 0 {
		fmt.Fprintf(&b, "By the schedule checks (DCMA 14-point where the schedule has what each point needs), yes: all %d pass (%s).", len(results), strings.Join(passed, ", "))
	} else {
		fmt.Fprintf(&b, "Not yet, by the schedule checks (DCMA 14-point where the schedule has what each point needs): %d of %d fail — %s. Passed: %s.",
			len(failed), len(results), strings.Join(failed, "; "), strings.Join(passed, ", "))
	}
	b.WriteString(" `autoscheduler check` lists every offender.")
	var na []string
	for _, p := range NotApplicableTo(a.v) {
		na = append(na, fmt.Sprintf("%d %s (%s)", p.Point, p.Name, p.Reason))
	}
	if len(na) > 0 {
		b.WriteString(" Not applicable: DCMA " + strings.Join(na, "; ") + ".")
	}
	var ids []string
	for i := range a.v.S.Activities {
		if id := a.v.S.Activities[i].ID; bad[id] {
			ids = append(ids, id)
		}
	}
	return Answer{Answer: b.String(), Activities: ids}
}
