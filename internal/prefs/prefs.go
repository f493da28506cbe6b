// Package prefs holds a schedule's planning preferences (seeds 002 and 004:
// a preference store the planners consult): the default link type and lag
// for new links, the default duration of new activities — each optionally
// scoped to a kind of work ("inspection") — the naming pattern for new
// activities ("{Trade} Level {n}") and the trade vocabulary with synonyms
// ("drywall = gypsum board"). It is pure: the stores keep Preferences as
// JSON next to the schedule, the CLI and the reviewer's "remember: …"
// feedback change them through Set, and the planners read them.
package prefs

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/lazyre"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// Preferences are one schedule's planning defaults. The zero value means
// "none set": the planners behave as they do without preferences.
type Preferences struct {
	// Links are default types and lags for new links a request does not
	// give a type or lag for. A default with a Scope applies to links into
	// activities whose name matches the scope; the one without applies to
	// every other new link.
	Links []LinkDefault `json:"links,omitempty"`
	// Durations are default durations of new activities a request gives
	// no duration for, scoped the same way.
	Durations []DurationDefault `json:"durations,omitempty"`
	// Naming is the pattern new activities are named by, with the
	// placeholders {trade} and {level} (see ParseNaming).
	Naming string `json:"naming,omitempty"`
	// Trades is the trade vocabulary: words the planner recognises (typo
	// correction) and synonyms it reads as the trade.
	Trades []Trade `json:"trades,omitempty"`
}

// LinkDefault is a default relationship type and lag.
type LinkDefault struct {
	// Scope is a kind of work in its singular, lower-case words
	// ("inspection"); "" applies to all new links.
	Scope string           `json:"scope,omitempty"`
	Type  schedule.RelType `json:"type"`
	Lag   float64          `json:"lag"`
}

// DurationDefault is a default duration string (as activities hold them:
// "3" or "triangular(1,2,4)").
type DurationDefault struct {
	Scope    string `json:"scope,omitempty"`
	Duration string `json:"duration"`
}

// Trade is a trade word and the other words for it.
type Trade struct {
	Name     string   `json:"name"`
	Synonyms []string `json:"synonyms,omitempty"`
}

// Empty reports whether no preference is set.
func (p Preferences) Empty() bool {
	return len(p.Links) == 0 && len(p.Durations) == 0 && p.Naming == "" && len(p.Trades) == 0
}

// Clone returns a deep copy.
func (p Preferences) Clone() Preferences {
	out := Preferences{Links: slices.Clone(p.Links), Durations: slices.Clone(p.Durations), Naming: p.Naming}
	for _, t := range p.Trades {
		out.Trades = append(out.Trades, Trade{Name: t.Name, Synonyms: slices.Clone(t.Synonyms)})
	}
	return out
}

// Equal reports whether two preferences say the same.
func Equal(a, b Preferences) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// Keys are the keys Set accepts (with their aliases in setKey).
const Keys = "link, lag, duration, naming, trades, trade"

// MaxValue is the longest value Set takes, in characters: a whole trade
// vocabulary is the longest. A naming pattern, a trade word, a synonym
// and a kind of work are names (at most usertext.MaxName).
const MaxValue = 2000

// Set changes one preference from a key=value argument. Keys (case and
// '-'/'_' do not matter):
//
//	link[:SCOPE]      FS|SS|FF|SF with an optional lag: "FS+1", "SS 2", "FF with a 2 day lag", "FS for inspections"
//	lag[:SCOPE]       the lag alone, in working days ("2", "-1", "2 days"); the type stays (FS if none)
//	duration[:SCOPE]  "3", "3 days", "2 weeks", "triangular(1,2,4)"
//	naming            a pattern with {trade} and {level} (or <Trade> and <n>): "{Trade} Level {n}"
//	trades            the whole vocabulary: "drywall=gypsum board|plasterboard, concrete, steel"
//	trade             one or more trades added to it, same form
//
// A scope may also be written link.inspection or link[inspection]. The
// values "none", "clear", "default" and "" remove the preference.
//
// Keys and values are one line of at most MaxValue characters with no
// control or invisible formatting characters (usertext.Line): a value is
// shown to everyone who plans or reviews the schedule.
func Set(p *Preferences, key, value string) error {
	if err := usertext.Line("preference key", key, usertext.MaxName); err != nil {
		return err
	}
	name, scope, err := splitKey(key)
	if err != nil {
		return err
	}
	if err := usertext.Line(scopedKey(name, scope), value, MaxValue); err != nil {
		return err
	}
	value = strings.TrimSpace(value)
	clear := isClear(value)
	switch name {
	case "link":
		if clear {
			p.Links = slices.DeleteFunc(p.Links, func(l LinkDefault) bool { return l.Scope == scope })
			return nil
		}
		typ, lag, hasLag, rest, err := parseLink(value)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if scope, err = restScope(key, value, scope, rest, "after the type is not a lag; want e.g. FS, FS+1, SS with 2 days lag, FS+1 for inspections"); err != nil {
			return err
		}
		if !hasLag {
			lag = 0
		}
		p.setLink(LinkDefault{Scope: scope, Type: typ, Lag: lag})
		return nil
	case "lag":
		if clear {
			for i := range p.Links {
				if p.Links[i].Scope == scope {
					p.Links[i].Lag = 0
				}
			}
			return nil
		}
		lag, err := parseLag(value)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		l := LinkDefault{Scope: scope, Type: schedule.FS, Lag: lag}
		if i := p.linkIndex(scope); i >= 0 {
			l.Type = p.Links[i].Type
		}
		p.setLink(l)
		return nil
	case "duration":
		if clear {
			p.Durations = slices.DeleteFunc(p.Durations, func(d DurationDefault) bool { return d.Scope == scope })
			return nil
		}
		d, rest, err := parseDurationValue(value)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if scope, err = restScope(key, value, scope, rest, "is not part of a duration; want e.g. 3, 3 days, 2 weeks or triangular(1,2,4)"); err != nil {
			return err
		}
		p.Durations = slices.DeleteFunc(p.Durations, func(x DurationDefault) bool { return x.Scope == scope })
		p.Durations = append(p.Durations, DurationDefault{Scope: scope, Duration: d})
		sortScoped(p)
		return nil
	case "naming":
		if scope != "" {
			return fmt.Errorf("%s: the naming pattern applies to all new activities and takes no kind of work", key)
		}
		if clear {
			p.Naming = ""
			return nil
		}
		pat, err := ParseNaming(value)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		p.Naming = pat
		return nil
	case "trades", "trade":
		if scope != "" {
			return fmt.Errorf("%s: the trade vocabulary takes no kind of work", key)
		}
		if clear {
			if name == "trades" {
				p.Trades = nil
			}
			return nil
		}
		trades, err := ParseTrades(value)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if name == "trades" {
			p.Trades = nil
		}
		for _, t := range trades {
			p.AddTrade(t)
		}
		return nil
	}
	return fmt.Errorf("unknown preference %q: want one of %s", key, Keys)
}

// SetArg is Set on one "key=value" argument.
func SetArg(p *Preferences, arg string) error {
	k, v, ok := strings.Cut(arg, "=")
	if !ok {
		return fmt.Errorf("%q: want key=value, e.g. link=FS+1, duration=3, naming=\"{Trade} Level {n}\", trades=drywall=gypsum board (keys: %s)", arg, Keys)
	}
	return Set(p, k, v)
}

var keyAliases = map[string]string{
	"link": "link", "links": "link", "linktype": "link", "type": "link", "relationship": "link", "relationshiptype": "link", "rel": "link", "reltype": "link", "logic": "link",
	"lag": "lag", "linklag": "lag", "defaultlag": "lag",
	"duration": "duration", "durations": "duration", "dur": "duration", "defaultduration": "duration", "days": "duration",
	"naming": "naming", "name": "naming", "names": "naming", "pattern": "naming", "namingpattern": "naming", "namepattern": "naming",
	"trades": "trades", "vocabulary": "trades", "tradevocabulary": "trades",
	"trade": "trade", "synonym": "trade", "synonyms": "trade", "vocab": "trades", "tradewords": "trades", "tradesynonyms": "trade",
	"activityduration": "duration", "activitydurations": "duration", "lagdays": "lag", "linklags": "lag",
	"nameformat": "naming", "namingformat": "naming", "format": "naming", "activitynames": "naming", "activityname": "naming",
}

// splitKey reads "link", "link:inspection", "link.inspection",
// "link[inspection]" into the key's canonical name and its scope.
func splitKey(key string) (name, scope string, err error) {
	k := strings.TrimSpace(key)
	raw := k
	if i := strings.IndexAny(k, ":.[("); i >= 0 {
		scope = strings.TrimRight(k[i+1:], "])")
		k = k[:i]
	}
	norm := strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(k))
	name, ok := keyAliases[norm]
	for _, prefix := range []string{"default", "new", "newactivity", "newactivities"} {
		if !ok && strings.HasPrefix(norm, prefix) {
			name, ok = keyAliases[strings.TrimPrefix(norm, prefix)]
		}
	}
	if !ok {
		if raw == "" {
			return "", "", fmt.Errorf("empty preference key: want one of %s", Keys)
		}
		return "", "", fmt.Errorf("unknown preference %q: want one of %s", raw, Keys)
	}
	if strings.Contains(scope, "]") || strings.Contains(scope, "[") {
		return "", "", fmt.Errorf("preference %q: bad kind of work %q", raw, scope)
	}
	return name, NormalizeScope(scope), nil
}

func isClear(v string) bool {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(v), `"'`)) {
	case "", "none", "clear", "default", "unset", "off", "reset", "-":
		return true
	}
	return false
}

// generalWork are scope words that mean "all new work".
var generalWork = map[string]bool{"": true, "activity": true, "activities": true, "task": true, "tasks": true, "work": true, "link": true, "links": true,
	"relationship": true, "relationships": true, "everything": true, "all": true, "item": true, "items": true, "one": true, "ones": true,
	"thing": true, "things": true, "dependency": true, "dependencies": true, "scope": true, "new work": true, "logic": true}

// NormalizeScope turns a kind of work into the form scopes are stored and
// matched in: lower case, singular words, without "new", "all", articles;
// "" for words that mean all work ("activities", "links").
func NormalizeScope(s string) string {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '/' {
			return ' '
		}
		if r == '\'' || r == '"' || r == ',' || r == '.' || r == ':' || r == ';' || r == '!' || r == '?' {
			return -1
		}
		return r
	}, s))) {
		switch w {
		case "new", "all", "the", "a", "an", "any", "every", "each", "future", "added", "other":
			continue
		}
		words = append(words, singular(w))
	}
	out := strings.Join(words, " ")
	if generalWork[out] || generalWork[strings.Join(words, "")] {
		return ""
	}
	// "cure activities", "inspection work": the kind is the other words.
	if kept := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return generalWork[w] }); len(kept) > 0 {
		return strings.Join(kept, " ")
	}
	return out
}

// singular is a word without a plural ending, for matching "inspections"
// with "Inspection L2".
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// Matches reports whether an activity name is of the kind of work scope
// names (every word of the scope is a word of the name, singular or
// plural); "" matches every name.
func Matches(scope, name string) bool {
	if scope == "" {
		return true
	}
	have := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	}) {
		have[singular(w)] = true
	}
	for _, w := range strings.Fields(scope) {
		if !have[w] {
			return false
		}
	}
	return true
}

func (p *Preferences) linkIndex(scope string) int {
	return slices.IndexFunc(p.Links, func(l LinkDefault) bool { return l.Scope == scope })
}

func (p *Preferences) setLink(l LinkDefault) {
	if i := p.linkIndex(l.Scope); i >= 0 {
		p.Links[i] = l
	} else {
		p.Links = append(p.Links, l)
	}
	sortScoped(p)
}

// sortScoped keeps defaults in a canonical order (the general one first,
// then by scope) so equal preferences marshal the same.
func sortScoped(p *Preferences) {
	slices.SortStableFunc(p.Links, func(a, b LinkDefault) int { return strings.Compare(a.Scope, b.Scope) })
	slices.SortStableFunc(p.Durations, func(a, b DurationDefault) int { return strings.Compare(a.Scope, b.Scope) })
}

// LinkFor is the default type and lag for a new link into the activity
// named name: the default of the most specific scope that matches it
// (most words), else the general one; ok is false when none is set.
func (p *Preferences) LinkFor(name string) (typ schedule.RelType, lag float64, ok bool) {
	if p == nil {
		return "", 0, false
	}
	best := -1
	for i, l := range p.Links {
		if Matches(l.Scope, name) && (best < 0 || scopeWords(l.Scope) > scopeWords(p.Links[best].Scope)) {
			best = i
		}
	}
	if best < 0 {
		return "", 0, false
	}
	return p.Links[best].Type, p.Links[best].Lag, true
}

// LinkDefaultFor is LinkFor with the default it chose (its Scope says
// which kind of work it is for).
func (p *Preferences) LinkDefaultFor(name string) (LinkDefault, bool) {
	typ, lag, ok := p.LinkFor(name)
	if !ok {
		return LinkDefault{}, false
	}
	for _, l := range p.Links {
		if l.Type == typ && l.Lag == lag && Matches(l.Scope, name) {
			return l, true
		}
	}
	return LinkDefault{Type: typ, Lag: lag}, true
}

// Label names a kind of work for people: "new inspections", or "new
// links" for the general one.
func (l LinkDefault) Label() string { return scopeLabel(l.Scope, "links") }

// DurationFor is the default duration of a new activity named name, as
// LinkFor chooses.
func (p *Preferences) DurationFor(name string) (string, bool) {
	if p == nil {
		return "", false
	}
	best := -1
	for i, d := range p.Durations {
		if Matches(d.Scope, name) && (best < 0 || scopeWords(d.Scope) > scopeWords(p.Durations[best].Scope)) {
			best = i
		}
	}
	if best < 0 {
		return "", false
	}
	return p.Durations[best].Duration, true
}

func scopeWords(s string) int { return len(strings.Fields(s)) }

// parseLink reads a relationship type and an optional lag from the start
// of text (after words like "use", "a", "link"); rest is what follows.
func parseLink(text string) (typ schedule.RelType, lag float64, hasLag bool, rest string, err error) {
	loc := typeRE.FindStringSubmatchIndex(text)
	if loc == nil {
		return "", 0, false, "", fmt.Errorf("%q names no relationship type: want FS, SS, FF or SF (or finish-to-start …) with an optional lag, like FS+1", text)
	}
	typ = schedule.ReadRelType(text[loc[2]:loc[3]])
	after := text[loc[1]:]
	if l, n, ok := leadingLag(after); ok {
		return typ, l, true, after[n:], nil
	}
	// "FS with a 2 day lag", "FS and 1 day lag", "FS, lag 2"
	if m := lagPhraseRE.FindStringSubmatchIndex(after); m != nil {
		v, perr := lagFromPhrase(after[m[0]:m[1]])
		if perr == nil {
			return typ, v, true, after[:m[0]] + " " + after[m[1]:], nil
		}
	}
	return typ, 0, false, after, nil
}

var (
	typeRE      = lazyre.New(`(?i)\b(FS|SS|FF|SF|finish[- ]to[- ]start|start[- ]to[- ]start|finish[- ]to[- ]finish|start[- ]to[- ]finish)\b`)
	leadLagRE   = lazyre.New(`^\s*([+\-−])\s*(\d+(?:\.\d+)?)\s*(?:(?:working\s+)?(days?|d|weeks?|wks?|w)\b)?`)
	lagPhraseRE = lazyre.New(`(?i)(?:,?\s*(?:with|and|plus|\+)?\s*(?:a|an)?\s*)(?:(?:lag|lead|delay|gap)\s*(?:of|=|:)?\s*(?:[+\-−]?\s*\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|a|an)\s*(?:(?:working\s+)?(?:days?|d|weeks?|wks?|w)\b)?|(?:[+\-−]?\s*\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|a|an)[\s-]*(?:(?:working\s+)?(?:days?|d|weeks?|wks?|w)\b)[\s-]*(?:of\s+)?(?:lag|lead|delay|gap)?)`)
	numberRE    = lazyre.New(`(?i)([+\-−]?)\s*(\d+(?:\.\d+)?|\bone\b|\btwo\b|\bthree\b|\bfour\b|\bfive\b|\bsix\b|\bseven\b|\beight\b|\bnine\b|\bten\b|\ba\b|\ban\b)`)
)

var numberWords = map[string]float64{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a": 1, "an": 1}

// leadingLag reads "+1", " - 2 days", "+0.5d" at the start of s.
func leadingLag(s string) (lag float64, n int, ok bool) {
	m := leadLagRE.FindStringSubmatchIndex(s)
	if m == nil {
		return 0, 0, false
	}
	v, err := strconv.ParseFloat(s[m[4]:m[5]], 64)
	if err != nil {
		return 0, 0, false
	}
	if m[6] >= 0 && strings.HasPrefix(strings.ToLower(s[m[6]:m[7]]), "w") {
		v *= 5
	}
	if sign := s[m[2]:m[3]]; sign == "-" || sign == "−" {
		v = -v
	}
	return v, m[1], true
}

// lagFromPhrase reads a lag phrase: "with a 2 day lag", "lag of 3 days",
// "a 1 week lead" (a lead is a negative lag).
func lagFromPhrase(s string) (float64, error) {
	low := strings.ToLower(s)
	i := strings.IndexAny(low, "0123456789")
	var v float64
	neg := false
	if i >= 0 {
		j := i
		for j < len(low) && (low[j] >= '0' && low[j] <= '9' || low[j] == '.') {
			j++
		}
		f, err := strconv.ParseFloat(low[i:j], 64)
		if err != nil {
			return 0, err
		}
		v = f
		k := strings.TrimRight(low[:i], " ")
		neg = strings.HasSuffix(k, "-") || strings.HasSuffix(k, "−")
	} else {
		found := false
		for _, w := range strings.Fields(strings.NewReplacer("-", " ").Replace(low)) {
			if n, ok := numberWords[w]; ok && w != "a" && w != "an" {
				v, found = n, true
				break
			}
		}
		if !found {
			if !lazyre.New(`\b(a|an)\b`).MatchString(low) {
				return 0, fmt.Errorf("%q has no number of days", s)
			}
			v = 1
		}
	}
	if lazyre.New(`\b(weeks?|wks?|w)\b`).MatchString(low) {
		v *= 5
	}
	if neg || strings.Contains(low, "lead") {
		v = -v
	}
	return v, nil
}

// parseLag reads a lag value: "2", "-1", "2 days", "1 week", "2 day lead".
func parseLag(value string) (float64, error) {
	v := strings.TrimSpace(value)
	if f, err := strconv.ParseFloat(strings.TrimPrefix(v, "+"), 64); err == nil && validDays(f) {
		return f, nil
	}
	if l, n, ok := leadingLag("+" + strings.TrimPrefix(v, "+")); ok && strings.TrimSpace(("+" + strings.TrimPrefix(v, "+"))[n:]) == "" {
		return l, nil
	}
	if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "−") {
		if l, n, ok := leadingLag(v); ok && strings.TrimSpace(v[n:]) == "" {
			return l, nil
		}
	}
	if m := lagPhraseRE.FindStringIndex(v); m != nil && strings.TrimSpace(v[:m[0]]+v[m[1]:]) == "" {
		if l, err := lagFromPhrase(v); err == nil {
			return l, nil
		}
	}
	return 0, fmt.Errorf("%q is not a lag: want a number of working days, like 2, -1 or \"3 days\"", value)
}

func validDays(f float64) bool { return f == f && f > -schedule.MaxDays && f < schedule.MaxDays }

var durationRE = lazyre.New(`(?i)^\s*(?:(?:to|of|is|=|:)\s+)?(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|a|an)[\s-]*(working\s+days?|days?|d|weeks?|wks?|w)?\b`)

// parseDurationValue reads a default duration at the start of value:
// "3", "3 days", "2 weeks", "a day", "triangular(1,2,4)"; rest is what
// follows. It is checked with the schedule's duration parser.
func parseDurationValue(value string) (d string, rest string, err error) {
	v := strings.TrimSpace(value)
	if i := strings.IndexByte(v, '('); i > 0 {
		if j := strings.IndexByte(v, ')'); j > i {
			cand := strings.TrimSpace(v[:j+1])
			if k := strings.LastIndexAny(cand[:i], " \t"); k >= 0 {
				cand = strings.TrimSpace(cand[k+1:])
			}
			if _, perr := schedule.ParseDuration(cand); perr != nil {
				return "", "", perr
			}
			start := strings.Index(v, cand)
			before := strings.TrimSpace(v[:start])
			if before != "" && !lazyre.New(`(?i)^(?:to|of|is|=|:|be|a)$`).MatchString(before) {
				return "", "", fmt.Errorf("%q is not a duration: want a number of working days or a distribution like triangular(1,2,4)", value)
			}
			return strings.ToLower(strings.Join(strings.Fields(cand), "")), v[start+len(cand):], nil
		}
	}
	m := durationRE.FindStringSubmatchIndex(v)
	if m == nil {
		return "", "", fmt.Errorf("%q is not a duration: want a number of working days (3, \"3 days\", \"2 weeks\") or a distribution like triangular(1,2,4)", value)
	}
	num := strings.ToLower(v[m[2]:m[3]])
	f, ok := numberWords[num]
	if !ok {
		f, err = strconv.ParseFloat(num, 64)
		if err != nil {
			return "", "", fmt.Errorf("%q is not a duration: %v", value, err)
		}
	} else if (num == "a" || num == "an") && m[4] < 0 {
		return "", "", fmt.Errorf("%q is not a duration: want a number of working days", value)
	}
	if m[4] >= 0 && strings.HasPrefix(strings.ToLower(v[m[4]:m[5]]), "w") && !strings.HasPrefix(strings.ToLower(v[m[4]:m[5]]), "working") {
		f *= 5
	}
	d = strconv.FormatFloat(f, 'f', -1, 64)
	if _, perr := schedule.ParseDuration(d); perr != nil {
		return "", "", perr
	}
	return d, v[m[1]:], nil
}

var scopeSuffixRE = lazyre.New(`(?i)^[\s,]*(?:for|on|to|into|before|of)\s+(?:all\s+|any\s+|every\s+|each\s+)?(?:the\s+)?(?:new\s+|future\s+)?(.+?)[\s.!]*$`)

// restScope is the kind of work a value names after its setting ("FS+1
// for inspections"), which must agree with the key's (scope); anything else
// after the setting is an error ending in notSetting.
func restScope(key, value, scope, rest, notSetting string) (string, error) {
	if s, ok := scopeSuffix(rest); ok {
		if scope != "" && s != scope {
			return "", fmt.Errorf("%s: %q names another kind of work (%q) than the key (%q)", key, value, s, scope)
		}
		return s, nil
	}
	if r := strings.TrimSpace(rest); r != "" {
		return "", fmt.Errorf("%s: %q: %q %s", key, value, r, notSetting)
	}
	return scope, nil
}

// scopeSuffix reads " for (new) inspections" after a value.
func scopeSuffix(rest string) (string, bool) {
	r := strings.TrimSpace(rest)
	if r == "" {
		return "", false
	}
	m := scopeSuffixRE.FindStringSubmatch(r)
	if m == nil {
		return "", false
	}
	words := strings.TrimSpace(m[1])
	// "for new links into inspections"
	if mm := lazyre.New(`(?i)^(?:links?|relationships?|activities|dependencies)\s+(?:into|to|for|before|of)\s+(?:new\s+)?(.+)$`).FindStringSubmatch(words); mm != nil {
		words = mm[1]
	}
	if words == "" {
		return "", false
	}
	return NormalizeScope(words), true
}

// Naming placeholders, case-insensitive: the trade and the level.
var placeholderRE = lazyre.New(`<\s*([A-Za-z]+)\s*>|\{\s*([A-Za-z]+)\s*\}`)

func placeholderKind(w string) string {
	switch strings.ToLower(w) {
	case "trade", "work", "activity", "name", "discipline", "task":
		return "trade"
	case "n", "number", "num":
		return "level"
	}
	if lexicon.IsLevelWord(strings.ToLower(w)) {
		return "level"
	}
	return ""
}

// ParseNaming checks a naming pattern and returns it in the stored form:
// the placeholders as {Trade}/{trade}/{TRADE} and {level} (the casing of
// the trade placeholder says how the trade is written: {Trade} or {trade}
// sentence case, {TRADE} upper case). "<Trade> Level <n>" and
// "{trade} L{level}" are the same syntax. A pattern needs the trade.
func ParseNaming(pattern string) (string, error) {
	pat := strings.TrimSpace(strings.Trim(strings.TrimSpace(pattern), `"'`))
	if pat == "" {
		return "", fmt.Errorf("empty pattern: want e.g. \"{Trade} Level {n}\" or \"<Trade> L<n>\"")
	}
	var bad []string
	hasTrade := false
	out := placeholderRE.ReplaceAllStringFunc(pat, func(m string) string {
		sub := placeholderRE.FindStringSubmatch(m)
		w := sub[1] + sub[2]
		switch placeholderKind(w) {
		case "trade":
			hasTrade = true
			if w == strings.ToUpper(w) && len(w) > 1 {
				return "{TRADE}"
			}
			return "{Trade}"
		case "level":
			return "{level}"
		}
		bad = append(bad, m)
		return m
	})
	if len(bad) > 0 {
		return "", fmt.Errorf("pattern %q: unknown placeholder %s: use {trade} (or <Trade>) and {level} (or <n>)", pat, strings.Join(bad, ", "))
	}
	if !hasTrade {
		return "", fmt.Errorf("pattern %q has no trade placeholder: want e.g. \"{Trade} Level {n}\" or \"<Trade> L<n>\"", pat)
	}
	if strings.ContainsAny(placeholderRE.ReplaceAllString(out, ""), "<>{}") {
		return "", fmt.Errorf("pattern %q: an unclosed placeholder: use {trade} and {level}", pat)
	}
	return out, nil
}

// Name is a new activity's name by the naming pattern: trade in its words
// ("drywall"), level as a number or label ("2"); ok is false with no
// pattern or no trade. Without a level, the pattern's level part ("Level
// {level}", "L{level}") is left out.
func (p *Preferences) Name(trade, level string) (string, bool) {
	if p == nil || p.Naming == "" || strings.TrimSpace(trade) == "" {
		return "", false
	}
	trade = strings.Join(strings.Fields(trade), " ")
	level = strings.TrimSpace(level)
	pat := p.Naming
	if level == "" {
		pat = levelPartRE.ReplaceAllString(pat, "")
	}
	r := strings.NewReplacer("{Trade}", sentenceCase(trade), "{TRADE}", strings.ToUpper(trade), "{level}", level)
	name := strings.Join(strings.Fields(r.Replace(pat)), " ")
	return name, name != ""
}

var levelPartRE = lazyre.New(`(?i)[\s\-_,]*(?:\b` + lexicon.Pattern(lexicon.LevelWords, lexicon.LevelPlurals) + `\b\s*)?[-_]?\{level\}`)

func sentenceCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

var parenSynonymsRE = lazyre.New(`([^,;()=|]+?)\s*\(([^()]*)\)`)

// ParseTrades reads a trade vocabulary: entries separated by commas or
// semicolons, each a trade word with optional synonyms after '=' (several
// separated by '|', '/' or '='): "drywall=gypsum board|plasterboard, concrete".
func ParseTrades(value string) ([]Trade, error) {
	var out []Trade
	// "drywall (gypsum board, plasterboard)" is drywall=gypsum board|plasterboard.
	value = parenSynonymsRE.ReplaceAllStringFunc(value, func(m string) string {
		sub := parenSynonymsRE.FindStringSubmatch(m)
		return sub[1] + "=" + strings.NewReplacer(",", "|", ";", "|").Replace(sub[2])
	})
	for _, item := range strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ';' || r == '\n' }) {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		parts := strings.FieldsFunc(item, func(r rune) bool { return r == '=' || r == '|' || r == '/' || r == ':' })
		var words []string
		for _, p := range parts {
			w := normWords(p)
			if w == "" {
				continue
			}
			if strings.ContainsAny(w, "{}<>()[]") {
				return nil, fmt.Errorf("trade %q: not a word", strings.TrimSpace(p))
			}
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
		if len(words) == 0 {
			return nil, fmt.Errorf("%q names no trade", item)
		}
		out = append(out, Trade{Name: words[0], Synonyms: words[1:]})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q names no trade: want e.g. \"drywall=gypsum board, concrete\"", value)
	}
	return out, nil
}

func normWords(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(strings.Trim(strings.TrimSpace(s), `"'.`))), " ")
}

// AddTrade merges a trade into the vocabulary: a word already known as a
// trade or synonym gains the new synonyms; a synonym of one trade named
// as another's is moved to the new one.
func (p *Preferences) AddTrade(t Trade) {
	t.Name = normWords(t.Name)
	if t.Name == "" {
		return
	}
	// A trade named as a synonym of another trade: add to that trade.
	target := slices.IndexFunc(p.Trades, func(x Trade) bool { return x.Name == t.Name })
	if target < 0 {
		if i := slices.IndexFunc(p.Trades, func(x Trade) bool { return slices.Contains(x.Synonyms, t.Name) }); i >= 0 {
			target = i
		}
	}
	if target < 0 {
		p.Trades = append(p.Trades, Trade{Name: t.Name})
		target = len(p.Trades) - 1
	}
	for _, s := range t.Synonyms {
		s = normWords(s)
		if s == "" || s == p.Trades[target].Name || slices.Contains(p.Trades[target].Synonyms, s) {
			continue
		}
		for i := range p.Trades {
			if i != target {
				p.Trades[i].Synonyms = slices.DeleteFunc(p.Trades[i].Synonyms, func(x string) bool { return x == s })
			}
		}
		// A trade of its own that becomes a synonym leaves the list.
		if j := slices.IndexFunc(p.Trades, func(x Trade) bool { return x.Name == s }); j >= 0 && j != target {
			p.Trades[target].Synonyms = append(p.Trades[target].Synonyms, p.Trades[j].Synonyms...)
			p.Trades = slices.Delete(p.Trades, j, j+1)
			if j < target {
				target--
			}
		}
		p.Trades[target].Synonyms = append(p.Trades[target].Synonyms, s)
	}
}

// Vocabulary is every trade word and synonym word, lower case: the words
// typo correction may correct to.
func (p *Preferences) Vocabulary() []string {
	if p == nil {
		return nil
	}
	var out []string
	add := func(s string) {
		for _, w := range strings.Fields(s) {
			if !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	for _, t := range p.Trades {
		add(t.Name)
		for _, s := range t.Synonyms {
			add(s)
		}
	}
	return out
}

// Canonical rewrites a request's synonyms as their trade words ("gypsum
// board on level 2" → "drywall on level 2"), whole words, any case;
// longer synonyms first.
func (p *Preferences) Canonical(text string) string {
	if p == nil || len(p.Trades) == 0 {
		return text
	}
	type pair struct{ from, to string }
	var pairs []pair
	for _, t := range p.Trades {
		for _, s := range t.Synonyms {
			pairs = append(pairs, pair{s, t.Name})
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return len(b.from) - len(a.from) })
	for _, pr := range pairs {
		words := strings.Fields(pr.from)
		for i := range words {
			words[i] = regexp.QuoteMeta(words[i])
		}
		re, err := regexp.Compile(`(?i)\b` + strings.Join(words, `\s+`) + `s?\b`)
		if err != nil {
			continue
		}
		text = re.ReplaceAllString(text, pr.to)
	}
	return text
}

// Describe lists the preferences as human-readable lines ("new
// inspections: link FS+1"), for notes and the LLM planner's prompt.
func (p *Preferences) Describe() []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, l := range p.Links {
		out = append(out, fmt.Sprintf("%s: link %s", scopeLabel(l.Scope, "links"), FormatLink(l.Type, l.Lag)))
	}
	for _, d := range p.Durations {
		out = append(out, fmt.Sprintf("%s: duration %s", scopeLabel(d.Scope, "activities"), durationLabel(d.Duration)))
	}
	if p.Naming != "" {
		out = append(out, fmt.Sprintf("new activities: named %q", p.Naming))
	}
	for _, t := range p.Trades {
		if len(t.Synonyms) == 0 {
			out = append(out, fmt.Sprintf("trade %q", t.Name))
		} else {
			out = append(out, fmt.Sprintf("trade %q (also %s)", t.Name, quoteAll(t.Synonyms)))
		}
	}
	return out
}

func durationLabel(d string) string {
	switch {
	case d == "1":
		return "1 day"
	case strings.Contains(d, "("):
		return d + " days"
	}
	return d + " days"
}

func quoteAll(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}

func scopeLabel(scope, all string) string {
	if scope == "" {
		return "new " + all
	}
	return "new " + plural(scope)
}

// plural is the plural of a kind of work's last word.
func plural(w string) string {
	switch {
	case strings.HasSuffix(w, "y") && len(w) > 1 && !strings.ContainsAny(w[len(w)-2:len(w)-1], "aeiou"):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		return w + "es"
	}
	return w + "s"
}

// FormatLink writes a type and lag as FS, FS+1, SS-2.
func FormatLink(t schedule.RelType, lag float64) string {
	if lag == 0 {
		return string(t)
	}
	return fmt.Sprintf("%s%+g", t, lag)
}

// Prompt is the preferences as a short paragraph for an LLM planner;
// "" when none is set.
func (p *Preferences) Prompt() string {
	if p == nil || p.Empty() {
		return ""
	}
	var sb strings.Builder
	sb.WriteString("This schedule's planning preferences (apply them unless the request says otherwise):")
	for _, l := range p.Links {
		if l.Scope == "" {
			fmt.Fprintf(&sb, " new links without a stated type or lag are %s with lag %g;", l.Type, l.Lag)
		} else {
			fmt.Fprintf(&sb, " new links into activities whose name contains %q are %s with lag %g;", l.Scope, l.Type, l.Lag)
		}
	}
	for _, d := range p.Durations {
		if d.Scope == "" {
			fmt.Fprintf(&sb, " new activities without a stated duration take %q;", d.Duration)
		} else {
			fmt.Fprintf(&sb, " new activities whose name contains %q take %q unless stated;", d.Scope, d.Duration)
		}
	}
	if p.Naming != "" {
		fmt.Fprintf(&sb, " name new activities by the pattern %q ({Trade} the trade, {level} the level number);", p.Naming)
	}
	if len(p.Trades) > 0 {
		var ts []string
		for _, t := range p.Trades {
			if len(t.Synonyms) > 0 {
				ts = append(ts, fmt.Sprintf("%s (also called %s)", t.Name, strings.Join(t.Synonyms, ", ")))
			} else {
				ts = append(ts, t.Name)
			}
		}
		fmt.Fprintf(&sb, " the trades are %s;", strings.Join(ts, "; "))
	}
	return strings.TrimSuffix(sb.String(), ";") + "."
}

// String is the preferences as a KEY/VALUE table, as `prefs show` prints
// it; keys are those Set takes, so every line can be set again.
func (p Preferences) String() string {
	var sb strings.Builder
	if p.Empty() {
		return "no preferences set: new links are FS with no lag, new activities get the planner's default duration and the names the request gives\n"
	}
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY\tVALUE\tMEANING")
	for _, l := range p.Links {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", scopedKey("link", l.Scope), FormatLink(l.Type, l.Lag), scopeLabel(l.Scope, "links")+" without a stated type or lag")
	}
	for _, d := range p.Durations {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", scopedKey("duration", d.Scope), d.Duration, scopeLabel(d.Scope, "activities")+" without a stated duration (working days)")
	}
	if p.Naming != "" {
		fmt.Fprintf(tw, "naming\t%s\t%s\n", p.Naming, "names of new activities")
	}
	if len(p.Trades) > 0 {
		fmt.Fprintf(tw, "trades\t%s\t%s\n", FormatTrades(p.Trades), "trade vocabulary (word=synonym|synonym)")
	}
	tw.Flush()
	return sb.String()
}

// Show is p.String(): the table `prefs show` prints.
func Show(p Preferences) string { return p.String() }

func scopedKey(key, scope string) string {
	if scope == "" {
		return key
	}
	return key + ":" + scope
}

// FormatTrades writes a vocabulary as ParseTrades reads it.
func FormatTrades(ts []Trade) string {
	var parts []string
	for _, t := range ts {
		s := t.Name
		if len(t.Synonyms) > 0 {
			s += "=" + strings.Join(t.Synonyms, "|")
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// Parse reads preferences from their JSON; "" is none. Each field is
// checked as Set checks it, but for its characters: preferences stored
// before values were checked stay readable (a terminal shows them
// escaped), and Validate refuses them when they are written again.
func Parse(data []byte) (Preferences, error) {
	var p Preferences
	if len(strings.TrimSpace(string(data))) == 0 {
		return p, nil
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return Preferences{}, fmt.Errorf("preferences: %w", err)
	}
	return p, p.validateForm()
}

// Validate checks every field as Set would have: its form, and that it is
// one line with no control or invisible formatting characters.
func (p Preferences) Validate() error {
	if err := p.validateForm(); err != nil {
		return err
	}
	return p.validateText()
}

// validateText refuses stored text Set would have refused: each scope,
// duration, the naming pattern and each trade word is a name-length line
// without control characters. The error names the key to set again (or
// clear with none).
func (p Preferences) validateText() error {
	check := func(key, s string) error {
		if err := usertext.Line(key, s, usertext.MaxName); err != nil {
			return fmt.Errorf("preferences: %w (set %s again, or to none)", err, key)
		}
		return nil
	}
	for _, l := range p.Links {
		if err := check(scopedKey("link", l.Scope), l.Scope); err != nil {
			return err
		}
	}
	for _, d := range p.Durations {
		for _, v := range []string{d.Scope, d.Duration} {
			if err := check(scopedKey("duration", d.Scope), v); err != nil {
				return err
			}
		}
	}
	if err := check("naming", p.Naming); err != nil {
		return err
	}
	for _, t := range p.Trades {
		for _, w := range append([]string{t.Name}, t.Synonyms...) {
			if err := check("trades", w); err != nil {
				return err
			}
		}
	}
	return nil
}

// validateForm checks each field's form as Set would have.
func (p Preferences) validateForm() error {
	for _, l := range p.Links {
		if schedule.ReadRelType(string(l.Type)) == "" || schedule.ReadRelType(string(l.Type)) != l.Type {
			return fmt.Errorf("preferences: link %q: type %q: want FS, SS, FF or SF", l.Scope, l.Type)
		}
		if !validDays(l.Lag) {
			return fmt.Errorf("preferences: link %q: lag %g out of range", l.Scope, l.Lag)
		}
	}
	for _, d := range p.Durations {
		if _, err := schedule.ParseDuration(d.Duration); err != nil {
			return fmt.Errorf("preferences: duration %q: %w", d.Scope, err)
		}
	}
	if p.Naming != "" {
		if _, err := ParseNaming(p.Naming); err != nil {
			return fmt.Errorf("preferences: naming: %w", err)
		}
	}
	for _, t := range p.Trades {
		if normWords(t.Name) == "" {
			return fmt.Errorf("preferences: a trade without a name")
		}
	}
	return nil
}
