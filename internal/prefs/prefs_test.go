package prefs

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func TestSet(t *testing.T) {
	tests := []struct {
		key, value string
		want       string // the preferences' JSON after Set on empty ones
	}{
		{"link", "FS", `{"links":[{"type":"FS","lag":0}]}`},
		{"link", "FS+1", `{"links":[{"type":"FS","lag":1}]}`},
		{"link", "ss -2", `{"links":[{"type":"SS","lag":-2}]}`},
		{"link", "finish-to-finish with a 2 day lag", `{"links":[{"type":"FF","lag":2}]}`},
		{"link", "FS+1 for new inspections", `{"links":[{"scope":"inspection","type":"FS","lag":1}]}`},
		{"link:inspections", "FS+1", `{"links":[{"scope":"inspection","type":"FS","lag":1}]}`},
		{"link[Fire Inspections]", "SS 1 week", `{"links":[{"scope":"fire inspection","type":"SS","lag":5}]}`},
		{"Link-Type", "SF", `{"links":[{"type":"SF","lag":0}]}`},
		{"lag", "2", `{"links":[{"type":"FS","lag":2}]}`},
		{"lag", "2 days", `{"links":[{"type":"FS","lag":2}]}`},
		{"lag.inspection", "-1", `{"links":[{"scope":"inspection","type":"FS","lag":-1}]}`},
		{"duration", "3", `{"durations":[{"duration":"3"}]}`},
		{"duration", "3 days", `{"durations":[{"duration":"3"}]}`},
		{"duration", "2 weeks", `{"durations":[{"duration":"10"}]}`},
		{"duration", "Triangular(1, 2, 4)", `{"durations":[{"duration":"triangular(1,2,4)"}]}`},
		{"duration:inspection", "1", `{"durations":[{"scope":"inspection","duration":"1"}]}`},
		{"duration", "1 day for inspections", `{"durations":[{"scope":"inspection","duration":"1"}]}`},
		{"naming", "<Trade> Level <n>", `{"naming":"{Trade} Level {level}"}`},
		{"naming", "{trade} L{level}", `{"naming":"{Trade} L{level}"}`},
		{"pattern", "<TRADE>-<floor>", `{"naming":"{TRADE}-{level}"}`},
		{"trades", "drywall=gypsum board|plasterboard, Concrete", `{"trades":[{"name":"drywall","synonyms":["gypsum board","plasterboard"]},{"name":"concrete"}]}`},
		{"trade", "drywall=GWB", `{"trades":[{"name":"drywall","synonyms":["gwb"]}]}`},
		{"link", "none", `{}`},
		{"default_link_type", "SS", `{"links":[{"type":"SS","lag":0}]}`},
		{"default-duration", "4", `{"durations":[{"duration":"4"}]}`},
		{"naming_pattern", "{trade} L{n}", `{"naming":"{Trade} L{level}"}`},
		{"trades", "drywall (gypsum board, plasterboard); concrete", `{"trades":[{"name":"drywall","synonyms":["gypsum board","plasterboard"]},{"name":"concrete"}]}`},
		{"trade", "drywall: gwb", `{"trades":[{"name":"drywall","synonyms":["gwb"]}]}`},
	}
	for _, tt := range tests {
		var p Preferences
		if err := Set(&p, tt.key, tt.value); err != nil {
			t.Errorf("Set(%q, %q): %v", tt.key, tt.value, err)
			continue
		}
		b, _ := json.Marshal(p)
		if string(b) != tt.want {
			t.Errorf("Set(%q, %q) = %s, want %s", tt.key, tt.value, b, tt.want)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("Set(%q, %q) gave invalid preferences: %v", tt.key, tt.value, err)
		}
	}
}

func TestSetErrors(t *testing.T) {
	tests := []struct{ key, value, want string }{
		{"colour", "blue", `unknown preference "colour"`},
		{"", "x", "empty preference key"},
		{"link", "XY+1", "names no relationship type"},
		{"link", "FS soon", `"soon" after the type is not a lag`},
		{"lag", "soon", `"soon" is not a lag`},
		{"duration", "-3", "duration"},
		{"duration", "pert(5,3,1)", "a <= m <= b"},
		{"duration", "long", `"long" is not a duration`},
		{"naming", "Level <n>", "no trade placeholder"},
		{"naming", "{trade} {zone}", "unknown placeholder {zone}"},
		{"naming:inspection", "{trade}", "takes no kind of work"},
		{"trades", "=", "names no trade"},
	}
	for _, tt := range tests {
		var p Preferences
		err := Set(&p, tt.key, tt.value)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Set(%q, %q) = %v, want an error containing %q", tt.key, tt.value, err, tt.want)
		}
		if tt.key != "" && err != nil && !strings.Contains(err.Error(), strings.TrimSpace(tt.key)) {
			t.Errorf("Set(%q, %q): the error %q does not name the key", tt.key, tt.value, err)
		}
		if !p.Empty() {
			t.Errorf("Set(%q, %q) failed but changed the preferences: %+v", tt.key, tt.value, p)
		}
	}
	if err := SetArg(&Preferences{}, "link FS"); err == nil || !strings.Contains(err.Error(), "key=value") {
		t.Errorf("SetArg without '=': %v", err)
	}
}

func TestLookups(t *testing.T) {
	var p Preferences
	for _, kv := range []string{"link=SS", "link:inspection=FS+1", "link:fire inspection=FS+2", "duration=3", "duration:inspection=1", "naming=<Trade> Level <n>", "trades=drywall=gypsum board|plasterboard"} {
		if err := SetArg(&p, kv); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]string{"Inspection L2": "FS+1", "Drywall inspections Level 3": "FS+1", "Fire inspection L1": "FS+2", "Paint Level 2": "SS"} {
		typ, lag, ok := p.LinkFor(name)
		if got := FormatLink(typ, lag); !ok || got != want {
			t.Errorf("LinkFor(%q) = %s, want %s", name, got, want)
		}
	}
	if d, _ := p.DurationFor("Inspection Level 4"); d != "1" {
		t.Errorf("DurationFor(inspection) = %s", d)
	}
	if d, _ := p.DurationFor("Paint"); d != "3" {
		t.Errorf("DurationFor(paint) = %s", d)
	}
	if n, _ := p.Name("drywall", "2"); n != "Drywall Level 2" {
		t.Errorf("Name = %q", n)
	}
	if n, _ := p.Name("drywall", ""); n != "Drywall" {
		t.Errorf("Name without a level = %q", n)
	}
	if got := p.Canonical("Gypsum boards on level 2 and PLASTERBOARD L3"); got != "drywall on level 2 and drywall L3" {
		t.Errorf("Canonical = %q", got)
	}
	var none *Preferences
	if _, _, ok := none.LinkFor("x"); ok {
		t.Error("nil preferences have a link default")
	}
	q, err := Parse([]byte(mustJSON(t, p)))
	if err != nil || !Equal(p, q) {
		t.Errorf("JSON round trip: %v %+v", err, q)
	}
	out := p.String()
	for _, w := range []string{"link:inspection", "FS+1", "duration", "{Trade} Level {level}", "drywall=gypsum board|plasterboard"} {
		if !strings.Contains(out, w) {
			t.Errorf("String() lacks %q:\n%s", w, out)
		}
	}
	if !strings.Contains(p.Prompt(), "FS with lag 1") {
		t.Errorf("Prompt = %s", p.Prompt())
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRemember(t *testing.T) {
	tests := []struct {
		feedback string
		want     []string // key=value of each statement
		rest     string
		notes    int
	}{
		{"remember: use FS+1 for new inspections", []string{"link:inspection=FS+1"}, "", 0},
		{"Remember: new activities default to 3 days.", []string{"duration=3 days"}, "", 0},
		{"remember: name new activities <Trade> Level <n>", []string{"naming=<Trade> Level <n>"}, "", 0},
		{"remember that gypsum board is drywall", []string{"trade=drywall=gypsum board"}, "", 0},
		{"From now on, inspections should follow FS with a 1 day lag.", []string{"link:inspection=FS+1"}, "", 0},
		{"Always use SS+2 for new links", []string{"link=SS+2"}, "", 0},
		{"Move the pour earlier. Remember: new activities take 2 weeks. Also delete X", []string{"duration=2 weeks"}, "Move the pour earlier. Also delete X", 0},
		{"going forward call new activities {trade} L{level}", []string{"naming={trade} L{level}"}, "", 0},
		{"use a 2 day lag for new inspections from now on", []string{"lag:inspection=2"}, "", 0},
		{"remember: the default link type is FF", []string{"link=FF"}, "", 0},
		{"remember: new inspections take a day", []string{"duration:inspection=a day"}, "", 0},
		{"remember: plasterboard means drywall, and the trades are concrete, steel and glazing", []string{"trade=drywall=plasterboard", "trade=concrete, steel, glazing"}, "", 0},
		{"remember: treat GWB as drywall", []string{"trade=drywall=gwb"}, "", 0},
		{"Remember: new activities should be triangular(1,2,4)", []string{"duration=triangular(1,2,4)"}, "", 0},
		{`by default, new activities are named "<Trade> - Level <n>"`, []string{"naming=<Trade> - Level <n>"}, "", 0},
		{"remember: use FS+1 for new inspections and new activities default to 3 days", []string{"link:inspection=FS+1", "duration=3 days"}, "", 0},
		{"From now on new fire inspections get FS-1", []string{"link:fire inspection=FS-1"}, "", 0},
		{"remember: I like blue. Delete Paint L2", nil, "Delete Paint L2", 1},
		{"remember to link A to B", nil, "remember to link A to B", 0},
		{"delete the excavation on level 1; add a 2 day inspection after Drywall L2", nil, "delete the excavation on level 1; add a 2 day inspection after Drywall L2", 0},
		{"Not this. Keep in mind that new links are SS with 1 day lead", []string{"link=SS-1"}, "Not this.", 0},
		{"Please remember that new inspections should be FS with a one day lag.", []string{"link:inspection=FS+1"}, "", 0},
		{"remember, new activities are 5 days by default", []string{"duration=5 days"}, "", 0},
		{"From now on, call new activities '<Trade> L<n>'.", []string{"naming=<Trade> L<n>"}, "", 0},
		{"Remember: drywall is also called plasterboard", []string{"trade=drywall=plasterboard"}, "", 0},
		{"note for the future: default lag is 1 day", []string{"lag=1"}, "", 0},
		{"remember: default duration 4", []string{"duration=4"}, "", 0},
		{"from now on use the naming pattern <Trade> Level <n>", []string{"naming=<Trade> Level <n>"}, "", 0},
		{"Remember: new inspections take 1 day and follow their work FS+1", []string{"duration:inspection=1 day", "link:inspection=FS+1"}, "", 0},
		{"Reject. Use SS instead. Remember: new activities default to 2 days; and new inspections FS+1.", []string{"duration=2 days", "link:inspection=FS+1"}, "Reject. Use SS instead.", 0},
		{"remember: cure activities get a 7 day FS lag", []string{"link:cure=FS+7"}, "", 0},
		{"remember: new inspections take 1 day, and all new links are SS", []string{"duration:inspection=1 day", "link=SS"}, "", 0},
		{"Remember: new activities default to 2 days. Also delete Painting Level 2", []string{"duration=2 days"}, "Also delete Painting Level 2", 0},
		{"remember: new pours need 2 days lag", []string{"lag:pour=2"}, "", 0},
		{"remember: GWB and gypsum board mean drywall", []string{"trade=drywall=gwb|gypsum board"}, "", 0},
		{"remember that we say gypsum board for drywall", []string{"trade=drywall=gypsum board"}, "", 0},
		{"remember the trade list: concrete, steel, glazing", []string{"trade=concrete, steel, glazing"}, "", 0},
		{"Remember: start-to-start for new formwork activities", []string{"link:formwork=SS"}, "", 0},
		{"In future, link new inspections to their predecessor finish-to-start plus one day", []string{"link:inspection=FS+1"}, "", 0},
		{"Remember that new inspections should have a 1-day lag.", []string{"lag:inspection=1"}, "", 0},
		{"From now on, every new activity should last 4 days", []string{"duration=4 days"}, "", 0},
		{"Always keep the crane until level 4. From now on new inspections are FS+1", []string{"link:inspection=FS+1"}, "Always keep the crane until level 4.", 0},
	}
	for _, tt := range tests {
		stmts, rest, notes := Remember(tt.feedback)
		var got []string
		for _, s := range stmts {
			got = append(got, s.Key+"="+s.Value)
			if s.Summary == "" || s.Sentence == "" {
				t.Errorf("%q: statement without a summary or sentence: %+v", tt.feedback, s)
			}
		}
		if strings.Join(got, "; ") != strings.Join(tt.want, "; ") || rest != tt.rest || len(notes) != tt.notes {
			t.Errorf("Remember(%q) = %q, rest %q, notes %q; want %q, rest %q, %d notes", tt.feedback, got, rest, notes, tt.want, tt.rest, tt.notes)
		}
		var p Preferences
		if err := Apply(&p, stmts); err != nil {
			t.Errorf("%q: %v", tt.feedback, err)
		}
	}
	// Applying the same statements twice is the same as once.
	stmts, _, _ := Remember("remember: use FS+1 for new inspections. remember that gypsum board is drywall")
	var once, twice Preferences
	_ = Apply(&once, stmts)
	_ = Apply(&twice, stmts)
	_ = Apply(&twice, stmts)
	if !Equal(once, twice) {
		t.Errorf("not idempotent: %+v vs %+v", once, twice)
	}
}

// TestRememberLevelWordsAreNoTrades: a level noun of the lexicon is a
// place, never a trade or its synonym ("level" and "floor" were refused
// before; "storey" and "story" are new). Abbreviations stay trade words
// (LVL is laminated veneer lumber), as do words that only start like one.
func TestRememberLevelWordsAreNoTrades(t *testing.T) {
	for _, tc := range []struct {
		feedback string
		saved    bool
	}{
		{"remember: floor means drywall", false}, {"remember that level is drywall", false},
		{"remember: storey means drywall", false}, {"remember that story board is drywall", false},
		{"remember that flooring is tiling", true},
		{"remember: flashing means roofing", true}, {"remember: lvl beams means timber", true},
	} {
		stmts, _, _ := Remember(tc.feedback)
		if saved := len(stmts) > 0; saved != tc.saved {
			t.Errorf("Remember(%q) saved %v, want %v", tc.feedback, stmts, tc.saved)
		}
	}
}

func FuzzSet(f *testing.F) {
	for _, s := range []string{"link\x00FS+1", "link:inspection\x00FS 2 days", "duration\x00triangular(1,2,4)", "naming\x00<Trade> L<n>", "trades\x00a=b|c, d", "lag\x00-1", "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		k, v, _ := strings.Cut(in, "\x00")
		var p Preferences
		if err := Set(&p, k, v); err != nil {
			if !p.Empty() {
				t.Fatalf("Set(%q, %q) failed but changed the preferences", k, v)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Set(%q, %q) accepted something invalid: %v", k, v, err)
		}
		for _, d := range p.Durations {
			if _, err := schedule.ParseDuration(d.Duration); err != nil {
				t.Fatal(err)
			}
		}
		q, err := Parse([]byte(mustJSON(t, p)))
		if err != nil || !Equal(p, q) {
			t.Fatalf("round trip of %+v: %v", p, err)
		}
		_ = p.String()
		_, _ = p.Name("drywall", "2")
		_ = p.Canonical(v)
	})
}

func FuzzRemember(f *testing.F) {
	for _, s := range []string{"remember: use FS+1 for new inspections", "remember that gypsum board is drywall. delete X", "from now on name them <Trade> L<n>", "always 3 days", "x. y; z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fb string) {
		if !utf8.ValidString(fb) {
			return
		}
		stmts, rest, notes := Remember(fb)
		var p Preferences
		if err := Apply(&p, stmts); err != nil {
			t.Fatalf("Remember(%q) returned a statement Set refuses: %v", fb, err)
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Remember(%q): %v", fb, err)
		}
		// Nothing dropped: every sentence is kept in rest, saved or noted.
		if strings.TrimSpace(fb) != "" && rest == "" && len(stmts) == 0 && len(notes) == 0 {
			t.Fatalf("Remember(%q) dropped everything", fb)
		}
	})
}

// hostile are characters no preference holds: terminal escapes (ESC with
// a title and a screen clear, the C1 CSI), bell, NUL, DEL, carriage
// return, line breaks, tab, bidi overrides and isolates, zero-width
// characters, invalid UTF-8. Each would rewrite or hide what the next
// person to read the preferences sees.
var hostile = []string{"\x1b]0;TITLE\a\x1b[2J", "\u009b2J", "\a", "\x00", "\x7f", "\r", "\n", "\t", "\u202e", "\u2066", "\u200b", "\ufeff", "\u2028", "\xff"}

// TestSetRefusesControlCharacters: every key's value, and the key itself
// (a kind of work), is refused with control or invisible characters,
// with an error naming the key; nothing is set.
func TestSetRefusesControlCharacters(t *testing.T) {
	for _, bad := range hostile {
		for _, kv := range [][2]string{
			{"naming", "X" + bad + " {Trade} Level {n}"},
			{"naming", "{Trade} Level {n}" + bad},
			{"trades", "drywall=gypsum" + bad + "board"},
			{"trade", "concrete" + bad},
			{"link", "FS+1 for inspections" + bad},
			{"lag", "2" + bad},
			{"duration", "3" + bad},
			{"link:insp" + bad + "ection", "FS"},
			{"duration[fire" + bad + "]", "1"},
		} {
			var p Preferences
			err := Set(&p, kv[0], kv[1])
			if err == nil || !p.Empty() {
				t.Errorf("Set(%q, %q) = %v, preferences %+v: want refused", kv[0], kv[1], err, p)
				continue
			}
			if !strings.Contains(err.Error(), "character") && !strings.Contains(err.Error(), "UTF-8") || strings.Contains(err.Error(), bad) {
				t.Errorf("Set(%q, %q): error %q does not say which character, or quotes it raw", kv[0], kv[1], err)
			}
		}
	}
	var p Preferences
	if err := Set(&p, "naming", "X\x1b[2J {Trade}"); err == nil || !strings.HasPrefix(err.Error(), "naming: ") {
		t.Errorf("the error names the key: %v", err)
	}
	if err := Set(&p, "trades", strings.Repeat("drywall, ", MaxValue)); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("an over-long value: %v", err)
	}
}

// TestRememberRefusesControlCharacters: a reviewer's "remember: …" with a
// control character saves nothing and says why in a note.
func TestRememberRefusesControlCharacters(t *testing.T) {
	for _, bad := range hostile {
		if bad == "\n" {
			continue // a line break ends the sentence
		}
		fb := "remember: name new activities <Trade>" + bad + " Level <n>"
		stmts, _, notes := Remember(fb)
		if len(stmts) != 0 || len(notes) != 1 || !strings.Contains(notes[0], "character") {
			t.Errorf("Remember(%q) = %+v, notes %q", fb, stmts, notes)
		}
	}
}

// TestValidateRefusesStoredControlCharacters: preferences written with
// control characters (before Set checked them) are refused when written
// again, naming the key; Parse still reads them, so they can be shown
// (escaped) and cleared.
func TestValidateRefusesStoredControlCharacters(t *testing.T) {
	for _, js := range []string{
		`{"naming":"X\u001b[2J {Trade}"}`,
		`{"trades":[{"name":"drywall","synonyms":["gyp\u009bsum"]}]}`,
		`{"links":[{"scope":"insp\u202eection","type":"FS","lag":1}]}`,
		`{"durations":[{"scope":"x\u0007","duration":"3"}]}`,
	} {
		p, err := Parse([]byte(js))
		if err != nil {
			t.Errorf("Parse(%s): %v, want it read", js, err)
			continue
		}
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "character") || !strings.Contains(err.Error(), "none") {
			t.Errorf("Validate(%s) = %v, want refused with how to clear it", js, err)
		}
	}
}

// TestNamingLevelWords: a naming pattern's level placeholder and the level
// part a name without a level leaves out take every level word of the
// lexicon, British and American.
func TestNamingLevelWords(t *testing.T) {
	for _, tc := range []struct{ pattern, stored, withLevel, without string }{
		{"{Trade} Level {n}", "{Trade} Level {level}", "Drywall Level 2", "Drywall"},
		{"<Trade> Storey <storey>", "{Trade} Storey {level}", "Drywall Storey 2", "Drywall"},
		{"{trade} Story {story}", "{Trade} Story {level}", "Drywall Story 2", "Drywall"},
		{"{Trade} Fl {fl}", "{Trade} Fl {level}", "Drywall Fl 2", "Drywall"},
		{"{Trade} FLR-{flr}", "{Trade} FLR-{level}", "Drywall FLR-2", "Drywall"},
		{"{Trade} Lv{lv}", "{Trade} Lv{level}", "Drywall Lv2", "Drywall"},
		{"{TRADE} L{floor}", "{TRADE} L{level}", "DRYWALL L2", "DRYWALL"},
		{"{Trade} - Floors {n}", "{Trade} - Floors {level}", "Drywall - Floors 2", "Drywall"},
	} {
		stored, err := ParseNaming(tc.pattern)
		if err != nil || stored != tc.stored {
			t.Errorf("ParseNaming(%q) = %q, %v; want %q", tc.pattern, stored, err, tc.stored)
			continue
		}
		p := &Preferences{Naming: stored}
		if n, _ := p.Name("drywall", "2"); n != tc.withLevel {
			t.Errorf("%q: Name(drywall, 2) = %q, want %q", tc.pattern, n, tc.withLevel)
		}
		if n, _ := p.Name("drywall", ""); n != tc.without {
			t.Errorf("%q: Name(drywall) = %q, want %q", tc.pattern, n, tc.without)
		}
	}
}
