package scope

import (
	"slices"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/lang"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestContentWordsPlaces: the words of a created name that name a place
// are not its work, however the level is written (storey had no place in
// the old l|lvl|level|fl|floor pattern).
func TestContentWordsPlaces(t *testing.T) {
	for _, s := range []string{
		"the new level 4 fire-stopping", "Fire-stopping L4", "fire-stopping lvl4", "fire stopping on storey 4",
		"fire-stopping storey4", "Fire-stopping Story 4", "fire-stopping fl 4", "fire-stopping flr4", "fire-stopping on floors 4",
		"fire-stopping on all storeys", "Fire-stopping, stories 3", "fire-stopping zone3", "fire-stopping GF", "fire-stopping bldg2",
	} {
		got := contentWords(s)
		if len(got) != 2 || !got["fire"] || !got["stopping"] {
			t.Errorf("contentWords(%q) = %v, want fire, stopping", s, got)
		}
	}
	// A request that creates "Fire-stopping Storey 4" is the one a later
	// "the new level 4 fire-stopping" refers to.
	created := [][]map[string]bool{createdNames(lang.Command{Kind: lang.Add, Name: "Fire-stopping Storey 4"})}
	if got := creator(lang.Ref{Words: "the new fire-stopping on level 4"}, created); got != 0 {
		t.Errorf("creator = %d, want 0", got)
	}
}

// TestGroupLevelSpellings: a group phrase's level is cut from its trade
// however the lexicon spells it. The old pattern knew level, floor,
// storey, story and lvl with digits, L4 and ordinals before floor, level,
// storey or story; fl, flr, lv, "L 4", numbers in words, ordinals before
// an abbreviation and hyphens left the level in the trade ("fit-outs on
// fl 4 on level 4").
func TestGroupLevelSpellings(t *testing.T) {
	for _, tc := range []struct {
		level string
		new   bool // not cut by the old pattern
	}{
		{"floor 4", false}, {"level 4", false}, {"L4", false}, {"storey 4", false}, {"story 4", false},
		{"lvl 4", false}, {"lvl4", false}, {"the 4th floor", false}, {"fourth storey", false},
		{"fl 4", true}, {"fl4", true}, {"flr 4", true}, {"FLR4", true}, {"lv 4", true}, {"L 4", true},
		{"level four", true}, {"storey four", true}, {"4th fl", true}, {"fourth flr", true}, {"4th lvl", true}, {"Level-4", true},
	} {
		g := parseGroup("fit-outs on " + tc.level)
		if g.level != "level_4" || g.trade != "fit-outs" || g.String() != "fit-outs on level 4" {
			t.Errorf("parseGroup(%q) = level %q, trade %q (%q); want level_4, fit-outs (new spelling: %v)", "fit-outs on "+tc.level, g.level, g.trade, g.String(), tc.new)
		}
	}
	// The whole relink reads the same with any spelling (TestRulesPlanner's
	// "floor" prompt).
	s := storetest.Building(t)
	rem, add, _, _ := planned(t, s, PlanInput{Prompt: "Make fitouts on fl 4 come after fitouts on storey 2 instead of 3rd flr", Round: 1})
	if want := []string{link("delete_relationship", "SS", "Painting Level 3", "Painting Level 4", 5)}; !slices.Equal(rem, want) {
		t.Errorf("removals %q, want %q", rem, want)
	}
	if want := []string{link("add_relationship", "SS", "Painting Level 2", "Painting Level 4", 5)}; !slices.Equal(add, want) {
		t.Errorf("additions %q, want %q", add, want)
	}
}

// TestEachLevelSpellings: "on each level" in a placement is one new
// activity a level, whichever level word says it. The old pattern knew
// level(s), floor(s), storey(s), story/stories and lvl(s); fl, flr, flrs
// and lv are new. "l" alone, and words that only start like a level
// word, are not levels.
func TestEachLevelSpellings(t *testing.T) {
	for _, tc := range []struct {
		text string
		each bool
		new  bool // not read by the old pattern
	}{
		{"after drywall board on each level", true, false}, {"after drywall board on every floor", true, false},
		{"after drywall board per storey", true, false}, {"after drywall board on all stories", true, false},
		{"after drywall board on each of the levels", true, false}, {"after drywall board on every lvl", true, false},
		{"after drywall board on each fl", true, true}, {"after drywall board on every flr", true, true},
		{"after drywall board on all flrs", true, true}, {"after drywall board per lv", true, true},
		{"after drywall board on each l", false, false}, {"after all flooring", false, false}, {"after each flight", false, false},
	} {
		if got := eachLevel.MatchString(tc.text); got != tc.each {
			t.Errorf("eachLevel matches %q: %v, want %v (new spelling: %v)", tc.text, got, tc.each, tc.new)
		}
	}
	s := storetest.Building(t)
	want := func(n string) []string {
		return []string{addAct("Fire-stopping Level "+n, "2"), link("add_relationship", "FS", "Drywall board Level "+n, "Fire-stopping Level "+n, 0)}
	}
	all := slices.Concat(want("1"), want("2"), want("3"), want("4"))
	for _, each := range []string{"each level", "each fl", "every flr", "all storeys"} {
		_, add, _, _ := planned(t, s, PlanInput{Prompt: "add a 2 day fire-stopping after drywall board on " + each, Round: 1})
		if !slices.Equal(add, all) {
			t.Errorf("%q: additions\n got %q\nwant %q", each, add, all)
		}
	}
}
