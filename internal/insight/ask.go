package insight

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Answer is the offline answer to a question: the words, and the ids of the
// activities it rests on (for a path, in path order; for the critical path,
// every critical activity in the CPM report's critical_path order). Its
// JSON is exactly {"answer": "...", "activities": [...]}.
type Answer struct {
	Answer     string   `json:"answer"`
	Activities []string `json:"activities"`
	// Understood is false when no question form was recognised (the answer
	// then lists the forms).
	Understood bool `json:"-"`
	// Lists are the lists of activities the words hold (paths, lists), so
	// a reader can collapse a long one (Collapsed, Parts).
	Lists []AnswerList `json:"-"`
}

// MaxQuestion is the longest question read, in characters: resolving a
// long list of names costs more than linear time, and a question names one
// or two activities.
const MaxQuestion = 400

// DefaultNearCritical is the float limit, in working days, of "near
// critical" when the question names none: one working week.
const DefaultNearCritical = 5

// Ask answers a question about the schedule offline: the question is read
// by the language layer (lang.ParseQuestions: typos corrected against the
// schedule's names, synonyms, names resolved as the planner resolves them)
// and answered from the View's CPM result, so every number in the answer
// is the engine's. What-ifs run on a copy; nothing is written. A question
// none of the forms reads is answered with the forms (lang.QuestionForms);
// a name that matches several activities is answered with those, asking
// for one.
func Ask(v *View, question string) Answer {
	if n := utf8.RuneCountInString(question); n > MaxQuestion {
		return Answer{Answer: fmt.Sprintf("That is too long to read as a question (%d characters; at most %d): ask one thing at a time.", n, MaxQuestion), Activities: []string{}}
	}
	if ans, ok := AnswerIfQuestion(v, question); ok {
		return ans
	}
	return unknown("")
}

// AnswerIfQuestion answers text when it is read-only questions only
// (lang.ParseQuestions); ok is false when it is not — a request to change
// the schedule, or words that ask nothing — so a caller such as `prompt`
// or `plan` goes on to plan it as a change.
func AnswerIfQuestion(v *View, text string) (Answer, bool) {
	if utf8.RuneCountInString(text) > MaxQuestion {
		return Answer{}, false
	}
	// The update's questions (baseline, progress) before the language
	// layer, which reads "what is behind baseline" as a name to find.
	if kind, scope, ok := readStatus(text); ok {
		if len(v.S.Activities) == 0 {
			return AnswerQuestions(v, nil, nil), true
		}
		return answerStatus(v, kind, scope, text), true
	}
	res := lang.NewResolver(v.S)
	qs, ok := lang.ParseQuestions(text, v.langOptions(res))
	if !ok || len(qs) == 0 {
		return Answer{}, false
	}
	return AnswerQuestions(v, res, qs), true
}

// AnswerQuestions answers questions already read (lang.ParseQuestions);
// res resolves names against v's schedule.
func AnswerQuestions(v *View, res *lang.Resolver, qs []lang.Question) Answer {
	if len(v.S.Activities) == 0 {
		return Answer{Answer: "The schedule has no activities yet: there is nothing to answer from. Import a schedule or add activities first.",
			Activities: []string{}, Understood: true}
	}
	a := &asker{v: v, res: res}
	var parts []string
	var ids []string
	understood := false
	seen := map[string]bool{}
	for _, q := range qs {
		ans := a.answer(q)
		parts = append(parts, ans.Answer)
		understood = understood || ans.Understood
		for _, id := range ans.Activities {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	if ids == nil {
		ids = []string{}
	}
	return Answer{Answer: strings.Join(parts, "\n\n"), Activities: ids, Understood: understood, Lists: a.lists}
}

// langOptions fits the language layer to the schedule, as the planner
// does: its names for typo correction, its calendar for weeks and hours.
func (v *View) langOptions(res *lang.Resolver) lang.Options {
	opt := lang.Options{Vocabulary: res.Vocabulary(), Resolves: func(words string) bool {
		return res.Resolve(lang.Ref{Text: words, Words: words}).Status != lang.Missing
	}}
	if cal := v.S.Calendar; cal != nil {
		if len(cal.Workdays) > 0 {
			opt.DaysPerWeek = float64(len(cal.Workdays))
		}
		if wt, err := cal.Compile(); err == nil {
			opt.HoursPerDay = wt.MinutesPerDay() / 60
		}
	}
	return opt
}

func unknown(reason string) Answer {
	var b strings.Builder
	if reason == "what-if" {
		b.WriteString("I can't answer that what-if offline. I can answer what-ifs of these forms: ")
		var forms []string
		for _, f := range lang.QuestionForms {
			if strings.Contains(f, "what if") {
				forms = append(forms, f)
			}
		}
		b.WriteString(strings.Join(forms, "; "))
	} else {
		b.WriteString("I can't answer that offline. I can answer: ")
		b.WriteString(strings.Join(slices.Concat(lang.QuestionForms, StatusForms), "; "))
	}
	b.WriteString(". X and Y are activities, by name or id; N is working days.")
	return Answer{Answer: b.String(), Activities: []string{}}
}

type asker struct {
	v   *View
	res *lang.Resolver
	// lists are the lists of activities the answers wrote (record).
	lists []AnswerList
}

func (a *asker) answer(q lang.Question) Answer {
	var ans Answer
	switch q.Kind {
	case lang.AskDrives, lang.AskWhyLate:
		ans = a.withOne(q.X, func(i int) Answer { return a.drives(i, q.Kind == lang.AskWhyLate) })
	case lang.AskWhyCritical:
		ans = a.withOne(q.X, a.whyCritical)
	case lang.AskCriticalOn:
		ans = a.criticalOn(q.X)
	case lang.AskFloat:
		ans = a.float(q.X)
	case lang.AskCriticalPath:
		ans = a.criticalPath()
	case lang.AskPathToFinish:
		ans = a.pathToFinish()
	case lang.AskNearCritical:
		ans = a.nearCritical(q)
	case lang.AskFloatBy:
		ans = a.floatBy(q.Group)
	case lang.AskDetails:
		// "what is X" reads anything: a name that is no activity gets the
		// forms too ("what are the risks?").
		if a.res.Resolve(q.X).Status == lang.Missing {
			u := unknown("")
			u.Answer = fmt.Sprintf("I can't find an activity called %q in this schedule. ", q.X.Text) + u.Answer
			return u
		}
		ans = a.withOne(q.X, func(i int) Answer { return a.details(i, q) })
	case lang.AskFinish:
		ans = a.finish()
	case lang.AskWhatIfDuration:
		ans = a.withOne(q.X, func(i int) Answer { return a.whatIfDuration(i, *q.Days, q.DaysDelta) })
	case lang.AskWhatIfDelay:
		ans = a.withOne(q.X, func(i int) Answer { return a.whatIfDelay(i, *q.Days) })
	case lang.AskQuality:
		ans = a.quality()
	case lang.AskWhatIfUnlink:
		ans = a.withOne(q.X, func(i int) Answer {
			return a.withOne(q.Y, func(j int) Answer { return a.whatIfUnlink(i, j) })
		})
	default:
		return unknown(q.Reason)
	}
	ans.Understood = true
	if ans.Activities == nil {
		ans.Activities = []string{}
	}
	return ans
}

// withOne resolves a reference to one activity and answers about it; a
// reference that names none, or several, is answered as such.
func (a *asker) withOne(ref lang.Ref, f func(i int) Answer) Answer {
	r := a.res.Resolve(ref)
	label := ref.Text
	if label == "" {
		label = ref.Words
	}
	switch {
	case r.Status == lang.Found && len(r.Acts) == 1:
		i, _ := a.v.Index(r.Acts[0].ID)
		return f(i)
	case r.Status == lang.Found || r.Status == lang.Ambiguous:
		cands := r.Candidates
		if r.Status == lang.Found {
			cands = r.Acts
		}
		return a.ambiguous(label, cands)
	case r.Status == lang.TooBroad:
		return Answer{Answer: fmt.Sprintf("%q is too broad: name one activity (by name or id).", label)}
	}
	return Answer{Answer: fmt.Sprintf("I can't find an activity called %q in this schedule: name it as the schedule does, or give its id.", label)}
}

// maxListed caps the activities an ambiguous answer lists.
const maxListed = 12

func (a *asker) ambiguous(label string, cands []schedule.Activity) Answer {
	var names, ids []string
	for n, c := range cands {
		ids = append(ids, c.ID)
		if n < maxListed {
			names = append(names, c.Name+" ("+c.ID+")")
		}
	}
	more := ""
	if len(cands) > maxListed {
		more = fmt.Sprintf(" and %d more", len(cands)-maxListed)
	}
	return Answer{
		Answer:     fmt.Sprintf("%q matches %d activities: %s%s. Which one do you mean? Ask again with its full name or id.", label, len(cands), strings.Join(names, "; "), more),
		Activities: ids,
	}
}

// label is "Name (ID)".
func (a *asker) label(i int) string {
	act := a.v.Activity(i)
	return act.Name + " (" + act.ID + ")"
}

// days writes a number of working days.
func days(x float64) string {
	x = schedule.RoundDays(x)
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if x == 1 {
		return s + " working day"
	}
	return s + " working days"
}

// count writes "1 activity", "2 activities".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// countVerb writes "1 activity is", "2 activities are".
func countVerb(n int, one, many string) string {
	if n == 1 {
		return "1 activity " + one
	}
	return strconv.Itoa(n) + " activities " + many
}

func num(x float64) string { return strconv.FormatFloat(schedule.RoundDays(x), 'f', -1, 64) }

// day writes a working-day offset with its date when there is one: "day
// 130 (2026-07-10)".
func (a *asker) day(offset float64, date string) string {
	if date == "" {
		return "day " + num(offset)
	}
	return "day " + num(offset) + " (" + shortDate(date) + ")"
}

func shortDate(dateTime string) string {
	if len(dateTime) >= 16 {
		return dateTime[:10] + " " + dateTime[11:16]
	}
	return dateTime
}

func (a *asker) startOf(r Row) string  { return a.day(r.EarlyStart, r.EarlyStartDate) }
func (a *asker) finishOf(r Row) string { return a.day(r.EarlyFinish, r.EarlyFinishDate) }

// chain writes activities in order: "Notice to proceed (A001) →
// Mobilisation (A002) → …".
func (a *asker) chain(rows []Row) string {
	items := make([]ListItem, len(rows))
	for n, r := range rows {
		items[n] = ListItem{ID: r.ID, Text: r.Name + " (" + r.ID + ")"}
	}
	return a.record(items, PathSep)
}

// list writes activities: "Notice to proceed (A001); …", with extra after
// the id: "Fire alarm test (A137, total float 0.5)".
func (a *asker) list(rows []Row, extra func(Row) string) string {
	items := make([]ListItem, len(rows))
	for n, r := range rows {
		text := r.Name + " (" + r.ID
		if extra != nil {
			text += ", " + extra(r)
		}
		items[n] = ListItem{ID: r.ID, Text: text + ")"}
	}
	return a.record(items, ListSep)
}

// linkText is "FS", "SS +2", "FS -1".
func linkText(t schedule.RelType, lag float64) string {
	switch {
	case lag > 0:
		return string(t) + " +" + num(lag)
	case lag < 0:
		return string(t) + " " + num(lag)
	}
	return string(t)
}

// drivers says which links drive activity i.
func (a *asker) drivers(i int) string {
	d, _ := a.v.Details(a.v.Activity(i).ID)
	var parts []string
	for _, l := range d.Predecessors {
		if l.Driving {
			parts = append(parts, fmt.Sprintf("%s (%s, %s)", l.ActivityName, l.ActivityID, linkText(l.Type, l.Lag)))
		}
	}
	return strings.Join(parts, " and ")
}

// drives answers "what drives X" and "why is X so late".
func (a *asker) drives(i int, late bool) Answer {
	id := a.v.Activity(i).ID
	p, _ := a.v.DrivingPath(id)
	row := a.v.row(i)
	var b strings.Builder
	if late {
		fmt.Fprintf(&b, "%s starts on %s, its early start: it can start no earlier.", a.label(i), a.startOf(row))
	} else {
		fmt.Fprintf(&b, "%s has its early start on %s.", a.label(i), a.startOf(row))
	}
	if len(p.Activities) == 1 {
		fmt.Fprintf(&b, " No link drives it: it starts at the project start (day 0).")
		return Answer{Answer: b.String(), Activities: p.IDs()}
	}
	fmt.Fprintf(&b, " It is driven by %s (no relationship free float).", a.drivers(i))
	fmt.Fprintf(&b, " Driving path, in path order (%d activities): %s.", len(p.Activities), a.chain(p.Activities))
	if br := a.branches(p); br != "" {
		b.WriteString(" " + br)
	}
	if late && row.TotalFloat > 0 {
		fmt.Fprintf(&b, " It has %s of total float: it could start as late as %s without moving the project finish.", days(row.TotalFloat), a.day(row.LateStart, row.LateStartDate))
	}
	return Answer{Answer: b.String(), Activities: p.IDs()}
}

// branches names the activities on a path that two or more links drive.
func (a *asker) branches(p *Path) string {
	count := map[string][]string{}
	var order []string
	for _, l := range p.Links {
		if _, ok := count[l.Successor]; !ok {
			order = append(order, l.Successor)
		}
		if !contains(count[l.Successor], l.Predecessor) {
			count[l.Successor] = append(count[l.Successor], l.Predecessor)
		}
	}
	var parts []string
	for _, s := range order {
		if len(count[s]) > 1 {
			parts = append(parts, fmt.Sprintf("%s by %s", s, strings.Join(count[s], " and ")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "The path branches where two activities drive one at once: " + strings.Join(parts, "; ") + "."
}

func (a *asker) whyCritical(i int) Answer {
	row := a.v.row(i)
	if !row.Critical {
		return Answer{
			Answer: fmt.Sprintf("%s is not critical: it has %s of total float — early start %s, late start %s — so it can slip that much without moving the project finish.",
				a.label(i), days(row.TotalFloat), a.day(row.EarlyStart, row.EarlyStartDate), a.day(row.LateStart, row.LateStartDate)),
			Activities: []string{row.ID},
		}
	}
	p, _ := a.v.DrivingPath(row.ID)
	fwd := a.v.path(a.v.forwardCritical(i))
	var b strings.Builder
	fmt.Fprintf(&b, "%s is critical: its total float is 0 — its early and late start are both %s — so any delay to it delays the project finish, %s.",
		a.label(i), a.startOf(row), a.day(a.v.R.ProjectDuration, a.v.finishDate()))
	ids := p.IDs()
	if len(p.Activities) > 1 {
		fmt.Fprintf(&b, " It is driven by %s. Driving path to it (%d activities): %s.", a.drivers(i), len(p.Activities), a.chain(p.Activities))
	} else {
		b.WriteString(" No link drives it: it starts at the project start.")
	}
	if len(fwd.Activities) > 1 {
		rest := fwd.Activities[1:]
		fmt.Fprintf(&b, " It drives the finish through %d critical activities: %s.", len(rest), a.chain(rest))
		for _, r := range rest {
			if !contains(ids, r.ID) {
				ids = append(ids, r.ID)
			}
		}
	}
	return Answer{Answer: b.String(), Activities: ids}
}

// criticalOn answers "what's critical on level 3" (or in a trade).
func (a *asker) criticalOn(x lang.Ref) Answer {
	level := LevelOf(x.Words)
	trade := strings.TrimSpace(lang.TradeOf(x.Words))
	if level == "" && trade == "" {
		return Answer{Answer: fmt.Sprintf("I can't tell which part of the schedule %q is: name a level (\"level 3\") or a trade (\"drywall\").", x.Text)}
	}
	f := Filter{Level: level, Trade: trade}
	where := ""
	switch {
	case level != "" && trade != "":
		where = fmt.Sprintf("%s on level %s", trade, level)
	case level != "":
		where = "on level " + level
	default:
		where = "in " + trade
	}
	all, err := a.v.Find(f)
	if err != nil || all.Total == 0 {
		return Answer{Answer: fmt.Sprintf("No activity is %s (I read %q).", where, x.Text)}
	}
	var crit []Row
	for _, r := range a.v.CriticalPath() {
		if (level == "" || r.Level == level) && contains(IDs(all.Activities), r.ID) {
			crit = append(crit, r)
		}
	}
	if len(crit) == 0 {
		least := all.Activities[0]
		for _, r := range all.Activities {
			if r.TotalFloat < least.TotalFloat {
				least = r
			}
		}
		return Answer{
			Answer:     fmt.Sprintf("Nothing %s is critical (%d activities); the least total float there is %s, on %s (%s).", where, all.Total, days(least.TotalFloat), least.Name, least.ID),
			Activities: []string{least.ID},
		}
	}
	return Answer{
		Answer:     fmt.Sprintf("%d of the %d activities %s are critical, by early start: %s.", len(crit), all.Total, where, a.list(crit, func(r Row) string { return "early start day " + num(r.EarlyStart) })),
		Activities: IDs(crit),
	}
}

func (a *asker) float(x lang.Ref) Answer {
	r := a.res.Resolve(x)
	if r.Status == lang.Found && r.Group && len(r.Acts) > 1 && LevelOf(x.Words) != "" {
		return a.criticalOn(x)
	}
	return a.withOne(x, func(i int) Answer {
		row := a.v.row(i)
		crit := "it is not critical"
		if row.Critical {
			crit = "it is critical: any delay to it delays the project finish"
		}
		return Answer{
			Answer: fmt.Sprintf("%s has %s of total float and %s of free float; %s. Early start %s, late start %s.",
				a.label(i), days(row.TotalFloat), days(row.FreeFloat), crit, a.day(row.EarlyStart, row.EarlyStartDate), a.day(row.LateStart, row.LateStartDate)),
			Activities: []string{row.ID},
		}
	})
}

func (a *asker) criticalPath() Answer {
	crit := a.v.CriticalPath()
	f := a.v.ProjectFinish()
	return Answer{
		Answer: fmt.Sprintf("%d of %s critical (total float 0); the project finishes on %s. By early start: %s.",
			len(crit), countVerb(f.Total, "is", "are"), a.day(f.Duration, f.FinishDate), a.list(crit, nil)),
		Activities: IDs(crit),
	}
}

func (a *asker) pathToFinish() Answer {
	p := a.v.DrivingPathToFinish()
	f := a.v.ProjectFinish()
	var b strings.Builder
	fmt.Fprintf(&b, "The project finish, %s, is driven by a path of %d activities, in path order: %s.", a.day(f.Duration, f.FinishDate), len(p.Activities), a.chain(p.Activities))
	if br := a.branches(p); br != "" {
		b.WriteString(" " + br)
	}
	return Answer{Answer: b.String(), Activities: p.IDs()}
}

func (a *asker) nearCritical(q lang.Question) Answer {
	limit, said := float64(DefaultNearCritical), q.Days != nil
	if said {
		limit = *q.Days
	}
	rows := a.v.NearCritical(limit)
	var keep []Row
	critical := 0
	for _, r := range rows {
		if q.Below && r.TotalFloat >= limit-schedule.Epsilon {
			continue
		}
		if r.Critical {
			critical++
			if q.Group != "all" {
				continue
			}
		}
		keep = append(keep, r)
	}
	bound := "at most " + days(limit)
	if q.Below {
		bound = "under " + days(limit)
	}
	floatOf := func(r Row) string { return "total float " + num(r.TotalFloat) }
	if q.Group == "all" {
		if len(keep) == 0 {
			return Answer{Answer: fmt.Sprintf("No activity has total float %s.", bound)}
		}
		return Answer{
			Answer:     fmt.Sprintf("%s total float %s (%d of them critical), by float then early start: %s.", countVerb(len(keep), "has", "have"), bound, critical, a.list(keep, floatOf)),
			Activities: IDs(keep),
		}
	}
	note := ""
	if !said {
		note = fmt.Sprintf(" (No limit was said, so near-critical means total float above 0 and at most %s; ask \"near critical within N days\" for another.)", days(limit))
	}
	if len(keep) == 0 {
		return Answer{Answer: fmt.Sprintf("No activity is near-critical: none has total float above 0 and %s (%d are critical).%s", bound, critical, note)}
	}
	return Answer{
		Answer: fmt.Sprintf("%s near-critical, with total float above 0 and %s (besides the %d critical ones), by float then early start: %s.%s",
			countVerb(len(keep), "is", "are"), bound, critical, a.list(keep, floatOf), note),
		Activities: IDs(keep),
	}
}

func (a *asker) floatBy(group string) Answer {
	gs, err := a.v.FloatBy(group)
	if err != nil {
		return Answer{Answer: err.Error()}
	}
	var parts, ids []string
	for _, g := range gs {
		parts = append(parts, fmt.Sprintf("%s: %s, %d critical, total float least %s, mean %s", g.Label, count(g.Count, "activity", "activities"), g.Critical, num(g.MinFloat), num(g.MeanFloat)))
		// The activity with the least float, the group's tightest.
		best, bestFloat := "", 0.0
		for _, id := range g.Activities {
			r, _ := a.v.Row(id)
			if best == "" || r.TotalFloat < bestFloat {
				best, bestFloat = id, r.TotalFloat
			}
		}
		ids = append(ids, best)
	}
	rule := "levels as activity names say them (\"Painting Level 3\" is level 3)"
	if group == "trade" {
		rule = "trades as activity names say them, the name without its level (\"Painting Level 1\" … \"Painting Level 4\" are Painting)"
	}
	return Answer{
		Answer:     fmt.Sprintf("Total float (working days) by %s, %s: %s. The activities listed are each group's least-float one.", group, rule, strings.Join(parts, "; ")),
		Activities: ids,
	}
}

func (a *asker) details(i int, q lang.Question) Answer {
	d, _ := a.v.Details(a.v.Activity(i).ID)
	r := d.Activity
	var b strings.Builder
	switch {
	case q.Start:
		fmt.Fprintf(&b, "%s starts on %s at the earliest, %s at the latest. ", a.label(i), a.startOf(r), a.day(r.LateStart, r.LateStartDate))
	case q.Finish:
		fmt.Fprintf(&b, "%s finishes on %s at the earliest, %s at the latest. ", a.label(i), a.finishOf(r), a.day(r.LateFinish, r.LateFinishDate))
	default:
		fmt.Fprintf(&b, "%s: ", a.label(i))
	}
	if q.Start || q.Finish {
		b.WriteString("Duration ")
	} else {
		b.WriteString("duration ")
	}
	dur := days(r.Duration)
	if d.DurationText != num(r.Duration) {
		dur += fmt.Sprintf(" (written %q)", d.DurationText)
	}
	crit := "not critical"
	if r.Critical {
		crit = "critical"
	}
	fmt.Fprintf(&b, "%s; early start %s, early finish %s; late start %s, late finish %s; total float %s, free float %s; %s.",
		dur, a.startOf(r), a.finishOf(r), a.day(r.LateStart, r.LateStartDate), a.day(r.LateFinish, r.LateFinishDate), num(r.TotalFloat), num(r.FreeFloat), crit)
	ids := []string{r.ID}
	links := func(title string, ls []Link, verb string) {
		if len(ls) == 0 {
			fmt.Fprintf(&b, " %s: none.", title)
			return
		}
		var parts []string
		for _, l := range ls {
			s := fmt.Sprintf("%s (%s, %s", l.ActivityName, l.ActivityID, linkText(l.Type, l.Lag))
			if l.Driving {
				s += ", " + verb
			} else {
				s += ", slack " + num(l.Slack)
			}
			parts = append(parts, s+")")
			if !contains(ids, l.ActivityID) {
				ids = append(ids, l.ActivityID)
			}
		}
		fmt.Fprintf(&b, " %s: %s.", title, strings.Join(parts, "; "))
	}
	links("Predecessors", d.Predecessors, "driving")
	links("Successors", d.Successors, "drives it")
	return Answer{Answer: b.String(), Activities: ids}
}

func (a *asker) finish() Answer {
	f := a.v.ProjectFinish()
	var last []string
	for _, id := range f.Activities {
		i, _ := a.v.Index(id)
		last = append(last, a.label(i))
	}
	return Answer{
		Answer: fmt.Sprintf("The project takes %s and finishes on %s; %d of %d activities are critical. Finishing last: %s.",
			days(f.Duration), a.day(f.Duration, f.FinishDate), f.Critical, f.Total, strings.Join(last, ", ")),
		Activities: f.Activities,
	}
}

// impact writes a what-if's CPM difference.
func (a *asker) impact(b *strings.Builder, res *WhatIfResult, ids *[]string) {
	before := a.day(res.FinishBefore, res.FinishDateBefore)
	after := a.day(res.FinishAfter, res.FinishDateAfter)
	switch {
	case res.FinishChange > 0:
		fmt.Fprintf(b, " the project would finish on %s instead of %s: %s later.", after, before, days(res.FinishChange))
	case res.FinishChange < 0:
		fmt.Fprintf(b, " the project would finish on %s instead of %s: %s earlier.", after, before, days(-res.FinishChange))
	default:
		fmt.Fprintf(b, " the project finish would not move: it stays on %s.", before)
	}
	name := func(id string) string {
		i, ok := a.v.Index(id)
		if !ok {
			return id
		}
		return a.label(i)
	}
	for _, l := range []struct {
		title string
		ids   []string
	}{{"Would become critical", res.BecameCritical}, {"Would no longer be critical", res.NoLongerCritical}} {
		if len(l.ids) == 0 {
			continue
		}
		var parts []string
		for _, id := range l.ids {
			parts = append(parts, name(id))
			if !contains(*ids, id) {
				*ids = append(*ids, id)
			}
		}
		fmt.Fprintf(b, " %s: %s.", l.title, strings.Join(parts, "; "))
	}
	moved, floats := 0, 0
	for _, c := range res.Changed {
		if c.EarlyStartBefore != c.EarlyStartAfter || c.EarlyFinishBefore != c.EarlyFinishAfter {
			moved++
		}
		if c.TotalFloatBefore != c.TotalFloatAfter {
			floats++
		}
	}
	fmt.Fprintf(b, " Early dates would change for %s and total float for %s. Nothing has been changed: this ran on a copy of the schedule.", count(moved, "activity", "activities"), count(floats, "activity", "activities"))
}

func (a *asker) whatIfDuration(i int, d float64, delta bool) Answer {
	id := a.v.Activity(i).ID
	ops, err := a.v.DurationOps(id, d, delta)
	if err != nil {
		return Answer{Answer: err.Error(), Activities: []string{id}}
	}
	res, err := a.v.WhatIf(ops)
	if err != nil {
		return Answer{Answer: "That change cannot be computed: " + err.Error(), Activities: []string{id}}
	}
	before := a.v.R.EF[i] - a.v.R.ES[i]
	j, _ := res.After.Index(id)
	after := res.After.R.EF[j] - res.After.R.ES[j]
	var b strings.Builder
	fmt.Fprintf(&b, "If %s took %s instead of %s,", a.label(i), days(after), num(before))
	ids := []string{id}
	a.impact(&b, res, &ids)
	return Answer{Answer: b.String(), Activities: ids}
}

func (a *asker) whatIfDelay(i int, d float64) Answer {
	id := a.v.Activity(i).ID
	row := a.v.row(i)
	if d <= 0 {
		why := "it starts at the project start"
		if row.EarlyStart > 0 {
			why = "its driving path holds it there (ask \"what drives " + a.v.Activity(i).Name + "\")"
		}
		return Answer{Answer: fmt.Sprintf("%s cannot start earlier than its early start, %s: %s.", a.label(i), a.startOf(row), why), Activities: []string{id}}
	}
	res, err := a.v.WhatIfScenario(Scenario{Delays: []Delay{{Activity: id, Days: d}}})
	if err != nil {
		return Answer{Answer: "That change cannot be computed: " + err.Error(), Activities: []string{id}}
	}
	j, _ := res.After.Index(id)
	var b strings.Builder
	fmt.Fprintf(&b, "If %s started %s later, on %s instead of %s,", a.label(i), days(d), a.startOf(res.After.row(j)), a.startOf(row))
	ids := []string{id}
	a.impact(&b, res, &ids)
	b.WriteString(" (A later start is modelled as a start no earlier than that day; the logic into it is unchanged.)")
	return Answer{Answer: b.String(), Activities: ids}
}

func (a *asker) whatIfUnlink(i, j int) Answer {
	x, y := a.v.Activity(i).ID, a.v.Activity(j).ID
	ops, err := a.v.UnlinkOps(x, y)
	if err != nil {
		return Answer{Answer: fmt.Sprintf("No relationship links %s and %s, so removing it changes nothing.", a.label(i), a.label(j)), Activities: []string{x, y}}
	}
	var links []string
	for _, op := range ops {
		for k, r := range a.v.S.Relationships {
			if r.ID != op.RelationshipID {
				continue
			}
			p, _ := a.v.Index(r.Predecessor)
			s, _ := a.v.Index(r.Successor)
			state := "slack " + num(a.v.Slack(k))
			if a.v.Drives(k) {
				state = "driving"
			}
			links = append(links, fmt.Sprintf("%s → %s (%s, %s)", a.label(p), a.label(s), linkText(r.Type, r.Lag), state))
		}
	}
	res, err := a.v.WhatIf(ops)
	if err != nil {
		return Answer{Answer: "That change cannot be computed: " + err.Error(), Activities: []string{x, y}}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Without the link %s,", strings.Join(links, " and "))
	ids := []string{x, y}
	a.impact(&b, res, &ids)
	return Answer{Answer: b.String(), Activities: ids}
}
