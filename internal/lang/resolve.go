package lang

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/lazyre"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Status is how a reference resolved.
type Status int

// Resolution statuses.
const (
	Found     Status = iota // Acts is what the reference names
	Ambiguous               // the reference names one of Candidates; the person must say which
	Missing                 // nothing matches
	TooBroad                // "everything": the planner will not guess a whole schedule
)

// Resolution is what a reference means in a schedule.
type Resolution struct {
	Status Status
	// Acts are the activities named (several for a group or a list).
	Acts []schedule.Activity
	// Candidates are the activities an ambiguous reference may mean.
	Candidates []schedule.Activity
	// Part is the words that failed, for a list of which one part failed.
	Part string
	// Group: the reference named several activities on purpose.
	Group bool
}

// Resolver resolves references against one schedule's activities.
type Resolver struct {
	acts  []schedule.Activity
	norm  [][]string // places.normalize(name)
	tags  [][]string // norm plus umbrella terms
	words [][]string // nameWords(name)
	names map[string]bool
	// places are the kinds of place the names use besides levels (piers,
	// spans, zones…), learned from them.
	places placeKinds
	// index is each activity's place in acts, by id.
	index map[string]int
	// maxJoin is the most list parts that can together name one activity
	// by its name or id: a name of n words is at most n+1 parts ("and"
	// between each). joinParts tries no longer runs, so a list of n parts
	// costs O(n) resolutions, not O(n²) of ever longer phrases.
	maxJoin int
	// wordSets holds wordSet(withoutLevels(norm)) of every name: the words
	// a phrase must have to name an activity exactly (see exactly).
	wordSets map[string]bool
	// qualifiers are, by kind of place, the words every name on a place
	// of the kind says (see qualify).
	qualifiers map[string]map[string]bool
	// memo holds resolveOne's answers: a list that repeats a part, or
	// feedback resolved by several steps, costs one resolution a phrase.
	mu    sync.Mutex
	memo  map[memoKey]Resolution
	joins map[memoKey]bool // namesExactly's answers
	// resolved counts the phrases resolved (resolveOnce calls): the work
	// a reference costs, for tests.
	resolved int
}

type memoKey struct{ p, inherit string }

// NewResolver indexes s's activities.
func NewResolver(s *schedule.Schedule) *Resolver {
	r := &Resolver{acts: s.Activities, names: map[string]bool{}, maxJoin: 2, wordSets: map[string]bool{}}
	names := make([]string, len(s.Activities))
	for i, a := range s.Activities {
		names[i] = a.Name
	}
	r.places = learnPlaces(names)
	r.index = make(map[string]int, len(s.Activities))
	for i, a := range s.Activities {
		r.index[a.ID] = i
		ws := nameWords(a.Name)
		r.words = append(r.words, ws)
		r.maxJoin = max(r.maxJoin, len(ws)+1, len(nameWords(a.ID))+1)
		n := r.places.normalize(a.Name)
		tags := slices.Clone(n)
		for _, t := range n {
			tags = append(tags, embed.Umbrellas(t)...)
		}
		r.norm = append(r.norm, n)
		r.tags = append(r.tags, tags)
		r.wordSets[wordSet(r.places.without(n))] = true
		for _, w := range ws {
			r.names[w] = true
		}
	}
	r.qualifiers = r.learnQualifiers()
	return r
}

// learnQualifiers finds, for each kind of place, the words every name on
// one of its places says before the place or right after it ("data" in
// "Data hall A raised floor" and "Data hall B IST", "yard" in "East plant
// yard chillers"): words that go with the place, not with its work.
func (r *Resolver) learnQualifiers() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for i, a := range r.acts {
		for _, t := range r.norm[i] {
			if !r.places.isPlace(t) || strings.HasSuffix(t, "_*") || kindOfToken(t) == "level" {
				continue
			}
			kind := kindOfToken(t)
			if have, seen := out[kind]; seen && len(have) == 0 {
				continue // none left to lose
			}
			words := map[string]bool{}
			for _, w := range r.places.without(r.places.normalize(r.besidePlace(a.Name, t))) {
				words[w] = true
			}
			if have, seen := out[kind]; seen {
				maps.DeleteFunc(have, func(w string, _ bool) bool { return !words[w] })
			} else {
				out[kind] = words
			}
		}
	}
	return out
}

// besidePlace is the words of name before the place and the one right
// after it, "" when the name does not write the place as two words.
func (r *Resolver) besidePlace(name, place string) string {
	ws, i, ok := r.placeAt(name, place)
	if !ok {
		return ""
	}
	beside := name[:ws[i].start]
	if i+2 < len(ws) {
		beside += " " + name[ws[i+2].start:ws[i+2].end]
	}
	return beside
}

func notAlnum(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f)
}

// Vocabulary is the words of the schedule's names, for typo correction.
func (r *Resolver) Vocabulary() map[string]bool { return r.names }

var (
	listSep    = lazyre.New(`\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s+&\s+|\s+/\s+|\s+plus\s+|\s+as well as\s+|\s+along with\s+|\s+together\s+)\s*`)
	levelRange = lazyre.New(`\b` + levelNoun + `\s*(\d+)\s+(?:to|-|through|thru|until)\s+(?:` + levelNoun + `\s*)?(\d+)\b`)
	levelList  = lazyre.New(`\b` + levelNoun + `\s*(\d+)((?:\s*(?:,|and|&|/|or)\s*(?:` + levelNoun + `\s*)?\d+)+)\b`)
	listedNum  = lazyre.New(`\d+`)
	allLevels  = lazyre.New(`\b(?:on |at |for |in |across )?(?:(?:all|both)(?: the)? ` + lexicon.Pattern(lexicon.LevelPlurals) + `|(?:every|each) ` + lexicon.Pattern(lexicon.LevelWords) + `)\b`)
	bareLevel  = lazyre.New(`^(?:(?:on|at|in|for)\s+)?(?:the\s+)?(?:` + levelNoun + `\s*)?(\d+|` + strings.Join(lexicon.NumberWords, "|") + `)(?:st|nd|rd|th)?(?:\s+` + lexicon.Pattern(lexicon.LevelWords) + `)?$`)
	// levelNoun is a level word, singular or plural ("levels 2 to 4").
	levelNoun  = lexicon.Pattern(lexicon.LevelWords, lexicon.LevelPlurals)
	pluralHead = map[string]bool{"activities": true, "tasks": true, "items": true, "ones": true, "works": true}
)

// Resolve maps a reference to activities. A list ("A130 and A131",
// "tiling and flooring on level 2") is resolved as a whole first — names
// have "and" in them ("Doors and frames Level 1") — and then part by part,
// a level said once applying to the parts that have none.
func (r *Resolver) Resolve(ref Ref) Resolution {
	words := strings.TrimSpace(ref.Words)
	var inherit []string
	if ref.Inherit != nil {
		inherit = r.tradeWords(ref.Inherit.Words)
	}
	if res, ok := r.resolveOnEach(words, ref.Inherit); ok {
		return res
	}
	whole := r.resolveOne(words, inherit)
	parts := listSep.Split(words, -1)
	if whole.Status == Found && (len(parts) < 2 || whole.Group || r.exactly(whole.Acts, words)) {
		return whole
	}
	if whole.Status == Found {
		// "the testing and commissioning" contains Electrical testing and
		// commissioning, but may as well be a list: read it as one.
		whole = Resolution{Status: Ambiguous, Candidates: whole.Acts}
	}
	if len(parts) < 2 {
		if whole.Part == "" {
			whole.Part = ref.Text
		}
		return whole
	}
	// A place said once covers the parts before it with none; a bare
	// number ("and 3") is the place of the part before it, with its trade.
	levels := make([][]string, len(parts))
	for i, p := range parts {
		levels[i] = r.placesOf(p)
	}
	// "the welding and NDT on spreads 1 and 2": the list split the places
	// ("NDT on spreads 1", "2"); the part that said them says them all,
	// for the parts before it.
	owner, last := -1, -1
	for i, p := range parts {
		switch m := bareLevel.FindStringSubmatch(p); {
		case len(levels[i]) > 0:
			owner, last = i, i
		case m != nil && owner >= 0 && i == last+1 && !r.isID(p) && !strings.Contains(strings.TrimSpace(p), " "):
			if kind := r.lastKind(parts[owner]); kind != "" {
				levels[owner] = append(levels[owner], r.placesOf(kind+" "+m[1])...)
			}
			last = i // "1, 2 and 3": the next bare value goes on
		default:
			owner = -1
		}
	}
	parts = r.joinParts(parts, inherit)
	if len(parts) < 2 {
		if whole.Part == "" {
			whole.Part = ref.Text
		}
		return whole
	}
	// next[i] is the first part after i that names a level (len(parts)
	// if none), found in one pass rather than a scan per part.
	next := make([]int, len(parts)+1)
	next[len(parts)] = len(parts)
	for j := len(parts) - 1; j >= 0; j-- {
		next[j] = next[j+1]
		if j+1 < len(parts) && len(levels[j+1]) > 0 {
			next[j] = j + 1
		}
	}
	var out Resolution
	out.Group = true
	seen := map[string]bool{}
	prevTrade := inherit
	prevLevel, prevKind := "", ""
	for i, p := range parts {
		partInherit := prevTrade
		if m := bareLevel.FindStringSubmatch(p); m != nil && i > 0 && !r.isID(p) {
			kind := "level"
			if prevKind != "" && !strings.Contains(p, " ") {
				kind = prevKind // "piers 1 and 3"
			}
			p = kind + " " + m[1]
		}
		if len(levels[i]) == 0 && len(r.placesOf(p)) == 0 {
			found := false
			if j := next[i]; j < len(parts) {
				p += " " + strings.Join(placeWords(levels[j]), " and ")
				found = true
			}
			if !found && prevLevel != "" {
				p += " " + prevLevel // "floor 1 painting, tiling and flooring"
			}
		}
		if l := r.placesOf(p); len(l) > 0 {
			prevLevel = strings.Join(placeWords(l), " and ")
			prevKind = r.lastKind(p)
		}
		res := r.resolveOne(p, partInherit)
		if res.Status != Found {
			if whole.Status == Ambiguous || whole.Status == TooBroad {
				whole.Part = ref.Text
				return whole
			}
			res.Part = parts[i]
			return res
		}
		if t := r.tradeWords(p); len(t) > 0 {
			prevTrade = t
		}
		for _, a := range res.Acts {
			if !seen[a.ID] {
				seen[a.ID] = true
				out.Acts = append(out.Acts, a)
			}
		}
	}
	return out
}

// resolveOnEach reads a bare place that inherits its work from a list
// ("wing C partitions and ceilings should follow wing A": wing A is Wing A
// partitions and Wing A ceilings), one activity per item of the list;
// ok is false when the words say more than places, the list is one
// item, or an item has no counterpart on the place.
func (r *Resolver) resolveOnEach(words string, from *Ref) (Resolution, bool) {
	places := r.placesOf(words)
	if from == nil || len(places) == 0 || len(r.withoutQualifiers(places, r.tradeWords(words))) > 0 {
		return Resolution{}, false
	}
	items := r.Split(*from)
	if len(items) < 2 {
		return Resolution{}, false
	}
	out := Resolution{Status: Found, Group: true}
	for _, it := range items {
		trade := r.tradeWords(it.Words)
		if len(trade) == 0 {
			return Resolution{}, false
		}
		res := r.resolveOne(words, trade)
		if res.Status != Found {
			return Resolution{}, false
		}
		for _, a := range res.Acts {
			if !slices.ContainsFunc(out.Acts, func(b schedule.Activity) bool { return b.ID == a.ID }) {
				out.Acts = append(out.Acts, a)
			}
		}
	}
	return out, true
}

// Split is a list reference's parts as Resolve reads them ("A039 and the
// pour" is A039 and "the pour"), so each can be asked about on its own;
// nil when the reference is not a list.
func (r *Resolver) Split(ref Ref) []Ref {
	var inherit []string
	if ref.Inherit != nil {
		inherit = r.tradeWords(ref.Inherit.Words)
	}
	parts := r.joinParts(listSep.Split(strings.TrimSpace(ref.Words), -1), inherit)
	if len(parts) < 2 {
		return nil
	}
	texts := listSep.Split(strings.TrimSpace(ref.Text), -1)
	out := make([]Ref, len(parts))
	for i, p := range parts {
		out[i] = Ref{Text: p, Words: p, Inherit: ref.Inherit}
		if len(texts) == len(parts) {
			out[i].Text = texts[i]
		}
	}
	return out
}

// joinParts rejoins list parts that together name one activity exactly:
// "Underground drainage and Ground slab sub-base and membrane" is two
// activities, the second with "and" in its name.
func (r *Resolver) joinParts(parts []string, inherit []string) []string {
	var out []string
	for i := 0; i < len(parts); {
		j := i + 1
		for k := min(len(parts), i+r.maxJoin); k > i+1; k-- {
			joined := strings.Join(parts[i:k], " and ")
			if r.namesExactly(joined, inherit) {
				j = k
				break
			}
		}
		out = append(out, strings.Join(parts[i:j], " and "))
		i = j
	}
	return out
}

// namesExactly reports whether joined names one activity with no word
// to spare (once per phrase).
func (r *Resolver) namesExactly(joined string, inherit []string) bool {
	k := memoKey{joined, strings.Join(inherit, " ")}
	r.mu.Lock()
	ok, known := r.joins[k]
	r.mu.Unlock()
	if known {
		return ok
	}
	// Without some name's words, exactly fails whatever it resolves to.
	if r.wordSets[wordSet(r.tradeWords(joined))] {
		res := r.resolveOne(joined, inherit)
		ok = res.Status == Found && !res.Group && r.exactly(res.Acts, joined)
	}
	r.mu.Lock()
	if r.joins == nil {
		r.joins = map[memoKey]bool{}
	}
	r.joins[k] = ok
	r.mu.Unlock()
	return ok
}

// isID reports whether p is an activity's id ("3" in "tasks 2 and 3").
func (r *Resolver) isID(p string) bool {
	for _, a := range r.acts {
		if strings.EqualFold(a.ID, strings.TrimSpace(p)) {
			return true
		}
	}
	return false
}

// exactly reports whether the words name acts with no word to spare.
func (r *Resolver) exactly(acts []schedule.Activity, words string) bool {
	want := r.tradeWords(words)
	for _, a := range acts {
		if !sameWords(r.places.without(r.places.normalize(a.Name)), want) {
			return false
		}
	}
	return true
}

// lastKind is the kind of place said last in a phrase ("level" for "the
// zone b ceilings on levels 1"), "" for none.
func (r *Resolver) lastKind(p string) string {
	f := strings.Fields(p)
	for i := len(f) - 1; i >= 0; i-- {
		if lexicon.IsLevelWord(f[i]) {
			return "level"
		}
		if k := r.places.kindOf(f[i]); k != "" {
			return k
		}
	}
	return ""
}

// placesOf lists the places a phrase names: levels and the schedule's
// other kinds.
func (r *Resolver) placesOf(p string) []string {
	return r.places.only(r.places.normalize(p))
}

// levelsOf lists the level tokens a phrase names.
func levelsOf(p string) []string {
	var out []string
	for _, t := range embed.Normalize(expandLevels(p)) {
		if strings.HasPrefix(t, "level_") {
			out = append(out, t)
		}
	}
	return out
}

func levelWordsOf(levels []string) []string {
	out := make([]string, len(levels))
	for i, l := range levels {
		out[i] = "level " + strings.TrimPrefix(l, "level_")
	}
	return out
}

// expandLevels writes "levels 2 to 4" as "level 2 level 3 level 4",
// "levels 1 and 3" as "level 1 level 3" and "levels 2" as "level 2", so
// Normalize reads them.
func expandLevels(p string) string {
	var b strings.Builder
	last := 0
	for _, m := range levelList.FindAllStringIndex(p, -1) {
		if rest := strings.Fields(p[m[1]:]); len(rest) > 0 && units[rest[0]] != "" {
			continue // "level 2 and 3 days": a quantity
		}
		b.WriteString(p[last:m[0]])
		for _, n := range listedNum.Compiled().FindAllString(p[m[0]:m[1]], -1) {
			v, _ := strconv.Atoi(n)
			b.WriteString("level " + strconv.Itoa(v) + " ")
		}
		last = m[1]
	}
	p = b.String() + p[last:]
	p = levelRange.ReplaceAllStringFunc(p, func(m string) string {
		sm := levelRange.FindStringSubmatch(m)
		a, _ := strconv.Atoi(sm[1])
		b, _ := strconv.Atoi(sm[2])
		if b < a || b-a > 50 {
			return m
		}
		var parts []string
		for n := a; n <= b; n++ {
			parts = append(parts, "level "+strconv.Itoa(n))
		}
		return strings.Join(parts, " ")
	})
	return levelPlurals.Replace(p + " ")
}

var (
	levelPlurals = strings.NewReplacer(lexicon.LevelSingulars(" ")...)
	quoteMarks   = strings.NewReplacer(`"`, " ", "“", " ", "”", " ")
)

// tradeWords are a phrase's normalised words without places and fillers.
func (r *Resolver) tradeWords(p string) []string {
	// Places first: "wing a" is a place, not the article.
	rest, _ := r.places.cut(p)
	var out []string
	for _, t := range embed.Normalize(expandLevels(stripFillers(rest))) {
		if !r.places.isPlace(t) && !groupFiller[t] {
			out = append(out, t)
		}
	}
	return out
}

var groupFiller = map[string]bool{"milestone": true, "everything": true, "interior": true, "internal": true, "scope": true, "item": true, "thing": true,
	"activity": true, "task": true, "one": true, "everyone": true, "remaining": true, "other": true}

// stripFillers removes determiners, quantifiers and quote marks.
func stripFillers(p string) string {
	f := strings.Fields(quoteMarks.Replace(p))
	var out []string
	for _, w := range f {
		if quantifiers[w] || refFillers[w] {
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// resolveOne resolves a phrase that is not a list, once per phrase.
func (r *Resolver) resolveOne(p string, inherit []string) Resolution {
	k := memoKey{p, strings.Join(inherit, " ")}
	r.mu.Lock()
	res, ok := r.memo[k]
	r.mu.Unlock()
	if !ok {
		res = r.resolveOnce(p, inherit)
		r.mu.Lock()
		if r.memo == nil {
			r.memo = map[memoKey]Resolution{}
		}
		r.memo[k] = res
		r.resolved++
		r.mu.Unlock()
	}
	// Callers keep what they are given: their own slices.
	res.Acts, res.Candidates = slices.Clone(res.Acts), slices.Clone(res.Candidates)
	return res
}

func (r *Resolver) resolveOnce(p string, inherit []string) Resolution {
	p = strings.TrimSpace(p)
	if p == "" {
		return Resolution{Status: Missing}
	}
	if q := quoted(p); q != "" {
		p = q
	}
	// An id, or a name, exactly.
	for _, cand := range []string{p, stripFillers(p)} {
		for _, a := range r.acts {
			if strings.EqualFold(a.ID, cand) {
				return Resolution{Status: Found, Acts: []schedule.Activity{a}}
			}
		}
		var named []schedule.Activity
		cw := nameWords(cand)
		for i, a := range r.acts {
			if slices.Equal(r.words[i], cw) {
				named = append(named, a)
			}
		}
		if len(named) == 1 {
			return Resolution{Status: Found, Acts: named}
		}
		if len(named) > 1 {
			return Resolution{Status: Ambiguous, Candidates: named}
		}
	}
	fields := strings.Fields(p)
	group := allLevels.MatchString(p)
	for _, w := range fields {
		if quantifiers[w] || pluralHead[w] || r.pluralMarker(w) && r.places.kindOf(w) == "" {
			group = true
		}
	}
	cleaned := allLevels.ReplaceAllString(p, " ")
	levels := r.placesOf(cleaned)
	words := r.withoutQualifiers(levels, r.tradeWords(cleaned))
	if len(words) == 0 {
		words = r.withoutQualifiers(levels, inherit)
	}
	if len(words) == 1 && idShaped.MatchString(words[0]) && len(fields) <= 2 {
		return Resolution{Status: Missing} // an id that is not there: never a fuzzy match
	}
	if len(words) == 0 {
		if len(levels) == 0 {
			if group || slices.Contains(fields, "everything") {
				return Resolution{Status: TooBroad}
			}
			return Resolution{Status: Missing}
		}
		acts := r.filter(levels, nil, false)
		if len(acts) == 0 {
			return Resolution{Status: Missing} // "span 9" where there is none
		}
		return Resolution{Status: Found, Acts: acts, Group: true}
	}
	cands := r.filter(levels, words, false)
	if len(cands) == 0 {
		cands = r.filter(levels, words, true)
	}
	if group || len(levels) > 1 {
		// A group, or the same work on several places ("the column
		// rebar on piers 1 and 3"): the work, not its checks.
		cands = r.withoutUnsaidChecks(cands, words)
	}
	switch {
	case len(cands) == 0:
		return Resolution{Status: Missing}
	case len(cands) == 1:
		return Resolution{Status: Found, Acts: cands}
	}
	if exact, ok := r.exactOnEach(cands, levels, words, fields); ok {
		return Resolution{Status: Found, Acts: exact, Group: true}
	}
	if group || len(levels) > 1 || len(levels) > 0 && !slices.ContainsFunc(words, func(w string) bool { return !groupWords[w] }) {
		return Resolution{Status: Found, Acts: cands, Group: true}
	}
	if r.partOfPlace(cands, levels, words) {
		return Resolution{Status: Found, Acts: cands, Group: true}
	}
	// Several match: the one whose name has no other words wins ("piling"
	// is Piling, not Pile caps and ground beams).
	var exact []schedule.Activity
	for i, a := range r.acts {
		if slices.ContainsFunc(cands, func(c schedule.Activity) bool { return c.ID == a.ID }) && sameWords(r.withoutQualifiers(levels, r.places.without(r.norm[i])), words) {
			exact = append(exact, a)
		}
	}
	if len(exact) == 1 {
		return Resolution{Status: Found, Acts: exact}
	}
	// The one name that has the very words written ("roofing" is Roofing
	// membrane, not every roof activity).
	var literal []schedule.Activity
	written := strings.Fields(stripFillers(cleaned))
	for _, a := range cands {
		have := strings.FieldsFunc(strings.ToLower(a.Name), notAlnum)
		if !slices.ContainsFunc(written, func(w string) bool {
			return len(levelsOf(w)) == 0 && !slices.Contains(have, w) && !isLevelWord(w) && r.places.kindOf(w) == ""
		}) {
			literal = append(literal, a)
		}
	}
	if len(literal) == 1 {
		return Resolution{Status: Found, Acts: literal}
	}
	return Resolution{Status: Ambiguous, Candidates: cands}
}

// withoutQualifiers drops from words those said with every place of the
// kinds said ("block valve" in "scrap block valve station 2", where every
// station is a block valve station): they name the place, not its work.
func (r *Resolver) withoutQualifiers(places, words []string) []string {
	if len(places) == 0 || len(words) == 0 {
		return words
	}
	return slices.DeleteFunc(slices.Clone(words), func(w string) bool {
		for _, p := range places {
			if strings.HasSuffix(p, "_*") || !r.qualify(kindOfToken(p), []string{w}) {
				return false
			}
		}
		return true
	})
}

// exactOnEach reads the same work on several places ("the chillers in
// the east and north plant yards") as it reads it on one: on each place
// the activity named by the very words (East plant yard chillers, not
// East plant yard chiller plinths), when each place has one. A
// quantifier ("all the chillers") keeps every match.
func (r *Resolver) exactOnEach(cands []schedule.Activity, places, words, fields []string) ([]schedule.Activity, bool) {
	if len(places) < 2 || slices.ContainsFunc(fields, func(w string) bool { return quantifiers[w] }) ||
		slices.ContainsFunc(places, func(p string) bool { return kindOfToken(p) != kindOfToken(places[0]) || strings.HasSuffix(p, "_*") }) {
		return nil, false
	}
	var exact []schedule.Activity
	for _, p := range places {
		n := 0
		for _, a := range cands {
			i := r.index[a.ID]
			if slices.Contains(r.norm[i], p) && sameWords(r.withoutQualifiers(places, r.places.without(r.norm[i])), words) {
				exact = append(exact, a)
				n++
			}
		}
		if n != 1 {
			return nil, false
		}
	}
	return exact, len(exact) < len(cands)
}

// checkWords name activities that check other work rather than do it.
var checkWords = map[string]bool{"inspection": true, "inspect": true, "test": true, "survey": true, "certification": true,
	"certificate": true, "approval": true, "review": true, "signoff": true, "sign": true, "check": true, "hold": true, "witness": true}

// withoutUnsaidChecks leaves out of a group the activities that check the
// work (an inspection, a test) when the words do not say so and some of
// the group does the work: "every MEP rough-in" is the rough-ins, not the
// rough-in inspections.
//
// A group named by a whole package ("all level 3 MEP", "the services")
// keeps its checks: they are part of the package.
func (r *Resolver) withoutUnsaidChecks(cands []schedule.Activity, words []string) []schedule.Activity {
	if slices.ContainsFunc(words, func(w string) bool { return checkWords[w] }) {
		return cands
	}
	if !slices.ContainsFunc(words, func(w string) bool { return !packageWords[w] }) {
		return cands
	}
	// A check of the very work named: the word before its check word is
	// one of the words ("MEP rough-in inspection" checks the rough-in;
	// "Pier 2 column rebar inspection" checks the rebar, not "pier 2").
	checksIt := func(a schedule.Activity) bool {
		n := r.places.without(r.places.normalize(a.Name))
		for i, w := range n {
			if checkWords[w] && i > 0 && slices.Contains(words, n[i-1]) {
				return true
			}
		}
		return false
	}
	var work []schedule.Activity
	for _, a := range cands {
		if !checksIt(a) {
			work = append(work, a)
		}
	}
	if len(work) == 0 {
		return cands
	}
	return work
}

// packageWords name a whole package of trades: MEP's three and the
// umbrella terms.
var packageWords = func() map[string]bool {
	m := map[string]bool{"mechanical": true, "electrical": true, "plumbing": true}
	for _, g := range lexicon.Umbrellas {
		m[g.Canonical] = true
	}
	return m
}()

var idShaped = lazyre.New(`^(?:[a-z]{1,4}-?\d+|\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`)

func quoted(p string) string {
	if len(p) >= 2 && p[0] == '"' && p[len(p)-1] == '"' && !strings.Contains(p[1:len(p)-1], `"`) {
		return p[1 : len(p)-1]
	}
	return ""
}

// nameWords are a name's words as names are compared: ignoring case,
// punctuation and spacing.
func nameWords(s string) []string { return strings.FieldsFunc(strings.ToLower(s), notAlnum) }

// pluralMarker reports whether w is a plural the names do not use as such
// ("pours" where names say "Pour"; "fixtures" is in "Final fixtures").
func (r *Resolver) pluralMarker(w string) bool {
	if len(w) <= 3 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || r.names[w] {
		return false
	}
	for _, sing := range []string{strings.TrimSuffix(w, "s"), strings.TrimSuffix(w, "es"), strings.TrimSuffix(w, "ies") + "y"} {
		if r.names[sing] {
			return true
		}
	}
	return false
}

// filter is the activities on one of levels (any when none) whose tags
// hold every word; loose matches a word by a shared prefix of five letters
// or more ("clean" meets "cleaning").
func (r *Resolver) filter(levels, words []string, loose bool) []schedule.Activity {
	var out []schedule.Activity
	for i, a := range r.acts {
		if len(levels) > 0 && !onPlaces(r.norm[i], levels) {
			continue
		}
		if words != nil && !matchWords(r.tags[i], words, loose) {
			continue
		}
		out = append(out, a)
	}
	return out
}

func matchWords(tags, words []string, loose bool) bool {
	// A name that says "MEP" is not an electrical activity on its own:
	// "electrical on level 2" is the rough-in, not the MEP inspection.
	hasMEP := func(ws []string) bool {
		return slices.Contains(ws, "mechanical") && slices.Contains(ws, "electrical") && slices.Contains(ws, "plumbing")
	}
	// "MEP" normalises to three trades: any of them, or any building
	// service, will do, and the words with it ("MEP rough-in") must match
	// as well.
	if hasMEP(words) && !hasMEP(tags) {
		if !slices.ContainsFunc(tags, func(t string) bool {
			return t == "service" || t == "mechanical" || t == "electrical" || t == "plumbing"
		}) {
			return false
		}
		words = slices.DeleteFunc(slices.Clone(words), func(w string) bool {
			return w == "mechanical" || w == "electrical" || w == "plumbing"
		})
	}
	mep := hasMEP(tags) && !hasMEP(words)
	for _, w := range words {
		if mep && (w == "mechanical" || w == "electrical" || w == "plumbing") {
			return false
		}
		if slices.Contains(tags, w) {
			continue
		}
		if loose && slices.ContainsFunc(tags, func(t string) bool { return sharedPrefix(t, w) }) {
			continue
		}
		return false
	}
	return true
}

func sharedPrefix(a, b string) bool {
	if len(a) < 5 || len(b) < 5 {
		return false
	}
	return strings.HasPrefix(a, b) || strings.HasPrefix(b, a)
}

func withoutLevels(ws []string) []string {
	return slices.DeleteFunc(slices.Clone(ws), func(w string) bool { return strings.HasPrefix(w, "level_") })
}

// wordSet is ws as sameWords compares them: sorted, without repeats.
func wordSet(ws []string) string {
	ws = slices.Clone(ws)
	slices.Sort(ws)
	return strings.Join(slices.Compact(ws), " ")
}

func sameWords(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// LevelOf is the level token a phrase names ("level_2"), or "".
func LevelOf(p string) string {
	if l := levelsOf(p); len(l) > 0 {
		return l[0]
	}
	return ""
}

// TradeOf is a phrase's words without its level, for naming new scope.
// A level is one word ("L3", "storey3", "Level-3") or two ("floor 3",
// "3rd fl"): a word is cut with the next only when neither is a level on
// its own, so "Painting L3" keeps "Painting".
func TradeOf(p string) string {
	f := strings.Fields(stripFillers(p))
	var out []string
	for i := 0; i < len(f); i++ {
		if len(levelsOf(f[i])) > 0 {
			continue
		}
		if i+1 < len(f) && len(levelsOf(f[i+1])) == 0 && len(levelsOf(f[i]+" "+f[i+1])) > 0 {
			i++
			continue
		}
		if f[i] == "on" || f[i] == "at" || f[i] == "in" || f[i] == "for" {
			continue
		}
		out = append(out, f[i])
	}
	return strings.Join(out, " ")
}

func isLevelWord(w string) bool {
	switch w {
	case "on", "at", "in", "for":
		return true
	}
	return lexicon.IsLevelWord(w) || bareLevel.MatchString(w)
}
