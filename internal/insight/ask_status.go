package insight

// The monthly update's questions: what is behind the baseline, what
// slipped, what is in progress, what should have started by the data
// date. Each is answered from the computed schedule and its baselines
// (schedule.Variances), listing names with ids.

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// statusKind is one of the update questions.
type statusKind int

const (
	askBehindBaseline statusKind = iota + 1
	askSlipped
	askInProgress
	askShouldHaveStarted
)

// StatusForms are the update questions' forms, for telling a person what
// can be asked (beside lang.QuestionForms).
var StatusForms = []string{
	`"what is behind baseline"`,
	`"what slipped since the last update" / "what slipped since the baseline"`,
	`"what's in progress"`,
	`"what should have started by the data date"`,
}

var (
	// statusOpener is how a question about the update begins: a question
	// word, or a request to list or show.
	statusOpener = regexp.MustCompile(`^(?:what|what's|whats|which|who|where|how many|is|are|has|have|any|anything|show|list|give|tell|find)\b`)
	statusLead   = regexp.MustCompile(`^(?:please\s+|can you\s+|could you\s+|would you\s+|i'd like to know\s+|i want to know\s+)+`)
	statusForms  = []struct {
		kind statusKind
		re   *regexp.Regexp
	}{
		// "should have started" first: "late to start" is not "late".
		{askShouldHaveStarted, regexp.MustCompile(`\b(?:should(?: have|'ve| of)|ought to have|was due to|were due to|were meant to|was meant to|were supposed to|was supposed to)(?: already)? (?:be )?start(?:ed)?\b|\b(?:late|overdue) (?:to |in )?start(?:ing)?\b|\bmissed (?:its|their) (?:planned |baseline )?start\b|\bnot started (?:yet )?but should\b`)},
		{askSlipped, regexp.MustCompile(`\b(?:slip|slipped|slips|slipping|slippage|moved later|got later|been delayed|gone later)\b`)},
		{askBehindBaseline, regexp.MustCompile(`\b(?:behind|late (?:against|compared (?:to|with)|versus|vs\.?|on)|later than|over(?:running)? (?:against )?)\s+(?:the\s+|our\s+|its\s+|their\s+)?(?:baseline|plan|planned dates|programme|program|schedule)\b|\b(?:is|are|'s|running|fallen|falling|gotten|got) behind(?:$| (?:on|in|for|at|within)\b)`)},
		{askInProgress, regexp.MustCompile(`\b(?:in[ -]progress|under ?way|ongoing|on-going|being worked(?: on)?|started but not (?:yet )?finished|started and not (?:yet )?finished|currently active|still open|part(?:ly|ially) (?:done|complete))\b`)},
	}
	// statusEdit is a change someone asks for, which no status question is.
	statusEdit = regexp.MustCompile(`^(?:add|delete|remove|move|delay|push|make|set|link|unlink|change|shorten|extend|split|rename|insert|mark|update|status)\b`)
)

// statusScope is where a question narrows itself to part of the
// schedule: "on level 3", "in the drywall", "for pier 2" - the words up
// to a verb or time phrase that follows.
var (
	statusScope        = regexp.MustCompile(`\b(?:on|in|for|at|within|among) (?:the )?([a-z0-9][\w .,&/'-]*?)(?: (?:are|is|that|which|who|have|has|were|was|by|since|so far|right now|currently|yet|already)\b.*)?$`)
	statusPrepositions = map[string]bool{"on": true, "in": true, "for": true, "at": true, "within": true}
	statusTime         = regexp.MustCompile(`\b(?:moment|present|now|today|month|week|period|update|data date|baseline|plan|programme|program|schedule|progress|total|all|general)\b`)
)

// readStatus reads text as one of the update questions and the part of
// the schedule it asks about ("" for all of it); ok is false when it is
// anything else (the language layer reads it then).
func readStatus(text string) (kind statusKind, scope string, ok bool) {
	s := strings.ToLower(strings.Join(strings.Fields(strings.NewReplacer("’", "'", "‘", "'").Replace(text)), " "))
	s = strings.TrimRight(s, "?.! ")
	s = statusLead.ReplaceAllString(s, "")
	if s == "" || statusEdit.MatchString(s) || !statusOpener.MatchString(s) {
		return 0, "", false
	}
	for _, f := range statusForms {
		loc := f.re.FindStringIndex(s)
		if loc == nil {
			continue
		}
		// A form may end on the preposition of its scope ("behind on"):
		// leave that to the scope.
		if m := s[loc[0]:loc[1]]; strings.LastIndexByte(m, ' ') >= 0 && statusPrepositions[m[strings.LastIndexByte(m, ' ')+1:]] {
			loc[1] = loc[0] + strings.LastIndexByte(m, ' ')
		}
		rest := s[:loc[0]] + " " + s[loc[1]:]
		if m := statusScope.FindStringSubmatch(rest); m != nil && !statusTime.MatchString(m[1]) {
			scope = strings.TrimSpace(m[1])
		}
		return f.kind, scope, true
	}
	return 0, "", false
}

// answerStatus answers an update question about the activities scope
// names ("" all of them).
func answerStatus(v *View, kind statusKind, scope, text string) Answer {
	a := statusAsker{v: v}
	if scope != "" {
		r := lang.NewResolver(v.S).Resolve(lang.Ref{Text: scope, Words: scope})
		acts := r.Acts
		if r.Status == lang.Ambiguous {
			acts = r.Candidates // a group: every activity it names
		}
		if r.Status == lang.Missing || len(acts) == 0 && r.Status != lang.TooBroad {
			return Answer{Answer: fmt.Sprintf("I can't find %q in this schedule: name activities as the schedule does (a level, a trade, a name or an id).", scope),
				Activities: []string{}, Understood: true}
		}
		if r.Status != lang.TooBroad {
			a.only = map[string]bool{}
			for _, act := range acts {
				a.only[act.ID] = true
			}
		}
	}
	var ans Answer
	switch kind {
	case askBehindBaseline:
		ans = a.behind()
	case askSlipped:
		ans = a.slipped(strings.Contains(strings.ToLower(text), "update") || strings.Contains(strings.ToLower(text), "last"))
	case askInProgress:
		ans = a.inProgress()
	default:
		ans = a.shouldHaveStarted()
	}
	if a.only != nil {
		ans.Answer = fmt.Sprintf("Of the %s %q names: %s", count(len(a.only), "activity", "activities"), scope, ans.Answer)
	}
	ans.Understood = true
	if ans.Activities == nil {
		ans.Activities = []string{}
	}
	return ans
}

type statusAsker struct {
	v *View
	// only are the activities asked about, by id; nil: all of them.
	only map[string]bool
}

// asked reports whether the question is about activity id.
func (a statusAsker) asked(id string) bool { return a.only == nil || a.only[id] }

// noBaseline is the answer when the schedule has none.
const noBaseline = "No activity has a baseline, so nothing can be measured against one: set one with `autoscheduler baseline set`, or import a file that carries one (MS Project's baseline, P6's planned dates)."

// variances are the baselined activities' variances, or an answer saying
// why there are none.
func (a statusAsker) variances() ([]schedule.Variance, *Answer) {
	vs, err := schedule.Variances(a.v.S, a.v.R)
	if err != nil {
		return nil, &Answer{Answer: "I can't compare this schedule with its baseline: " + err.Error() + "."}
	}
	if len(vs) == 0 {
		return nil, &Answer{Answer: noBaseline}
	}
	return slices.DeleteFunc(vs, func(x schedule.Variance) bool { return !a.asked(x.ID) }), nil
}

// maxStatusListed caps the activities an update answer names in words;
// its Activities list them all.
const maxStatusListed = 20

// listed names rows "Name (ID, detail)", at most maxStatusListed, and
// says how many more.
func listed[T any](rows []T, name func(T) string) string {
	var parts []string
	for k, r := range rows {
		if k == maxStatusListed {
			parts = append(parts, fmt.Sprintf("and %d more", len(rows)-k))
			break
		}
		parts = append(parts, name(r))
	}
	return strings.Join(parts, "; ")
}

func shortTime(t time.Time) string {
	if t.IsZero() {
		return "none"
	}
	return shortDate(t.Format(schedule.DateTimeLayout))
}

func signed(x float64) string {
	if schedule.RoundDays(x) > 0 {
		return "+" + days(x)
	}
	return days(x)
}

// behind: finish variance above 0, the largest first.
func (a statusAsker) behind() Answer {
	vs, no := a.variances()
	if no != nil {
		return *no
	}
	late := slices.DeleteFunc(vs, func(x schedule.Variance) bool { return x.FinishDays == nil || schedule.RoundDays(*x.FinishDays) <= 0 })
	slices.SortStableFunc(late, func(p, q schedule.Variance) int { return cmp.Compare(*q.FinishDays, *p.FinishDays) })
	if len(late) == 0 {
		return Answer{Answer: "Nothing is behind the baseline: every activity with a baseline finish is forecast to finish by it."}
	}
	return Answer{
		Answer: fmt.Sprintf("%s behind the baseline (forecast finish after the baseline finish), the most behind first: %s.",
			countVerb(len(late), "is", "are"), listed(late, func(x schedule.Variance) string {
				return fmt.Sprintf("%s (%s, %s: baseline finish %s, forecast %s)", x.Name, x.ID, signed(*x.FinishDays), shortTime(x.BaselineFinish), shortTime(x.Finish))
			})),
		Activities: varianceIDs(late),
	}
}

// slipped: a start or finish later than the baseline's, the largest slip
// first. The schedule holds one version: "since the last update" is
// answered against the baseline, and says so.
func (a statusAsker) slipped(sinceUpdate bool) Answer {
	vs, no := a.variances()
	if no != nil {
		return *no
	}
	slip := func(x schedule.Variance) float64 {
		s := 0.0
		for _, d := range []*float64{x.StartDays, x.FinishDays} {
			if d != nil {
				s = max(s, schedule.RoundDays(*d))
			}
		}
		return s
	}
	moved := slices.DeleteFunc(vs, func(x schedule.Variance) bool { return slip(x) <= 0 })
	slices.SortStableFunc(moved, func(p, q schedule.Variance) int { return cmp.Compare(slip(q), slip(p)) })
	note := ""
	if sinceUpdate {
		note = " This schedule holds one version, so slippage is measured against its baseline; `autoscheduler compare A B` compares two updates."
	}
	if len(moved) == 0 {
		return Answer{Answer: "Nothing has slipped: no activity starts or finishes later than its baseline." + note}
	}
	return Answer{
		Answer: fmt.Sprintf("%s slipped against the baseline (start or finish later than planned), the largest slip first: %s.%s",
			count(len(moved), "activity has", "activities have"), listed(moved, func(x schedule.Variance) string {
				var parts []string
				if x.StartDays != nil && schedule.RoundDays(*x.StartDays) != 0 {
					parts = append(parts, "start "+signed(*x.StartDays))
				}
				if x.FinishDays != nil && schedule.RoundDays(*x.FinishDays) != 0 {
					parts = append(parts, "finish "+signed(*x.FinishDays))
				}
				return fmt.Sprintf("%s (%s, %s)", x.Name, x.ID, strings.Join(parts, ", "))
			}), note),
		Activities: varianceIDs(moved),
	}
}

// inProgress: started and not finished, by forecast finish.
func (a statusAsker) inProgress() Answer {
	v := a.v
	var open []int
	for i := range v.R.Net.Len() {
		if act := v.Activity(i); act.ActualStart != "" && act.ActualFinish == "" && a.asked(act.ID) {
			open = append(open, i)
		}
	}
	finish := func(i int) time.Time { return v.R.At(v.Clock, i, schedule.EarlyFinish) }
	slices.SortStableFunc(open, func(p, q int) int { return finish(p).Compare(finish(q)) })
	if len(open) == 0 {
		return Answer{Answer: "Nothing is in progress: no activity has an actual start without an actual finish."}
	}
	ids := make([]string, len(open))
	for k, i := range open {
		ids[k] = v.Activity(i).ID
	}
	return Answer{
		Answer: fmt.Sprintf("%s in progress (started, not finished), by forecast finish: %s.", countVerb(len(open), "is", "are"),
			listed(open, func(i int) string {
				act := v.Activity(i)
				done := ""
				if act.PercentComplete > 0 {
					done = fmt.Sprintf("%s%% complete, ", num(act.PercentComplete))
				}
				return fmt.Sprintf("%s (%s, started %s, %sforecast finish %s)", act.Name, act.ID, shortDate(act.ActualStart), done, shortTime(finish(i)))
			})),
		Activities: ids,
	}
}

// shouldHaveStarted: tasks not started whose baseline start, or early
// start, is before the data date, the earliest first.
func (a statusAsker) shouldHaveStarted() Answer {
	v := a.v
	if v.S.DataDate == "" {
		return Answer{Answer: "The schedule has no data date, so nothing is due by one: status it to a date first (a data date)."}
	}
	data, err := schedule.ParseStart(v.S.DataDate)
	if err != nil {
		return Answer{Answer: fmt.Sprintf("The data date %q is not a date.", v.S.DataDate)}
	}
	type due struct {
		i          int
		planned    time.Time // the earlier of the baseline and early starts
		byBaseline bool
	}
	var late []due
	for i := range v.R.Net.Len() {
		act := v.Activity(i)
		if act.ActualStart != "" || act.Type == schedule.WBSSummary || act.Type == schedule.LevelOfEffort || !a.asked(act.ID) {
			continue
		}
		d := due{i: i}
		if bs, ok := act.BaselineStartAt(); ok && bs.Before(data) {
			d.planned, d.byBaseline = bs, true
		}
		if es := v.R.At(v.Clock, i, schedule.EarlyStart); es.Before(data) && (d.planned.IsZero() || es.Before(d.planned)) {
			d.planned, d.byBaseline = es, false
		}
		if !d.planned.IsZero() {
			late = append(late, d)
		}
	}
	slices.SortStableFunc(late, func(p, q due) int { return p.planned.Compare(q.planned) })
	when := shortDate(v.S.DataDate)
	if len(late) == 0 {
		return Answer{Answer: fmt.Sprintf("Nothing that should have started by the data date (%s) is unstarted: every activity planned to start before it has an actual start.", when)}
	}
	ids := make([]string, len(late))
	for k, d := range late {
		ids[k] = v.Activity(d.i).ID
	}
	return Answer{
		Answer: fmt.Sprintf("%s not started though planned to start before the data date (%s), the earliest first: %s.",
			countVerb(len(late), "is", "are"), when, listed(late, func(d due) string {
				act := v.Activity(d.i)
				by := "early start"
				if d.byBaseline {
					by = "baseline start"
				}
				return fmt.Sprintf("%s (%s, %s %s, now forecast %s)", act.Name, act.ID, by, shortTime(d.planned), shortTime(v.R.At(v.Clock, d.i, schedule.EarlyStart)))
			})),
		Activities: ids,
	}
}

func varianceIDs(vs []schedule.Variance) []string {
	ids := make([]string, len(vs))
	for k, x := range vs {
		ids[k] = x.ID
	}
	return ids
}
