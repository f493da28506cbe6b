// Package since answers "what slipped since the last update" from a
// stored schedule's previous version (internal/versions) and the schedule
// now, with compare's explanation of the finish. It is pure; it is apart
// from versions so that the stores, which keep versions, do not depend on
// the readers of questions.
package since

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/compare"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/versions"
)

// sinceUpdate is a question about what changed since the last update, as
// a whole: "what slipped since the last update", "what has changed since
// last month", "which activities moved since the previous update". A
// question with more in it (a place, an activity) is not this one: the
// schedule's own question forms read it.
var sinceUpdate = regexp.MustCompile(`^(?:(?:please|can you|could you|tell me|show me|list|give me)\s+)*` +
	`(?:what|which(?:\s+(?:activities|tasks|ones))?|anything)(?:'s|\s+has|\s+have|\s+is|\s+are|\s+did|\s+got|\s+has\s+been|\s+have\s+been)?\s+` +
	`(?:slipped|slip|slips|slid|moved|changed|change|got later|gone later|moved later|delayed|late|later|different)` +
	`(?:\s+(?:out|later))?\s+` +
	`(?:since|from|compared\s+(?:to|with)|against|versus|vs\.?)\s+` +
	`(?:the\s+)?(?:last|previous|prior|latest)\s+(?:update|month|month's update|period|report|status(?:\s+update)?|data\s+date|version)$`)

// Asked reports whether a question asks what changed or
// slipped since the previous update (answered from the previous version).
func Asked(question string) bool {
	q := strings.ToLower(strings.Join(strings.Fields(strings.NewReplacer("’", "'", "‘", "'").Replace(question)), " "))
	return sinceUpdate.MatchString(strings.TrimRight(q, "?.! "))
}

// NoPrevious is the answer when a schedule has no earlier version.
func NoPrevious(scheduleID, current string) insight.Answer {
	return insight.Answer{Answer: fmt.Sprintf("Schedule %q has no previous version, so nothing can be measured since the last update: %s.",
		scheduleID, versions.NoneBefore(current)), Activities: []string{}, Understood: true}
}

// Answer answers what slipped since the last update of
// schedule scheduleID: from previous (label names it) to now, or, with no
// previous version (nil), says so plainly.
func Answer(scheduleID string, now, previous *schedule.Schedule, label string) insight.Answer {
	if previous == nil {
		return NoPrevious(scheduleID, now.DataDate)
	}
	return Since(label, previous, now)
}

// maxListed caps the activities named in words; Activities lists them all.
const maxListed = 20

// Since answers what slipped and changed from the previous update
// (label names it) to now: how far the finish moved and why (compare's
// explanation along the driving path), the activities whose forecast
// finish moved later, the most first, and what was added, removed or
// changed.
func Since(label string, previous, now *schedule.Schedule) insight.Answer {
	rb, errB := schedule.Analyze(previous)
	ra, errA := schedule.Analyze(now)
	rep := compare.CompareResults(previous, now, rb, ra, compare.Options{BeforeLabel: label, AfterLabel: "now"})
	var b strings.Builder
	fmt.Fprintf(&b, "Since the last update (%s; now at data date %s): ", label, versions.DateText(now.DataDate))
	ids := []string{}
	if errB != nil || errA != nil || rep.Finish == nil {
		why := rep.CPMError
		if err := cmp.Or(errB, errA); err != nil {
			why = err.Error()
		}
		fmt.Fprintf(&b, "the dates cannot be compared (%s).", why)
	} else {
		b.WriteString(rep.Finish.Text)
		slipped := finishSlips(previous, now, rb, ra)
		if len(slipped) == 0 {
			b.WriteString(" No activity's forecast finish moved later.")
		} else {
			var parts []string
			for k, s := range slipped {
				ids = append(ids, s.id)
				if k < maxListed {
					parts = append(parts, fmt.Sprintf("%s (%s, finish +%s d)", s.name, s.id, days(s.days)))
				}
			}
			if len(slipped) > maxListed {
				parts = append(parts, fmt.Sprintf("and %d more", len(slipped)-maxListed))
			}
			fmt.Fprintf(&b, " %d %s slipped (forecast finish later), the most first: %s.", len(slipped), plural(len(slipped), "activity has", "activities have"), strings.Join(parts, "; "))
		}
	}
	fmt.Fprintf(&b, " Changes: %d added, %d removed, %d changed activities; %d added, %d removed, %d changed relationships.",
		len(rep.ActivitiesAdded), len(rep.ActivitiesRemoved), len(rep.ActivitiesChanged),
		len(rep.RelationshipsAdded), len(rep.RelationshipsRemoved), len(rep.RelationshipsChanged))
	return insight.Answer{Answer: b.String(), Activities: ids, Understood: true}
}

// slip is an activity whose forecast finish moved later by days.
type slip struct {
	id, name string
	days     float64
}

// finishSlips are the activities in both versions whose early finish
// moved later, in working days of now's calendar (the engines' offsets
// when now has no start date), the most first.
func finishSlips(previous, now *schedule.Schedule, rb, ra *schedule.Result) []slip {
	vb, errB := insight.NewOf(previous, rb)
	va, errA := insight.NewOf(now, ra)
	if errB != nil || errA != nil {
		return nil
	}
	var out []slip
	for _, a := range now.Activities {
		i, okA := ra.Net.Index(a.ID)
		j, okB := rb.Net.Index(a.ID)
		if !okA || !okB {
			continue
		}
		var moved float64
		if va.Clock != nil && (vb.Clock != nil || rb.Times != nil) { // both dated: measured on now's calendar
			moved = va.Clock.Offset(ra.At(va.Clock, i, schedule.EarlyFinish)) - va.Clock.Offset(rb.At(vb.Clock, j, schedule.EarlyFinish))
		} else {
			moved = ra.EF[i] - rb.EF[j]
		}
		if schedule.RoundDays(moved) > 0 {
			out = append(out, slip{id: a.ID, name: a.Name, days: moved})
		}
	}
	slices.SortStableFunc(out, func(p, q slip) int { return cmp.Compare(q.days, p.days) })
	return out
}

func days(x float64) string { return strconv.FormatFloat(schedule.RoundDays(x), 'f', -1, 64) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
