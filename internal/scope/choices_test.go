package scope

import (
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestQuestionsOfferChoices: a question about an ambiguous name offers
// each candidate as a choice (its name and id), and answering a choice's
// Answer resolves the name to that activity alone; a question with no
// candidates offers none.
func TestQuestionsOfferChoices(t *testing.T) {
	s := storetest.Building(t)
	for _, tc := range []struct {
		prompt, about string
		choices       int
	}{
		{"delete the pour", "the pour", 9},
		{"delete painting", "painting", 4},
		{"delete activity Frobnicator", "", 0},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			_, _, rp, _ := planned(t, s, PlanInput{Prompt: tc.prompt, Round: 1})
			if len(rp.Choices) != tc.choices || rp.Question == "" {
				t.Fatalf("question %q offers %d choices %+v, want %d", rp.Question, len(rp.Choices), rp.Choices, tc.choices)
			}
			for _, c := range rp.Choices {
				a, ok := s.Activity(c.Answer)
				if !ok || c.Label != a.Name+" ("+a.ID+")" {
					t.Errorf("choice %+v: want an activity's name (id), answering its id", c)
					continue
				}
				in := PlanInput{Prompt: tc.prompt, Round: 1, Clarifications: []Clarification{{About: tc.about, Question: rp.Question, Answer: c.Answer}}}
				rem, _, again, _ := planned(t, s, in)
				if want := []string{del(a.Name)}; !slices.Equal(rem, want) || again.Question != "" {
					t.Errorf("answering %q: removals %q, question %q; want %q alone", c.Answer, rem, again.Question, want)
				}
			}
		})
	}
}

// TestChoicesAreCapped: a name matching more than MaxChoices activities
// offers the first MaxChoices; the text still counts them all.
func TestChoicesAreCapped(t *testing.T) {
	b := &builder{}
	acts := storetest.Building(t).Activities
	b.askChoosing("x", "which?", true, activityChoices(acts))
	if len(b.plan.Choices) != MaxChoices || !b.plan.Several || !strings.HasPrefix(b.plan.Choices[0].Label, acts[0].Name) {
		t.Errorf("%d choices (several %v), want %d of %d", len(b.plan.Choices), b.plan.Several, MaxChoices, len(acts))
	}
	b.askChoosing("y", "another?", false, nil) // only a step's first question is asked
	if b.plan.Question != "which?" {
		t.Errorf("question %q, want the first", b.plan.Question)
	}
}

// TestSeveralChoicesAnswerTogether: a question whose answer may name
// several (a request for any number) marks its choices Several, and the
// picked answers joined with ", " name exactly those activities.
func TestSeveralChoicesAnswerTogether(t *testing.T) {
	s := storetest.Building(t)
	_, _, rp, _ := planned(t, s, PlanInput{Prompt: "delete painting", Round: 1})
	if !rp.Several || len(rp.Choices) < 3 {
		t.Fatalf("question %q: several %v, %d choices; want several", rp.Question, rp.Several, len(rp.Choices))
	}
	picked := []Choice{rp.Choices[0], rp.Choices[2]}
	in := PlanInput{Prompt: "delete painting", Round: 1, Clarifications: []Clarification{{About: "painting", Question: rp.Question, Answer: picked[0].Answer + ", " + picked[1].Answer}}}
	rem, _, again, _ := planned(t, s, in)
	var want []string
	for _, c := range picked {
		a, _ := s.Activity(c.Answer)
		want = append(want, del(a.Name))
	}
	if !slices.Equal(rem, want) || again.Question != "" {
		t.Errorf("answering %s, %s: removals %q, question %q; want %q", picked[0].Answer, picked[1].Answer, rem, again.Question, want)
	}
}
