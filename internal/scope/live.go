package scope

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The answers to "as a lag or as a start-no-earlier-than constraint?".
var (
	lagAnswer        = regexp.MustCompile(`\b(?:lag|lags|link|driving link|logic)\b`)
	constraintAnswer = regexp.MustCompile(`\b(?:constraint|constrain|snet|no earlier than|on or after|date|fixed date)\b`)
)

// insightView is the read view of the schedule as planned so far.
func (b *builder) insightView() (*insight.View, bool) {
	if b.view == nil {
		v, err := insight.New(b.s)
		if err != nil {
			return nil, false
		}
		b.view = v
	}
	return b.view, true
}

// delay makes each target start Days later. How is the planner's choice,
// so it asks once for the command: a lag added to the links that drive
// the activity (it then moves with its predecessor) or a
// start-no-earlier-than constraint that many working days after its early
// start (a fixed date). The question says what each would cost in float.
func (b *builder) delay(c lang.Command) {
	acts, ok := b.refsActs(c.Targets, true)
	if !ok {
		return
	}
	v, ok := b.insightView()
	if !ok {
		b.note("%q: the schedule does not compute (a loop or a bad duration), so a delay cannot be placed", c.Source)
		return
	}
	days := *c.Days
	about := "how to delay " + c.Source
	ans, answered := b.answered(about)
	a := strings.ToLower(ans)
	switch {
	case answered && noneAnswer.MatchString(a):
		b.note("%q: left out, as you answered %q", c.Source, ans)
		return
	case answered && constraintAnswer.MatchString(a) && !lagAnswer.MatchString(a):
		b.delayByConstraint(c, v, acts, days)
		return
	case answered && lagAnswer.MatchString(a) && !constraintAnswer.MatchString(a):
		b.delayByLag(c, v, acts, days)
		return
	}
	var what []string
	for _, act := range acts {
		what = append(what, b.delayOptions(v, act, days))
	}
	q := fmt.Sprintf("Delay %s by %s working days how? %s Answer \"lag\" or \"constraint\" (or \"none\").", names(acts), formatDays(days), strings.Join(what, " "))
	if answered {
		q = fmt.Sprintf("Your answer %q is neither. %s", ans, q)
	}
	b.ask(about, q)
}

// delayOptions describes both ways of delaying one activity and the float
// each eats.
func (b *builder) delayOptions(v *insight.View, act schedule.Activity, days float64) string {
	row, _ := v.Row(act.ID)
	eats := fmt.Sprintf("either way it eats %s's total float of %s days", act.Name, formatDays(row.TotalFloat))
	if days > row.TotalFloat {
		eats += fmt.Sprintf(" and moves the project finish %s days", formatDays(schedule.RoundDays(days-max(0, row.TotalFloat))))
	} else if days > row.FreeFloat {
		eats += fmt.Sprintf(" (its free float is %s days, so its successors move)", formatDays(row.FreeFloat))
	}
	var lag string
	if drivers := drivingLinks(v, act.ID); len(drivers) > 0 {
		var ls []string
		for _, l := range drivers {
			ls = append(ls, fmt.Sprintf("from %q (%s%+g → %s%+g)", l.ActivityName, l.Type, l.Lag, l.Type, l.Lag+days))
		}
		lag = "\"lag\": add it to the driving link " + strings.Join(ls, " and ") + ", so it moves with its predecessor"
	} else {
		lag = "\"lag\" is not possible: no link drives it"
	}
	con := "\"constraint\" is not possible: the schedule has no start date"
	if date, ok := delayedStart(v, act.ID, days); ok {
		con = fmt.Sprintf("\"constraint\": start no earlier than %s, a fixed date its predecessors can slip up to %s days towards without moving it", date, formatDays(days))
	}
	return fmt.Sprintf("%s: %s; %s; %s.", act.Name, lag, con, eats)
}

// drivingLinks are the predecessor links that set id's early dates.
func drivingLinks(v *insight.View, id string) []insight.Link {
	d, err := v.Details(id)
	if err != nil {
		return nil
	}
	var out []insight.Link
	for _, l := range d.Predecessors {
		if l.Driving {
			out = append(out, l)
		}
	}
	return out
}

// delayedStart is the date days working days after id's early start.
func delayedStart(v *insight.View, id string, days float64) (string, bool) {
	i, ok := v.Index(id)
	if !ok || v.Clock == nil {
		return "", false
	}
	t, err := v.Clock.Start(v.R.ES[i] + days)
	if err != nil {
		return "", false
	}
	// The time too: a start part way through a day is not the day's start.
	return t.Format("2006-01-02T15:04"), true
}

func (b *builder) delayByLag(c lang.Command, v *insight.View, acts []schedule.Activity, days float64) {
	for _, act := range acts {
		drivers := drivingLinks(v, act.ID)
		if len(drivers) == 0 {
			b.note("%q: no link drives %s, so there is no lag to add: answer \"constraint\" to delay it with a date", c.Source, act.Name)
			continue
		}
		for _, l := range drivers {
			r, ok := b.s.Relationship(l.RelationshipID)
			if !ok {
				continue
			}
			r.Lag = schedule.RoundDays(r.Lag + days)
			b.add(schedule.UpdateRelationship(r))
		}
	}
}

func (b *builder) delayByConstraint(c lang.Command, v *insight.View, acts []schedule.Activity, days float64) {
	for _, act := range acts {
		date, ok := delayedStart(v, act.ID, days)
		if !ok {
			b.note("%q: the schedule has no start date, so %s cannot be given a date: answer \"lag\"", c.Source, act.Name)
			continue
		}
		b.constrain(c, act, schedule.Constraint{Type: schedule.StartOnOrAfter, Date: date})
	}
}

// constrain sets act's constraint, saying what it replaces.
func (b *builder) constrain(c lang.Command, act schedule.Activity, con schedule.Constraint) {
	next := act.Clone()
	if old := act.Constraint; old != nil {
		if *old == con {
			b.note("%s already has %s: nothing to change", act.Name, old)
			return
		}
		b.note("%s's constraint %s is replaced by %s", act.Name, old, con)
	}
	next.Constraint = &con
	b.add(schedule.UpdateActivity(next))
}

// constraintWords read the answer to "which constraint?".
var constraintWords = []struct {
	re *regexp.Regexp
	t  schedule.ConstraintType
}{
	{regexp.MustCompile(`\b(?:start on or after|start no earlier than|no earlier than|snet|on or after|not before)\b`), schedule.StartOnOrAfter},
	{regexp.MustCompile(`\b(?:start on or before|start no later than|snlt)\b`), schedule.StartOnOrBefore},
	{regexp.MustCompile(`\b(?:finish on or before|finish no later than|fnlt|by|deadline|no later than)\b`), schedule.FinishOnOrBefore},
	{regexp.MustCompile(`\b(?:finish on or after|finish no earlier than|fnet)\b`), schedule.FinishOnOrAfter},
	{regexp.MustCompile(`\b(?:must finish on|finish on|mfo)\b`), schedule.FinishOn},
	{regexp.MustCompile(`\b(?:must start on|start on|mso|fixed|on)\b`), schedule.StartOn},
}

// readConstraintType is the one constraint an answer names, or "".
func readConstraintType(ans string) schedule.ConstraintType {
	a := strings.ToLower(ans)
	for _, c := range constraintWords {
		if c.re.MatchString(a) {
			return c.t
		}
	}
	return ""
}

// dayLayout writes a constraint's or an actual's day.
const dayLayout = "2006-01-02"

// dateOf places the command's date on the schedule: read from the data
// date (else the start), the year left out the next one (past: the last
// one, for actuals). Figures that read two ways are asked about (one
// slot: the date); ok is false when asked or refused.
func (b *builder) dateOf(c lang.Command, past bool) (time.Time, bool) {
	d := *c.Date
	ref, refName := b.s.DataDate, "data date"
	if ref == "" {
		ref, refName = b.s.StartDate, "start"
	}
	refDay, err := time.Parse(dayLayout, firstN(ref, 10))
	if err != nil {
		if d.Year == 0 || d.Month == 0 || d.Relative {
			b.note("%q: the schedule has no start or data date to read %q from: write the date in full (3 March 2027)", c.Source, d.Text)
			return time.Time{}, false
		}
		refDay = time.Date(d.Year, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	today := refDay
	if b.s.DataDate == "" {
		today = b.today()
	}
	about := "date " + d.Text + " in " + c.Source
	order := lang.OrderUnknown
	if ans, ok := b.answered(about); ok {
		if noneAnswer.MatchString(strings.ToLower(strings.TrimSpace(ans))) {
			b.note("%q: left out, as you answered %q", c.Source, ans)
			return time.Time{}, false
		}
		if a, ok := lang.ReadDate(ans); ok && !a.Numeric {
			d = a
		} else if strings.Contains(strings.ToLower(ans), "month") {
			order = lang.MonthFirst
		} else if strings.Contains(strings.ToLower(ans), "day") {
			order = lang.DayFirst
		}
	}
	t, err := d.Resolve(refDay, today, order, past)
	var amb *lang.ErrAmbiguousOrder
	switch {
	case errors.As(err, &amb):
		b.ask(about, fmt.Sprintf("%q in %q: %s. Which is it? Answer with the date in words (\"%s\") or \"day first\" / \"month first\".", d.Text, c.Source, err, amb.A.Format("2 January 2006")))
		return time.Time{}, false
	case err != nil:
		b.note("%q: the date %s: nothing changed", c.Source, err)
		return time.Time{}, false
	}
	if d.Year == 0 && d.Month != 0 {
		b.note("%q is read as %s (the year of the %s %s)", d.Text, t.Format("Mon 2 January 2006"), refName, ref)
	} else if d.Relative || d.Month == 0 {
		from := "today"
		if b.s.DataDate != "" {
			from = "the data date " + b.s.DataDate
		}
		b.note("%q is read as %s, from %s", d.Text, t.Format("Mon 2 January 2006"), from)
	}
	return t, true
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// today is the real day, for "yesterday" on a schedule with no data date.
func (b *builder) today() time.Time {
	if b.now != nil {
		return b.now()
	}
	return time.Now().UTC()
}

// constrainCmd gives the targets the constraint the words say, asking
// which one when they did not ("move X to 1 March").
func (b *builder) constrainCmd(c lang.Command) {
	acts, ok := b.refsActs(c.Targets, true)
	if !ok {
		return
	}
	typ := c.Constraint
	if typ == "" {
		about := "constraint in " + c.Source
		ans, answered := b.answered(about)
		if answered && noneAnswer.MatchString(strings.ToLower(strings.TrimSpace(ans))) {
			b.note("%q: left out, as you answered %q", c.Source, ans)
			return
		}
		if typ = readConstraintType(ans); typ == "" {
			q := fmt.Sprintf("%q: which constraint should %s get on %s? \"start on or after\" (logic may still push it later), \"start on\" (a fixed start) or \"finish on or before\" (a deadline)?", c.Source, names(acts), c.Date.Text)
			if answered {
				q = fmt.Sprintf("Your answer %q names no constraint. %s", ans, q)
			}
			b.ask(about, q)
			return
		}
	}
	t, ok := b.dateOf(c, false)
	if !ok {
		return
	}
	for _, a := range acts {
		b.constrain(c, a, schedule.Constraint{Type: typ, Date: t.Format(dayLayout)})
	}
}

// unconstrainCmd takes the targets' constraints off.
func (b *builder) unconstrainCmd(c lang.Command) {
	acts, ok := b.refsActs(c.Targets, true)
	if !ok {
		return
	}
	for _, a := range acts {
		if a.Constraint == nil && a.SecondaryConstraint == nil {
			b.note("%s has no constraint: nothing to remove", a.Name)
			continue
		}
		next := a.Clone()
		next.Constraint, next.SecondaryConstraint = nil, nil
		b.add(schedule.UpdateActivity(next))
	}
}
