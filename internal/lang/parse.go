package lang

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/lazyre"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Options tune a parse to a schedule.
type Options struct {
	// Vocabulary adds the schedule's own words to what typo correction
	// corrects to (see Resolver.Vocabulary).
	Vocabulary map[string]bool
	// Resolves, when set, reports whether words name something in the
	// schedule; the parser uses it to choose between readings of "link
	// Doors and frames Level 4 to Flooring Level 4" (where X ends).
	Resolves func(words string) bool
	// DaysPerWeek and HoursPerDay convert "two weeks" and "4 hours" into
	// working days; defaults 5 and 8.
	DaysPerWeek, HoursPerDay float64
	// Context, when set, stops a parse no longer wanted (a cancelled
	// planning step): the clauses not yet read are left out, and the
	// caller, which checks Context.Err(), discards what was read.
	Context context.Context
}

// stopped reports whether the parse's context is done.
func (o Options) stopped() bool { return o.Context != nil && o.Context.Err() != nil }

func (o Options) daysPerWeek() float64 {
	if o.DaysPerWeek > 0 {
		return o.DaysPerWeek
	}
	return 5
}

func (o Options) hoursPerDay() float64 {
	if o.HoursPerDay > 0 {
		return o.HoursPerDay
	}
	return 8
}

// Parse reads a request into commands, in the order written. Every part of
// the request ends up in a command: what is not understood is an Unknown
// command carrying its words, so nothing a person wrote is dropped.
func Parse(src string, opt Options) []Command {
	p := newParser(src, opt)
	var out []Command
	for _, cl := range p.clauses() {
		if opt.stopped() {
			break
		}
		cmd := p.command(cl)
		if cmd.Kind == Unknown && len(out) > 0 {
			if inherited, ok := p.ellipsis(cl, out[len(out)-1]); ok {
				cmd = inherited
			}
		}
		if len(out) > 0 && len(cmd.Targets) == 1 && pronouns[cmd.Targets[0].Words] && len(out[len(out)-1].Targets) > 0 {
			// "X can't start before 1 Sept. It must finish by 30 Sept."
			cmd.Targets = slices.Clone(out[len(out)-1].Targets)
		}
		out = append(out, cmd)
	}
	return out
}

// pronouns stand for the activities the command before them named.
var pronouns = map[string]bool{"it": true, "this": true, "that": true, "them": true, "they": true, "these": true, "those": true,
	"this one": true, "that one": true, "this activity": true, "that activity": true, "these activities": true, "those activities": true}

// newParser tokenizes src, corrects its typos against the lexicon and the
// schedule's words, and reads it canonically: what Parse and ParseFeedback
// share.
func newParser(src string, opt Options) *parser {
	t := tokenize(src)
	v := vocabulary{}
	for _, m := range []map[string]bool{commonWords, lexiconWords, opt.Vocabulary} {
		for w := range m {
			v[w] = true
		}
	}
	t.correct(v)
	t.canonicalize()
	return &parser{t: t, opt: opt}
}

// Classify reads a request without a schedule, for splitting it into
// removals and additions.
func Classify(src string) []Command { return Parse(src, Options{}) }

type parser struct {
	t   *text
	opt Options
	// linkPhrase: the clause being read had a link type or lag in it.
	linkPhrase bool
	// splitting: statements is reading a clause's parts (its commands
	// do not split them again).
	splitting bool
}

// clause is some tokens of the request as the canonical string the
// grammar matches; offs maps each token to its offset in s.
type clause struct {
	t    *text
	idx  []int
	s    string
	offs []int
	// sequenced: the request put this clause after the one before it
	// ("…, then X", "after that X").
	sequenced bool
}

func newClause(t *text, idx []int) *clause {
	c := &clause{t: t, idx: idx}
	var b strings.Builder
	for _, k := range idx {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		c.offs = append(c.offs, b.Len())
		b.WriteString(t.toks[k].canon)
	}
	c.s = b.String()
	return c
}

// tokens is the clause's tokens within the byte range [a, b) of s.
func (c *clause) tokens(a, b int) []int {
	var out []int
	for n, off := range c.offs {
		if off >= a && off < b {
			out = append(out, c.idx[n])
		}
	}
	return out
}

func (c *clause) source() string {
	if len(c.idx) == 0 {
		return ""
	}
	return c.t.span(c.idx[0], c.idx[len(c.idx)-1]+1)
}

// refOf is the reference written in the tokens idx.
func (c *clause) refOf(idx []int) Ref {
	if len(idx) == 0 {
		return Ref{}
	}
	var words []string
	for _, k := range idx {
		tk := c.t.toks[k]
		if tk.quoted {
			words = append(words, `"`+tk.word+`"`)
		} else {
			words = append(words, tk.word)
		}
	}
	return Ref{Text: unquote(c.t.span(idx[0], idx[len(idx)-1]+1)), Words: strings.Join(words, " ")}
}

// without is the clause minus the tokens in [a, b) of s.
func (c *clause) without(a, b int) *clause { return c.dropping(c.tokens(a, b)) }

// dropping is the clause minus the tokens ks.
func (c *clause) dropping(ks []int) *clause {
	drop := map[int]bool{}
	for _, k := range ks {
		drop[k] = true
	}
	var idx []int
	for _, k := range c.idx {
		if !drop[k] {
			idx = append(idx, k)
		}
	}
	return newClause(c.t, idx)
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 {
		s = strings.Trim(s, `"'“”‘’«»`)
	}
	return strings.TrimSpace(s)
}

// leadVerbs start a command without being one of the verbs that split a
// request ("schedule a survey before X" is not "X before Y").
var leadVerbs = map[string]bool{"schedule": true, "put": true, "place": true, "plan": true, "need": true, "require": true,
	"requires": true, "sequence": true, "have": true, "let": true, "rename": true, "dissolve": true}

// verbCanon are the canonical tokens that start a command.
var verbCanon = map[string]bool{"delete": true, "dissolve": true, "add": true, "link": true, "unlink": true, "change": true, "copy": true,
	"extend": true, "shorten": true, "rename": true, "move": true, "make": true, "take": true}

// clauses splits the request at ";", sentence ends, "then", and at a comma
// or "and" that a verb follows ("delete A039, dissolve A060 and link …").
func (p *parser) clauses() []*clause {
	toks := p.t.toks
	var out []*clause
	var cur []int
	thenNext := false // the next clause follows a "then"
	flush := func() {
		// Trailing commas and "and"s belong to no command.
		for len(cur) > 0 {
			c := toks[cur[len(cur)-1]].canon
			if c != "," && c != "and" && c != ":" {
				break
			}
			cur = cur[:len(cur)-1]
		}
		if len(cur) > 2 && isNumber(toks[cur[0]].canon) && len(toks[cur[0]].canon) <= 2 && toks[cur[1]].canon == ")" {
			cur = cur[2:] // "1) delete …": the list item's number
		}
		if len(cur) > 0 && onlySequencing(newClause(p.t, cur).s) {
			// "After that, add …": the opener sequences the next clause.
			thenNext, cur = true, nil
			return
		}
		if len(cur) > 0 && !listMarker(toks, cur) {
			for n, part := range p.statements(cur) {
				cl := newClause(p.t, part)
				cl.sequenced = n == 0 && (thenNext || sequencedOpener(cl.s))
				out = append(out, cl)
			}
		}
		if len(cur) > 0 {
			thenNext = false
		}
		cur = nil
	}
	for k := 0; k < len(toks); k++ {
		c := toks[k].canon
		switch {
		case c == ";":
			flush()
			continue
		case c == "then" && len(cur) > 0:
			flush()
			thenNext = true
			continue
		case len(cur) > 0 && isNumber(c) && len(c) <= 2 && k+2 < len(toks) && toks[k+1].canon == ")" && p.verbAt(k+2):
			// An inline numbered list: "1) delete X 2) add Y".
			flush()
			k++ // the ")"
			continue
		case (c == "," || c == "and" || c == "also" || c == "plus") && len(cur) > 0 && (p.verbAt(k+1) || p.questionAt(k+1)) && !p.nameGoesOn(cur, k):
			flush()
			continue
		}
		cur = append(cur, k)
	}
	flush()
	return out
}

// nameGoesOn reports whether the "and" at k is inside an activity's name
// whose next word is a verb ("Depressurise and purge started on 4 Oct",
// "Strip and clean will take 3 days"): a verb that a statement about the
// work follows, not an object, starts no command; nor does one the
// schedule's names say together with the words before it.
func (p *parser) nameGoesOn(cur []int, k int) bool {
	toks := p.t.toks
	if toks[k].canon != "and" || k+2 >= len(toks) {
		return false
	}
	if statementWords[toks[k+2].canon] {
		return true
	}
	if p.opt.Resolves == nil {
		return false
	}
	for n := 1; n <= min(4, len(cur)); n++ {
		from := cur[len(cur)-n]
		if from+n != k || p.verbAt(from) {
			break // not contiguous, or a verb: the clause's own
		}
		if p.opt.Resolves(p.t.wordsOf(from, k+2)) {
			return true
		}
	}
	return false
}

// statementWords follow the name of an activity in a statement about it
// ("X started on …", "X will take …", "X is 60% complete").
var statementWords = map[string]bool{"starts": true, "finishes": true, "started": true, "finished": true, "completed": true,
	"is": true, "are": true, "was": true, "were": true, "will": true, "must": true, "should": true, "can": true, "cannot": true,
	"cant": true, "has": true, "have": true, "takes": true, "needs": true, "shall": true, "wont": true}

// statements splits a clause that chains statements ("X will take 12
// days and Y can't start before 1 June", "status the programme to 1
// April, X finished on 26 March") where its whole reading takes a
// statement's words into a name: at the first "and" or "," whose sides
// each read as a command naming no such words.
func (p *parser) statements(idx []int) [][]int {
	if len(idx) < 4 || p.splitting {
		return [][]int{idx}
	}
	p.splitting = true
	defer func() { p.splitting = false }()
	if whole := p.command(newClause(p.t, idx)); whole.Kind != Unknown && whole.Kind != Unsupported && !sayPredicate(whole) {
		return [][]int{idx}
	}
	edit := func(c Command) bool { return c.Kind != Unknown && c.Kind != Unsupported && !sayPredicate(c) }
	toks := p.t.toks
	for n := 1; n+1 < len(idx); n++ {
		if c := toks[idx[n]].canon; c != "and" && c != "," {
			continue
		}
		right := idx[n+1:]
		for len(right) > 0 && (toks[right[0]].canon == "and" || toks[right[0]].canon == "also" || toks[right[0]].canon == ",") {
			right = right[1:]
		}
		if len(right) < 2 {
			continue
		}
		if statementWords[toks[right[0]].canon] {
			// "X started on 1 March and is 50% complete": the subject
			// said once.
			right = append(p.subject(idx[:n]), right...)
		}
		l, r := p.command(newClause(p.t, idx[:n])), p.command(newClause(p.t, right))
		if r.Kind == Unknown && edit(l) {
			if e, ok := p.ellipsis(newClause(p.t, right), l); ok && p.elliptic(e) {
				r = e // "X can't start before 1 Sept, same for hall B"
			}
		}
		if !edit(l) || !edit(r) {
			continue
		}
		p.splitting = false
		rest := p.statements(right)
		return append([][]int{idx[:n]}, rest...)
	}
	return [][]int{idx}
}

// subject is a statement's words before its verb ("section 1 site
// clearance" in "section 1 site clearance started on 1 March"), none when
// it has no statement verb.
func (p *parser) subject(idx []int) []int {
	for n, k := range idx {
		if c := p.t.toks[k].canon; n > 0 && (statementWords[c] || predicateWords[c]) {
			return slices.Clone(idx[:n])
		}
	}
	return nil
}

// predicateWords say something of an activity; no name says them.
var predicateWords = map[string]bool{"will": true, "must": true, "cannot": true, "cant": true, "should": true, "shall": true,
	"started": true, "finished": true, "take": true, "takes": true, "percent": true, "starts": true, "finishes": true}

// sayPredicate reports whether a command's references took in a
// statement's words ("section 2 drainage will take 12 days and section 3
// drainage" is no name).
func sayPredicate(c Command) bool {
	refs := append(append(append(append(append([]Ref{}, c.Targets...), c.From...), c.To...), c.After...), c.Before...)
	if c.Instead != nil {
		refs = append(refs, *c.Instead)
	}
	for _, r := range refs {
		for _, w := range strings.Fields(r.Words) {
			if predicateWords[w] {
				return true
			}
		}
	}
	return false
}

// listMarker reports whether a clause is only the number or letter of a
// list item ("1.", "2)", "a)").
func listMarker(toks []token, idx []int) bool {
	for n, k := range idx {
		w := toks[k].canon
		switch {
		case w == ")" || w == "(" || w == ":" || w == "," || w == "-":
		case isNumber(w) && len(w) <= 3:
		case n == 0 && len(w) == 1 && len(idx) > 1:
		default:
			return false
		}
	}
	return true
}

// sequencingWords open a clause that follows the one before: "…,
// finally link …".
var sequencingWords = map[string]bool{"finally": true, "next": true, "afterwards": true, "afterward": true, "subsequently": true}

// verbAt reports whether a command verb starts at token k, after polite
// words ("and also please delete …").
func (p *parser) verbAt(k int) bool {
	toks := p.t.toks
	for k < len(toks) {
		switch c := toks[k].canon; {
		case c == "also" || c == "then" || c == "please" || c == "and" || c == "," || sequencingWords[c]:
			k++
			continue
		case c == "after" && k+1 < len(toks) && toks[k+1].canon == "that": // "…, after that add …"
			k += 2
			continue
		}
		break
	}
	if k >= len(toks) || toks[k].quoted {
		return false
	}
	c := toks[k].canon
	if c == "take" { // "take X out", not "takes"
		return false
	}
	if c == "link" && k+2 < len(toks) && (toks[k+1].canon == "its" || toks[k+1].canon == "their") && strings.HasPrefix(toks[k+2].canon, "predecessor") {
		return false // "… and tie its predecessors to its successors" keeps the logic
	}
	return (verbCanon[c] || liveVerbs[c]) && k+1 < len(toks) && toks[k+1].canon != ";"
}

// liveVerbs start a clause of the live programme ("…, and delay X by 5
// days", "… and mark X as complete").
var liveVerbs = map[string]bool{"delay": true, "postpone": true, "defer": true, "push": true, "slip": true, "mark": true, "status": true}

// questionAt reports whether a question starts at token k ("delete X and
// what's the critical path?").
func (p *parser) questionAt(k int) bool {
	if k >= len(p.t.toks) {
		return false
	}
	switch p.t.toks[k].canon {
	case "what", "whats", "why", "how", "which", "when", "where", "who":
		return true
	}
	return false
}

// scheduleTail is "from the programme" and the like at the end of a
// command: the schedule is what every command is about.
var scheduleTail = lazyre.New(` (?:from|off|in|on) (?:the |our |this )?(?:programme|program|schedule|plan|gantt|project plan)$`)

// stripPolite removes polite openings and closings.
func stripPolite(c *clause) *clause {
	for changed := true; changed; {
		changed = false
		for _, pre := range politePrefixes {
			w := strings.Join(pre, " ")
			if c.s == w || strings.HasPrefix(c.s, w+" ") {
				c = c.without(0, len(w))
				changed = true
			}
		}
		for _, suf := range []string{" please", " thanks", " thank you", " pls", " ?", " asap", " now", " !", " instead", " then", " too"} {
			if strings.HasSuffix(c.s, suf) {
				c = c.without(len(c.s)-len(suf)+1, len(c.s))
				changed = true
			}
		}
		if m := scheduleTail.FindStringIndex(c.s); m != nil && m[0] > 0 {
			c = c.without(m[0], m[1])
			changed = true
		}
		if strings.HasPrefix(c.s, ", ") || strings.HasPrefix(c.s, ": ") {
			c = c.without(0, 1)
			changed = true
		}
	}
	return c
}

// command reads one clause.
func (p *parser) command(raw *clause) Command {
	source := raw.source()
	question := strings.Contains(raw.s, "?")
	c := stripPolite(raw)
	if c.s == "" {
		return Command{Kind: Unknown, Source: source, Reason: "no command in it"}
	}
	if !question && !shareDone.MatchString(source) {
		if cmd, ok := p.dated(c); ok {
			cmd.Source = source
			return cmd
		}
	}
	if cmd, ok := outOfScopeFirst(c.s, question); ok {
		cmd.Source = source
		return cmd
	}
	c, keepLogic := modifier(c, keepLogicRe)
	c, typ, lag, hasLag := p.linkPhrases(c)
	if c.s == "" {
		return Command{Kind: Unknown, Source: source, Reason: "a link type or lag with no link to apply it to"}
	}
	p.linkPhrase = typ != "" || hasLag
	first := strings.Fields(c.s + " x")[0]
	statementOK := !verbCanon[first] && !leadVerbs[first]
	for _, r := range grammar {
		if !statementOK && strings.HasPrefix(r.re.String(), "^(?P<x>") {
			continue // "delete the activity after X" is not "X after Y"
		}
		m := r.re.FindStringSubmatchIndex(c.s)
		if m == nil {
			continue
		}
		g := groups{c: c, re: r.re, m: m}
		cmd, ok := r.build(p, g)
		if !ok {
			continue
		}
		if alt, better := p.otherSplit(r, c, g); better {
			cmd = alt
		}
		cmd.Source = source
		if cmd.Type == "" {
			cmd.Type = typ
		}
		if cmd.Lag == nil && hasLag {
			cmd.Lag = &lag
		}
		if keepLogic && cmd.Kind == Delete {
			cmd.Kind = Dissolve
		}
		if (typ != "" || hasLag) && !takesLinkSlots(cmd.Kind) {
			continue // "with 2 days lag" on a delete: read it some other way
		}
		return cmd
	}
	if first == "make" || first == "have" || first == "let" || first == "get" {
		// "make X start 2 days after Y finishes": the statement after it.
		if cmd := p.command(newClause(p.t, c.idx[1:])); cmd.Kind != Unknown {
			cmd.Source = source
			return cmd
		}
	}
	if cmd, ok := outOfScopeLast(c.s); ok {
		cmd.Source = source
		return cmd
	}
	return Command{Kind: Unknown, Source: source, Reason: "not understood"}
}

// shareDone is a share of the work written in figures ("3/4 done"): a
// fraction there, not a date.
var shareDone = lazyre.New(`\b\d{1,2}/\d{1,2}(?: way| of the way)? (?:done|finished|complete|completed|through|built|installed)\b`)

// dated reads a clause that says a date by the dated grammar, with the
// date taken out: "X can't start before 3 March" reads "x cannot starts
// before" and the date. A clause no dated rule reads is read as if it had
// no date (its date words then refuse it as before).
func (p *parser) dated(c *clause) (Command, bool) {
	rest, date, ok := takeDate(c)
	if !ok || rest.s == "" {
		return Command{}, false
	}
	if first := strings.Fields(rest.s)[0]; (first == "make" || first == "have" || first == "let" || first == "get") && len(rest.idx) > 1 {
		rest = newClause(p.t, rest.idx[1:]) // "make X start on 3 March"
	}
	first := strings.Fields(rest.s)[0]
	statementOK := !verbCanon[first] && !leadVerbs[first]
	for _, r := range datedGrammar {
		if !statementOK && strings.HasPrefix(r.re.String(), "^(?P<x>") {
			continue // "link A to B by 3 March" is no "X by D"
		}
		m := r.re.FindStringSubmatchIndex(rest.s)
		if m == nil {
			continue
		}
		cmd, ok := r.build(p, groups{c: rest, re: r.re, m: m})
		if !ok {
			continue
		}
		cmd.Date = &date
		return cmd, true
	}
	return Command{}, false
}

func takesLinkSlots(k Kind) bool {
	return k == Link || k == Unlink || k == SetLink || k == Relink || k == Add
}

// otherSplit reads the clause with X as long as it can be, for names with
// "and" or "to" in them; it is better when its references resolve and the
// first reading's do not.
func (p *parser) otherSplit(r rule, c *clause, g groups) (Command, bool) {
	if p.opt.Resolves == nil || !g.has("x") || !g.has("y") {
		return Command{}, false
	}
	if p.opt.Resolves(g.ref("x").Words) && p.opt.Resolves(g.ref("y").Words) {
		return Command{}, false
	}
	greedy, err := regexp.Compile(strings.Replace(r.re.String(), "(?P<x>.+?)", "(?P<x>.+)", 1))
	if err != nil {
		return Command{}, false
	}
	m := greedy.FindStringSubmatchIndex(c.s)
	if m == nil {
		return Command{}, false
	}
	alt := groups{c: c, re: lazyre.Wrap(greedy), m: m}
	if !p.opt.Resolves(alt.ref("x").Words) || !p.opt.Resolves(alt.ref("y").Words) {
		return Command{}, false
	}
	return r.build(p, alt)
}

// groups gives a rule the named parts of its match.
type groups struct {
	c  *clause
	re *lazyre.Regexp
	m  []int
}

func (g groups) has(name string) bool {
	i := g.re.SubexpIndex(name)
	return i > 0 && g.m[2*i] >= 0
}

func (g groups) str(name string) string {
	i := g.re.SubexpIndex(name)
	if i <= 0 || g.m[2*i] < 0 {
		return ""
	}
	return g.c.s[g.m[2*i]:g.m[2*i+1]]
}

func (g groups) ref(name string) Ref {
	i := g.re.SubexpIndex(name)
	if i <= 0 || g.m[2*i] < 0 {
		return Ref{}
	}
	return g.c.refOf(g.c.tokens(g.m[2*i], g.m[2*i+1]))
}

// linkEnd is a reference with a trailing "link" or "relationship" left
// off ("make the X to Y link SS").
func (g groups) linkEnd(name string) Ref {
	i := g.re.SubexpIndex(name)
	if i <= 0 || g.m[2*i] < 0 {
		return Ref{}
	}
	idx := g.c.tokens(g.m[2*i], g.m[2*i+1])
	for len(idx) > 1 {
		switch g.c.t.toks[idx[len(idx)-1]].word {
		case "link", "links", "relationship", "relationships", "dependency", "logic", "tie":
			idx = idx[:len(idx)-1]
			continue
		}
		break
	}
	return g.c.refOf(idx)
}

// rule is one sentence shape.
type rule struct {
	re    *lazyre.Regexp
	build func(p *parser, g groups) (Command, bool)
}

var macros = strings.NewReplacer(
	"{NUM}", `-?\d+(?:\.\d+)?`,
	"{DUR}", `-?\d+(?:\.\d+)? (?:days|weeks|hours|months)`,
	"{LINK}", `(?:link|links|relationship|relationships|relation|relations|dependency|dependencies|logic|ties|connection|connections|rel|rels)`,
	"{MODAL}", `(?:(?:should|must|will|shall|needs to|need to|has to|have to|to|can|could|would|is to|are to|now|only|also|then|always|be able to|is going to|are going to|ought to|is|are|be) )*`,
	"{DET}", `(?:(?:the|all|any|every|each|both|of|existing) )*`,
)

func re(pattern string) *lazyre.Regexp {
	return lazyre.New(`^` + macros.Replace(pattern) + `$`)
}

var keepLogicRe = lazyre.New(`(?:^| )(?:, )?(?:(?:but|and|while|whilst|though|yet) )?(?:(?:keep|keeping|retain|retaining|preserve|preserving|maintain|maintaining|leave|leaving) (?:the |its |their |all |all the )?(?:logic|link|links|ties|sequence|chain|relationships|relationship|dependencies|connections|predecessors and successors)(?: through (?:it|them))?(?: intact| in place| linked| connected)?|(?:link|linking|tying|joining|connecting|bridging|connect) (?:its|their|the) predecessors? (?:to|with|and) (?:its|their|the) successors?|(?:without|not) (?:breaking|losing) (?:the )?(?:logic|chain|sequence|links))`)

// modifier removes the phrase re matches, reporting whether it was there.
func modifier(c *clause, r *lazyre.Regexp) (*clause, bool) {
	m := r.FindStringIndex(c.s)
	if m == nil {
		return c, false
	}
	return c.without(m[0], m[1]), true
}

var (
	typePhraseRe = lazyre.New(`(?:^| )(?:, )?(?:(?:as|with|using|by|via|in|of|type) )?(?:an? )?(fs|ss|ff|sf)( (?:link|relationship|relation|dependency|logic|rel|connection|type))?(?: (?:plus )?(-?\d+(?:\.\d+)?)( (?:days|weeks|hours))?)?(?: |$)`)
	lagPhraseRes = []*lazyre.Regexp{
		lazyre.New(`(?:^| )(?:, )?(?:(?:with|and|at|having|plus) )?(?:an? )?(?:lag|delay|gap|wait|buffer) (?:of |to )?(-?\d+(?:\.\d+)?)(?: (days|weeks|hours))?(?: |$)`),
		lazyre.New(`(?:^| )(?:, )?(?:(?:with|and|at|having|plus) )?(?:an? )?(-?\d+(?:\.\d+)?) (days|weeks|hours) (?:lag|delay|gap|wait|buffer)(?: |$)`),
		lazyre.New(`(?:^| )plus (-?\d+(?:\.\d+)?)(?: (days|weeks|hours))?(?: |$)`),
		lazyre.New(`(?:^| )(?:, )?(?:(?:with|and|at|having) )?(?:an? )?(-?\d+(?:\.\d+)?) (days|weeks|hours) (lead|overlap)(?: |$)`),
		lazyre.New(`(?:^| )(?:, )?(?:(?:with|and|at|having) )?(?:an? )?(lead|overlap) (?:of )?(-?\d+(?:\.\d+)?)(?: (days|weeks|hours))?(?: |$)`),
	}
)

// linkPhrases takes the relationship type and lag phrases out of a clause
// ("… start-to-start with 2 days lag"), so the sentence shapes see only
// the ends.
func (p *parser) linkPhrases(c *clause) (*clause, schedule.RelType, float64, bool) {
	var lag float64
	hasLag := false
	for i, r := range lagPhraseRes {
		m := r.FindStringSubmatchIndex(c.s)
		if m == nil {
			continue
		}
		sub := func(k int) string {
			if m[2*k] < 0 {
				return ""
			}
			return c.s[m[2*k]:m[2*k+1]]
		}
		num, unit, lead := sub(1), sub(2), false
		if i == 4 {
			num, unit, lead = sub(2), sub(3), true
		}
		if i == 3 {
			lead = true
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		lag = p.days(v, unit)
		if lead {
			lag = -lag
		}
		hasLag = true
		c = c.without(m[0], m[1])
		break
	}
	var typ schedule.RelType
	if m := typePhraseRe.FindStringSubmatchIndex(c.s); m != nil {
		typ = schedule.RelType(strings.ToUpper(c.s[m[2]:m[3]]))
		drop := c.tokens(m[0], m[3]) // the type and the words before it; a link noun after it stays
		if m[6] >= 0 && !hasLag {
			if v, err := strconv.ParseFloat(c.s[m[6]:m[7]], 64); err == nil {
				lag, hasLag = v, true
				drop = append(drop, c.tokens(m[6], m[7])...)
				if m[8] >= 0 {
					drop = append(drop, c.tokens(m[8], m[9])...)
				}
			}
		}
		c = c.dropping(drop)
	}
	return c, typ, lag, hasLag
}

// days converts a quantity in unit to working days.
func (p *parser) days(v float64, unit string) float64 {
	switch unit {
	case "weeks":
		return v * p.opt.daysPerWeek()
	case "hours":
		return v / p.opt.hoursPerDay()
	}
	return v
}

// duration reads "3 days", "2 weeks", "4 hours"; months are refused (their
// length in working days is the planner's to say).
func (p *parser) duration(s string) (float64, bool) {
	f := strings.Fields(s)
	if len(f) != 2 || f[1] == "months" {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, false
	}
	return p.days(v, f[1]), true
}

func ptr(v float64) *float64 { return &v }

// ellipsis reads a clause with no verb after a delete or dissolve as more
// of the same: "delete painting on level 2, then level 3".
func (p *parser) ellipsis(c *clause, prev Command) (Command, bool) {
	if !continued[prev.Kind] || len(prev.Targets) == 0 {
		return Command{}, false
	}
	s := stripPolite(c)
	// "same for hall B", "and hall C too".
	if m := sameFor.FindStringIndex(s.s); m != nil && m[0] == 0 {
		s = s.without(m[0], m[1])
	}
	if m := tooTail.FindStringIndex(s.s); m != nil && m[0] > 0 {
		s = s.without(m[0], m[1])
	}
	if s.s == "" || strings.ContainsAny(s.s, "?") {
		return Command{}, false
	}
	for _, w := range strings.Fields(s.s) {
		if verbCanon[w] {
			return Command{}, false
		}
	}
	ref := s.refOf(s.idx)
	last := prev.Targets[len(prev.Targets)-1]
	if last.Inherit != nil {
		// "…, then span 3, then span 4": span 3 had its trade from the
		// one before it, and so has span 4.
		last = Ref{Text: last.Inherit.Text + " " + last.Text, Words: last.Inherit.Words + " " + last.Words}
	}
	ref.Inherit = &last
	next := prev // the same change: its amounts and date, copied
	next.Source, next.Targets = c.source(), []Ref{ref}
	for _, f := range []**float64{&next.Days, &next.Lag, &next.Percent} {
		if *f != nil {
			v := **f
			*f = &v
		}
	}
	if next.Date != nil {
		d := *next.Date
		next.Date = &d
	}
	return next, true
}

// elliptic reports whether an ellipsis's words are places alone ("hall
// B", "spans 3 and 4"): only those continue a statement split off.
func (p *parser) elliptic(e Command) bool {
	value := false
	for _, w := range strings.Fields(e.Targets[0].Words) {
		if _, _, ok := placeValue(w, lettered|compassed); ok {
			value = true
			continue
		}
		if refFillers[w] || lexicon.IsLevelWord(w) || listWords[w] || rangeWords[w] || placeNounShaped(strings.TrimSuffix(w, "s")) {
			continue
		}
		return false
	}
	return value
}

// continued are the commands a clause of places alone continues ("delete
// painting on level 2, then level 3"; "add a day to the hall A raised
// floor, then hall B").
var continued = map[Kind]bool{Delete: true, Dissolve: true, SetDuration: true, Constrain: true, Unconstrain: true, Delay: true, Progress: true}

var (
	sameFor = lazyre.New(`^(?:and |but )?(?:the )?(?:same (?:goes )?(?:for|with|on)|likewise(?: for)?|ditto(?: for)?|as well as|and also|also)\b ?`)
	tooTail = lazyre.New(` (?:too|as well|also|likewise)$`)
)
