package prefs

import (
	"fmt"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/lazyre"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// Statement is one preference a reviewer asked to keep, as the Set call it
// amounts to.
type Statement struct {
	// Sentence is the feedback's words it came from.
	Sentence string `json:"sentence"`
	Key      string `json:"key"`
	Value    string `json:"value"`
	// Summary says it for people: "new inspections: link FS+1".
	Summary string `json:"summary"`
}

// Apply sets every statement on p; the first refusal is returned (Remember
// only returns statements Set accepts).
func Apply(p *Preferences, stmts []Statement) error {
	for _, s := range stmts {
		if err := Set(p, s.Key, s.Value); err != nil {
			return err
		}
	}
	return nil
}

// RememberHint is how a preference is said so that Remember reads it.
const RememberHint = `say it like "remember: use FS+1 for new inspections", "remember: new activities default to 3 days", "remember: name new activities <Trade> Level <n>" or "remember that gypsum board is drywall"`

// Remember finds the sentences of reviewer feedback that ask to keep a
// preference — "remember: …", "remember that …", "from now on …", "always
// …", "going forward …", "by default …", "in future …", or those ending
// "… from now on" — and reads each into statements. Nothing is dropped:
// a remember sentence it cannot read becomes a note saying so, and rest
// is the feedback without the remember sentences (for the planner to plan).
func Remember(feedback string) (stmts []Statement, rest string, notes []string) {
	var kept []string
	prev := false // the sentence before asked to remember
	for _, sent := range sentences(feedback) {
		body, ok := rememberBody(sent)
		if !ok {
			// "remember: X; and Y" or "Remember: X. Also Y": Y goes on
			// with the preference when it reads as one, else it is
			// feedback like any other.
			if m := continuationRE.FindStringSubmatch(sent); prev && m != nil {
				if got, ok := readMany(strings.TrimSpace(sent), cleanBody(m[1])); ok {
					stmts = append(stmts, got...)
					continue
				}
			}
			prev = false
			kept = append(kept, sent)
			continue
		}
		if err := usertext.Line("the preference", sent, MaxValue); err != nil {
			// Set would refuse it whatever it says: say why.
			prev = true
			notes = append(notes, fmt.Sprintf("%q: nothing saved: %v", sent, err))
			continue
		}
		got, note := readBody(strings.TrimSpace(sent), body)
		if note != "" && !strongRE.MatchString(sent) {
			// "Always keep the crane until level 4": a weak sign ("always",
			// "by default", "from now on") on words that are no
			// preference is feedback for the planner, not a lost note.
			prev = false
			kept = append(kept, sent)
			continue
		}
		prev = true
		stmts = append(stmts, got...)
		if note != "" {
			notes = append(notes, note)
		}
	}
	return stmts, strings.TrimSpace(strings.Join(kept, " ")), notes
}

// sentences splits text at sentence ends (. ! ? ; or a line break) that
// are not inside a number ("1.5") or a placeholder, keeping each
// sentence's words as written.
func sentences(text string) []string {
	var out []string
	start, depth := 0, 0
	rs := []rune(text)
	flush := func(end int) {
		if s := strings.TrimSpace(string(rs[start:end])); s != "" {
			out = append(out, s)
		}
		start = end
	}
	for i, r := range rs {
		switch r {
		case '(', '{', '<', '[':
			depth++
		case ')', '}', '>', ']':
			if depth > 0 {
				depth--
			}
		case '\n', ';':
			flush(i + 1)
			depth = 0
		case '.', '!', '?':
			if depth > 0 {
				continue
			}
			if r == '.' && i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '9' {
				continue
			}
			if i+1 == len(rs) || rs[i+1] == ' ' || rs[i+1] == '\t' || rs[i+1] == '\n' || rs[i+1] == '"' || rs[i+1] == '\'' {
				flush(i + 1)
			}
		}
	}
	flush(len(rs))
	return out
}

var (
	leadRE = lazyre.New(`(?i)^(?:(?:also|and|but|oh|ok|okay|please|pls|so|plus|btw|fyi|one more thing)\b[,:]?\s*)*` +
		`(?:remember(?:\s+(?:that|this|for\s+(?:next\s+time|the\s+future|this\s+schedule)))?\b|from\s+now\s+on\b|going\s+forward\b|in\s+(?:the\s+)?future\b|for\s+the\s+future\b|` +
		`next\s+time\b|always\b|by\s+default\b|as\s+a\s+(?:rule|default)\b|keep\s+in\s+mind(?:\s+that)?\b|make\s+a\s+note(?:\s+that)?\b|note\s+for\s+(?:the\s+)?future\b|` +
		`(?:save|store|keep)\s+(?:this\s+|that\s+|it\s+)?as\s+a\s+(?:preference|default)\b|(?:save|store|keep)\s+(?:a\s+|the\s+|this\s+)?(?:preference|default)\b|preference\b|for\s+all\s+future\s+(?:work|requests|changes)\b)` +
		`\s*[:,\-–—]?\s*(.*)$`)
	trailRE = lazyre.New(`(?i)^(.*?)[\s,;-]*\b(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|by\s+default|always|for\s+all\s+future\s+(?:work|requests|changes)|as\s+a\s+rule|please\s+remember(?:\s+that)?|remember\s+that)[\s.!]*$`)
)

// strongRE is a sentence that certainly asks to keep something: what it
// says that is not understood is a note, never planned as a change.
var strongRE = lazyre.New(`(?i)\b(?:remember|keep\s+in\s+mind|make\s+a\s+note|note\s+for|preference|for\s+next\s+time|for\s+the\s+future)\b`)

// rememberBody reports whether a sentence asks to keep a preference, and
// its words without the asking.
func rememberBody(sent string) (string, bool) {
	s := strings.TrimSpace(sent)
	if m := leadRE.FindStringSubmatch(s); m != nil {
		body := strings.TrimSpace(m[1])
		// "remember" alone, as in "remember to link X", is a request,
		// not a preference, unless it says what to keep.
		if lazyre.New(`(?i)^to\s+`).MatchString(body) && !lazyre.New(`(?i)\b(?:new|default|future|all)\b`).MatchString(body) {
			return "", false
		}
		return cleanBody(body), true
	}
	if m := trailRE.FindStringSubmatch(s); m != nil && strings.TrimSpace(m[1]) != "" {
		return cleanBody(m[1]), true
	}
	return "", false
}

func cleanBody(b string) string {
	b = strings.TrimSpace(b)
	b = strings.TrimRight(b, ".!?; ")
	if len(b) > 1 && (b[0] == '"' && b[len(b)-1] == '"' || b[0] == '\'' && b[len(b)-1] == '\'') {
		b = b[1 : len(b)-1]
	}
	b = lazyre.New(`(?i)^(?:that|this|to)\s+`).ReplaceAllString(b, "")
	b = lazyre.New(`(?i)[\s,]*\b(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future|by\s+default|please|thanks|thank\s+you)\b[\s,]*$`).ReplaceAllString(b, "")
	return strings.TrimSpace(b)
}

// readBody reads a remember sentence's body into statements: whole, or
// as parts joined by "and", "," or "also", each a preference.
func readBody(sent, body string) ([]Statement, string) {
	if body == "" {
		return nil, fmt.Sprintf("%q: nothing to remember was said: %s", sent, RememberHint)
	}
	if out, ok := readMany(sent, body); ok {
		return out, ""
	}
	return nil, fmt.Sprintf("%q: not understood as a preference, nothing saved: %s", sent, RememberHint)
}

var continuationRE = lazyre.New(`(?i)^(?:and|also|plus|as\s+well\s+as|and\s+also)\b[\s,:]*(.+)$`)

var joinRE = lazyre.New(`(?i)\s*(?:,?\s+and\s+(?:also\s+)?|,\s*(?:also\s+)?|\s+also\s+)\s*`)

// readMany reads body as one preference or as a preference, a joining
// word and more preferences. Parts are tried left to right, each suffix
// once (memo), so a long list costs a quadratic number of readOne calls.
func readMany(sent, body string) ([]Statement, bool) {
	joins := joinRE.FindAllStringIndex(body, 16)
	// best[i]: the statements of body[starts[i]:], nil if it cannot be read.
	starts := []int{0}
	for _, j := range joins {
		starts = append(starts, j[1])
	}
	best := make([][]Statement, len(starts))
	ok := make([]bool, len(starts))
	for i := len(starts) - 1; i >= 0; i-- {
		if st, good := readOne(sent, body[starts[i]:]); good {
			best[i], ok[i] = []Statement{st}, true
			continue
		}
		for k := i; k < len(joins); k++ {
			if !ok[k+1] {
				continue
			}
			if st, good := readOne(sent, body[starts[i]:joins[k][0]]); good {
				best[i], ok[i] = append([]Statement{st}, inheritScope(st, best[k+1], body[joins[k][1]:])...), true
				break
			}
		}
	}
	return best[0], ok[0]
}

var generalRE = lazyre.New(`(?i)\b(?:activities|activity|links?|relationships?|everything|all|every|any|tasks?)\b`)

// inheritScope gives the statements after a scoped one its kind of work
// when their words name none: "new inspections take 1 day and follow
// their work FS+1" is about inspections throughout.
func inheritScope(first Statement, rest []Statement, words string) []Statement {
	_, scope, _ := splitKey(first.Key)
	if scope == "" || generalRE.MatchString(words) {
		return rest
	}
	out := make([]Statement, len(rest))
	for i, st := range rest {
		out[i] = st
		name, sc, err := splitKey(st.Key)
		if err != nil || sc != "" || (name != "link" && name != "lag" && name != "duration") {
			continue
		}
		out[i].Key = scopedKey(name, scope)
		var p Preferences
		if Set(&p, out[i].Key, st.Value) == nil {
			out[i].Summary = strings.Join(p.Describe(), "; ")
		} else {
			out[i] = st
		}
	}
	return out
}

// readOne reads one preference: a naming pattern, a link default, a
// duration default or trade words, in that order.
func readOne(sent, body string) (Statement, bool) {
	body = strings.TrimSpace(body)
	if body == "" {
		return Statement{}, false
	}
	for _, read := range []func(string) (string, string, bool){readNaming, readLink, readLagOnly, readDuration, readTrade} {
		if key, value, ok := read(body); ok {
			var p Preferences
			if err := Set(&p, key, value); err != nil {
				continue
			}
			lines := p.Describe()
			return Statement{Sentence: sent, Key: key, Value: value, Summary: strings.Join(lines, "; ")}, true
		}
	}
	return Statement{}, false
}

var (
	quotedRE      = lazyre.New(`"([^"]+)"|'([^']+)'|“([^”]+)”|` + "`([^`]+)`")
	namingStopRE  = lazyre.New(`(?i)^(?:use|using|name|names|named|naming|call|called|calling|pattern|format|like|as|is|be|by|with|to|the|a|activities|activity|new|them|it|should|must|will|always|please)[:,]?$`)
	namingWordsRE = lazyre.New(`(?i)\b(?:name|names|named|naming|call|called|pattern|format|title|titled)\b`)
)

// readNaming reads "name new activities <Trade> Level <n>", "new
// activities should be called "{trade} L{level}"", "naming pattern: …".
func readNaming(body string) (string, string, bool) {
	for _, m := range quotedRE.FindAllStringSubmatch(body, -1) {
		q := m[1] + m[2] + m[3] + m[4]
		if placeholderRE.MatchString(q) {
			return "naming", q, true
		}
	}
	locs := placeholderRE.FindAllStringIndex(body, -1)
	if len(locs) == 0 {
		return "", "", false
	}
	start, end := locs[0][0], locs[len(locs)-1][1]
	// Extend over the pattern's own words: adjacent characters, and
	// capitalised or non-word tokens ("Level", "-"), stopping at the
	// sentence's words ("name new activities").
	for start > 0 && body[start-1] != ' ' {
		start--
	}
	for end < len(body) && body[end] != ' ' {
		end++
	}
	left := strings.Fields(body[:start])
	for len(left) > 0 {
		w := left[len(left)-1]
		if namingStopRE.MatchString(w) || strings.HasSuffix(w, ":") || !(w[0] >= 'A' && w[0] <= 'Z' || !isLetter(w[0])) {
			break
		}
		left = left[:len(left)-1]
		start = strings.LastIndex(body[:start], w)
	}
	right := strings.Fields(body[end:])
	for _, w := range right {
		if namingStopRE.MatchString(w) || !(w[0] >= 'A' && w[0] <= 'Z' || !isLetter(w[0])) {
			break
		}
		end = strings.Index(body[end:], w) + end + len(w)
	}
	pat := strings.Trim(strings.TrimSpace(body[start:end]), `:,."'“”`)
	if !namingWordsRE.MatchString(body) && strings.TrimSpace(body[:start]+body[end:]) != "" && !lazyre.New(`(?i)\bnew\s+(?:activities|activity|tasks?|work)\b`).MatchString(body) {
		return "", "", false
	}
	return "naming", pat, true
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// fillers are the words around a preference that are not its kind of
// work ("use … for new inspections": "inspection" remains).
var fillerRE = lazyre.New(`(?i)\b(?:please|use|using|used|make|set|put|give|apply|default|defaults|defaulted|to|should|shall|must|will|would|be|being|been|with|a|an|the|link|links|linked|linking|relationship|relationships|relation|relations|dependency|dependencies|type|types|lag|lags|lead|logic|always|get|gets|got|are|is|was|for|by|as|new|all|each|every|any|on|into|onto|of|and|them|they|it|its|their|have|has|had|need|needs|follow|follows|following|tie|tied|ties|connect|connected|after|before|predecessors?|successors?|work|works|duration|durations|take|takes|taking|last|lasts|long|days?|weeks?|working|d|wks?|w|added|future|from|now|then|in|at|when|whenever|adding|add|you|we|i|my|our|like|so|too|also|plus|minus|or|there|that|this|these|those|unless|otherwise|stated|said|specified|no|not|one|ones|item|items|thing|things|ones|should|could|can|do|does|go|goes|just|only|start|starts|finish|finishes|schedule)\b`)

// scopeOf is what remains of words once the preference's own words are
// taken out: the kind of work, or "" for all; ok is false when too much
// remains to be a kind of work.
func scopeOf(words string) (string, bool) {
	w := fillerRE.ReplaceAllString(words, " ")
	w = lazyre.New(`[^\p{L}\p{N}\s-]`).ReplaceAllString(w, " ")
	w = strings.Join(strings.Fields(w), " ")
	s := NormalizeScope(w)
	if len(strings.Fields(s)) > 3 || strings.ContainsAny(s, "0123456789") || typeRE.MatchString(s) {
		return "", false
	}
	return s, true
}

// readLink reads a relationship type, a lag and a kind of work: "use
// FS+1 for new inspections", "new links are SS with a 2 day lag".
func readLink(body string) (string, string, bool) {
	loc := typeRE.FindStringIndex(body)
	if loc == nil {
		return "", "", false
	}
	typ, lag, hasLag, restAfter, err := parseLink(body[loc[0]:])
	if err != nil {
		return "", "", false
	}
	before := body[:loc[0]]
	if !hasLag {
		// "a 7 day FS lag": the days before the type.
		if m := daysRE.FindStringSubmatchIndex(before); m != nil && strings.TrimSpace(before[m[1]:]) == "" && !lazyre.New(`(?i)^(?:a|an)$`).MatchString(before[m[2]:m[3]]) {
			if v, err := lagFromPhrase(before[m[0]:m[1]]); err == nil {
				lag = v
				if lazyre.New(`(?i)\blead\b`).MatchString(body) && lag > 0 {
					lag = -lag
				}
				before = before[:m[0]] + " " + before[m[1]:]
			}
		}
	}
	scope, ok := scopeOf(before + " " + restAfter)
	if !ok {
		return "", "", false
	}
	return scopedKey("link", scope), FormatLink(typ, lag), true
}

var lagWordRE = lazyre.New(`(?i)\b(?:lag|lead|delay|gap)\b`)

// readLagOnly reads "a 2 day lag on new links", "lag new inspections by 1 day".
func readLagOnly(body string) (string, string, bool) {
	if !lagWordRE.MatchString(body) {
		return "", "", false
	}
	m := lagPhraseRE.FindStringIndex(body)
	if m == nil {
		return "", "", false
	}
	lag, err := lagFromPhrase(body[m[0]:m[1]])
	if err != nil {
		return "", "", false
	}
	scope, ok := scopeOf(body[:m[0]] + " " + body[m[1]:])
	if !ok {
		return "", "", false
	}
	return scopedKey("lag", scope), fmt.Sprintf("%g", lag), true
}

var (
	distributionRE = lazyre.New(`(?i)\b(?:triangular|pert|uniform|normal)\s*\([^)]*\)`)
	daysRE         = lazyre.New(`(?i)\b(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|a|an)[\s-]*(working[\s-]+days?|days?|d|weeks?|wks?|w)\b`)
	durNumberRE    = lazyre.New(`(?i)\bduration\b[^0-9]*?(\d+(?:\.\d+)?)`)
)

// readDuration reads "new activities default to 3 days", "default
// duration 2", "new inspections take a day", "triangular(1,2,4) for new
// activities".
func readDuration(body string) (string, string, bool) {
	var value string
	var span []int
	switch {
	case distributionRE.MatchString(body):
		span = distributionRE.FindStringIndex(body)
		value = body[span[0]:span[1]]
	case daysRE.MatchString(body):
		span = daysRE.FindStringIndex(body)
		value = body[span[0]:span[1]]
	case durNumberRE.MatchString(body):
		m := durNumberRE.FindStringSubmatchIndex(body)
		span = []int{m[2], m[3]}
		value = body[m[2]:m[3]]
	default:
		return "", "", false
	}
	if lazyre.New(`(?i)^(?:a|an)\b`).MatchString(value) && !lazyre.New(`(?i)\b(?:take|takes|last|lasts|duration|default|defaults)\b`).MatchString(body) {
		return "", "", false
	}
	scope, ok := scopeOf(body[:span[0]] + " " + body[span[1]:])
	if !ok {
		return "", "", false
	}
	return scopedKey("duration", scope), value, true
}

type tradeForm struct {
	re       *lazyre.Regexp
	syn, trd int // submatch indexes; trd 0 with syn 0: a list of trades in 1
}

var tradeForms = []tradeForm{
	{lazyre.New(`(?i)^(?:treat|read|count|consider|take|understand)\s+(.+?)\s+as\s+(?:a\s+|an\s+)?(?:synonym\s+(?:of|for)\s+|meaning\s+)?(.+)$`), 1, 2},
	{lazyre.New(`(?i)^(.+?)\s+(?:is|are)\s+(?:also\s+)?(?:called|known\s+as|referred\s+to\s+as|written\s+as|spelled\s+as)\s+(.+)$`), 2, 1},
	{lazyre.New(`(?i)^(.+?)\s+(?:aka|a\.k\.a\.?|also\s+known\s+as)\s+(.+)$`), 2, 1},
	{lazyre.New(`(?i)^(?:we|they|i|people|crews?|site)\s+(?:say|write|use|call\s+it)\s+(.+?)\s+(?:for|instead\s+of|to\s+mean|meaning)\s+(.+)$`), 1, 2},
	{lazyre.New(`(?i)^(.+?)\s+(?:means|mean|=|is\s+the\s+same\s+as|are\s+the\s+same\s+as|is\s+the\s+same\s+trade\s+as|is\s+another\s+(?:word|name|term)\s+for|is\s+a\s+synonym\s+(?:of|for)|is\s+just|are\s+just|should\s+be\s+read\s+as|refers\s+to|stands\s+for|counts\s+as|equals)\s+(.+)$`), 1, 2},
	{lazyre.New(`(?i)^(?:the\s+|our\s+)?(?:trades?|trade\s+(?:vocabulary|words|list|names))\s*(?:are|is|include|includes|:)\s*(.+)$`), 0, 0},
	{lazyre.New(`(?i)^(?:add|use|recogni[sz]e|know|learn)\s+(?:the\s+)?(?:trades?|trade\s+words?|words?)\s+(.+)$`), 0, 0},
	{lazyre.New(`(?i)^(.+?)\s+(?:is|are)\s+(?:a\s+|an\s+)?trades?$`), 0, 0},
	{lazyre.New(`(?i)^(.+?)\s+(?:is|are)\s+(.+)$`), 1, 2},
}

// readTrade reads trade words: "gypsum board is drywall", "drywall is
// also called gypsum board", "treat plasterboard as drywall", "the trades
// are concrete, steel and glazing".
func readTrade(body string) (string, string, bool) {
	b := strings.TrimSpace(body)
	for i, f := range tradeForms {
		m := f.re.FindStringSubmatch(b)
		if m == nil {
			continue
		}
		if f.syn == 0 {
			var names []string
			for _, w := range lazyre.New(`(?i)\s*(?:,|\band\b|&)\s*`).Split(m[1], -1) {
				if w = tradeWords(w); w != "" {
					names = append(names, w)
				}
			}
			if len(names) == 0 || !plainWords(names...) {
				return "", "", false
			}
			return "trade", strings.Join(names, ", "), true
		}
		trd := tradeWords(m[f.trd])
		var syns []string
		for _, w := range lazyre.New(`(?i)\s*(?:,|\band\b|\bor\b|&|/)\s*`).Split(m[f.syn], -1) {
			if w = tradeWords(w); w != "" && w != trd {
				syns = append(syns, w)
			}
		}
		if len(syns) == 0 || trd == "" || !plainWords(append(syns, trd)...) {
			continue
		}
		if i == len(tradeForms)-1 && (len(syns) > 1 || len(strings.Fields(syns[0])) > 3 || len(strings.Fields(trd)) > 3) {
			return "", "", false
		}
		return "trade", trd + "=" + strings.Join(syns, "|"), true
	}
	return "", "", false
}

func tradeWords(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"'“”.,:`)
	s = lazyre.New(`(?i)^(?:the|a|an|our|my|what\s+we\s+call|the\s+word|the\s+trade)\s+`).ReplaceAllString(s, "")
	s = lazyre.New(`(?i)\s+(?:work|trade|too|also)$`).ReplaceAllString(s, "")
	return normWords(strings.Trim(s, `"'“”`))
}

// plainWords reports whether trade words are words: no numbers, types,
// placeholders or sentence words that say something else. A level noun
// of the lexicon ("floor", "storey") is a place, never a trade; the
// abbreviations are not refused: LVL beams are timber.
func plainWords(ws ...string) bool {
	for _, w := range ws {
		if w == "" || len(strings.Fields(w)) > 4 || strings.ContainsAny(w, "0123456789{}<>()[]=+") || typeRE.MatchString(w) {
			return false
		}
		if lazyre.New(`(?i)\b(?:delete|remove|add|link|move|not|wrong|should|must|activity|activities|` + lexicon.Pattern(lexicon.LevelNouns) + `|duration|days?|lag|this|that|it)\b`).MatchString(w) {
			return false
		}
	}
	return true
}
