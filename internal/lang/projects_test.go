package lang

import (
	"slices"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// otherProject is a schedule in other trades' words: places written after
// qualifying words ("Data hall A"), compass point first ("East plant
// yard"), zero-padded ("WTG 01"), and chainages ("Ch 1+250").
func otherProject() *schedule.Schedule {
	var acts []schedule.Activity
	add := func(id, name string) { acts = append(acts, schedule.Activity{ID: id, Name: name, Duration: "1"}) }
	for _, h := range []string{"A", "B"} {
		add("H"+h+"1", "Data hall "+h+" raised floor")
		add("H"+h+"2", "Data hall "+h+" CRAH units")
	}
	for _, y := range []string{"East", "North"} {
		add(y+"1", y+" plant yard chiller plinths")
		add(y+"2", y+" plant yard chillers")
	}
	for _, t := range []string{"01", "02"} {
		add("T"+t, "WTG "+t+" tower erection")
	}
	for _, s := range []string{"1", "2", "3"} {
		add("S"+s+"1", "Section "+s+" drainage")
		add("S"+s+"2", "Section "+s+" kerbs")
	}
	add("C1", "Culvert at Ch 1+250")
	return &schedule.Schedule{Activities: acts}
}

// TestPlacesOfOtherProjects: the places of a copy, said with the words
// that qualify them or compass point first, and the name a copy writes.
func TestPlacesOfOtherProjects(t *testing.T) {
	r := NewResolver(otherProject())
	for _, tc := range []struct{ words, want string }{
		{"data hall c", "hall_c"},
		{"hall c", "hall_c"},
		{"west plant yard", "plant_west"},
		{"the east plant yard", "plant_east"},
		{"wtg 03", "wtg_3"},
		{"data hall c raised floor", ""}, // work, not a place
	} {
		got, ok := r.Place(tc.words)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("Place(%q) = %q, want %q", tc.words, got, tc.want)
		}
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"WTG 02 tower erection", "wtg_2", "wtg_3", "WTG 03 tower erection"},
		{"East plant yard chillers", "plant_east", "plant_west", "West plant yard chillers"},
		{"Data hall B CRAH units", "hall_b", "hall_c", "Data hall C CRAH units"},
	} {
		if got, ok := r.RenamePlace(tc.name, tc.from, tc.to); !ok || got != tc.want {
			t.Errorf("RenamePlace(%q, %s, %s) = %q %v, want %q", tc.name, tc.from, tc.to, got, ok, tc.want)
		}
	}
	if got := r.Label("wtg_3"); got != "WTG 03" {
		t.Errorf("Label(wtg_3) = %q, want WTG 03 (as the schedule writes its others)", got)
	}
}

// TestResolveOtherProjects: references in those words resolve to the
// activities a planner means.
func TestResolveOtherProjects(t *testing.T) {
	r := NewResolver(otherProject())
	for _, tc := range []struct {
		words string
		want  []string
	}{
		// The very words on each place, not every name that has them.
		{"the chillers in the east and north plant yards", []string{"East2", "North2"}},
		{"all the chiller work in the north plant yard", []string{"North1", "North2"}},
		// Qualifying words name the place, not its work.
		{"data hall b", []string{"HB1", "HB2"}},
		// Abbreviated, spelled, and ranges with dots.
		{"sec 2 drainage", []string{"S21"}},
		{"section two drainage", []string{"S21"}},
		{"the drainage on sections 1 ... 3", []string{"S11", "S21", "S31"}},
		// A list of work before a list of places takes them all.
		{"the drainage and kerbs on sections 1 and 2", []string{"S11", "S21", "S12", "S22"}},
		{"the culvert at ch 1+250", []string{"C1"}},
	} {
		p := newParser(tc.words, Options{Vocabulary: r.Vocabulary()})
		words := p.t.wordsOf(0, len(p.t.toks))
		res := r.Resolve(Ref{Text: tc.words, Words: words})
		var got []string
		for _, a := range res.Acts {
			got = append(got, a.ID)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tc.want))
		if res.Status != Found || !slices.Equal(got, want) {
			t.Errorf("%q (%q): %v %v, want %v", tc.words, words, res.Status, got, want)
		}
	}
}

// TestCopyOfQualifiedPlace: "add a data hall C like data hall B" and the
// compass-first and kind-only forms read as copies.
func TestCopyOfQualifiedPlace(t *testing.T) {
	for _, tc := range []struct{ text, name, from string }{
		{"add a data hall C like data hall B", "data hall C", "data hall B"},
		{"add a data hall C like hall B", "data hall C", "hall B"},
		{"add a west plant yard identical to the east plant yard", "west plant yard", "east plant yard"},
		{"add another data hall like data hall B", "hall", "data hall B"},
		{"add a west wing like the east wing", "west wing", "east wing"},
	} {
		cmds := Parse(tc.text, Options{})
		if len(cmds) != 1 || cmds[0].Kind != Copy || cmds[0].Name != tc.name || cmds[0].Targets[0].Text != tc.from {
			t.Errorf("%q: %+v, want a copy of %q named %q", tc.text, cmds, tc.from, tc.name)
		}
	}
}
