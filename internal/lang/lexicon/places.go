package lexicon

import (
	"slices"
	"strconv"
	"strings"
)

// Kind is a kind of place a construction programme is broken down by.
type Kind string

// The kinds of place. Level is a numbered floor above ground; the other
// floors with names of their own are Basement, LowerGround, Ground,
// UpperGround, Mezzanine, Podium and Roof; the rest are the areas and
// packages P6 and MS Project programmes split work by (their WBS and
// activity codes).
const (
	Level       Kind = "level"
	Basement    Kind = "basement"
	LowerGround Kind = "lower_ground"
	Ground      Kind = "ground"
	UpperGround Kind = "upper_ground"
	Mezzanine   Kind = "mezzanine"
	Podium      Kind = "podium"
	Roof        Kind = "roof"
	Zone        Kind = "zone"
	Area        Kind = "area"
	Sector      Kind = "sector"
	Section     Kind = "section"
	Block       Kind = "block"
	Building    Kind = "building"
	Tower       Kind = "tower"
	Wing        Kind = "wing"
	Core        Kind = "core"
	Bay         Kind = "bay"
	Grid        Kind = "grid"
	Plot        Kind = "plot"
	Unit        Kind = "unit"
	Phase       Kind = "phase"
	Stage       Kind = "stage"
)

// Place is a location named in text: its kind and, for a numbered or
// lettered one, its number or letter ("2", "b"); "" for a floor named by
// its kind alone (the ground floor, the roof level).
type Place struct {
	Kind Kind
	ID   string
}

// Token is the place as one search token: level_2, zone_b, ground.
func (p Place) Token() string {
	if p.ID == "" {
		return string(p.Kind)
	}
	return string(p.Kind) + "_" + p.ID
}

// LevelWords name a level when a number follows them ("level 2", "L 2",
// "storey 2", "fl 2") or written glued to it ("L2", "lvl2", "storey2").
// British storey and American story are both here. On their own they stay
// ordinary words.
var LevelWords = append(slices.Clip(LevelNouns), LevelAbbreviations...)

// LevelNouns are the level words written out, LevelAbbreviations the short
// ones ("l" is read glued to its number or after a level word).
var (
	LevelNouns         = []string{"level", "floor", "storey", "story"}
	LevelAbbreviations = []string{"lvl", "lv", "flr", "fl", "l"}
)

// LevelWordsApart are the LevelWords that name a level apart from its
// number: after an ordinal or a floor's name ("2nd fl", "ground floor")
// and in "every storey", "per flr". "l" is a level only before its number.
var LevelWordsApart = slices.DeleteFunc(slices.Clone(LevelWords), func(w string) bool { return w == "l" })

// LevelPattern is MatchLevel as a regexp group, for finding a numbered
// level in text (add (?i) for any case, \b for whole words): a level word
// and one to three digits, spaced or glued ("level 2", "L2", "storey 02"),
// or its number in words ("level two"); or an ordinal and a level word
// ("2nd fl", "second storey"). Words may be joined by "-" or "_" as
// Normalize's tokens are ("Level-2").
var LevelPattern = `(?:` + Pattern(LevelWords) + `(?:[\s_-]*\d{1,3}|[\s_-]+` + Pattern(NumberWords) + `)` +
	`|(?:\d{1,3}(?:st|nd|rd|th)|` + Pattern(OrdinalWords) + `)[\s_-]+` + Pattern(LevelWordsApart) + `)`

// LevelPlurals are the plurals of LevelWords planners write ("levels 2 to
// 4", "all floors", "both storeys", "upper stories"); LevelNounPlurals
// those of LevelNouns.
var (
	LevelNounPlurals = []string{"levels", "floors", "storeys", "stories"}
	LevelPlurals     = append(slices.Clip(LevelNounPlurals), "lvls", "flrs")
)

// placeKinds are the kinds named by a word and a number or a letter:
// "zone 3", "Zone B", "block C", "building 2", "gridline 4", "phase 1".
// Glued marks ("zone3", "bldg2") are read too.
var placeKinds = []struct {
	kind    Kind
	words   []string
	plurals []string
}{
	{Basement, []string{"basement", "bsmt", "cellar"}, []string{"basements", "cellars"}},
	{Zone, []string{"zone", "zn"}, []string{"zones"}},
	{Area, []string{"area"}, []string{"areas"}},
	{Sector, []string{"sector"}, []string{"sectors"}},
	{Section, []string{"section", "sect"}, []string{"sections"}},
	{Block, []string{"block", "blk"}, []string{"blocks"}},
	{Building, []string{"building", "bldg", "bld"}, []string{"buildings", "bldgs"}},
	{Tower, []string{"tower"}, []string{"towers"}},
	{Wing, []string{"wing"}, []string{"wings"}},
	{Core, []string{"core"}, []string{"cores"}},
	{Bay, []string{"bay"}, []string{"bays"}},
	{Grid, []string{"grid", "gridline", "gl"}, []string{"grids", "gridlines"}},
	{Plot, []string{"plot", "lot"}, []string{"plots", "lots"}},
	{Unit, []string{"unit", "apartment", "apt", "flat"}, []string{"units", "apartments", "flats"}},
	{Phase, []string{"phase", "ph"}, []string{"phases"}},
	{Stage, []string{"stage", "stg"}, []string{"stages"}},
}

// specialLevels are the floors named by words, not numbers. Each is read
// with a level word after it ("ground floor", "roof level"), or as its own
// word where that word means nothing else ("mezzanine", "GF"): "ground"
// and "roof" alone are also work ("ground beams", "roof sheeting").
var specialLevels = []struct {
	kind  Kind
	words []string // the first word(s); a level word must follow
	alone []string // words that name the floor on their own
}{
	{LowerGround, []string{"lower ground"}, []string{"lg", "lgf"}},
	{UpperGround, []string{"upper ground"}, []string{"ug", "ugf"}},
	{Ground, []string{"ground"}, []string{"gf"}},
	{Mezzanine, []string{"mezzanine", "mezz"}, []string{"mezzanine", "mezz"}},
	{Podium, []string{"podium"}, nil},
	{Roof, []string{"roof", "rooftop"}, []string{"rf"}},
}

var numberWords = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
	"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}

var ordinalWords = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
	"sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10,
}

// NumberWords are the numbers written as words that count levels: zero to
// ten. Ordinals are first to tenth.
var (
	NumberWords  = keys(numberWords)
	OrdinalWords = keys(ordinalWords)
)

func keys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// levelSingular is each of LevelPlurals' singular.
var levelSingular = map[string]string{"levels": "level", "lvls": "lvl", "floors": "floor", "flrs": "flr", "storeys": "storey", "stories": "story"}

// LevelSingulars lists each level plural and its singular, each followed by
// suffix, as strings.NewReplacer takes them: "levels ", "level ", ….
func LevelSingulars(suffix string) []string {
	var out []string
	for _, p := range LevelPlurals {
		out = append(out, p+suffix, levelSingular[p]+suffix)
	}
	return out
}

// IsLevelWord reports whether w names a level when a number follows it
// (singular or plural).
func IsLevelWord(w string) bool { return in(LevelWords, w) || in(LevelPlurals, w) }

func in(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// Number reads a count of levels: one to three digits (leading zeros
// allowed) or a word from zero to ten.
func Number(s string) (int, bool) {
	if n, ok := digits(s); ok {
		return n, true
	}
	n, ok := numberWords[s]
	return n, ok
}

// Ordinal reads "third" and "3rd" (any suffix: planners write "2th").
func Ordinal(s string) (int, bool) {
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

// digits parses one to three digits, leading zeros allowed.
func digits(s string) (int, bool) {
	if s == "" || len(s) > 3 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// MatchLevel reads the numbered level at the start of ws (lower-case words
// of letters and digits) and how many words it used, 0 when there is none.
// Level 1 is the first floor (the schedules we import number floors that
// way), so "Level 2", "level two", "L2", "lvl 2", "floor 2", "storey 2",
// "second floor" and "2nd storey" are all level 2. "Ground floor" is not a
// numbered level: whether it is level 0 or 1 depends on the country (see
// MatchPlace).
func MatchLevel(ws []string) (n, used int) {
	if len(ws) == 0 {
		return 0, 0
	}
	w := ws[0]
	if n, ok := glued(w, LevelWords); ok {
		return n, 1
	}
	if len(ws) < 2 {
		return 0, 0
	}
	if in(LevelWords, w) {
		if n, ok := Number(ws[1]); ok {
			return n, 2
		}
	}
	if in(LevelWordsApart, ws[1]) {
		if n, ok := Ordinal(w); ok {
			return n, 2
		}
	}
	return 0, 0
}

// glued reads a mark written glued to its number: "l2", "lvl02", "zone3".
func glued(w string, prefixes []string) (int, bool) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(w, p); ok {
			if n, ok := digits(rest); ok {
				return n, true
			}
		}
	}
	return 0, false
}

// IsMark reports whether w is a place written as one word: a level or
// another kind glued to its number ("l4", "storey2", "zone3", "bldg2"), or
// a named floor's abbreviation ("gf", "lgf").
func IsMark(w string) bool {
	if p, n := MatchPlace([]string{w}); n == 1 && p.Kind != "" {
		return true
	}
	return false
}

// MatchPlace reads the place at the start of ws (lower-case words of
// letters and digits) and how many words it used, 0 when there is none:
// a numbered level (MatchLevel); a named floor ("ground floor", "lower
// ground level", "roof level", "mezzanine", "GF"); a basement ("basement",
// "basement 2", "B2" is not read: it is as often an activity id); or
// another kind with its number or letter ("zone 3", "Zone B", "block C",
// "gridline 4", "phase 1", "building two", "zone3").
func MatchPlace(ws []string) (Place, int) {
	if n, used := MatchLevel(ws); used > 0 {
		return Place{Kind: Level, ID: strconv.Itoa(n)}, used
	}
	if len(ws) == 0 {
		return Place{}, 0
	}
	for _, s := range specialLevels {
		for _, first := range s.words {
			f := strings.Fields(first)
			if len(ws) > len(f) && slicesEqual(ws[:len(f)], f) && in(LevelWordsApart, ws[len(f)]) {
				return Place{Kind: s.kind}, len(f) + 1
			}
		}
		if in(s.alone, ws[0]) {
			return Place{Kind: s.kind}, 1
		}
	}
	for _, k := range placeKinds {
		if n, ok := glued(ws[0], k.words); ok && len(ws[0]) > 2 {
			return Place{Kind: k.kind, ID: strconv.Itoa(n)}, 1
		}
		if !in(k.words, ws[0]) {
			continue
		}
		if len(ws) > 1 {
			if n, ok := Number(ws[1]); ok {
				return Place{Kind: k.kind, ID: strconv.Itoa(n)}, 2
			}
			if len(ws[1]) == 1 && ws[1][0] >= 'a' && ws[1][0] <= 'z' {
				return Place{Kind: k.kind, ID: ws[1]}, 2
			}
		}
		if k.kind == Basement {
			return Place{Kind: Basement}, 1
		}
	}
	return Place{}, 0
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
