package insight

import (
	"slices"
	"strings"
	"testing"
)

func TestReadStatusQuestions(t *testing.T) {
	cases := []struct {
		text  string
		want  statusKind // 0: not an update question
		scope string
	}{
		{"what's in progress on level 3", askInProgress, "level 3"},
		{"which activities on level 3 are behind baseline", askBehindBaseline, "level 3"},
		{"what is behind schedule in the drywall?", askBehindBaseline, "drywall"},
		{"what's in progress at the moment", askInProgress, ""},
		{"what is behind?", askBehindBaseline, ""},
		{"which activities are running behind on level 2", askBehindBaseline, "level 2"},
		{"what's behind Pour slab", 0, ""}, // "what is X": the language layer's
		{"which tasks slipped in the last month", askSlipped, ""},
		{"what is behind baseline", askBehindBaseline, ""},
		{"What's behind the baseline?", askBehindBaseline, ""},
		{"which activities are behind schedule", askBehindBaseline, ""},
		{"show me what is running behind the programme", askBehindBaseline, ""},
		{"anything late against the plan?", askBehindBaseline, ""},
		{"what slipped since the last update", askSlipped, ""},
		{"what has slipped since the baseline?", askSlipped, ""},
		{"Which tasks slipped since last month", askSlipped, ""},
		{"what's in progress", askInProgress, ""},
		{"What’s in progress?", askInProgress, ""},
		{"which activities are underway", askInProgress, ""},
		{"list what is started but not finished", askInProgress, ""},
		{"what should have started by the data date", askShouldHaveStarted, ""},
		{"what should've started by now?", askShouldHaveStarted, ""},
		{"which activities are late to start", askShouldHaveStarted, ""},
		{"please tell me what was supposed to start already", askShouldHaveStarted, ""},
		// Not update questions: the language layer reads them.
		{"what is the critical path", 0, ""},
		{"what drives Pour slab", 0, ""},
		{"delay what is behind the baseline by 2 days", 0, ""},
		{"mark piling in progress", 0, ""},
		{"tell me about Landscape", 0, ""},
		{"behind baseline", 0, ""},
	}
	for _, c := range cases {
		got, scope, ok := readStatus(c.text)
		if !ok {
			got = 0
		}
		if got != c.want || scope != c.scope {
			t.Errorf("%q read as %d about %q, want %d about %q", c.text, got, scope, c.want, c.scope)
		}
	}
}

// baselinedP6 is liveP6 with baselines: data date Mon 16 Mar. Forecasts
// (see liveP6): A finished 6 Mar; B started 9 Mar, 6 days left from the
// data date, to Mon 23 Mar; C 24 - 30 Mar; E, not started, from the data
// date 16 - 18 Mar; F 8 Jun. Baselines: A 2 - 5 Mar (finish +1 day), B
// 9 - 20 Mar (+1), C 23 - 27 Mar (start and finish +1), E 9 - 11 Mar
// (start and finish +5), F finish 29 May (+6: 1-5 and 8 Jun); D none.
func baselinedP6() *View {
	s := liveP6()
	base := map[string][2]string{
		"A": {"2026-03-02T08:00", "2026-03-05T17:00"}, "B": {"2026-03-09T08:00", "2026-03-20T17:00"},
		"C": {"2026-03-23T08:00", "2026-03-27T17:00"}, "E": {"2026-03-09T08:00", "2026-03-11T17:00"},
		"F": {"", "2026-05-29T17:00"},
	}
	for i := range s.Activities {
		a := &s.Activities[i]
		a.BaselineStart, a.BaselineFinish = base[a.ID][0], base[a.ID][1]
	}
	v, err := New(s)
	if err != nil {
		panic(err)
	}
	return v
}

func TestAskStatus(t *testing.T) {
	v := baselinedP6()
	cases := []struct {
		question string
		ids      []string
		says     []string
	}{
		{"what is behind baseline?", []string{"F", "E", "A", "B", "C"}, []string{
			"5 activities are behind the baseline", "Handover (F, +6 working days: baseline finish 2026-05-29 17:00, forecast 2026-06-08 17:00)",
			"Landscape (E, +5 working days", "Dig (A, +1 working day"}},
		{"what slipped since the last update", []string{"F", "E", "A", "B", "C"}, []string{
			"5 activities have slipped", "Cure (C, start +1 working day, finish +1 working day)", "measured against its baseline"}},
		{"what's in progress", []string{"B"}, []string{"1 activity is in progress", "Pour slab (B, started 2026-03-09, forecast finish 2026-03-23 17:00)"}},
		{"what should have started by the data date", []string{"E"}, []string{
			"1 activity is not started though planned to start before the data date (2026-03-16)", "Landscape (E, baseline start 2026-03-09 08:00, now forecast 2026-03-16 08:00)"}},
	}
	for _, c := range cases {
		ans := Ask(v, c.question)
		if !ans.Understood || !slices.Equal(ans.Activities, c.ids) {
			t.Errorf("%q: activities %v (understood %v), want %v\n%s", c.question, ans.Activities, ans.Understood, c.ids, ans.Answer)
		}
		for _, w := range c.says {
			if !strings.Contains(ans.Answer, w) {
				t.Errorf("%q: the answer does not say %q:\n%s", c.question, w, ans.Answer)
			}
		}
	}
}

// A question about part of the schedule answers for that part: Dig and
// Landscape are the two activities "dig" and "landscape" name.
func TestAskStatusOfPart(t *testing.T) {
	v := baselinedP6()
	ans := Ask(v, "what is behind baseline for Landscape?")
	if !slices.Equal(ans.Activities, []string{"E"}) || !strings.HasPrefix(ans.Answer, `Of the 1 activity "landscape" names: 1 activity is behind the baseline`) {
		t.Errorf("behind for Landscape: %v %s", ans.Activities, ans.Answer)
	}
	if ans := Ask(v, "what's in progress on level 9?"); !strings.Contains(ans.Answer, `I can't find "level 9"`) || len(ans.Activities) != 0 {
		t.Errorf("a part the schedule lacks: %v %s", ans.Activities, ans.Answer)
	}
}

func TestAskStatusWithout(t *testing.T) {
	plain := mustView(t, liveP6()) // progress, no baseline
	if ans := Ask(plain, "what is behind baseline"); !strings.Contains(ans.Answer, "No activity has a baseline") || len(ans.Activities) != 0 {
		t.Errorf("no baseline: %+v", ans)
	}
	s := liveP6()
	s.DataDate = ""
	for i := range s.Activities {
		s.Activities[i].ActualStart, s.Activities[i].ActualFinish, s.Activities[i].Remaining = "", "", ""
	}
	fresh := mustView(t, s)
	if ans := Ask(fresh, "what should have started by the data date"); !strings.Contains(ans.Answer, "no data date") {
		t.Errorf("no data date: %+v", ans)
	}
	if ans := Ask(fresh, "what's in progress?"); !strings.Contains(ans.Answer, "Nothing is in progress") {
		t.Errorf("nothing started: %+v", ans)
	}
	// On its baseline: nothing behind.
	v := baselinedP6()
	for i := range v.S.Activities {
		a := &v.S.Activities[i]
		a.BaselineStart, a.BaselineFinish = "", "2027-01-01"
	}
	if ans := Ask(v, "what is behind the baseline"); !strings.Contains(ans.Answer, "Nothing is behind the baseline") {
		t.Errorf("all ahead: %+v", ans)
	}
}
