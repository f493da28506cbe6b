package scope

import (
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

func samplePrefs(t *testing.T, kvs ...string) *prefs.Preferences {
	t.Helper()
	var p prefs.Preferences
	for _, kv := range kvs {
		if err := prefs.SetArg(&p, kv); err != nil {
			t.Fatal(err)
		}
	}
	return &p
}

// TestPreferencesRules plans the same prompts on examples/building.json
// without and with preferences: the ops differ exactly where a preference
// applies.
func TestPreferencesRules(t *testing.T) {
	s := storetest.Building(t)
	p := samplePrefs(t, "link=SS+2", "link:inspection=FS+1", "duration=3", "duration:inspection=1",
		"naming={Trade} L{level}", "trades=drywall=gypsum board|plasterboard, painting=decorating")
	tests := []struct {
		prompt          string
		without, with   []string // the ops' calls
		questionWithout bool     // without preferences the planner asks
		noteWith        string
	}{
		{
			prompt:          "add a fire inspection after Painting Level 2",
			questionWithout: true, // how long?
			with:            []string{addAct("Fire inspection", "1"), link("add_relationship", "FS", "Painting Level 2", "Fire inspection", 1)},
			noteWith:        "the schedule's default for new activities",
		},
		{
			prompt:  "add a 2 day fire inspection after Painting Level 2",
			without: []string{addAct("Fire inspection", "2"), link("add_relationship", "FS", "Painting Level 2", "Fire inspection", 0)},
			with:    []string{addAct("Fire inspection", "2"), link("add_relationship", "FS", "Painting Level 2", "Fire inspection", 1)},
		},
		{
			prompt: "add activities for excavation on floor 1",
			without: []string{addAct("Excavation Level 1", "5"),
				link("add_relationship", "FS", "Ground slab sub-base and membrane", "Excavation Level 1", 0),
				link("add_relationship", "FS", "Tower crane erection", "Excavation Level 1", 0),
				link("add_relationship", "FS", "Excavation Level 1", "Slab edge formwork Level 1", 0)},
			with: []string{addAct("Excavation L1", "3"),
				link("add_relationship", "SS", "Ground slab sub-base and membrane", "Excavation L1", 2),
				link("add_relationship", "SS", "Tower crane erection", "Excavation L1", 2),
				link("add_relationship", "SS", "Excavation L1", "Slab edge formwork Level 1", 2)},
		},
		{
			prompt:  "link Tiling Level 2 to Flooring Level 3",
			without: []string{link("add_relationship", "FS", "Tiling Level 2", "Flooring Level 3", 0)},
			with:    []string{link("add_relationship", "SS", "Tiling Level 2", "Flooring Level 3", 2)},
		},
		{
			// A stated type and lag win over the defaults.
			prompt:  "link Tiling Level 2 to Flooring Level 3 FF with 4 days lag",
			without: []string{link("add_relationship", "FF", "Tiling Level 2", "Flooring Level 3", 4)},
			with:    []string{link("add_relationship", "FF", "Tiling Level 2", "Flooring Level 3", 4)},
		},
		{
			// A synonym from the trade vocabulary resolves.
			prompt:          "delete decorating level 3",
			questionWithout: true,
			with:            []string{del("Painting Level 3")},
		},
		{
			// A misspelt synonym too.
			prompt:          "delete decoratng level 3",
			questionWithout: true,
			with:            []string{del("Painting Level 3")},
		},
		{
			prompt:  "add a 4 day drywall inspection on level 2 after Drywall taping Level 2",
			without: []string{addAct("Drywall inspection Level 2", "4"), link("add_relationship", "FS", "Drywall taping Level 2", "Drywall inspection Level 2", 0)},
			with:    []string{addAct("Drywall inspection L2", "4"), link("add_relationship", "FS", "Drywall taping Level 2", "Drywall inspection L2", 1)},
		},
	}
	for _, tt := range tests {
		for _, with := range []bool{false, true} {
			in := PlanInput{Prompt: tt.prompt, Round: 1}
			want := tt.without
			if with {
				in.Preferences, want = p, tt.with
			}
			rem, add, rp, ap := planned(t, s, in)
			got := append(rem, add...)
			asked := rp.Question != "" || ap.Question != ""
			if !with && tt.questionWithout {
				if !asked {
					t.Errorf("%q without preferences: no question; ops %q", tt.prompt, got)
				}
				continue
			}
			if asked || !slices.Equal(got, want) {
				t.Errorf("%q (preferences %v):\n got %q (question %q%q)\nwant %q", tt.prompt, with, got, rp.Question, ap.Question, want)
			}
			if with && tt.noteWith != "" && !strings.Contains(strings.Join(append(rp.Notes, ap.Notes...), "\n"), tt.noteWith) {
				t.Errorf("%q: no note %q in %q", tt.prompt, tt.noteWith, ap.Notes)
			}
		}
	}
}

// TestPreferencesNoneIsIdentical: empty preferences plan exactly as none.
func TestPreferencesNoneIsIdentical(t *testing.T) {
	s := storetest.Building(t)
	for _, prompt := range []string{"add activities for excavation on floor 1", "add a 3 day sealing after Tiling Level 2", "delete Painting Level 3", "make Flooring Level 4 follow Flooring Level 2 instead of Flooring Level 3"} {
		_, a1, r1, p1 := planned(t, s, PlanInput{Prompt: prompt, Round: 1})
		_, a2, r2, p2 := planned(t, s, PlanInput{Prompt: prompt, Round: 1, Preferences: &prefs.Preferences{}})
		if !slices.Equal(a1, a2) || r1.Question != r2.Question || p1.Question != p2.Question || !slices.Equal(p1.Notes, p2.Notes) {
			t.Errorf("%q: empty preferences changed the plan: %q vs %q", prompt, a1, a2)
		}
	}
}

// TestPreferencesPrompt: the LLM planner's step context carries the
// preferences as a paragraph.
func TestPreferencesPrompt(t *testing.T) {
	p := samplePrefs(t, "link:inspection=FS+1", "duration=3", "naming=<Trade> Level <n>")
	ctx := stepContext(PlanInput{Preferences: p})
	for _, w := range []string{"preferences", `"inspection" are FS with lag 1`, `take "3"`, "{Trade} Level {level}"} {
		if !strings.Contains(ctx, w) {
			t.Errorf("step context lacks %q:\n%s", w, ctx)
		}
	}
	if stepContext(PlanInput{}) != "" {
		t.Error("no preferences added text")
	}
}

// TestPreferencesManager: the LLM manager's add_activity places a new
// activity with the default link and fills a missing duration.
func TestPreferencesManager(t *testing.T) {
	s := storetest.Building(t)
	p := samplePrefs(t, "link:inspection=FS+1", "duration:inspection=1")
	for _, with := range []bool{false, true} {
		in := PlanInput{Prompt: "add a fire inspection after painting on level 2", Round: 1}
		if with {
			in.Preferences = p
		}
		b := newBuilder(s, in)
		(&Manager{}).addActivity(b, 0, newActivityArg{Name: "Fire inspection", Duration: "", After: "Painting Level 2"})
		var calls []string
		for _, op := range b.plan.Ops {
			calls = append(calls, op.Call)
		}
		want := []string(nil) // without a duration the model's activity is ignored
		if with {
			want = []string{addAct("Fire inspection", "1"), link("add_relationship", "FS", "Painting Level 2", "Fire inspection", 1)}
		}
		if !slices.Equal(calls, want) {
			t.Errorf("preferences %v: %q, want %q (notes %q)", with, calls, want, b.plan.Notes)
		}
	}
}
