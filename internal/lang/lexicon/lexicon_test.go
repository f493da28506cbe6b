package lexicon

import (
	"regexp"
	"strings"
	"testing"
)

// TestMatchLevel: every way of writing a numbered level is the same level,
// British and American spellings alike: "second floor" = L2 = level 2 =
// storey 2.
func TestMatchLevel(t *testing.T) {
	for _, tc := range levelCases {
		n, used := MatchLevel(strings.Fields(tc.text))
		if used != tc.used || used > 0 && n != tc.n {
			t.Errorf("MatchLevel(%q) = %d, %d words; want %d, %d words", tc.text, n, used, tc.n, tc.used)
		}
	}
}

// levelCases are ways of writing a level, and words that are none: the
// level and how many words MatchLevel reads.
var levelCases = []struct {
	text string
	n    int // 0 words used when -1
	used int
}{
	{"level 2", 2, 2}, {"level two", 2, 2}, {"l2", 2, 1}, {"l 2", 2, 2}, {"lvl 2", 2, 2}, {"lvl2", 2, 1},
	{"lv2", 2, 1}, {"lv 2", 2, 2}, {"floor 2", 2, 2}, {"flr 2", 2, 2}, {"fl2", 2, 1}, {"fl 2", 2, 2},
	{"storey 2", 2, 2}, {"storey2", 2, 1}, {"story 2", 2, 2}, {"level 02", 2, 2},
	{"second floor", 2, 2}, {"2nd floor", 2, 2}, {"second storey", 2, 2}, {"2nd story", 2, 2},
	{"second level", 2, 2}, {"2th floor", 2, 2}, {"tenth floor", 10, 2}, {"level ten", 10, 2},
	{"level 120 drywall", 120, 2}, {"first floor", 1, 2}, {"level zero", 0, 2},
	// Not a numbered level.
	{"level", -1, 0}, {"level 1234", -1, 0}, {"ground floor", -1, 0}, {"2nd l", -1, 0},
	{"second fix", -1, 0}, {"floor tiling", -1, 0}, {"l", -1, 0}, {"lift 2", -1, 0}, {"", -1, 0},
}

// TestLevelPattern: LevelPattern finds in text the levels MatchLevel
// reads in words, whichever way they are written, and nothing else: the
// scope's group phrases and per-level placements are built on it.
func TestLevelPattern(t *testing.T) {
	whole := regexp.MustCompile(`(?i)^` + LevelPattern + `$`)
	for _, tc := range levelCases {
		ws := strings.Fields(tc.text)
		want := tc.used > 0 && tc.used == len(ws)
		if got := whole.MatchString(tc.text); got != want {
			t.Errorf("LevelPattern matches %q: %v, want %v (MatchLevel reads %d of %d words)", tc.text, got, want, tc.used, len(ws))
		}
	}
	for _, s := range []string{"Level-2", "STOREY_4", "2nd-floor", "L 12", "Fl3", "Second FLR"} {
		if !whole.MatchString(s) {
			t.Errorf("LevelPattern does not match %q", s)
		}
	}
}

// TestMatchPlace: each kind of place, its spellings and abbreviations.
func TestMatchPlace(t *testing.T) {
	for _, tc := range []struct {
		text  string
		token string // "" when no place
		used  int
	}{
		// Numbered levels are one token whichever way they are written.
		{"second floor", "level_2", 2}, {"l2", "level_2", 1}, {"level 2", "level_2", 2}, {"storey 2", "level_2", 2},
		{"story two", "level_2", 2},
		// Floors with names.
		{"basement", "basement", 1}, {"basement 2", "basement_2", 2}, {"bsmt 1", "basement_1", 2}, {"cellar", "basement", 1},
		{"ground floor", "ground", 2}, {"ground level", "ground", 2}, {"ground storey", "ground", 2}, {"gf", "ground", 1},
		{"lower ground floor", "lower_ground", 3}, {"lgf", "lower_ground", 1}, {"upper ground level", "upper_ground", 3}, {"ugf", "upper_ground", 1},
		{"mezzanine", "mezzanine", 1}, {"mezzanine level", "mezzanine", 2}, {"mezz", "mezzanine", 1},
		{"podium level", "podium", 2}, {"roof level", "roof", 2}, {"roof floor", "roof", 2}, {"rooftop level", "roof", 2}, {"rf", "roof", 1},
		// Areas and packages, by number, word or letter, spaced or glued.
		{"zone 3", "zone_3", 2}, {"zone b", "zone_b", 2}, {"zone3", "zone_3", 1}, {"zn 4", "zone_4", 2}, {"zone three", "zone_3", 2},
		{"area 4", "area_4", 2}, {"sector 2", "sector_2", 2}, {"section c", "section_c", 2}, {"sect 3", "section_3", 2},
		{"block c", "block_c", 2}, {"blk 2", "block_2", 2}, {"building 2", "building_2", 2}, {"bldg2", "building_2", 1},
		{"bld a", "building_a", 2}, {"tower a", "tower_a", 2}, {"wing b", "wing_b", 2}, {"core 1", "core_1", 2}, {"bay 12", "bay_12", 2},
		{"grid 4", "grid_4", 2}, {"gridline a", "grid_a", 2}, {"gl 3", "grid_3", 2}, {"plot 12", "plot_12", 2}, {"lot 7", "plot_7", 2},
		{"unit 5", "unit_5", 2}, {"apartment 3", "unit_3", 2}, {"flat 2", "unit_2", 2},
		{"phase 1", "phase_1", 2}, {"ph2", "phase_2", 1}, {"stage 2", "stage_2", 2}, {"stg 3", "stage_3", 2},
		// Work, not places: the word alone, or with other words after it.
		{"ground beams", "", 0}, {"roof sheeting", "", 0}, {"roof", "", 0}, {"ground", "", 0}, {"podium", "", 0},
		{"zone", "", 0}, {"block work", "", 0}, {"core drilling", "", 0}, {"phase out", "", 0}, {"level", "", 0},
		{"b2", "", 0}, {"drywall", "", 0},
	} {
		p, used := MatchPlace(strings.Fields(tc.text))
		got := ""
		if used > 0 {
			got = p.Token()
		}
		if got != tc.token || used != tc.used {
			t.Errorf("MatchPlace(%q) = %q, %d words; want %q, %d words", tc.text, got, used, tc.token, tc.used)
		}
	}
}

func TestIsMarkAndLevelWords(t *testing.T) {
	for w, want := range map[string]bool{
		"l4": true, "lvl4": true, "level4": true, "fl4": true, "floor4": true, "storey4": true, "story4": true,
		"zone3": true, "bldg2": true, "gf": true, "lgf": true,
		"l": false, "level": false, "zone": false, "drywall": false, "b2": false, "a039": false,
	} {
		if IsMark(w) != want {
			t.Errorf("IsMark(%q) = %v, want %v", w, !want, want)
		}
	}
	for _, w := range []string{"level", "levels", "lvl", "lvls", "lv", "l", "floor", "floors", "flr", "fl", "storey", "storeys", "story", "stories"} {
		if !IsLevelWord(w) {
			t.Errorf("IsLevelWord(%q) = false", w)
		}
	}
	for _, w := range []string{"zone", "roof", "ground", "lift", "history"} {
		if IsLevelWord(w) {
			t.Errorf("IsLevelWord(%q) = true", w)
		}
	}
}

func TestPattern(t *testing.T) {
	if got := Pattern([]string{"level", "l"}, []string{"levels", "l"}); got != "(?:levels|level|l)" {
		t.Errorf("Pattern = %s", got)
	}
	re := regexp.MustCompile(`^` + Pattern(LevelWords, LevelPlurals) + `$`)
	for _, w := range append(append([]string{}, LevelWords...), LevelPlurals...) {
		if !re.MatchString(w) {
			t.Errorf("the level pattern misses %q", w)
		}
	}
	r := strings.NewReplacer(LevelSingulars(" ")...)
	if got := r.Replace("levels 2 floors 3 storeys 4 stories 5 lvls 6 "); got != "level 2 floor 3 storey 4 story 5 lvl 6 " {
		t.Errorf("LevelSingulars: %q", got)
	}
}

func TestTradeVocabulary(t *testing.T) {
	syn := Invert(TradeSynonyms)
	for w, want := range map[string]string{"plasterboard": "drywall", "ductwork": "hvac", "mep": "mechanical electrical plumbing", "elevator": "lift", "mobilization": "mobilisation"} {
		if got := strings.Join(syn[w], " "); got != want {
			t.Errorf("synonym %q = %q, want %q", w, got, want)
		}
	}
	if got := strings.Join(Invert(Umbrellas)["paint"], " "); got != "fit_out finish" {
		t.Errorf("umbrellas of paint = %q", got)
	}
	seen := map[string]bool{}
	for _, p := range TradePhrases {
		k := strings.Join(p.Words, " ")
		if len(p.Words) < 2 || seen[k] {
			t.Errorf("phrase %q: one word or listed twice", k)
		}
		seen[k] = true
	}
}
