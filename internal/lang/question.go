package lang

import (
	"maps"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/lazyre"
)

// QuestionKind is what a read-only question asks. The forms each kind is
// read from are listed in QuestionForms; internal/insight answers them from
// the CPM result.
type QuestionKind string

// The question kinds.
const (
	// AskDrives: "what drives X", "what is X waiting for", "driving path
	// to X". X may be the project finish ("what drives the finish").
	AskDrives QuestionKind = "drives"
	// AskWhyCritical: "why is X critical", "why is X on the critical path".
	AskWhyCritical QuestionKind = "why_critical"
	// AskWhyLate: "why is X so late", "why does X start so late".
	AskWhyLate QuestionKind = "why_late"
	// AskCriticalOn: "what's critical on level 3", "critical activities in
	// drywall".
	AskCriticalOn QuestionKind = "critical_on"
	// AskFloat: "float of X", "how much float does X have", "is X critical".
	AskFloat QuestionKind = "float"
	// AskCriticalPath: "what is the critical path", "which activities are
	// critical".
	AskCriticalPath QuestionKind = "critical_path"
	// AskPathToFinish: "path to finish", "what drives the finish".
	AskPathToFinish QuestionKind = "path_to_finish"
	// AskNearCritical: "near critical" (Days, when said: the float limit),
	// "activities with float under N days" (Below: a strict limit, and
	// critical activities count).
	AskNearCritical QuestionKind = "near_critical"
	// AskFloatBy: "float by level", "float by trade" (Group).
	AskFloatBy QuestionKind = "float_by"
	// AskDetails: "tell me about X", "when does X start".
	AskDetails QuestionKind = "details"
	// AskFinish: "when does the project finish", "how long is the project".
	AskFinish QuestionKind = "finish"
	// AskWhatIfDuration: "what if X takes N days" (DaysDelta: "N more
	// days", "N days longer"; negative for "N days less").
	AskWhatIfDuration QuestionKind = "what_if_duration"
	// AskWhatIfDelay: "what if X starts N days later", "… is delayed by N
	// days", "… slips N days".
	AskWhatIfDelay QuestionKind = "what_if_delay"
	// AskWhatIfUnlink: "what if X loses its link to Y", "what if X no
	// longer follows Y", "what if we remove the link between X and Y".
	AskWhatIfUnlink QuestionKind = "what_if_unlink"
	// AskQuality: "is this programme fit to submit", "is the schedule
	// sound", "check the logic", "does it pass DCMA": the schedule
	// quality checks.
	AskQuality QuestionKind = "quality"
	// AskUnknown is a question none of the forms reads; Reason says more
	// when something was recognised ("a what-if of another kind").
	AskUnknown QuestionKind = "unknown"
)

// Question is one read-only question with its slots.
type Question struct {
	Kind QuestionKind `json:"kind"`
	// Source is the words of the question as written.
	Source string `json:"source"`
	// X is the activity asked about; Y the other end of a link.
	X Ref `json:"x,omitzero"`
	Y Ref `json:"y,omitzero"`
	// Days is a duration, delay or float limit in working days, when said.
	Days *float64 `json:"days,omitempty"`
	// DaysDelta: Days changes the duration by that much.
	DaysDelta bool `json:"days_delta,omitempty"`
	// Below: "under N days" (a strict limit); critical activities count.
	Below bool `json:"below,omitempty"`
	// Group is "level" or "trade" for AskFloatBy.
	Group string `json:"group,omitempty"`
	// Start and Finish: "when does X start / finish" (AskDetails).
	Start, Finish bool `json:"-"`
	// Reason says, for AskUnknown, what was recognised.
	Reason string `json:"reason,omitempty"`
}

// QuestionForms are the question forms the offline reader knows, for
// telling a person what can be asked (X and Y are activities, by name or
// id; N a number of working days, or weeks).
var QuestionForms = []string{
	`"what drives X" / "what is X waiting for" / "driving path to X"`,
	`"why is X critical"`,
	`"why is X so late" / "why does X start so late"`,
	`"what's critical on level 3" / "critical activities in drywall"`,
	`"float of X" / "how much float does X have" / "is X critical"`,
	`"what is the critical path"`,
	`"path to finish" / "what drives the finish"`,
	`"near critical" / "near critical within N days" / "activities with float under N days"`,
	`"float by level" / "float by trade"`,
	`"tell me about X" / "when does X start"`,
	`"when does the project finish"`,
	`"what if X takes N days" / "what if X takes N more days"`,
	`"what if X starts N days later"`,
	`"what if X loses its link to Y"`,
	`"is this programme fit to submit" / "is the schedule sound" / "check the logic"`,
}

// questionWords are words the question forms use: typo correction leaves
// them as written (and corrects near misses to them).
var questionWords = words(`drives drive driving driven drove controls controlling governs governing determines holding holds
delaying delays delayed late later latest early earlier soon sooner slow behind critical criticality float slack path chain near nearly almost
close sub longest whats hows wheres whys tell show list give explain describe details detail info information about
happen happens happened would suppose supposing imagine loses lost lose losing drops dropped unlinked linked tied connected
depend depends slips slipped slip slide slides pushed postponed postpone held push longer shorter less fewer under below
within most least lower max maximum trade trades by per each across much many far long does did didnt doesnt wasnt isnt
project job programme program schedule building completion date due planned scheduled happening have has got there
fit submit submission submitting ready sound valid healthy robust compliant dcma quality problem problems issue issues error errors
fault faults mistake mistakes flaw flaws wrong audit assess assessment validate pass meet satisfy comply standard standards point
fourteen acceptable okay ok baseline baselining network logic health checks check approval plan plans`)

// ParseQuestions reads src as read-only questions, one per clause (the
// parts split as Parse splits a request); ok is false when some clause is
// not a question at all (an edit, or nothing recognisable as asking), so
// the request is not a question to answer.
func ParseQuestions(src string, opt Options) (qs []Question, ok bool) {
	vocab := maps.Clone(opt.Vocabulary)
	if vocab == nil {
		vocab = map[string]bool{}
	}
	maps.Copy(vocab, questionWords)
	opt.Vocabulary = vocab
	p := newParser(src, opt)
	for _, raw := range splitAtQuestionMarks(p.clauses()) {
		source := raw.source()
		marked := strings.Contains(raw.s, "?")
		c := stripPolite(raw)
		c = stripQuestionOpeners(c)
		if c.s == "" {
			continue
		}
		q, found := p.question(c)
		first := strings.Fields(c.s)[0]
		edit := verbCanon[first] || leadVerbs[first]
		switch {
		case found && (!edit || q.Kind == AskWhatIfDuration || q.Kind == AskWhatIfDelay || q.Kind == AskWhatIfUnlink):
		case (marked || whStart.MatchString(c.s)) && !edit:
			q = Question{Kind: AskUnknown}
			if whatIfRe.MatchString(c.s) {
				q.Reason = "what-if"
			}
		default:
			return nil, false
		}
		q.Source = source
		qs = append(qs, q)
	}
	return qs, len(qs) > 0
}

// splitAtQuestionMarks ends a clause at each "?" inside it: "what
// drives X? and float of Y" is two questions.
func splitAtQuestionMarks(cls []*clause) []*clause {
	var out []*clause
	for _, c := range cls {
		start := 0
		for n, k := range c.idx {
			if c.t.toks[k].canon == "?" && n+1 < len(c.idx) {
				out = append(out, newClause(c.t, c.idx[start:n+1]))
				start = n + 1
			}
		}
		out = append(out, newClause(c.t, c.idx[start:]))
	}
	return out
}

// IsQuestion reports whether src is only read-only questions (answered from
// the schedule, never an edit): every part is a question form or is asked
// as a question.
func IsQuestion(src string, opt Options) bool {
	_, ok := ParseQuestions(src, opt)
	return ok
}

// questionOpeners are polite ways into a question, after stripPolite.
var questionOpeners = lazyre.New(`^(?:(?:tell me|show me|give me|let me know|i want to know|i would like to know|id like to know|i wonder|do you know|can i see|could i see|please)(?: |$))+`)

func stripQuestionOpeners(c *clause) *clause {
	for {
		m := questionOpeners.FindStringIndex(c.s)
		if m == nil || m[1] == 0 {
			return c
		}
		// Keep "tell me about X" whole: "about" starts the details form.
		if strings.HasPrefix(c.s[m[1]:], "about ") {
			return c.without(0, m[1])
		}
		c = c.without(0, m[1])
	}
}

var whatIfRe = lazyre.New(`^(?:what if|what happen if|what happens if|what would happen if|what happen when|what happens when|suppose|supposing|imagine|if)\b`)

// question is a question rule's reading of a clause.
type qrule struct {
	re    *lazyre.Regexp
	build func(p *parser, g groups) (Question, bool)
}

var qmacros = strings.NewReplacer(
	"{WH}", `(?:what|which|who|whats|which ones|what activities|which activities|what activity|which activity|what tasks|which tasks|what work|which work)`,
	"{BE}", `(?:is |are |was |s |will be |would be )?`,
	"{FLOAT}", `(?:total |free )?(?:float|slack)`,
	"{FINISH}", `(?:the )?(?:whole |overall |final )?(?:(?:project|job|programme|program|schedule|building|contract) )?(?:finishes|completion|end|finish date|end date|completion date|handover date)(?: date)?(?: of the (?:project|job|programme|program|schedule|building|works))?`,
	"{WHATIF}", `(?:what if|what happen if|what happens if|what would happen if|what happen when|what happens when|suppose|supposing|imagine|if)(?: we| i| you)?`,
)

func qre(pattern string) *lazyre.Regexp { return re(qmacros.Replace(pattern)) }

// levelGroup is a level noun, singular or plural, that a question groups by
// ("float by storey").
var levelGroup = lexicon.Pattern(lexicon.LevelNouns, lexicon.LevelNounPlurals)

// finishRef is the project finish said as a reference ("the finish").
var finishRef = lazyre.New(`^` + qmacros.Replace(`{FINISH}`) + `$|^(?:the )?(?:whole |overall |entire )?(?:project|job|programme|program|schedule|building)$`)

// projectRef is the whole project ("the critical path of the project").
var projectRef = lazyre.New(`^(?:the |this |our )?(?:whole |overall |entire )?(?:project|job|programme|program|schedule|building|plan|works)$`)

func xq(kind QuestionKind) func(*parser, groups) (Question, bool) {
	return func(p *parser, g groups) (Question, bool) {
		x := g.ref("x")
		if x.Words == "" {
			return Question{}, false
		}
		return Question{Kind: kind, X: x}, true
	}
}

// drives reads "what drives X"; X the finish is the path to finish.
func drives(p *parser, g groups) (Question, bool) {
	x := g.ref("x")
	if x.Words == "" {
		return Question{}, false
	}
	if finishRef.MatchString(g.str("x")) {
		return Question{Kind: AskPathToFinish}, true
	}
	return Question{Kind: AskDrives, X: x}, true
}

func constant(kind QuestionKind) func(*parser, groups) (Question, bool) {
	return func(*parser, groups) (Question, bool) { return Question{Kind: kind}, true }
}

// criticalOn reads "what's critical on X": the whole project is the
// critical path.
func criticalOn(p *parser, g groups) (Question, bool) {
	x := g.ref("x")
	if x.Words == "" {
		return Question{}, false
	}
	if projectRef.MatchString(g.str("x")) {
		return Question{Kind: AskCriticalPath}, true
	}
	return Question{Kind: AskCriticalOn, X: x}, true
}

// floatOf reads the float of X; a level or trade said instead of an
// activity ("is level 3 critical") is read by the answer.
func floatOf(p *parser, g groups) (Question, bool) {
	x := g.ref("x")
	if x.Words == "" {
		return Question{}, false
	}
	if projectRef.MatchString(g.str("x")) {
		return Question{Kind: AskCriticalPath}, true
	}
	return Question{Kind: AskFloat, X: x}, true
}

func floatBy(p *parser, g groups) (Question, bool) {
	switch g.str("g") {
	case "trade", "trades", "activity type", "work type", "type":
		return Question{Kind: AskFloatBy, Group: "trade"}, true
	}
	return Question{Kind: AskFloatBy, Group: "level"}, true
}

func details(p *parser, g groups) (Question, bool) {
	x := g.ref("x")
	if x.Words == "" {
		return Question{}, false
	}
	if finishRef.MatchString(g.str("x")) || projectRef.MatchString(g.str("x")) {
		return Question{Kind: AskFinish}, true
	}
	q := Question{Kind: AskDetails, X: x}
	switch g.str("e") {
	case "starts":
		q.Start = true
	case "finishes":
		q.Finish = true
	}
	return q, true
}

// nearCritical reads "near critical [within N days]" and "float under N
// days": the limit, when said, and whether it is strict.
func nearCritical(p *parser, g groups) (Question, bool) {
	q := Question{Kind: AskNearCritical}
	if n := g.str("n"); n != "" {
		d, ok := p.quantity(n)
		if !ok {
			return Question{}, false
		}
		q.Days = &d
		switch g.str("cmp") {
		case "under", "below", "less than", "fewer than", "lower than", "smaller than", "beneath":
			q.Below = true
		}
	}
	return q, true
}

// floatUnder is "activities with float under N days": critical ones count.
func floatUnder(p *parser, g groups) (Question, bool) {
	q, ok := nearCritical(p, g)
	if !ok || q.Days == nil {
		return Question{}, false
	}
	q.Group = "all"
	return q, true
}

// quantity reads "5", "5 days", "2 weeks", "4 hours" as working days.
func (p *parser) quantity(s string) (float64, bool) {
	if d, ok := p.duration(s); ok {
		return d, true
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// whatIfDuration reads "what if X takes N days"; "more", "extra",
// "longer" make it a change by N, "less", "shorter" by -N.
func whatIfDuration(p *parser, g groups) (Question, bool) {
	x := g.ref("x")
	d, ok := p.duration(g.str("d"))
	if x.Words == "" || !ok {
		return Question{}, false
	}
	q := Question{Kind: AskWhatIfDuration, X: x, Days: &d}
	written := strings.ToLower(g.c.source())
	more := g.str("more") != "" || moreRe.MatchString(written)
	less := g.str("less") != "" || lessRe.MatchString(written)
	switch g.str("how") {
	case "extend", "add", "give", "allow":
		more = true
	case "shorten", "take":
		less = true
	}
	switch {
	case less:
		*q.Days = -d
		q.DaysDelta = true
	case more:
		q.DaysDelta = true
	}
	return q, true
}

var (
	moreRe = lazyre.New(`\b(?:more|extra|additional|further)\s+(?:working\s+|work\s+|business\s+)?(?:days?|weeks?|hours?|d|wks?|hrs?)\b|\b(?:more|extra|additional|further|another)\s+\d|\b(?:longer|more|extra)\s*\??$`)
	lessRe = lazyre.New(`\b(?:less|fewer|shorter)\b`)
)

func whatIfDelay(p *parser, g groups) (Question, bool) {
	x := g.ref("x")
	d, ok := p.duration(g.str("d"))
	if x.Words == "" || !ok {
		return Question{}, false
	}
	if g.str("early") != "" {
		d = -d
	}
	return Question{Kind: AskWhatIfDelay, X: x, Days: &d}, true
}

func whatIfUnlink(p *parser, g groups) (Question, bool) {
	x, y := g.linkEnd("x"), g.linkEnd("y")
	if x.Words == "" || y.Words == "" {
		return Question{}, false
	}
	return Question{Kind: AskWhatIfUnlink, X: x, Y: y}, true
}

// questions are the question shapes, most specific first, matched against
// the canonical clause (see grammar.go: "finish" reads "finishes", "start"
// "starts", "depends on" "follow", "no longer" "nolonger", "does not"
// "cannot"; "what's" is "what").
var questions = []qrule{
	// Quality: the schedule checks (DCMA 14-point where it applies).
	{qre(`(?:is|are|will|would|does|do|can) (?:the |this |our |my |it |that )?(?:whole |overall )?(?:project |job |programme |program |schedule |plan |baseline |logic |network |it )?(?:programme |program |schedule |plan |logic |network )?(?:be )?(?:fit|ready|good enough|ok|okay|acceptable|sound|valid|healthy|robust|compliant|in good shape|any good|well built|well formed|up to standard)(?: (?:to|for) (?:submit|submission|submitting|issue|issuing|approval|the client|review|baseline|baselining|use))?(?: .*)?`), constant(AskQuality)},
	{qre(`(?:does|do|will|would|can) (?:the |this |our |my )?(?:it|project|job|programme|program|schedule|plan|logic|network)(?: programme| program| schedule| plan)? (?:pass|meet|satisfy|comply with|fail) (?:the )?(?:dcma|quality|schedule quality|14 point|fourteen point|checks|check|assessment|standards?)(?: .*)?`), constant(AskQuality)},
	{qre(`(?:{WH} {BE})?(?:any |the )?(?:problems?|issues?|errors?|faults?|mistakes?|flaws?|wrong|quality|health|dcma(?: check| checks| assessment| score)?|schedule quality|logic quality|quality checks?|logic checks?) (?:with|in|of|for) (?:the |this |our |my )?(?:project|job|programme|program|schedule|plan|logic|network)(?: .*)?`), constant(AskQuality)},
	{qre(`(?:{WH} {BE})?(?:wrong|off|missing) (?:with|in) (?:the |this |our |my )?(?:project|job|programme|program|schedule|plan|logic|network)(?: .*)?`), constant(AskQuality)},
	{qre(`(?:check|assess|audit|review|validate|health check) (?:the |this |our |my )?(?:project |job |programme |program |schedule |plan |logic |network )?(?:quality|logic|programme|program|schedule|plan|network)(?: .*)?`), constant(AskQuality)},
	// What-if: the change asked about.
	{qre(`{WHATIF} (?P<x>.+?) (?:delete|loses|lost|drops|dropped|had no|has no|didnt have|did not have|doesnt have|nolonger has|nolonger had) (?:its |the |their |a |any )?(?:{LINK}|predecessor|successor|tie) (?:to|with|from|on|into|onto|and) (?P<y>.+)`), whatIfUnlink},
	{qre(`{WHATIF} (?:delete|unlink|break|cut|drop) (?:{DET})?(?:{LINK}) (?:between) (?P<x>.+?) and (?P<y>.+)`), whatIfUnlink},
	{qre(`{WHATIF} (?:delete|unlink|break|cut|drop) (?:{DET})?(?:{LINK}) (?:from) (?P<x>.+?) (?:to|into|->) (?P<y>.+)`), whatIfUnlink},
	{qre(`{WHATIF} (?:delete|unlink|break|cut|drop) (?:{DET})?(?:{LINK}) (?P<x>.+?) (?:to|->) (?P<y>.+)`), whatIfUnlink},
	{qre(`{WHATIF} unlink (?P<x>.+?) (?:from|and) (?P<y>.+)`), whatIfUnlink},
	{qre(`{WHATIF} there (?:was|were|is) no (?:{LINK}) between (?P<x>.+?) and (?P<y>.+)`), whatIfUnlink},
	{qre(`{WHATIF} (?P<x>.+?) (?:is |was |were )?(?:didnt|did not|cannot|doesnt|dont|nolonger|not|wasnt|werent|isnt|never) (?:need to |have to |had to )?(?:follow|follows|followed|after|linked to|tied to|connected to|dependent on|depend on|depended on|wait for|waited for) (?P<y>.+)`), whatIfUnlink},

	{qre(`{WHATIF} (?P<x>.+?) (?:starts|started|starting|began|begins|kicked off|kicks off) (?P<d>{DUR}) (?:later|late|after it does now|behind|behind schedule|behind plan|after its early start|(?P<early>earlier|early|sooner))`), whatIfDelay},
	{qre(`{WHATIF} (?P<x>.+?) (?:is |was |were |gets |got |goes |went )?(?:delayed|pushed back|pushed out|postponed|held up|late|behind|slips|slipped|slip|slides|slid|moves|moved|moved back|shifted|shifts) (?:by )?(?P<d>{DUR})(?: later| late| back)?`), whatIfDelay},
	{qre(`{WHATIF} (?P<x>.+?) (?:is|was|were|runs|ran|goes|went) (?P<d>{DUR}) (?:late|behind|behind schedule)`), whatIfDelay},
	{qre(`{WHATIF} (?:delay|postpone|push back|push out|push|slip|move|shift) (?P<x>.+?) (?:by )?(?P<d>{DUR})(?: later| back)?`), whatIfDelay},
	{qre(`{WHATIF} (?:delay|postpone|push back|push|slip) (?P<x>.+?) (?:by )?(?P<d>{DUR})`), whatIfDelay},

	{qre(`{WHATIF} (?P<x>.+?) (?:duration )?(?:takes|took|take|lasts|lasted|last|runs|ran|run|needs|needed|need|requires|required|is|was|were|had|has|gets|got|becomes|became) (?:only |just |about |around |approximately |another )?(?:an? )?(?:(?P<more2>extra|additional|further|more) )?(?P<d>{DUR})(?: long)?(?: (?P<more>longer|more|extra|over|instead)| (?P<less>shorter|less|fewer|under))?(?: (?:long|than planned|than now|than it does now|than scheduled|than expected|instead|in total|altogether))?`), whatIfDuration},
	{qre(`{WHATIF} (?P<how>extend|shorten) (?:the duration of |the duration |duration of )?(?P<x>.+?) (?:by )(?P<d>{DUR})`), whatIfDuration},
	{qre(`{WHATIF} (?:change|make|extend|shorten) (?:the )?(?:duration|length) (?:of |for )?(?P<x>.+?) (?:to |at |be )?(?P<d>{DUR})`), whatIfDuration},
	{qre(`{WHATIF} (?:change|make|extend|shorten) (?P<x>.+?) (?:to |at |take |last |be )?(?P<d>{DUR})(?: long)?`), whatIfDuration},
	{qre(`{WHATIF} (?P<how>add|give|allow) (?:an? )?(?:extra |additional |more |another |further )?(?P<d>{DUR})(?: more| extra)? (?:to|onto|on|for) (?:the duration of )?(?P<x>.+?)(?: duration)?`), whatIfDuration},
	{qre(`{WHATIF} (?P<how>give|allow) (?P<x>.+?) (?:an? )?(?:extra|additional|more|another|further) (?P<d>{DUR})`), whatIfDuration},
	{qre(`{WHATIF} (?P<how>take) (?P<d>{DUR}) (?:off|from|out of) (?:the duration of )?(?P<x>.+?)`), whatIfDuration},
	{qre(`{WHATIF} (?P<x>.+?) (?:finishes|finished) (?P<d>{DUR}) (?P<more>later|late|after it does now)`), whatIfDuration},

	// Float by level or trade.
	{qre(`(?:{WH} )?{BE}(?:the )?(?:float|slack|criticality|critical|total float|critical activities|float and criticality|criticality and float)(?: and (?:float|criticality|critical|slack))? (?:by|per|for each|across|on each|for every|of each|in each|broken down by|grouped by) (?P<g>` + levelGroup + `|trade|trades|activity type|work type|type)`), floatBy},
	{qre(`(?:which|what) (?P<g>` + lexicon.Pattern(lexicon.LevelNouns) + `|trade) (?:has|have|is) (?:the )?(?:least|most|lowest|highest|less|more) (?:float|slack|critical|critical activities)`), floatBy},

	// Near critical.
	{qre(`(?:{WH} )?{BE}(?:the )?(?:near critical|nearly critical|almost critical|close to critical|close to being critical|near to critical|sub critical|near the critical path|close to the critical path)(?: (?:activities|tasks|paths|path|work|items|ones))?(?: (?:with|having|at|of)?(?: a| an)?(?: total)? ?(?:float|slack)?(?: of)? ?(?P<cmp>under|below|less than|fewer than|lower than|smaller than|within|up to|at most|of|no more than|not more than|max|maximum|<)? ?(?P<n>{NUM}(?: days| weeks| hours)?)(?: or less| or under| and under)?(?: (?:of )?(?:float|slack))?)?`), nearCritical},
	{qre(`(?:(?:{WH}|anything|everything|activities|tasks|show|list) )?(?:(?:activities|tasks|ones) )?(?:is |are |has |have |with |having |that have |that has |which have |got )?(?:a |an )?(?:total )?(?:float|slack)? ?(?P<cmp>under|below|less than|fewer than|lower than|smaller than|within|up to|at most|no more than|not more than|max|maximum|<=|<) (?P<n>{NUM}(?: days| weeks| hours)?)(?: or less)?(?: (?:of |in )?(?:total )?(?:float|slack))?`), floatUnder},
	{qre(`(?:(?:{WH}|anything|everything|activities|tasks|show|list) )?(?:(?:activities|tasks|ones) )?(?:is |are |has |have |with |having |that have |got )?(?:a |an )?(?:total )?(?:float|slack) (?:of )?(?P<n>{NUM}(?: days| weeks| hours)?) (?P<cmp>or less|or under|or lower|or below)`), floatUnder},
	{qre(`(?:(?:{WH}|anything|everything|activities|tasks|show|list) )?(?:(?:activities|tasks|ones) )?(?:is |are |has |have |with |having |that have |got )?(?:a |an )?(?P<n>{NUM}(?: days| weeks| hours)?) (?:of )?(?:total )?(?:float|slack) (?P<cmp>or less|or under|or lower|or below)`), floatUnder},

	// The path to the finish.
	{qre(`(?:{WH} {BE})?(?:the )?(?:driving |longest |critical )?(?:path|chain|logic|sequence) (?:to|into|up to|until|driving) {FINISH}`), constant(AskPathToFinish)},
	{qre(`(?:{WH} {BE})?(?:the )?(?:driving path|longest path|driving chain|driving logic)`), constant(AskPathToFinish)},
	{qre(`(?:{WH} )?{BE}(?:drives|drive|driving|controls|controlling|governs|governing|determines|determining|sets|setting) {FINISH}`), constant(AskPathToFinish)},

	// Critical path and criticality by level.
	{qre(`(?:{WH} )?{BE}(?:the )?(?:critical|on the critical path|critical activities|critical tasks|critical items|critical work|critical path) (?:on|at|in|for|within|among|of|across) (?P<x>.+)`), criticalOn},
	{qre(`(?:which|what) (?:activities |tasks |work |items |ones )?(?:on|at|in|for) (?P<x>.+?) (?:is|are) (?:critical|on the critical path)`), criticalOn},
	{qre(`(?:which|what) (?P<x>.+?) (?:activities|tasks|works|items) (?:is|are) (?:critical|on the critical path)`), criticalOn},
	{qre(`(?:{WH} )?{BE}(?:the )?(?:critical path|critical activities|critical tasks|critical items|critical chain|critical|critical paths)(?: (?:of|for|in|on) (?:the |this |our )?(?:project|job|programme|program|schedule|building|plan))?`), constant(AskCriticalPath)},
	{qre(`(?:which|what) (?:activities|tasks|ones|items|work) (?:is|are) (?:critical|on the critical path)`), constant(AskCriticalPath)},

	// Why.
	{qre(`why {BE}(?:does |do )?(?P<x>.+?) (?:is |are )?(?:on the critical path|critical|on the critical chain|driving the finishes|driving {FINISH})`), xq(AskWhyCritical)},
	{qre(`why (?:does|do|has|have) (?P<x>.+?) (?:have |got )?(?:no|zero|0|0 days) {FLOAT}`), xq(AskWhyCritical)},
	{qre(`(?:what|which) (?:makes|made) (?P<x>.+?) critical`), xq(AskWhyCritical)},
	{qre(`why (?:is|are|does|do|did|will|would|has|have|cant|cannot|doesnt|isnt|wont|s) (?P<x>.+?) (?:(?:starts|finishes|happen|happening|scheduled|planned|starting|finishing|take place|taking place|begin|beginning|come|coming|been) )?(?:so |this |that |too |very |only |until |not )?(?:late|delayed|later|earlier|sooner|early|behind|slow|starts|finishes|so late|start earlier|starts earlier)\b.*`), xq(AskWhyLate)},
	{qre(`(?:{WH} )?{BE}(?:delaying|delays|holding up|holds up|holding back|holds back|blocking|blocks|pushing out|pushes out) (?P<x>.+)`), xq(AskDrives)},

	// What drives X.
	{qre(`(?:{WH} )?{BE}(?:the )?(?:driving|controlling|critical) (?:path|chain|logic|predecessors?|activities|sequence|links?) (?:to|of|for|into|behind|up to) (?P<x>.+)`), drives},
	{qre(`(?:{WH} )?{BE}(?:drives|drive|driving|controls|controlling|governs|governing|determines|determining) (?:the start of |the start date of |the date of |the dates of |the timing of |the early start of )?(?P<x>.+)`), drives},
	{qre(`(?:what|which)(?: activities| tasks| activity| task)? (?:is|are|does|do) (?P<x>.+?) (?:follow|waiting for|waiting on|driven by|dependent on|depends on|depend on|held up by|controlled by)`), drives},
	{qre(`(?:what|which)(?: activities| tasks| activity| task)? (?:is|are|does|do) (?P<x>.+?) (?:follow|wait for|waits for|depend on)`), drives},

	// Float of X.
	{qre(`(?:{WH} )?{BE}(?:the )?{FLOAT} (?:of|for|on|in|at|does|do) (?P<x>.+?)(?: have| has| got)?`), floatOf},
	{qre(`how (?:much|many days of|many days) {FLOAT} (?:is there |is |remains |do we have |have we got )?(?:does |do |has |have |on |for |in |at )?(?P<x>.+?)(?: have| has| got| get| left)?`), floatOf},
	{qre(`how (?:much|many days|far|long|late) (?:can|could) (?P<x>.+?) (?:slip|be delayed|move|slide|be late|be pushed|go|wait|be pushed back|float|afford to slip)(?: .*)?`), floatOf},
	{qre(`how (?:late|long) (?:can|could|may|might) (?P<x>.+?) (?:starts|finishes|begin|be started|be finished|wait)(?: .*)?`), floatOf},
	{qre(`(?:does|do|has|have|is there) (?P<x>.+?) (?:have |got )?(?:any )?{FLOAT}`), floatOf},
	{qre(`(?:is|are) (?P<x>.+?) (?:critical|on the critical path|near critical|driving|driving the finishes)`), floatOf},
	{qre(`(?P<x>.+?) {FLOAT}`), floatOf},

	// When.
	{qre(`(?:when|what day|what date) (?:does|do|will|is|can|did|should|are) {FINISH}(?: be)?(?: finishes| due| happen)?`), constant(AskFinish)},
	{qre(`(?:when|what day|what date) (?:does|do|will|is|can|did|should|are) (?:the )?(?:project|job|programme|program|schedule|building|works|contract) (?:finishes|completion|end|complete|done|handed over|be finished|be complete|be done)`), constant(AskFinish)},
	{qre(`(?:{WH} {BE})?(?:the )?(?:project |total |overall )?(?:duration|length|finish date|end date|completion date|finish)(?: of the (?:project|job|programme|program|schedule|works))?`), constant(AskFinish)},
	{qre(`how long (?:is|does|will|would) (?:the )?(?:project|job|schedule|programme|program|it|building|build|works)(?: take| last| run| be)?`), constant(AskFinish)},
	{qre(`(?:when|what day|what date) (?:does|do|will|is|can|did|should|are) (?P<x>.+?) (?P<e>starts|finishes)(?: .*)?`), details},
	{qre(`when (?:is|are|was|will be) (?P<x>.+?)(?: due| scheduled| planned| happening| on| taking place)?`), details},
}

// detailRules read "tell me about X", "describe X", "what is X": after
// every other form.
var detailRules = []qrule{
	{qre(`(?:about|details|detail|info|information|everything) (?:of |on |for |about )?(?P<x>.+)`), details},
	{qre(`(?:describe|explain|show|lookup|look up|find|check)(?: me| us)? (?P<x>.+)`), details},
	{qre(`(?:what|who) (?:about|is|are) (?P<x>.+)`), details},
}

// question reads one clause; "show me X", "list X" and "explain X" are
// read as X when X is a question form, else as the details of X.
func (p *parser) question(c *clause) (Question, bool) {
	if q, ok := p.questionForm(c); ok {
		return q, true
	}
	if m := showLead.FindStringIndex(c.s); m != nil && m[1] < len(c.s) {
		if q, ok := p.questionForm(c.without(0, m[1])); ok {
			return q, true
		}
	}
	for _, r := range detailRules {
		if q, ok := r.match(p, c); ok {
			return q, true
		}
	}
	return Question{}, false
}

var showLead = lazyre.New(`^(?:show|list|display|print|give|get|find|explain|describe|check)(?: me| us)? `)

func (p *parser) questionForm(c *clause) (Question, bool) {
	for _, r := range questions {
		if q, ok := r.match(p, c); ok {
			return q, true
		}
	}
	return Question{}, false
}

func (r qrule) match(p *parser, c *clause) (Question, bool) {
	m := r.re.FindStringSubmatchIndex(c.s)
	if m == nil {
		return Question{}, false
	}
	q, ok := r.build(p, groups{c: c, re: r.re, m: m})
	if !ok || whWord.MatchString(q.X.Words) || whWord.MatchString(q.Y.Words) {
		return Question{}, false
	}
	return q, true
}

// whWord starts words that are a question, not a reference ("what is the
// float": "what is the" names no activity).
var whWord = lazyre.New(`^(?:what|whats|which|who|why|how|when|where|is|are|does|do)\b`)

// CorrectWords is text's words in lower case with typos corrected as a
// request's are: an unknown word of four letters or more becomes the one
// word of vocab or the lexicon within edit distance 1 (2 from nine letters),
// when exactly one is that close. Quoted text and numbers stay as written.
func CorrectWords(text string, vocab map[string]bool) []string {
	t := tokenize(text)
	v := vocabulary{}
	for _, m := range []map[string]bool{commonWords, lexiconWords, questionWords, vocab} {
		for w := range m {
			v[w] = true
		}
	}
	t.correct(v)
	var out []string
	for _, tk := range t.toks {
		if tk.quoted || isWordByte(tk.word[0]) {
			out = append(out, tk.word)
		}
	}
	return out
}
