package scope

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The answers to "as a lag or as a start-no-earlier-than constraint?".
var (
	lagAnswer        = regexp.MustCompile(`\b(?:lag|lags|link|driving link|logic)\b|^(?:the )?(?:first|1|1st)(?: one)?\.?$`)
	constraintAnswer = regexp.MustCompile(`\b(?:constraint|constrain|snet|no earlier than|on or after|date|fixed date)\b|^(?:the )?(?:second|2|2nd)(?: one)?\.?$`)
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
	// Work that has started cannot start later.
	acts = slices.DeleteFunc(acts, func(a schedule.Activity) bool {
		if a.ActualStart == "" {
			return false
		}
		b.note("%q: %s started on %s, so its start cannot be delayed: say \"N days remaining on %s\" or extend it", c.Source, a.Name, a.ActualStart, a.Name)
		return true
	})
	if len(acts) == 0 {
		return
	}
	// A group ("push plot 4 back 2 weeks") moves by its first
	// activities: the rest follow them, and a lag or constraint on each
	// would add the delay up along the chain.
	if first := groupEntries(b.s, acts); len(first) < len(acts) && len(first) > 0 {
		b.note("%q delays %s; the rest of its %d activities follow them", c.Source, names(first), len(acts))
		acts = first
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
	case c.Constraint == schedule.StartOnOrAfter: // the words said how
		b.noteFloatEaten(v, acts, days)
		b.delayByConstraint(c, v, acts, days)
		return
	case c.Type != "":
		b.noteFloatEaten(v, acts, days)
		b.delayByLag(c, v, acts, days)
		return
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
	eats := "either way it " + floatEaten(v, act, days)
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

// floatEaten says what a delay of days does to act's floats and the
// project finish.
func floatEaten(v *insight.View, act schedule.Activity, days float64) string {
	row, _ := v.Row(act.ID)
	eats := fmt.Sprintf("eats %s's total float of %s days", act.Name, formatDays(row.TotalFloat))
	if days > row.TotalFloat {
		eats += fmt.Sprintf(" and moves the project finish %s days", formatDays(schedule.RoundDays(days-max(0, row.TotalFloat))))
	} else if days > row.FreeFloat {
		eats += fmt.Sprintf(" (its free float is %s days, so its successors move)", formatDays(row.FreeFloat))
	}
	return eats
}

// noteFloatEaten says, for a delay whose means the words gave, the float
// it eats.
func (b *builder) noteFloatEaten(v *insight.View, acts []schedule.Activity, days float64) {
	for _, a := range acts {
		b.note("delaying %s by %s days %s", a.Name, formatDays(days), floatEaten(v, a, days))
	}
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
	switch old := act.Constraint; {
	case old != nil && *old == con, act.SecondaryConstraint != nil && *act.SecondaryConstraint == con:
		b.note("%s already has %s: nothing to change", act.Name, con)
		return
	case old != nil && boundSide(old.Type) != "" && boundSide(con.Type) != "" && boundSide(old.Type) != boundSide(con.Type):
		// A bound on the start and one on the finish ("no earlier than 1
		// Sept and finish by 30 Sept"): both hold, as P6's primary and
		// secondary constraints.
		if sec := act.SecondaryConstraint; sec != nil {
			b.note("%s's secondary constraint %s is replaced by %s", act.Name, sec, con)
		} else {
			b.note("%s keeps %s and gets %s as its secondary constraint", act.Name, old, con)
		}
		next.SecondaryConstraint = &con
	default:
		if old != nil {
			b.note("%s's constraint %s is replaced by %s", act.Name, old, con)
		}
		next.Constraint = &con
	}
	// What happened is not constrained: the constraint would move nothing.
	onStart := con.Type == schedule.StartOn || con.Type == schedule.StartOnOrAfter || con.Type == schedule.StartOnOrBefore
	if act.ActualStart != "" && onStart || act.ActualFinish != "" {
		b.note("%q: %s has started (%s), so a constraint on it would move nothing: nothing changed", c.Source, act.Name, act.ActualStart)
		return
	}
	b.add(schedule.UpdateActivity(next))
}

// boundSide is "start" or "finish" for a constraint that bounds one side
// of an activity from one direction ("on or after", "on or before"), ""
// for the others (a fixed date, as late as possible), which stand alone.
func boundSide(t schedule.ConstraintType) string {
	switch t {
	case schedule.StartOnOrAfter, schedule.StartOnOrBefore:
		return "start"
	case schedule.FinishOnOrAfter, schedule.FinishOnOrBefore:
		return "finish"
	}
	return ""
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

// The answers that pick one of two readings of a date in figures.
var (
	orderFirst  = regexp.MustCompile(`^(?:the )?(?:first|1|1st|former)(?: one)?\.?$`)
	orderSecond = regexp.MustCompile(`^(?:the )?(?:second|2|2nd|latter)(?: one)?\.?$`)
)

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
	ans, answered := b.answered(about)
	if answered {
		a := strings.ToLower(strings.TrimSpace(ans))
		if noneAnswer.MatchString(a) {
			b.note("%q: left out, as you answered %q", c.Source, ans)
			return time.Time{}, false
		}
		// The question offers the day-first reading first.
		if r, ok := lang.ReadDate(ans); ok && !r.Numeric {
			d = r
		} else if strings.Contains(a, "month") || orderSecond.MatchString(a) {
			order = lang.MonthFirst
		} else if strings.Contains(a, "day") || orderFirst.MatchString(a) {
			order = lang.DayFirst
		}
	}
	// Without a data date, work reported done happened after the start:
	// the year is read forward from it as for a constraint.
	backward := past && b.s.DataDate != ""
	t, err := d.Resolve(refDay, today, order, backward)
	var amb *lang.ErrAmbiguousOrder
	if errors.As(err, &amb) && past && !answered {
		// Progress before the project start is none: of the two readings
		// of "6/9", the one before it is not meant.
		if start, serr := time.Parse(dayLayout, firstN(b.s.StartDate, 10)); serr == nil && amb.A.Before(start) != amb.B.Before(start) {
			t, err = amb.A, nil
			if amb.A.Before(start) {
				t = amb.B
			}
			b.note("%q is read as %s: the other reading is before the project start %s", d.Text, t.Format("Mon 2 January 2006"), firstN(b.s.StartDate, 10))
		}
	}
	switch {
	case errors.As(err, &amb):
		if answered {
			b.ask(about, fmt.Sprintf("Your answer %q is neither reading. %q in %q: %s. Which is it? Answer \"the first\" or \"the second\", or the date in words.", ans, d.Text, c.Source, err))
			return time.Time{}, false
		}
		b.ask(about, fmt.Sprintf("%q in %q: %s. Which is it? Answer with the date in words (\"%s\") or \"day first\" / \"month first\".", d.Text, c.Source, err, amb.A.Format("2 January 2006")))
		return time.Time{}, false
	case err != nil:
		b.note("%q: the date %s: nothing changed", c.Source, err)
		return time.Time{}, false
	}
	if d.Year == 0 && d.Month != 0 {
		which := "the first on or after"
		if backward {
			which = "the last on or before"
		}
		b.note("%q is read as %s (%s the %s %s)", d.Text, t.Format("Mon 2 January 2006"), which, refName, ref)
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

// dataDateCmd moves the data date: "status the programme to 1 March". The
// day is read forward from the data date as now set (the next 1 March);
// the time of day stays the one the data date had (P6 keeps it at the
// start of the work day).
func (b *builder) dataDateCmd(c lang.Command) {
	if c.Date == nil {
		b.note("%q: say the new data date (\"status the programme to 1 March\")", c.Source)
		return
	}
	if t, ok := b.dateOf(c, false); ok {
		b.moveDataDate(t)
	}
}

// dataDateCall carries out the model's set_data_date.
func (b *builder) dataDateCall(arg dataDateArg) {
	day, err := time.Parse(dayLayout, strings.TrimSpace(arg.Date))
	if err != nil {
		b.note("ignored the model's data date %q: not YYYY-MM-DD", arg.Date)
		return
	}
	b.moveDataDate(day)
}

// moveDataDate proposes the data date on day, at the time of day the data
// date had, and says what it means for the work in progress.
func (b *builder) moveDataDate(day time.Time) {
	date := day.Format(dayLayout)
	old := b.s.DataDate
	if _, clock, timed := strings.Cut(old, "T"); timed {
		date += "T" + clock
	}
	if !b.add(schedule.SetDataDate(date)) {
		return
	}
	switch {
	case old == "":
		b.note("the schedule had no data date: from %s, work before it counts as done only where progress says so", date)
	case date < old:
		b.note("the data date moves back, from %s to %s: actual dates after it now lie in the future", old, date)
	}
	b.note("activities in progress keep their remaining durations, now counted from %s: report what was done by then (\"X is 60%% complete\", \"10 days remaining on X\", \"X finished on …\")", date)
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
	var acts []schedule.Activity
	if len(c.Targets) == 0 {
		for _, a := range b.s.Activities {
			if a.Constraint != nil || a.SecondaryConstraint != nil {
				acts = append(acts, a)
			}
		}
		if len(acts) == 0 {
			b.note("%q: no activity has a constraint: nothing to remove", c.Source)
			return
		}
		b.note("%q takes the constraints off %d activities: %s", c.Source, len(acts), listActivities(acts, 20))
	} else {
		var ok bool
		if acts, ok = b.refsActs(c.Targets, true); !ok {
			return
		}
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

// progress reports the targets' progress: an actual start or finish (its
// date asked when not said), a percent complete or the days remaining.
// Progress needs a start: an activity reported in progress or finished
// with no actual start is asked when it started (one slot).
func (b *builder) progress(c lang.Command) {
	acts, ok := b.refsActs(c.Targets, true)
	if !ok {
		return
	}
	if c.Percent != nil && (*c.Percent < 0 || *c.Percent > 100) {
		b.note("%q: %g%% is not a percent complete (0 to 100): nothing changed", c.Source, *c.Percent)
		return
	}
	if c.Days != nil && *c.Days < 0 {
		b.note("%q: a negative remaining duration: nothing changed", c.Source)
		return
	}
	for _, a := range acts {
		next := a.Clone()
		when := ""
		if c.Started || c.Finished {
			day, ok := b.progressDate(c, a, c.Started)
			if !ok {
				return
			}
			when = day
		}
		if a.ActualFinish != "" && (c.Percent != nil || c.Days != nil && *c.Days > 0) {
			b.note("%q: %s finished on %s: say \"%s finished on …\" to change that, nothing changed", c.Source, a.Name, a.ActualFinish, a.Name)
			continue
		}
		switch {
		case c.Started:
			if firstN(a.ActualStart, 10) != when { // the same day keeps its time
				next.ActualStart = when
				if a.ActualStart != "" {
					b.note("%s's actual start %s is replaced by %s", a.Name, a.ActualStart, when)
				}
			}
		case c.Finished:
			if firstN(a.ActualFinish, 10) != when {
				next.ActualFinish = when
			}
			next.PercentComplete, next.Remaining = 100, "0"
		case c.Percent != nil:
			next.PercentComplete = *c.Percent
			if a.Remaining != "" && *c.Percent < 100 {
				b.note("%s's remaining duration stays %s: say \"N days remaining on %s\" to change it", a.Name, a.Remaining, a.Name)
			}
		case c.Days != nil:
			next.Remaining = formatDays(*c.Days)
		}
		if c.Percent != nil && *c.Percent == 0 && a.ActualStart == "" && a.PercentComplete == 0 {
			b.note("%s has not started: nothing to change", a.Name)
			continue
		}
		if (c.Finished || c.Percent != nil || c.Days != nil) && next.ActualStart == "" {
			// Finished or part done: it started, but when is not said.
			about := "start of " + a.Name
			ans, answered := b.answered(about)
			if !answered {
				b.ask(about, fmt.Sprintf("%s has no actual start: when did it start? Answer with a date (\"12 January\"), or \"none\" to leave it out.", a.Name))
				return
			}
			if noneAnswer.MatchString(strings.ToLower(strings.TrimSpace(ans))) {
				b.note("%q: left out, as you answered %q", c.Source, ans)
				return
			}
			d, ok := lang.ReadDate(ans)
			if !ok {
				b.ask(about, fmt.Sprintf("Your answer %q is not a date. When did %s start? Answer like \"12 January\".", ans, a.Name))
				return
			}
			day, ok := b.progressDay(lang.Command{Source: c.Source, Date: &d})
			if !ok {
				return
			}
			next.ActualStart = day
		}
		if next.ActualFinish != "" && next.ActualFinish < next.ActualStart {
			b.note("%q: %s would finish (%s) before it started (%s): nothing changed", c.Source, a.Name, next.ActualFinish, next.ActualStart)
			return
		}
		if next.Equal(a) {
			b.note("%s already shows that: nothing to change", a.Name)
			continue
		}
		b.add(schedule.UpdateActivity(next))
	}
}

// progressDate is the day an actual start or finish happened: the date
// said (a year left out is the last one before the data date), or asked.
// A day after the data date is not progress yet.
func (b *builder) progressDate(c lang.Command, a schedule.Activity, started bool) (string, bool) {
	if c.Date == nil {
		verb := "finish"
		if started {
			verb = "start"
		}
		about := verb + " of " + a.Name
		ans, answered := b.answered(about)
		if answered && noneAnswer.MatchString(strings.ToLower(strings.TrimSpace(ans))) {
			b.note("%q: left out, as you answered %q", c.Source, ans)
			return "", false
		}
		d, ok := lang.ReadDate(ans)
		if !answered || !ok {
			q := fmt.Sprintf("When did %s %s? Answer with a date (\"12 January\", \"yesterday\").", a.Name, verb)
			if answered {
				q = fmt.Sprintf("Your answer %q is not a date. %s", ans, q)
			}
			b.ask(about, q)
			return "", false
		}
		c.Date = &d
	}
	return b.progressDay(c)
}

// progressDay places the date of progress c said: on or before the data
// date, and not before the project start.
func (b *builder) progressDay(c lang.Command) (string, bool) {
	t, ok := b.dateOf(c, true)
	if !ok {
		return "", false
	}
	day := t.Format(dayLayout)
	if start := firstN(b.s.StartDate, 10); start != "" && day < start && c.Date.Relative {
		b.note("%q: %q is %s, before the project start %s: nothing changed", c.Source, c.Date.Text, day, start)
		return "", false
	}
	if start := firstN(b.s.StartDate, 10); start != "" && day < start && c.Date.Year == 0 {
		// The last such day before the data date is before the project
		// began, and the next is after the data date: neither is sure.
		b.note("%q: %q read before the data date is %s, before the project start %s: nothing changed; write the year", c.Source, c.Date.Text, day, start)
		return "", false
	}
	if dd := firstN(b.s.DataDate, 10); dd != "" && day > dd {
		b.note("%q: %s is after the data date %s, so it is not progress yet: nothing changed", c.Source, day, dd)
		return "", false
	}
	return day, true
}

// constraintCall carries out the model's set_constraint: one activity, a
// constraint type the model may only pick from the list, a real date.
func (b *builder) constraintCall(arg constraintArg) {
	a, ok := resolveRef(b, arg.Activity)
	if !ok {
		return
	}
	typ := schedule.ConstraintType(strings.TrimSpace(arg.Type))
	if typ == "none" {
		b.unconstrainCmd(lang.Command{Source: b.source, Targets: []lang.Ref{{Text: a.ID, Words: strings.ToLower(a.ID)}}})
		return
	}
	if !typ.Valid() || typ == schedule.AsLateAsPossible || strings.HasPrefix(string(typ), "mandatory") {
		b.note("ignored the model's constraint %q on %s: not one of the constraints offered", arg.Type, a.Name)
		return
	}
	day, err := time.Parse(dayLayout, strings.TrimSpace(arg.Date))
	if err != nil {
		b.note("ignored the model's constraint on %s: date %q is not YYYY-MM-DD", a.Name, arg.Date)
		return
	}
	b.constrain(lang.Command{Source: b.source}, a, schedule.Constraint{Type: typ, Date: day.Format(dayLayout)})
}

// progressCall carries out the model's report_progress, with the checks
// the rules planner makes: real days, none after the data date, a finish
// only after a start, a percent from 0 to 100.
func (b *builder) progressCall(arg progressArg) {
	a, ok := resolveRef(b, arg.Activity)
	if !ok {
		return
	}
	next := a.Clone()
	dd := firstN(b.s.DataDate, 10)
	for _, f := range []struct {
		what, val string
		dst       *string
	}{{"actual start", arg.ActualStart, &next.ActualStart}, {"actual finish", arg.ActualFinish, &next.ActualFinish}} {
		v := strings.TrimSpace(f.val)
		if v == "" {
			continue
		}
		day, err := time.Parse(dayLayout, v)
		if err != nil {
			b.note("ignored the model's progress on %s: %s %q is not YYYY-MM-DD", a.Name, f.what, f.val)
			return
		}
		if d := day.Format(dayLayout); dd != "" && d > dd {
			b.note("ignored the model's progress on %s: %s %s is after the data date %s", a.Name, f.what, d, dd)
			return
		} else if firstN(*f.dst, 10) != d {
			*f.dst = d
		}
	}
	if p := arg.PercentComplete; p != nil {
		if *p < 0 || *p > 100 {
			b.note("ignored the model's progress on %s: %g%% is not a percent complete", a.Name, *p)
			return
		}
		next.PercentComplete = *p
	}
	if r := strings.TrimSpace(arg.Remaining); r != "" {
		if v, err := strconv.ParseFloat(r, 64); err != nil || v < 0 {
			b.note("ignored the model's progress on %s: remaining %q is not a number of days", a.Name, arg.Remaining)
			return
		}
		next.Remaining = r
	}
	if next.ActualFinish != "" && a.ActualFinish == "" {
		next.PercentComplete, next.Remaining = 100, "0"
	}
	switch {
	case (next.ActualFinish != "" || next.PercentComplete > 0 || next.Remaining != a.Remaining) && next.ActualStart == "":
		b.ask("start of "+a.Name, fmt.Sprintf("%s has no actual start: when did it start? Answer with a date (\"12 January\").", a.Name))
		return
	case next.ActualFinish != "" && firstN(next.ActualFinish, 10) < firstN(next.ActualStart, 10):
		b.note("ignored the model's progress on %s: it would finish (%s) before it started (%s)", a.Name, next.ActualFinish, next.ActualStart)
		return
	case next.Equal(a):
		b.note("%s already shows that: nothing to change", a.Name)
		return
	}
	b.add(schedule.UpdateActivity(next))
}

// groupEntries are the activities of acts that no other of them precedes.
func groupEntries(s *schedule.Schedule, acts []schedule.Activity) []schedule.Activity {
	in := idSet(acts)
	led := map[string]bool{}
	for _, r := range s.Relationships {
		if in[r.Predecessor] && in[r.Successor] && r.Predecessor != r.Successor {
			led[r.Successor] = true
		}
	}
	return slices.DeleteFunc(slices.Clone(acts), func(a schedule.Activity) bool { return led[a.ID] })
}
