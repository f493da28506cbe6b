package lang

import (
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

func refWords(rs []Ref) string {
	var w []string
	for _, r := range rs {
		w = append(w, r.Words)
	}
	return strings.Join(w, "|")
}

// TestParse pins the commands and slots of requests written the ways
// planners write them.
func TestParse(t *testing.T) {
	s := storetest.Building(t)
	opt := Options{Vocabulary: NewResolver(s).Vocabulary()}
	cases := []struct {
		text                  string
		kinds                 string // the commands' kinds, "+"-joined
		targets, from, to     string
		typ                   schedule.RelType
		lag, days             float64
		name, after, instead  string
		delta, keep, question bool
	}{
		{text: "get rid of the 2nd floor drywall", kinds: "delete", targets: "the 2nd floor drywall"},
		{text: "scrap L3 painting", kinds: "delete", targets: "l3 painting"},
		{text: "remove Snagging but keep the logic", kinds: "dissolve", targets: "snagging"},
		{text: "delete A039, dissolve A060 and link A061 to A086 FS", kinds: "delete+dissolve+link"},
		{text: "link Painting Level 1 to Tiling Level 1 start-to-start with 2 days lag", kinds: "link", from: "painting level 1", to: "tiling level 1", typ: schedule.SS, lag: 2},
		{text: "Tiling Level 2 can't start until Painting Level 2 is finished", kinds: "link", from: "painting level 2", to: "tiling level 2", typ: schedule.FS},
		{text: "X starts 3 days after Y starts", kinds: "link", from: "y", to: "x", typ: schedule.SS, lag: 3},
		{text: "X finishes no earlier than 2 days after Y finishes", kinds: "link", from: "y", to: "x", typ: schedule.FF, lag: 2},
		{text: "X can start 2 days before Y finishes", kinds: "link", from: "y", to: "x", typ: schedule.FS, lag: -2},
		{text: "Tiling Level 2 no longer needs to wait for Painting Level 2", kinds: "unlink", from: "painting level 2", to: "tiling level 2"},
		{text: "change the lag from Painting Level 1 to Painting Level 2 to 3 days", kinds: "set_link", from: "painting level 1", to: "painting level 2", lag: 3},
		{text: "painting on level 4 should follow painting on level 2 rather than level 3", kinds: "relink", from: "painting on level 2", to: "painting on level 4", instead: "level 3"},
		{text: "add a 3 day scaffold inspection after the level 1 slab pour", kinds: "add", name: "Scaffold inspection", days: 3, after: "the level 1 slab pour"},
		{text: "we need a 2 week curing period after Pour slab Level 3", kinds: "add", name: "Curing period", days: 10, after: "pour slab level 3"},
		{text: "add half a day of cleaning before Handover", kinds: "add", name: "Cleaning", days: 0.5},
		{text: "extend Painting Level 2 by 2 days", kinds: "set_duration", targets: "painting level 2", days: 2, delta: true},
		{text: "Painting Level 2 should take 8 days", kinds: "set_duration", targets: "painting level 2", days: 8},
		{text: "delete sceond floor drywall", kinds: "delete", targets: "second floor drywall"},
		{text: "delete Landscaping and what's the critical path?", kinds: "delete+unsupported"},
		{text: "undo the last change", kinds: "unsupported"},
		{text: "level the resources", kinds: "unsupported"},
		{text: "work Saturdays in March", kinds: "unsupported"},
		{text: "frobnicate the widgets", kinds: "unknown"},
		{text: "delete painting on level 2, then level 3", kinds: "delete+delete"},
		{text: "Piling is going to take 15 days, not 12", kinds: "set_duration", targets: "piling", days: 15},
		{text: "delay the fire alarm test by 5 days", kinds: "delay", targets: "the fire alarm test", days: 5},
		{text: "push fire alarm test back a week", kinds: "delay", targets: "fire alarm test", days: 5},
		{text: "make Landscaping start 3 days later", kinds: "delay", targets: "landscaping", days: 3},
		{text: "the landscaping has been delayed by 2 weeks", kinds: "delay", targets: "the landscaping", days: 10},
		{text: "Pour slab Level 3 can't start before 3 March", kinds: "constrain", targets: "pour slab level 3"},
		{text: "remove the constraint on Handover", kinds: "unconstrain", targets: "handover"},
		{text: "Piling started on 12 Jan", kinds: "progress", targets: "piling"},
		{text: "Piling didn't start on 12 Jan", kinds: "unsupported"},
		{text: "Piling is 60% complete", kinds: "progress", targets: "piling"},
		{text: "10 days remaining on piling", kinds: "progress", targets: "piling", days: 10},
		{text: "Piling finished yesterday", kinds: "progress", targets: "piling"},
		{text: "status the programme to 1 March", kinds: "data_date"},
		{text: "set the data date to 1 March", kinds: "data_date"},
		{text: "the fire alarm test is on hold until 1 October", kinds: "constrain", targets: "the fire alarm test"},
		{text: "move Landscaping by 3 days", kinds: "unknown"},
		{text: "add a holiday on 25 December", kinds: "unsupported"},
	}
	for _, tc := range cases {
		cmds := Parse(tc.text, opt)
		var kinds []string
		for _, c := range cmds {
			kinds = append(kinds, string(c.Kind))
			if c.Source == "" || !strings.Contains(tc.text, c.Source) {
				t.Errorf("%q: source %q is not words of the request", tc.text, c.Source)
			}
		}
		if got := strings.Join(kinds, "+"); got != tc.kinds {
			t.Errorf("%q: kinds %s, want %s", tc.text, got, tc.kinds)
			continue
		}
		c := cmds[0]
		check := func(what, got, want string) {
			if want != "" && got != want {
				t.Errorf("%q: %s %q, want %q", tc.text, what, got, want)
			}
		}
		check("targets", refWords(c.Targets), tc.targets)
		check("from", refWords(c.From), tc.from)
		check("to", refWords(c.To), tc.to)
		check("type", string(c.Type), string(tc.typ))
		check("name", c.Name, tc.name)
		check("after", refWords(c.After), tc.after)
		if tc.instead != "" && (c.Instead == nil || c.Instead.Words != tc.instead) {
			t.Errorf("%q: instead %+v, want %q", tc.text, c.Instead, tc.instead)
		}
		if tc.lag != 0 && (c.Lag == nil || *c.Lag != tc.lag) {
			t.Errorf("%q: lag %v, want %v", tc.text, c.Lag, tc.lag)
		}
		if tc.days != 0 && (c.Days == nil || *c.Days != tc.days || c.DaysDelta != tc.delta) {
			t.Errorf("%q: days %v (delta %v), want %v (%v)", tc.text, c.Days, c.DaysDelta, tc.days, tc.delta)
		}
	}
}

// TestResolve pins how references map to the example building.
func TestResolve(t *testing.T) {
	r := NewResolver(storetest.Building(t))
	cases := []struct {
		words  string
		status Status
		n      int
	}{
		{"a039", Found, 1},
		{"painting level 2", Found, 1},
		{"the 2nd floor drywall", Found, 3},
		{"piling", Found, 1}, // Piling, not Pile caps and ground beams
		{"the pour", Ambiguous, 0},
		{"all painting", Found, 4},
		{"painting", Ambiguous, 0},
		{"a130 and a131", Found, 2},
		{"doors and frames level 1", Found, 1},
		{"tiling and flooring on level 2", Found, 2},
		{"painting on levels 2 and 3", Found, 2},
		{"suspended ceilings on levels 1 to 3", Found, 3},
		{"everything", TooBroad, 0},
		{"a999", Missing, 0},
		{"frobnicator", Missing, 0},
		{"everything on level 4", Found, 25},
		{"final clean", Found, 1}, // a shared prefix: cleaning
	}
	for _, tc := range cases {
		res := r.Resolve(Ref{Text: tc.words, Words: tc.words})
		if res.Status != tc.status || tc.status == Found && len(res.Acts) != tc.n {
			t.Errorf("%q: status %d with %d activities, want %d with %d", tc.words, res.Status, len(res.Acts), tc.status, tc.n)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"levle", "level", 1}, {"sceond", "second", 1}, {"pilling", "piling", 1}, {"abc", "abc", 0}, {"kitten", "sitting", 3}, {"abc", "xyz", 3}, {"ab", "ba", 1}} {
		if got := editDistance(tc.a, tc.b, 2); got != min(tc.d, 3) {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}

// TestFeedback pins how feedback on a proposal is read.
func TestFeedback(t *testing.T) {
	for _, tc := range []struct {
		text string
		want func(Feedback) bool
	}{
		{"only delete the drywall board on level 2", func(f Feedback) bool { return f.Only && len(f.Commands) == 1 && f.Commands[0].Kind == Delete }},
		{"not the taping", func(f Feedback) bool { return len(f.Exclude) == 1 && f.Exclude[0].Words == "the taping" }},
		{"keep the logic", func(f Feedback) bool { return f.Dissolve }},
		{"make it SS with 2 days lag", func(f Feedback) bool { return f.Type == schedule.SS && f.Lag != nil && *f.Lag == 2 }},
		{"use FF", func(f Feedback) bool { return f.Type == schedule.FF }},
		{"make it 4 days", func(f Feedback) bool { return f.Days != nil && *f.Days == 4 }},
		{"also delete Landscaping", func(f Feedback) bool { return f.Also && len(f.Commands) == 1 }},
		{"blah blah", func(f Feedback) bool { return !f.Understood() && len(f.Unknown) == 1 }},
	} {
		if f := ParseFeedback(tc.text, Options{}); !tc.want(f) {
			t.Errorf("%q: %+v", tc.text, f)
		}
	}
}

// FuzzParse: any request parses without a panic into commands whose
// sources are words of the request, and resolving every reference in them
// never panics either.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{"delete A039, dissolve A060 and link A061 to A086 FS", "add a 3 day scaffold inspection after the level 1 slab pour",
		"painting on level 4 should follow painting on level 2 rather than level 3", `insert a milestone "X" between A and B`, "-1 ->→ 'q", "levels 2-4 and 5"} {
		f.Add(seed)
	}
	s := storetest.Building(f)
	r := NewResolver(s)
	opt := Options{Vocabulary: r.Vocabulary(), Resolves: func(w string) bool { return r.Resolve(Ref{Words: w}).Status != Missing }}
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range Parse(text, opt) {
			if c.Source != "" && !strings.Contains(text, c.Source) {
				t.Fatalf("source %q is not in %q", c.Source, text)
			}
			for _, refs := range [][]Ref{c.Targets, c.From, c.To, c.After, c.Before} {
				for _, ref := range refs {
					r.Resolve(ref)
				}
			}
		}
		ParseFeedback(text, opt)
	})
}

// TestResolveLevelSpellings: every spelling of a level the lexicon knows
// resolves as the plain one does ("stories 1 to 3", "fl 2", "lvl 2 to 4"
// were read as words before the resolver took its level words from it).
func TestResolveLevelSpellings(t *testing.T) {
	r := NewResolver(storetest.Building(t))
	for plain, variants := range map[string][]string{
		"painting level 2": {"painting storey 2", "painting story 2", "painting second floor", "painting 2nd storey",
			"painting L2", "painting lvl 2", "painting fl 2", "painting flr 2", "painting lv2", "the level two painting"},
		"suspended ceilings on levels 1 to 3": {"suspended ceilings on storeys 1 to 3", "suspended ceilings on stories 1 to 3",
			"suspended ceilings on floors 1 through 3", "suspended ceilings on lvl 1 to 3", "suspended ceilings on fl 1 to 3",
			"suspended ceilings on floor 1 to floor 3", "suspended ceilings on storey 1 to storey 3"},
		"painting on levels 2 and 3": {"painting on storeys 2 and 3", "painting on stories 2 and 3", "painting on lvls 2 and 3",
			"painting on floors 2 and 3", "painting on level 2 and fl 3", "painting on level 2 and story 3"},
		"all painting": {"painting on every storey", "painting on all stories", "painting on each lvl", "painting on all lvls"},
	} {
		want := r.Resolve(Ref{Text: plain, Words: plain})
		if want.Status != Found {
			t.Fatalf("%q: status %d", plain, want.Status)
		}
		for _, v := range variants {
			got := r.Resolve(Ref{Text: v, Words: v})
			if got.Status != Found || !sameIDs(got.Acts, want.Acts) {
				t.Errorf("%q: status %d with %v, want %d with %v (as %q)", v, got.Status, ids(got.Acts), want.Status, ids(want.Acts), plain)
			}
		}
	}
}

func ids(acts []schedule.Activity) []string {
	out := make([]string, len(acts))
	for i, a := range acts {
		out[i] = a.ID
	}
	return out
}

func sameIDs(a, b []schedule.Activity) bool {
	x, y := ids(a), ids(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
