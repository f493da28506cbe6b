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
