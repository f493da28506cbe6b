package lang

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestLevelSpellingsInRequests: a new activity's name and a float-by-level
// question read every level spelling of the lexicon as "level" ("fl 2",
// "2nd story" and "float by stories" were words before).
func TestLevelSpellingsInRequests(t *testing.T) {
	opt := Options{Vocabulary: NewResolver(storetest.Building(t)).Vocabulary()}
	for _, where := range []string{"on level 2", "on L2", "on the second floor", "on the 2nd floor", "on storey 2", "on the second storey",
		"on the 2nd story", "on story 2", "on lvl 2", "on fl 2", "on flr 2", "on the second level"} {
		text := "add a 2 day fire-stopping " + where
		cmds := Parse(text, opt)
		if len(cmds) != 1 || cmds[0].Kind != Add || cmds[0].Name != "Fire-stopping Level 2" {
			t.Errorf("%q: %+v, want one add named Fire-stopping Level 2", text, cmds)
		}
	}
	for _, text := range []string{"float by level", "float by storey", "float by story", "float by stories", "float by floors",
		"which storey has the least float", "which story has the least float", "which level has the least float"} {
		qs, ok := ParseQuestions(text, opt)
		if !ok || len(qs) != 1 || qs[0].Kind != AskFloatBy || qs[0].Group != "level" {
			t.Errorf("%q: %v %+v, want float by level", text, ok, qs)
		}
	}
}

// TestTradeOfLevelSpellings: a name's trade is its words without its
// level, however the level is written. A level written as one word ("L3",
// "Lv3", "Level-3") took the word before it too: "Painting L3" had no
// trade, so insight grouped it under its whole name and scope named new
// scope and read feedback as if it said a level only.
func TestTradeOfLevelSpellings(t *testing.T) {
	for _, tc := range []struct {
		name string
		new  bool // the trade was lost before
	}{
		{"Painting Level 3", false}, {"Painting level three", false}, {"Painting 3rd floor", false}, {"Painting third storey", false},
		{"Painting Storey 3", false}, {"Painting Story 3", false}, {"Painting Fl 3", false}, {"Painting Flr 3", false},
		{"Painting Lvl 3", false}, {"Painting 3rd fl", false}, {"Painting on level 3", false},
		{"Painting L3", true}, {"Painting Lv3", true}, {"Painting Storey3", true}, {"Painting Level-3", true}, {"Painting FL3", true},
	} {
		if got := LevelOf(tc.name); got != "level_3" {
			t.Errorf("LevelOf(%q) = %q, want level_3", tc.name, got)
		}
		if got := TradeOf(tc.name); got != "Painting" {
			t.Errorf("TradeOf(%q) = %q, want Painting (lost before: %v)", tc.name, got, tc.new)
		}
	}
	for _, name := range []string{"Level 3 painting", "L3 painting", "storey3 painting"} {
		if got := TradeOf(name); got != "painting" {
			t.Errorf("TradeOf(%q) = %q, want painting", name, got)
		}
	}
}

// TestCorrectLevelNouns: typo correction knows the lexicon's level nouns
// (and so corrects into them) but not its abbreviations, which would make
// "levl" as close to "lvl" as to "level".
func TestCorrectLevelNouns(t *testing.T) {
	for typed, want := range map[string]string{
		"painting on levl 2": "painting on level 2", "painting on levles 2 to 3": "painting on levels 2 to 3",
		"painting on sorey 2": "painting on storey 2", "painting on fllor 2": "painting on floor 2",
		"painting on stories 2 and 3": "painting on stories 2 and 3", "painting on lvl 2": "painting on lvl 2", "painting on flr 2": "painting on flr 2",
	} {
		if got := strings.Join(CorrectWords(typed, nil), " "); got != want {
			t.Errorf("CorrectWords(%q) = %q, want %q", typed, got, want)
		}
	}
}

// TestLearnedPlaces: a schedule's place nouns are learned from its names
// (a word its names follow with two or more numbers or letters), and
// lists, ranges and a kind said alone read as they do for levels. The
// pipeline below uses no word of the lexicon's places.
func TestLearnedPlaces(t *testing.T) {
	var acts []schedule.Activity
	add := func(id, name string) { acts = append(acts, schedule.Activity{ID: id, Name: name, Duration: "1"}) }
	for _, s := range []string{"1", "2", "3", "4"} {
		add("S"+s+"1", "Section "+s+" trenching")
		add("S"+s+"2", "Section "+s+" pipe laying")
		add("S"+s+"3", "Section "+s+" backfill")
	}
	add("X1", "Crossing A drilling")
	add("X2", "Crossing B drilling")
	add("X3", "Crossing B pipe pull")
	add("T1", "Hydrotest 1")     // one value: no place
	add("M1", "Mobilise spread") // no value
	r := NewResolver(&schedule.Schedule{Activities: acts})
	if want := (placeKinds{"section": 0, "crossing": lettered}); !maps.Equal(r.places, want) {
		t.Errorf("learned %v, want %v", r.places, want)
	}
	for _, tc := range []struct {
		ref  string
		want []string // ids; nil: not found
		st   Status
	}{
		{"the backfill on sections 1 and 3", []string{"S13", "S33"}, Found},
		{"section 2-4 trenching", []string{"S21", "S31", "S41"}, Found},
		{"trenching on sections 2 to 4", []string{"S21", "S31", "S41"}, Found},
		{"trenching on section 1 to section 2", []string{"S11", "S21"}, Found},
		{"section 4", []string{"S41", "S42", "S43"}, Found},
		{"the pipe laying on every section", []string{"S12", "S22", "S32", "S42"}, Found},
		{"crossings a and b drilling", []string{"X1", "X2"}, Found},
		{"the crossing b drilling", []string{"X2"}, Found},
		{"section 7", nil, Missing},
		{"section 2", []string{"S21", "S22", "S23"}, Found},
		{"the section 2 pipe", []string{"S22"}, Found},
		{"hydrotest 1", []string{"T1"}, Found},
		{"the drilling", nil, Ambiguous},
	} {
		res := r.Resolve(Ref{Text: tc.ref, Words: tc.ref})
		var got []string
		for _, a := range res.Acts {
			got = append(got, a.ID)
		}
		if res.Status != tc.st || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v %v, want %v %v", tc.ref, res.Status, got, tc.st, tc.want)
		}
	}
	// Compass points number places too: before the noun or after it.
	if k := learnPlaces([]string{"North wing ceilings", "South wing ceilings", "Wing East ceilings"}); k["wing"] != compassed {
		t.Errorf("compass wings: learned %v", k)
	}
	// A bare place takes the trade of the reference it follows.
	last := Ref{Text: "section 1 backfill", Words: "section 1 backfill"}
	if res := r.Resolve(Ref{Text: "section 3", Words: "section 3", Inherit: &last}); res.Status != Found || len(res.Acts) != 1 || res.Acts[0].ID != "S33" {
		t.Errorf("section 3 after section 1 backfill: %+v", res)
	}
}

// TestLearnedPlacesNotQuantities: a number that is a quantity or a date
// names no place (P6's test file names activities "Duration 25%",
// "Physical 75%"), nor does one that numbers work ("Pour 1", "Test 2").
func TestLearnedPlacesNotQuantities(t *testing.T) {
	for _, names := range [][]string{
		{"Duration 0%", "Duration 25%", "Duration 75%"},
		{"Cure 7 days", "Cure 14 days"},
		{"Meeting 3 March", "Meeting 4 April"},
		{"Delivery on 3", "Delivery on 4"},
		{"Pour 1", "Pour 2", "Pressure test 1", "Pressure test 2"},
	} {
		if k := learnPlaces(names); len(k) != 0 {
			t.Errorf("%q: learned %v, want no place", names, k)
		}
	}
}

// TestCopyForms: the ways planners ask for a copy of a place, and words
// that only look like one.
func TestCopyForms(t *testing.T) {
	for _, tc := range []struct {
		text, from, to string // to "": not a copy
	}{
		{"add a level 5 like level 4", "level 4", "level 5"},
		{"add a level 5 identical to level 4", "level 4", "level 5"},
		{"add level 5, the same as level 4", "level 4", "level 5"},
		{"we need a level 5 just like level 4", "level 4", "level 5"},
		{"add a 5th floor like the 4th floor", "4th floor", "5th floor"},
		{"copy span 3 as span 5", "span 3", "span 5"},
		{"duplicate Wing C as wing D", "wing c", "wing D"},
		{"clone zone B to make zone C", "zone b", "zone C"},
		{"add a block 3 based on block 2", "block 2", "block 3"},
		{"add another level like level 4", "level 4", "level"},
		{"add a fifth floor like the fourth", "level 4", "fifth floor"},
		{"add a new floor identical to the 4th one", "floor 4", "floor"},
		{"add a 3 day survey like the last one", "", ""},
		{"add a 2 day inspection like the level 4 one after Painting Level 4", "", ""},
		{"copy the painting as tiling", "", ""},
	} {
		cmds := Parse(tc.text, Options{})
		isCopy := len(cmds) == 1 && cmds[0].Kind == Copy
		if tc.to == "" {
			if isCopy {
				t.Errorf("%q: read as a copy %+v", tc.text, cmds[0])
			}
			continue
		}
		if !isCopy || cmds[0].Targets[0].Words != tc.from || cmds[0].Name != tc.to {
			t.Errorf("%q: %+v, want a copy of %q as %q", tc.text, cmds, tc.from, tc.to)
		}
	}
}
