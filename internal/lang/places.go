package lang

import (
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// A schedule's places are learned from its names, not listed: a word that
// its activity names follow with a number or a letter, with two values or
// more ("Pier 1 …", "Pier 2 …"; "Zone A …", "Zone B …"), is a place noun of
// that schedule — piers and spans on a bridge, wings and zones in a
// hospital, sections on a pipeline. Levels are the lexicon's (embed.Normalize
// reads their many spellings as level_N); every other kind is read here, so
// "piers 1 and 3", "spans 2-4", "span 2 to span 4" and "the span 4 deck"
// resolve as "levels 2 and 3" and "the level 2 drywall" do.
//
// A place is one token, KIND_VALUE ("pier_3", "zone_b"), as a level is
// level_N; "KIND_*" is a kind said without a value ("on every pier").

// placeKinds are a schedule's learned place nouns: each kind and the
// values it takes besides numbers.
type placeKinds map[string]valueSet

// valueSet is what a kind of place is numbered by besides numbers:
// letters ("Zone A"), compass points ("North wing", "Wing East").
type valueSet uint8

const (
	lettered valueSet = 1 << iota
	compassed
)

// compass are the compass points that name places.
var compass = words(`north south east west northeast northwest southeast southwest ne nw se sw`)

// learnPlaces reads the place nouns of names.
func learnPlaces(names []string) placeKinds {
	values := map[string]map[string]bool{}
	sets := map[string]valueSet{}
	note := func(w, val string, set valueSet) {
		if values[w] == nil {
			values[w] = map[string]bool{}
		}
		values[w][val] = true
		sets[w] |= set
	}
	for _, n := range names {
		ws := phraseWords(n)
		for i := 0; i+1 < len(ws); i++ {
			w, v := ws[i].w, ws[i+1].w
			if compass[w] && placeNounShaped(v) && !compass[v] {
				note(v, w, compassed) // "North wing"
				continue
			}
			if !placeNounShaped(w) {
				continue
			}
			// A quantity or a date is no place: "Duration 25%", "Cure 7
			// days", "Meeting 3 March".
			if end := ws[i+1].end; end < len(n) && n[end] == '%' || i+2 < len(ws) && (units[ws[i+2].w] != "" || monthNames[ws[i+2].w] > 0) {
				continue
			}
			if compass[v] {
				note(w, v, compassed) // "Wing East"
				continue
			}
			val, letter, ok := placeValue(v, lettered)
			if !ok {
				continue
			}
			set := valueSet(0)
			if letter {
				set = lettered
			}
			note(w, val, set)
		}
	}
	kinds := placeKinds{}
	for w, vs := range values {
		if len(vs) >= 2 {
			kinds[w] = sets[w]
		}
	}
	return kinds
}

// placeNounShaped: a word of letters that is no level word (Normalize reads
// those), no unit, number or month ("Day 1", "March 3"), no word of the
// grammar ("to 3", "and 4").
func placeNounShaped(w string) bool {
	if len(w) < 2 || !isLetters(w) || lexicon.IsLevelWord(w) {
		return false
	}
	if _, ok := units[w]; ok {
		return false
	}
	if _, ok := numberWords[w]; ok {
		return false
	}
	if _, ok := monthNames[w]; ok {
		return false
	}
	return !commonGrammar[w] && !quantifiers[w] && !refFillers[w] && verbs[w] == "" && !workWords[w] && !compass[w]
}

// workWords name work, not where it is: the trades and their synonyms,
// and the checks ("Pour 1", "Test 2" number pours and tests).
var workWords = func() map[string]bool {
	m := map[string]bool{}
	for _, groups := range [][]lexicon.Group{lexicon.TradeSynonyms, lexicon.Umbrellas} {
		for _, g := range groups {
			for _, w := range append(strings.Fields(g.Canonical), g.Words...) {
				m[w] = true
			}
		}
	}
	for w := range checkWords {
		m[w] = true
	}
	return m
}()

// commonGrammar are words a number follows that name no place.
var commonGrammar = words(`to and or by of on at in for from than after before until till through thru with about around
over under per plus minus top bottom up down via is are was were be take takes took lag lead delay gap week weeks day days
hour hours month months year years no number nr item option rev revision version`)

// placeValue reads a place's value: one to three digits, with a letter
// after them ("2a"), or, where the kind takes them, one letter or a
// compass point.
func placeValue(w string, allowed valueSet) (val string, letter, ok bool) {
	if len(w) == 1 && w[0] >= 'a' && w[0] <= 'z' {
		return w, true, allowed&lettered != 0
	}
	if compass[w] {
		return w, false, allowed&compassed != 0
	}
	j := 0
	for j < len(w) && isDigit(w[j]) {
		j++
	}
	if j == 0 || j > 3 || len(w)-j > 1 || j < len(w) && (w[j] < 'a' || w[j] > 'z') {
		return "", false, false
	}
	n, err := strconv.Atoi(w[:j])
	if err != nil {
		return "", false, false
	}
	return strconv.Itoa(n) + w[j:], false, true
}

// kindOf is the kind a written word names (its plural too), or "".
func (k placeKinds) kindOf(w string) string {
	if _, ok := k[w]; ok {
		return w
	}
	for _, sing := range []string{strings.TrimSuffix(w, "s"), strings.TrimSuffix(w, "es"), strings.TrimSuffix(w, "ies") + "y"} {
		if _, ok := k[sing]; ok && sing != w {
			return sing
		}
	}
	return ""
}

// placeToken is the token of a place.
func placeToken(kind, val string) string { return kind + "_" + val }

// rangeWords join the two ends of a range of places ("spans 2 to 4",
// "2-4"); listWords the items of a list.
var (
	rangeWords = map[string]bool{"to": true, "-": true, "through": true, "thru": true, "until": true, "till": true}
	listWords  = map[string]bool{",": true, "and": true, "&": true, "/": true, "or": true, "plus": true}
)

// word is a word of a phrase and where it is.
type word struct {
	w          string
	start, end int
}

// phraseWords splits a phrase into lower-case words of letters and digits
// and the marks that join places (",", "-", "/", "&").
func phraseWords(p string) []word {
	var out []word
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case isWordByte(c):
			j := i
			for j < len(p) && isWordByte(p[j]) {
				j++
			}
			out = append(out, word{strings.ToLower(p[i:j]), i, j})
			i = j
		case c == ',' || c == '-' || c == '/' || c == '&':
			out = append(out, word{string(c), i, i + 1})
			i++
		default:
			i++
		}
	}
	return out
}

// cut takes the places out of a phrase: their tokens, and the phrase with
// their words blanked. A kind said with no value ("every pier") is KIND_*.
func (k placeKinds) cut(p string) (rest string, places []string) {
	if len(k) == 0 {
		return p, nil
	}
	ws := phraseWords(p)
	b := []byte(p)
	blank := func(from, to int) {
		for i := ws[from].start; i < ws[to].end; i++ {
			b[i] = ' '
		}
	}
	for i := 0; i < len(ws); i++ {
		if kind, vals, n := k.compassFirst(ws[i:]); n > 0 {
			for _, v := range vals {
				places = append(places, placeToken(kind, v))
			}
			blank(i, i+n-1)
			i += n - 1
			continue
		}
		kind := k.kindOf(ws[i].w)
		if kind == "" {
			kind = k.abbreviated(ws[i:])
		}
		if kind == "" {
			continue
		}
		j := i + 1
		var vals []string
		ranged := false // the value read next ends a range
		for j < len(ws) {
			v, _, ok := placeValue(ws[j].w, k[kind])
			if !ok {
				v, ok = spelledValue(ws[j:])
			}
			if !ok {
				break
			}
			if ranged && len(vals) > 0 {
				vals = append(vals, valueRange(vals[len(vals)-1], v)...)
			} else {
				vals = append(vals, v)
			}
			j++
			// "1 and 3", "2-4", ", and 3", "2 to span 4": the list goes on.
			n := j
			if n >= len(ws) || !listWords[ws[n].w] && !rangeWords[ws[n].w] {
				break
			}
			ranged = rangeWords[ws[n].w]
			n++
			if n < len(ws) && ws[n].w == "and" {
				n++
			}
			if n < len(ws) && k.kindOf(ws[n].w) == kind {
				n++
			}
			if n >= len(ws) {
				break
			}
			if _, _, ok := placeValue(ws[n].w, k[kind]); !ok {
				break
			}
			j = n
		}
		if len(vals) == 0 {
			places = append(places, placeToken(kind, "*"))
			blank(i, i)
			continue
		}
		for _, v := range vals {
			places = append(places, placeToken(kind, v))
		}
		blank(i, j-1)
		i = j - 1
	}
	return string(b), places
}

// abbreviated is the kind a word shortens ("sec 2" is section 2, "gen 3"
// generator 3): the start of one kind's noun, three letters or more,
// followed by a value; "" for none.
func (k placeKinds) abbreviated(ws []word) string {
	w := ws[0].w
	if len(w) < 3 || len(ws) < 2 || !isLetters(w) || commonGrammar[w] || verbs[w] != "" {
		return ""
	}
	found := ""
	for kind, set := range k {
		if len(kind) > len(w) && strings.HasPrefix(kind, w) {
			if found != "" {
				return "" // "sta" for station and stage
			}
			if _, _, ok := placeValue(ws[1].w, set); !ok {
				return ""
			}
			found = kind
		}
	}
	return found
}

// spelledValue reads a place's number in words ("section two"), not a
// quantity ("every section one week"); ok is false for anything else.
func spelledValue(ws []word) (string, bool) {
	n, ok := numberWords[ws[0].w]
	if !ok || len(ws[0].w) < 3 || strings.Contains(n, ".") || n == "0" || ws[0].w == "single" {
		return "", false
	}
	if len(ws) > 1 && units[ws[1].w] != "" {
		return "", false
	}
	return n, true
}

// compassFirst reads places written compass point first: "north wing",
// "the north and south wings"; n is the words it used, 0 for none.
func (k placeKinds) compassFirst(ws []word) (kind string, vals []string, n int) {
	i := 0
	for i < len(ws) && compass[ws[i].w] {
		vals = append(vals, ws[i].w)
		i++
		if i+1 < len(ws) && listWords[ws[i].w] && compass[ws[i+1].w] {
			i++
		}
	}
	if len(vals) == 0 || i >= len(ws) {
		return "", nil, 0
	}
	kind = k.kindOf(ws[i].w)
	if kind == "" || k[kind]&compassed == 0 {
		return "", nil, 0
	}
	return kind, vals, i + 1
}

// valueRange lists the values after a up to b, both numbers or both
// letters, b after a and not far: "2 to 4" adds 3 and 4, "A to C" b and
// c. Anything else adds b alone.
func valueRange(a, b string) []string {
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	letters := len(a) == 1 && len(b) == 1 && a[0] >= 'a' && a[0] <= 'z' && b[0] >= 'a' && b[0] <= 'z'
	if letters {
		x, y, err1, err2 = int(a[0]), int(b[0]), nil, nil
	}
	if err1 != nil || err2 != nil || y <= x || y-x > 50 {
		return []string{b}
	}
	var out []string
	for n := x + 1; n <= y; n++ {
		if letters {
			out = append(out, string(rune(n)))
		} else {
			out = append(out, strconv.Itoa(n))
		}
	}
	return out
}

// normalize is Normalize with the schedule's places read as tokens:
// levels as level_N, the learned kinds as KIND_VALUE.
func (k placeKinds) normalize(p string) []string {
	rest, places := k.cut(p)
	return append(embed.Normalize(expandLevels(rest)), places...)
}

// isPlace reports whether a token is a place: a level or a learned kind.
func (k placeKinds) isPlace(t string) bool {
	if strings.HasPrefix(t, "level_") {
		return true
	}
	i := strings.LastIndexByte(t, '_')
	if i <= 0 {
		return false
	}
	_, ok := k[t[:i]]
	return ok
}

// kindOfToken is a place token's kind ("level" for level_N).
func kindOfToken(t string) string {
	if i := strings.LastIndexByte(t, '_'); i > 0 {
		return t[:i]
	}
	return t
}

// without drops the places of tokens.
func (k placeKinds) without(ts []string) []string {
	return slices.DeleteFunc(slices.Clone(ts), k.isPlace)
}

// only keeps the places of tokens.
func (k placeKinds) only(ts []string) []string {
	return slices.DeleteFunc(slices.Clone(ts), func(t string) bool { return !k.isPlace(t) })
}

// onPlaces reports whether a name's tokens are on the places: on one of
// the values said for each kind said ("piers 1 and 3 on level 2" is pier
// 1 or 3, and level 2); KIND_* is any value of the kind.
func onPlaces(name, places []string) bool {
	byKind := map[string][]string{}
	var kinds []string
	for _, p := range places {
		kd := kindOfToken(p)
		if _, seen := byKind[kd]; !seen {
			kinds = append(kinds, kd)
		}
		byKind[kd] = append(byKind[kd], p)
	}
	for _, kd := range kinds {
		ok := slices.ContainsFunc(byKind[kd], func(p string) bool {
			if strings.HasSuffix(p, "_*") {
				return slices.ContainsFunc(name, func(t string) bool { return kindOfToken(t) == kd && t != kd })
			}
			return slices.Contains(name, p)
		})
		if !ok {
			return false
		}
	}
	return true
}

// placeWords writes place tokens back as words: "level 2", "pier 3";
// a kind with no value as its plural ("piers").
func placeWords(places []string) []string {
	out := make([]string, 0, len(places))
	for _, p := range places {
		kd, val := kindOfToken(p), strings.TrimPrefix(p, kindOfToken(p)+"_")
		if val == "*" {
			out = append(out, "every "+kd)
			continue
		}
		out = append(out, kd+" "+val)
	}
	return out
}

// partOfPlace reports whether words name a part of a place that several
// activities build: the very work named, on places the words leave open;
// or, in every candidate, the words come right after the
// place ("the span 4 deck" is Span 4 deck formwork, deck rebar and deck
// pour), so they name the part, not one activity of it. A name with its
// place elsewhere ("Pour slab Level 2") says no part: "the level 2 pour"
// stays a question.
func (r *Resolver) partOfPlace(cands []schedule.Activity, places, words []string) bool {
	if len(places) == 0 || len(cands) < 2 || len(words) == 0 {
		return false
	}
	// The same work on places the words leave open ("the level 2
	// ceilings" where Level 2 has a zone A and a zone B) is all of it.
	same := true
	for _, c := range cands {
		i, ok := r.index[c.ID]
		if !ok || !sameWords(r.places.without(r.norm[i]), words) {
			same = false
			break
		}
	}
	if same {
		return true
	}
	for _, c := range cands {
		i, ok := r.index[c.ID]
		if !ok {
			return false
		}
		// The name starts with its place.
		if ws := nameWords(c.Name); len(ws) == 0 || r.places.kindOf(ws[0]) == "" && !lexicon.IsLevelWord(ws[0]) {
			return false
		}
		trade := r.places.without(r.norm[i])
		if len(trade) <= len(words) || !sameWords(trade[:len(words)], words) {
			return false
		}
	}
	return true
}

// Place is the one place words name and nothing else ("level 4",
// "span 3", "Wing D": level_4, span_3, wing_d), for copies; a kind the
// schedule does not use is none.
func (r *Resolver) Place(words string) (string, bool) {
	p := strings.ToLower(words)
	places := r.placesOf(p)
	if len(places) != 1 || strings.HasSuffix(places[0], "_*") || !r.qualify(kindOfToken(places[0]), r.tradeWords(p)) {
		return "", false
	}
	return places[0], true
}

// qualify reports whether words are said with every place of a kind in
// the schedule's names, so name no work ("data" in "Data hall A raised
// floor", "Data hall B IST"; "yard" in "East plant yard chillers"): a
// place may be written with them.
func (r *Resolver) qualify(kind string, words []string) bool {
	if len(words) == 0 {
		return true
	}
	q, ok := r.qualifiers[kind]
	return ok && !slices.ContainsFunc(words, func(w string) bool { return !q[w] })
}

// OnPlace reports whether a name is on the place (a place token).
func (r *Resolver) OnPlace(name, place string) bool {
	return slices.Contains(r.places.normalize(name), place)
}

// PlaceLabel is a place token as a name writes it: "Level 5", "Span 3",
// "Wing D".
func PlaceLabel(place string) string {
	kd := kindOfToken(place)
	val := strings.TrimPrefix(place, kd+"_")
	if compass[val] {
		return sentenceCase(val) + " " + kd // "East wing"
	}
	if len(val) == 1 && val[0] >= 'a' && val[0] <= 'z' {
		val = strings.ToUpper(val)
	}
	return sentenceCase(kd) + " " + val
}

// Label is a place as the schedule's names write it ("WTG 05", "East
// plant", "hall C"), a new place as its kind's others are written ("WTG
// 06"); PlaceLabel where no name says its kind.
func (r *Resolver) Label(place string) string {
	kind := kindOfToken(place)
	if kind == "level" {
		return PlaceLabel(place)
	}
	var other, otherLabel string
	for i, a := range r.acts {
		for _, t := range r.norm[i] {
			if kindOfToken(t) != kind || strings.HasSuffix(t, "_*") || (t != place && other != "") {
				continue
			}
			l, ok := r.written(a.Name, t)
			if !ok {
				continue
			}
			if t == place {
				return l
			}
			other, otherLabel = t, l
		}
	}
	if other != "" {
		if l, ok := r.RenamePlace(otherLabel, other, place); ok {
			return l
		}
	}
	return PlaceLabel(place)
}

// written is the words of name that say place, as written, with a
// capital first letter.
func (r *Resolver) written(name, place string) (string, bool) {
	ws, i, ok := r.placeAt(name, place)
	if !ok {
		return "", false
	}
	l := name[ws[i].start:ws[i+1].end]
	return strings.ToUpper(l[:1]) + l[1:], true
}

// placeAt finds the two words of name that say place ("Pier 3", "East
// wing"): name's words and the first's index.
func (r *Resolver) placeAt(name, place string) ([]word, int, bool) {
	kind, val := kindOfToken(place), strings.TrimPrefix(place, kindOfToken(place)+"_")
	ws := phraseWords(name)
	for i := 0; i+1 < len(ws); i++ {
		a, b := ws[i].w, ws[i+1].w
		if v, _, ok := placeValue(b, r.places[kind]); ok && v == val && r.places.kindOf(a) == kind || compass[a] && a == val && r.places.kindOf(b) == kind {
			return ws, i, true
		}
	}
	return nil, 0, false
}

// RenamePlace writes name with the place from changed to the place to, of
// the same kind, as the name wrote it ("Pour slab Level 4" → "Pour slab
// Level 5", "Span 3 deck pour" → "Span 5 deck pour", "L4 ceilings" → "L5
// ceilings"); ok is false when the name does not say from in a way it can
// rewrite ("4th floor").
func (r *Resolver) RenamePlace(name, from, to string) (string, bool) {
	kind := kindOfToken(from)
	if kindOfToken(to) != kind {
		return "", false
	}
	fromVal, toVal := strings.TrimPrefix(from, kind+"_"), strings.TrimPrefix(to, kind+"_")
	ws := phraseWords(name)
	lower := make([]string, len(ws))
	for i, w := range ws {
		lower[i] = w.w
	}
	for i := range ws {
		var at word // the value's letters in the name
		switch {
		case kind == "level":
			n, used := lexicon.MatchLevel(lower[i:])
			if used == 0 || strconv.Itoa(n) != fromVal {
				continue
			}
			last := ws[i+used-1]
			j := last.end
			for j > last.start && isDigit(name[j-1]) {
				j--
			}
			if j == last.end {
				return "", false // "level four", "4th floor"
			}
			at = word{start: j, end: last.end}
		case r.places.kindOf(lower[i]) == kind && i+1 < len(ws):
			v, _, ok := placeValue(lower[i+1], r.places[kind])
			if !ok || v != fromVal {
				continue
			}
			at = ws[i+1]
		case compass[lower[i]] && lower[i] == fromVal && i+1 < len(ws) && r.places.kindOf(lower[i+1]) == kind:
			at = ws[i] // "East wing"
		default:
			continue
		}
		val := toVal
		if written := name[at.start:at.end]; len(written) > 1 && written[0] == '0' && isDigit(toVal[0]) {
			val = strings.Repeat("0", max(0, len(written)-len(toVal))) + toVal // "WTG 05" → "WTG 06"
		}
		switch written := name[at.start:at.end]; {
		case written == strings.ToLower(written):
		case len(written) > 1 && written[1:] == strings.ToLower(written[1:]):
			val = sentenceCase(val) // "East" → "West"
		default:
			val = strings.ToUpper(val)
		}
		return name[:at.start] + val + name[at.end:], true
	}
	return "", false
}

// PlacesOf lists the places a name or phrase is on: level_N and the
// schedule's kinds (pier_3); KIND_* for a kind said without a value.
func (r *Resolver) PlacesOf(p string) []string { return r.placesOf(p) }

// PlaceKinds are the kinds of place the schedule's names use besides
// levels ("pier", "span"), sorted.
func (r *Resolver) PlaceKinds() []string {
	out := make([]string, 0, len(r.places))
	for k := range r.places {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// PlaceFirst reports whether the schedule's names say a place of kind
// before their work ("Span 3 deck pour"), where levels come after it
// ("Painting Level 3"): new names are written the same way.
func (r *Resolver) PlaceFirst(kind string) bool {
	first, after := 0, 0
	for _, a := range r.acts {
		ws := nameWords(a.Name)
		for i, w := range ws {
			if r.places.kindOf(w) == kind || kind == "level" && lexicon.IsLevelWord(w) {
				if i == 0 {
					first++
				} else {
					after++
				}
				break
			}
		}
	}
	return first > after
}

// Tokens is a phrase or name as the resolver compares them: Normalize's
// tokens with the schedule's places as KIND_VALUE tokens.
func (r *Resolver) Tokens(p string) []string { return r.places.normalize(p) }

// IsPlace reports whether a token (of Tokens) is a place.
func (r *Resolver) IsPlace(t string) bool { return r.places.isPlace(t) }
