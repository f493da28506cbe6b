package lang

import (
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word or mark of a request. word is what was written, lower
// case, typo-corrected; canon is what the grammar reads (a verb's canonical
// form, a phrase's one token, digits for number words). start and end are
// byte offsets in the request, so any span of tokens gives back the words
// the person wrote.
type token struct {
	word, canon string
	start, end  int
	quoted      bool // a quoted name: never corrected or re-read
	fixed       bool // typo-corrected
}

// text is a tokenized request.
type text struct {
	src  string
	toks []token
}

// span is the words the person wrote for toks[i:j].
func (t *text) span(i, j int) string {
	if i >= j || i >= len(t.toks) {
		return ""
	}
	return strings.TrimSpace(t.src[t.toks[i].start:t.toks[j-1].end])
}

// hyphenated reports whether token k is joined to a word by a hyphen
// ("tie-in", "link-road"): part of a compound word.
func (t *text) hyphenated(k int) bool {
	tk := t.toks[k]
	return tk.start > 0 && t.src[tk.start-1] == '-' || tk.end < len(t.src) && t.src[tk.end] == '-'
}

// wordsOf is toks[i:j] as corrected lower-case words, quotes kept, for
// resolving against the schedule.
func (t *text) wordsOf(i, j int) string {
	var b strings.Builder
	for k := i; k < j && k < len(t.toks); k++ {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if t.toks[k].quoted {
			b.WriteString(`"` + t.toks[k].word + `"`)
			continue
		}
		b.WriteString(t.toks[k].word)
	}
	return b.String()
}

// tokenize splits src into tokens. Newlines, ";" and sentence-ending full
// stops become the separator token ";"; quoted text is one token.
func tokenize(src string) *text {
	t := &text{src: src}
	emit := func(word, canon string, start, end int, quoted bool) {
		t.toks = append(t.toks, token{word: word, canon: canon, start: start, end: end, quoted: quoted})
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == '\n' || r == ';':
			emit(";", ";", i, i+size, false)
			i += size
		case unicode.IsSpace(r):
			i += size
		case r == '"' || r == '“' || r == '”' || r == '«' || ((r == '\'' || r == '‘') && atWordStart(src, i)):
			closeAt, closeSize := closingQuote(src, i+size, r)
			if closeAt < 0 {
				i += size // a stray quote
				continue
			}
			inner := strings.TrimSpace(src[i+size : closeAt])
			if inner != "" {
				emit(inner, "@q", i, closeAt+closeSize, true)
			}
			i = closeAt + closeSize
		case r == '-' && strings.HasPrefix(src[i:], "->"):
			emit("->", "->", i, i+2, false)
			i += 2
		case r == '→':
			emit("->", "->", i, i+size, false)
			i += size
		case r == '-' && i+1 < len(src) && isDigit(src[i+1]) && i > 0 && isDigit(src[i-1]), r == '-' && loneLetterAt(src, i-1) && loneLetterAt(src, i+1):
			emit("-", "to", i, i+1, false) // "levels 2-4", "zones A-C"
			i++
		case r == '-' && i+1 < len(src) && isDigit(src[i+1]) && !afterMonth(src, i):
			j := scanWord(src, i+1)
			emit(strings.ToLower(src[i:j]), strings.ToLower(src[i:j]), i, j, false)
			i = j
		case r == '%':
			emit("%", "percent", i, i+1, false) // "60% complete"
			i++
		case r == '+':
			emit("+", "plus", i, i+1, false)
			i++
		case r == '&' || r == '/':
			emit(string(r), "and", i, i+1, false)
			i++
		case (r == '…' || strings.HasPrefix(src[i:], "..")) && rangeEllipsis(src, i):
			// "sections 1, 2 ... 4": a range, not the end of a sentence.
			j := i + size
			for j < len(src) && src[j] == '.' {
				j++
			}
			emit("to", "to", i, j, false)
			i = j
		case r == '.' || r == '!' || r == '?':
			if r == '?' {
				emit("?", "?", i, i+1, false)
			} else {
				emit(".", ";", i, i+1, false)
			}
			i++
		case r == ',' || r == ':' || r == '(' || r == ')' || r == '=':
			emit(string(r), map[rune]string{',': ",", ':': ":", '(': "(", ')': ")", '=': "to"}[r], i, i+1, false)
			i++
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := scanWord(src, i)
			j = chainageEnd(src, i, j)
			w := foldWord(src[i:j])
			emit(w, w, i, j, false)
			i = j
		default:
			i += size // hyphens between words and other marks separate words
		}
	}
	return t
}

// scanWord reads a word from i: letters, digits, apostrophes inside it
// (dropped later) and a decimal point between digits.
func scanWord(src string, i int) int {
	j := i
	for j < len(src) {
		r, size := utf8.DecodeRuneInString(src[j:])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
		case (r == '\'' || r == '’') && j+size < len(src) && isLetterAt(src, j+size) && j > i:
		case r == '.' && j > i && isDigit(src[j-1]) && j+1 < len(src) && isDigit(src[j+1]):
		default:
			return j
		}
		j += size
	}
	return j
}

// chainageEnd extends the number src[i:j] over a chainage's metres
// ("Ch 1+250", "2+800"): one token, as names write it, not "1 plus 250"
// (a lag).
func chainageEnd(src string, i, j int) int {
	for k := i; k < j; k++ {
		if !isDigit(src[k]) {
			return j
		}
	}
	if j+1 >= len(src) || src[j] != '+' || !isDigit(src[j+1]) {
		return j
	}
	k := j + 1
	for k < len(src) && isDigit(src[k]) {
		k++
	}
	if k-(j+1) != 3 || k < len(src) && isWordByte(src[k]) {
		return j
	}
	return k
}

// afterMonth reports whether the word before i is a month's name: in
// "18-Oct-27" the hyphen joins a date's parts, it is no minus sign.
func afterMonth(src string, i int) bool {
	j := i
	for j > 0 && (src[j-1] >= 'a' && src[j-1] <= 'z' || src[j-1] >= 'A' && src[j-1] <= 'Z') {
		j--
	}
	_, ok := monthNames[strings.ToLower(src[j:i])]
	return ok && j < i
}

// rangeEllipsis reports whether the dots at i stand between two values
// of a list of places ("1, 2 ... 4", "section 2 … section 4"): a value
// before them, and after them a number, maybe after a word.
func rangeEllipsis(src string, i int) bool {
	k := i - 1
	for k >= 0 && src[k] == ' ' {
		k--
	}
	if k < 0 || !isDigit(src[k]) && !loneLetterAt(src, k) {
		return false
	}
	j := i
	for j < len(src) && (src[j] == '.' || src[j] == ' ') {
		j++
	}
	if strings.HasPrefix(src[i:], "…") {
		j = i + len("…")
		for j < len(src) && src[j] == ' ' {
			j++
		}
	}
	if j < len(src) && isDigit(src[j]) {
		return true
	}
	w := j
	for w < len(src) && isWordByte(src[w]) && !isDigit(src[w]) {
		w++
	}
	return w > j && w+1 < len(src) && src[w] == ' ' && (isDigit(src[w+1]) || loneLetterAt(src, w+1))
}

// loneLetterAt reports whether src[i] is an ASCII letter standing alone
// as a word ("A" in "zones A-C"; a hyphen on either side joins).
func loneLetterAt(src string, i int) bool {
	if i < 0 || i >= len(src) || !(src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z') {
		return false
	}
	return (i == 0 || !isWordByte(src[i-1])) && (i+1 == len(src) || !isWordByte(src[i+1]))
}

func isLetterAt(src string, i int) bool {
	r, _ := utf8.DecodeRuneInString(src[i:])
	return unicode.IsLetter(r)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isWordByte(c byte) bool {
	return c >= 0x80 || isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func atWordStart(src string, i int) bool { return i == 0 || !isWordByte(src[i-1]) }

// closingQuote finds the quote closing one opened with open.
func closingQuote(src string, from int, open rune) (int, int) {
	want := map[rune]string{'"': `"”`, '“': `”"`, '”': `”"`, '«': "»", '\'': "'’", '‘': "’'"}[open]
	for j := from; j < len(src); {
		r, size := utf8.DecodeRuneInString(src[j:])
		if strings.ContainsRune(want, r) && (open != '\'' && open != '‘' || j+size >= len(src) || !isWordByte(src[j+size])) {
			return j, size
		}
		j += size
	}
	return -1, 0
}

// foldWord lower-cases a word and drops its apostrophes (can't → cant).
func foldWord(w string) string {
	w = strings.ToLower(w)
	for _, poss := range []string{"'s", "’s"} {
		w = strings.TrimSuffix(w, poss)
	}
	return apostrophes.Replace(w)
}

var apostrophes = strings.NewReplacer("'", "", "’", "")

// vocabulary is the set of words typo correction corrects to.
type vocabulary map[string]bool

// correct replaces each unknown word of three or more letters by the one
// known word within edit distance 1 (2 for words of nine letters or more),
// when exactly one is that close; otherwise the word stays as written.
//
// Each distinct word is looked up once, among the known words of about its
// length only, so a long prompt costs time in proportion to its words.
func (t *text) correct(v vocabulary) {
	var byLen map[int][]known    // the known words by length, built on first need
	fixes := map[string]string{} // word → its correction, "" for none
	for k := range t.toks {
		tk := &t.toks[k]
		if tk.quoted || len(tk.word) < 4 || v[tk.word] || !isLetters(tk.word) {
			continue
		}
		best, seen := fixes[tk.word]
		if !seen {
			if byLen == nil {
				byLen = map[int][]known{}
				for w := range v {
					byLen[len(w)] = append(byLen[len(w)], known{w, letterSet(w)})
				}
			}
			best = closest(tk.word, byLen)
			fixes[tk.word] = best
		}
		if best != "" {
			tk.word, tk.canon, tk.fixed = best, best, true
		}
	}
}

// closest is the one known word within edit distance 1 of word (2 for
// words of nine letters or more), or "" when none or several are that
// close.
func closest(word string, byLen map[int][]known) string {
	letters := letterSet(word)
	limit := 1
	if len(word) >= 9 {
		limit = 2
	}
	best, bestD, ties := "", limit+1, 0
	for n := len(word) - limit; n <= len(word)+limit; n++ {
		for _, w := range byLen[n] {
			if fewerLetters(letters, w.letters) > limit {
				continue // too far whatever the order of the letters
			}
			d := editDistance(word, w.w, limit)
			switch {
			case d < bestD:
				best, bestD, ties = w.w, d, 1
			case d == bestD:
				ties++
			}
		}
	}
	if ties == 1 && bestD <= limit {
		return best
	}
	return ""
}

func isLetters(w string) bool {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return w != ""
}

// known is a word typo correction corrects to, with its letters as a set.
type known struct {
	w       string
	letters uint64
}

// letterSet is the set of a word's letters, as bits (runes past "z"
// share bits: the set is then a coarser one, never a wrong one).
func letterSet(w string) uint64 {
	var m uint64
	for _, r := range w {
		m |= 1 << (uint32(r) % 64)
	}
	return m
}

// fewerLetters is a lower bound of the edit distance between words with
// letter sets a and b: a letter one has that the other lacks takes an
// edit (a swap changes no letter).
func fewerLetters(a, b uint64) int {
	return max(bits.OnesCount64(a&^b), bits.OnesCount64(b&^a))
}

// editDistance is the optimal-string-alignment distance (a swap of two
// neighbouring letters counts one), or limit+1 when it exceeds limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// canonicalize maps verbs, multi-word phrases, number words and units to
// the tokens the grammar reads. It runs after typo correction.
func (t *text) canonicalize() {
	var out []token
	for i := 0; i < len(t.toks); {
		if t.toks[i].quoted {
			out = append(out, t.toks[i])
			i++
			continue
		}
		if canon, n := t.phraseAt(i); n > 0 {
			merged := token{word: t.wordsOf(i, i+n), canon: canon, start: t.toks[i].start, end: t.toks[i+n-1].end}
			if canon != "" {
				out = append(out, merged)
			}
			i += n
			continue
		}
		tk := t.toks[i]
		if v, ok := verbs[tk.word]; ok {
			tk.canon = v
		} else if v, ok := finishWords[tk.word]; ok {
			tk.canon = v
		} else if v, ok := startWords[tk.word]; ok {
			tk.canon = v
		}
		if n, ok := splitNumberUnit(tk.word); ok {
			// "3d", "2wks": a number glued to its unit.
			tk.canon = n
		}
		out = append(out, tk)
		i++
	}
	t.toks = out
	t.numbers()
}

func (t *text) phraseAt(i int) (string, int) {
	for _, p := range phrases {
		if i+len(p.words) > len(t.toks) {
			continue
		}
		ok := true
		for k, w := range p.words {
			if t.toks[i+k].quoted || t.toks[i+k].word != w {
				ok = false
				break
			}
		}
		if ok {
			return p.canon, len(p.words)
		}
	}
	return "", 0
}

// splitNumberUnit reads "3d", "1.5days", "2wks", "4h" as "3 days" etc.
func splitNumberUnit(w string) (string, bool) {
	j := 0
	for j < len(w) && (isDigit(w[j]) || w[j] == '.') {
		j++
	}
	if j == 0 || j == len(w) {
		return "", false
	}
	if _, err := strconv.ParseFloat(w[:j], 64); err != nil {
		return "", false
	}
	u, ok := units[w[j:]]
	if !ok {
		return "", false
	}
	return w[:j] + " " + u, true
}

// numbers turns number words before a unit into digits, joins "2 +0.5"
// into 2.5, and canonicalizes units after a number ("3 working days" →
// "3 days"; "a week" → "1 weeks").
func (t *text) numbers() {
	for i := range t.toks {
		tk := &t.toks[i]
		if tk.word == "zero" && !tk.quoted {
			tk.canon = "0"
			continue
		}
		if n, ok := numberWords[tk.word]; ok && !tk.quoted && tk.canon == tk.word {
			if next := t.nextUnit(i + 1); next > 0 {
				tk.canon = n
			}
		}
	}
	var out []token
	for i := 0; i < len(t.toks); i++ {
		tk := t.toks[i]
		if isNumber(tk.canon) && i+1 < len(t.toks) && t.toks[i+1].canon == "+0.5" {
			v, _ := strconv.ParseFloat(tk.canon, 64)
			tk.canon = strconv.FormatFloat(v+0.5, 'f', -1, 64)
			tk.end = t.toks[i+1].end
			i++
		}
		if isNumber(tk.canon) || strings.HasSuffix(tk.canon, " days") || strings.HasSuffix(tk.canon, " weeks") || strings.HasSuffix(tk.canon, " hours") {
			// "N working days", "N calendar days", "N business days".
			j := i + 1
			for j < len(t.toks) && (t.toks[j].word == "working" || t.toks[j].word == "work" || t.toks[j].word == "business" || t.toks[j].word == "calendar" || t.toks[j].word == "man" ||
				t.toks[j].word == "more" || t.toks[j].word == "extra" || t.toks[j].word == "additional" || t.toks[j].word == "further") {
				j++
			}
			if isNumber(tk.canon) && j < len(t.toks) {
				if u, ok := units[t.toks[j].word]; ok && !t.toks[j].quoted {
					tk.canon += " " + u
					tk.end = t.toks[j].end
					i = j
				}
			}
		}
		out = append(out, tk)
	}
	t.toks = out
}

// nextUnit reports whether a unit follows at i (possibly after "working").
func (t *text) nextUnit(i int) int {
	for i < len(t.toks) && (t.toks[i].word == "working" || t.toks[i].word == "work" || t.toks[i].word == "business" || t.toks[i].word == "more" || t.toks[i].word == "extra") {
		i++
	}
	if i < len(t.toks) {
		if _, ok := units[t.toks[i].word]; ok {
			return i
		}
		if t.toks[i].canon == "+0.5" {
			return i
		}
	}
	return 0
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && s != "" && s != "+0.5" && !strings.ContainsAny(s, "eEnN")
}
