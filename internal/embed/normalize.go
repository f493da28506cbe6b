package embed

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Normalize turns text into the canonical tokens the local embedder hashes.
// Planners say the same thing many ways; Normalize makes the common ways one
// token, so "Drywall Level 1" and "plasterboard on the 1st floor" share words.
//
// In order:
//   - Lower-case, fold accents (façade → facade), drop apostrophes
//     (builder's → builders), split on anything that is not a letter or a
//     digit; a decimal point between digits stays (1.5).
//   - Levels become one token level_N. Level 1 is the first floor (the
//     schedules we import number floors that way): "Level 1", "level one",
//     "L1", "lvl 1", "floor 1", "storey 1", "first floor", "1st floor" all
//     become level_1. Words and ordinals cover one to ten (first…tenth,
//     1st…10th); digits any level up to 999. "Ground floor" is left alone:
//     whether it is Level 0 or Level 1 depends on the country, and the words
//     still match "ground slab" and "ground beams".
//   - Trade phrases become one token: rough-in / first fix → rough_in,
//     fit-out / fit out / fitout → fit_out, set-up → setup, gypsum board →
//     drywall, air conditioning → hvac, steel fixing → rebar, handed over →
//     handover, external works → external_works. This happens before stop
//     words go, because "in" and "up" are stop words on their own.
//   - Stop words go: function words (the, on, of, …) and words that carry
//     nothing in a schedule query ("activities", "tasks", "works").
//   - Plurals are stemmed (walls → wall, finishes → finish, activities →
//     activity).
//   - Trade synonyms map to one canonical token (see synonyms):
//     plasterboard/partition → drywall, ductwork → hvac, roofing → roof,
//     pour → concrete, reinforcement → rebar, elevator → lift, and MEP
//     expands to mechanical, electrical and plumbing.
//
// Every token is non-empty and has no spaces. Changing Normalize changes the
// local embedder's vectors: bump localName when it does.
func Normalize(text string) []string {
	words := tokenize(text)
	out := make([]string, 0, len(words)+2)
	for i := 0; i < len(words); {
		if tok, n := matchLevel(words[i:]); n > 0 {
			out = append(out, tok)
			i += n
			continue
		}
		if canon, n := matchPhrase(words[i:]); n > 0 {
			out = append(out, canon...)
			i += n
			continue
		}
		w := words[i]
		i++
		if stopwords[w] {
			continue
		}
		w = stem(w)
		if stopwords[w] {
			continue
		}
		if canon, ok := synonyms[w]; ok {
			out = append(out, canon...)
			continue
		}
		out = append(out, w)
	}
	return out
}

// tokenize lower-cases, folds accents and splits text into words of letters
// and digits.
func tokenize(text string) []string {
	words := make([]string, 0, len(text)/5+1)
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	for i, r := range text {
		r = fold(unicode.ToLower(r))
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur = utf8.AppendRune(cur, r)
		case r == '\'' || r == '’':
			// builder's → builders: one word, which stemming then
			// treats like any plural.
		case r == '.' && len(cur) > 0 && isDigit(cur[len(cur)-1]) && i+1 < len(text) && isDigit(text[i+1]):
			cur = append(cur, '.') // 1.5 stays one number
		default:
			flush()
		}
	}
	flush()
	return words
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// fold strips the accents planners' spell-checkers add (façade, café).
func fold(r rune) rune {
	if r < 0xC0 || r > 0x17F {
		return r
	}
	switch {
	case strings.ContainsRune("àáâãäåāăą", r):
		return 'a'
	case strings.ContainsRune("çćĉċč", r):
		return 'c'
	case strings.ContainsRune("èéêëēĕėęě", r):
		return 'e'
	case strings.ContainsRune("ìíîïĩīĭįı", r):
		return 'i'
	case strings.ContainsRune("ñńņňŉ", r):
		return 'n'
	case strings.ContainsRune("òóôõöøōŏő", r):
		return 'o'
	case strings.ContainsRune("ùúûüũūŭůűų", r):
		return 'u'
	case strings.ContainsRune("ýÿŷ", r):
		return 'y'
	}
	return r
}

// levelWords name a floor when a number follows them ("level 2", "L 2",
// "storey 2"). On their own they stay ordinary words.
var levelWords = map[string]bool{
	"level": true, "lvl": true, "lv": true, "l": true,
	"floor": true, "flr": true, "fl": true,
	"storey": true, "story": true,
}

// levelPrefixes are the words written glued to the number: "L1", "lvl2".
var levelPrefixes = []string{"level", "lvl", "lv", "l", "floor", "flr", "fl", "storey", "story"}

var numberWords = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
	"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}

var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
	"sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}

// matchLevel reports the level token at the start of ws and how many words
// it used, or 0 words when there is none.
func matchLevel(ws []string) (string, int) {
	w := ws[0]
	for _, p := range levelPrefixes {
		if rest, ok := strings.CutPrefix(w, p); ok {
			if n, ok := digits(rest); ok {
				return levelToken(n), 1
			}
		}
	}
	if len(ws) < 2 {
		return "", 0
	}
	if levelWords[w] {
		if n, ok := digits(ws[1]); ok {
			return levelToken(n), 2
		}
		if n, ok := numberWords[ws[1]]; ok {
			return levelToken(n), 2
		}
	}
	if levelWords[ws[1]] && ws[1] != "l" {
		if n, ok := ordinal(w); ok {
			return levelToken(n), 2
		}
	}
	return "", 0
}

// digits parses a level number: one to three digits, leading zeros allowed.
func digits(s string) (int, bool) {
	if s == "" || len(s) > 3 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// ordinal parses "third" and "3rd" (any suffix: planners write "2th").
func ordinal(s string) (int, bool) {
	if n, ok := ordinalWords[s]; ok {
		return n, true
	}
	for _, suffix := range []string{"st", "nd", "rd", "th"} {
		if num, ok := strings.CutSuffix(s, suffix); ok {
			return digits(num)
		}
	}
	return 0, false
}

func levelToken(n int) string { return "level_" + strconv.Itoa(n) }

// phrases are multi-word trade terms, matched on lower-cased words before
// stop words and stemming. The first word is the key.
var phrases = map[string][]struct {
	rest  []string
	canon []string
}{
	"rough":  {{[]string{"in"}, []string{"rough_in"}}},
	"first":  {{[]string{"fix"}, []string{"rough_in"}}},
	"1st":    {{[]string{"fix"}, []string{"rough_in"}}},
	"second": {{[]string{"fix"}, []string{"second_fix"}}},
	"2nd":    {{[]string{"fix"}, []string{"second_fix"}}},
	"fit":    {{[]string{"out"}, []string{"fit_out"}}, {[]string{"outs"}, []string{"fit_out"}}},
	"set":    {{[]string{"up"}, []string{"setup"}}},
	"gypsum": {{[]string{"board"}, []string{"drywall"}}, {[]string{"boards"}, []string{"drywall"}}},
	"plaster": {
		{[]string{"board"}, []string{"drywall"}},
		{[]string{"boards"}, []string{"drywall"}},
	},
	"air": {
		{[]string{"conditioning"}, []string{"hvac"}},
		{[]string{"con"}, []string{"hvac"}},
	},
	"steel": {
		{[]string{"fixing"}, []string{"rebar"}},
		{[]string{"fixer"}, []string{"rebar"}},
		{[]string{"fixers"}, []string{"rebar"}},
	},
	"hand":   {{[]string{"over"}, []string{"handover"}}},
	"handed": {{[]string{"over"}, []string{"handover"}}},
	"external": {
		{[]string{"works"}, []string{"external_works"}},
		{[]string{"work"}, []string{"external_works"}},
	},
}

func matchPhrase(ws []string) ([]string, int) {
	for _, p := range phrases[ws[0]] {
		if len(ws) <= len(p.rest) {
			continue
		}
		match := true
		for j, r := range p.rest {
			if ws[1+j] != r {
				match = false
				break
			}
		}
		if match {
			return p.canon, 1 + len(p.rest)
		}
	}
	return nil, 0
}

// stopwords carry no meaning for search: function words, and words every
// schedule query has ("activities", "tasks", "show me").
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true,
	"on": true, "in": true, "at": true, "to": true, "for": true, "by": true,
	"with": true, "from": true, "into": true, "onto": true, "per": true,
	"all": true, "is": true, "are": true, "be": true, "been": true,
	"was": true, "were": true, "it": true, "its": true, "this": true,
	"that": true, "these": true, "those": true, "their": true, "s": true,
	"show": true, "find": true, "list": true, "me": true, "my": true,
	"what": true, "which": true, "please": true,
	"activity": true, "task": true,
	// "Roof works", "the works": the trade says what; "works" says nothing.
	"work": true,
}

// stem strips English plurals, conservatively: words of four letters or
// fewer, and endings that are not plurals (glass, status, basis), stay.
func stem(w string) string {
	if len(w) <= 3 || !isLetters(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"),
		strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "shes"),
		strings.HasSuffix(w, "xes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"),
		strings.HasSuffix(w, "us"),
		strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// synonyms map a stemmed word to its canonical tokens. Canonical tokens are
// the words the example schedules use most, so an unmapped document word
// still meets a mapped query word.
var synonyms = invert([]group{
	{"drywall", []string{"plasterboard", "sheetrock", "gyprock", "partition"}},
	{"hvac", []string{"ductwork", "duct", "ducting", "aircon", "ventilation"}},
	// MEP names three trades; a query for it should meet each of them.
	{"mechanical electrical plumbing", []string{"mep"}},
	{"electrical", []string{"electric", "electrician"}},
	{"plumbing", []string{"plumber"}},
	{"fit_out", []string{"fitout"}},
	{"roof", []string{"roofing", "rooftop"}},
	{"concrete", []string{"pour", "poured", "pouring"}},
	{"rebar", []string{"reinforcement", "reinforcing", "reinforced"}},
	// Trades named by the work or by the worker.
	{"paint", []string{"painting", "painted", "painter"}},
	{"tile", []string{"tiling", "tiled", "tiler"}},
	{"pile", []string{"piling"}},
	{"facade", []string{"cladding"}},
	{"lift", []string{"elevator"}},
	{"waterproofing", []string{"waterproof"}},
	{"structure", []string{"structural"}},
	{"finish", []string{"finishing"}},
	// Set-up, commissioning, handover.
	{"setup", []string{"establishment"}},
	{"mobilisation", []string{"mobilization"}},
	{"demobilisation", []string{"demobilization"}},
	{"commission", []string{"commissioning", "commissioned"}},
	{"decommission", []string{"decommissioning"}},
	{"test", []string{"testing", "tested"}},
})

// group lists the words that become canonical (one token or several,
// separated by spaces).
type group struct {
	canonical string
	words     []string
}

func invert(groups []group) map[string][]string {
	m := map[string][]string{}
	for _, g := range groups {
		for _, w := range g.words {
			m[w] = append(m[w], strings.Fields(g.canonical)...)
		}
	}
	return m
}
