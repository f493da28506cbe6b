package embed

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/autoscheduler/autoscheduler/internal/lang/lexicon"
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
// The level words, trade phrases and synonyms are the lexicon's
// (internal/lang/lexicon); other place kinds (zones, blocks…) stay words.
//
// Every token is non-empty and has no spaces. Changing Normalize (or the
// lexicon tables it reads) changes the local embedder's vectors: bump
// localName when it does.
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
	for _, f := range accented {
		if strings.ContainsRune(f.from, r) {
			return f.to
		}
	}
	return r
}

// accented are the letters fold strips the accents of, by base letter.
var accented = []struct {
	from string
	to   rune
}{
	{"àáâãäåāăą", 'a'},
	{"çćĉċč", 'c'},
	{"èéêëēĕėęě", 'e'},
	{"ìíîïĩīĭįı", 'i'},
	{"ñńņňŉ", 'n'},
	{"òóôõöøōŏő", 'o'},
	{"ùúûüũūŭůűų", 'u'},
	{"ýÿŷ", 'y'},
}

// matchLevel reports the level token at the start of ws and how many words
// it used, or 0 words when there is none.
func matchLevel(ws []string) (string, int) {
	n, used := lexicon.MatchLevel(ws)
	if used == 0 {
		return "", 0
	}
	return levelToken(n), used
}

func levelToken(n int) string { return "level_" + strconv.Itoa(n) }

// phrases are lexicon.TradePhrases by their first word.
var phrases = func() map[string][]lexicon.Phrase {
	m := map[string][]lexicon.Phrase{}
	for _, p := range lexicon.TradePhrases {
		m[p.Words[0]] = append(m[p.Words[0]], p)
	}
	return m
}()

func matchPhrase(ws []string) ([]string, int) {
	for _, p := range phrases[ws[0]] {
		if len(ws) >= len(p.Words) && slices.Equal(ws[:len(p.Words)], p.Words) {
			return p.Canonical, len(p.Words)
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

// synonyms map a stemmed word to its canonical tokens (see
// lexicon.TradeSynonyms).
var synonyms = lexicon.Invert(lexicon.TradeSynonyms)
