package insight

import (
	"reflect"
	"strings"
	"testing"
)

// TestAnswerCollapsed: a long path keeps its first items and its end, a
// long list its first items, each saying how many it leaves out; short
// ones and the words around them are as written; Parts gives the words
// back whole.
func TestAnswerCollapsed(t *testing.T) {
	for _, tc := range []struct {
		question string
		keep     int
		says     []string // in the collapsed words
		not      []string // not in them
	}{
		// The path to the finish: 54 activities, in path order.
		{"what drives the finish", 5, []string{"54 activities, in path order: Notice to proceed (A001) → ", " → … 49 more … → Handover (A147)."}, []string{"(A146)"}},
		// The critical path: a list of every critical activity.
		{"what is the critical path", 6, []string{"By early start: Notice to proceed (A001); ", "; … and "}, []string{"(A147)"}},
		// Short: whole.
		{"what's critical on level 3", 8, []string{"(A064, early start day", "(A069, early start day"}, []string{"more"}},
		{"what drives the finish", 100, []string{"(A146)", "Handover (A147)"}, []string{"more"}},
	} {
		ans := Ask(toolView(t, toolBuilding), tc.question)
		got := ans.Collapsed(tc.keep)
		for _, w := range tc.says {
			if !strings.Contains(got, w) {
				t.Errorf("%q collapsed to %d: no %q in\n%s", tc.question, tc.keep, w, got)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(got, w) {
				t.Errorf("%q collapsed to %d: %q left in\n%s", tc.question, tc.keep, w, got)
			}
		}
		var whole strings.Builder
		for _, p := range ans.Parts() {
			if p.List != nil {
				whole.WriteString(p.List.Text)
			} else {
				whole.WriteString(p.Text)
			}
		}
		if whole.String() != ans.Answer {
			t.Errorf("%q: the parts read\n%s\nthe answer\n%s", tc.question, whole.String(), ans.Answer)
		}
	}
	// Words with no list are one part, collapsed or not.
	plain := Answer{Answer: "The project finishes on day 3."}
	if got := plain.Collapsed(2); got != plain.Answer || len(plain.Parts()) != 1 {
		t.Errorf("plain words collapsed to %q, %d parts", got, len(plain.Parts()))
	}
}

// TestListsIn: the lists of activities in a model's words, found so they
// collapse as an offline answer's do.
func TestListsIn(t *testing.T) {
	names := map[string]string{"A1": "Excavate", "A2": "Pour footings", "A3": "Walls, level 1", "A4": "Roof", "A5": "Handover"}
	nameOf := func(id string) (string, bool) { n, ok := names[id]; return n, ok }
	cases := []struct {
		name, text string
		want       []AnswerList
	}{
		{"a path after words", "The driving path is Excavate (A1) → Pour footings (A2) → Roof (A4) → Handover (A5), 40 days.",
			[]AnswerList{{Text: "Excavate (A1) → Pour footings (A2) → Roof (A4) → Handover (A5)", Sep: PathSep, Items: []ListItem{
				{"A1", "Excavate (A1)"}, {"A2", "Pour footings (A2)"}, {"A4", "Roof (A4)"}, {"A5", "Handover (A5)"}}}}},
		{"ascii arrows, a name with a comma", "Path: excavate (A1) -> Walls, level 1 (A3) -> Roof (A4).",
			[]AnswerList{{Text: "excavate (A1) -> Walls, level 1 (A3) -> Roof (A4)", Sep: " -> ", Items: []ListItem{
				{"A1", "excavate (A1)"}, {"A3", "Walls, level 1 (A3)"}, {"A4", "Roof (A4)"}}}}},
		{"a comma list", "Critical: Excavate (A1), Roof (A4), Handover (A5)",
			[]AnswerList{{Text: "Excavate (A1), Roof (A4), Handover (A5)", Sep: ", ", Items: []ListItem{
				{"A1", "Excavate (A1)"}, {"A4", "Roof (A4)"}, {"A5", "Handover (A5)"}}}}},
		{"two are words, not a list", "Excavate (A1) → Roof (A4) drive it.", nil},
		{"an unknown id ends the run", "Excavate (A1) → Roof (A9) → Roof (A4) → Handover (A5)", nil},
		{"a name not the schedule's does not start a run", "Dig (A1) → Roof (A4) → Handover (A5)", nil},
		{"mixed separators stop a run", "Excavate (A1) → Roof (A4), Handover (A5); Excavate (A1)", nil},
		{"no activities", "The finish is 2026-09-01 (day 120).", nil},
	}
	for _, c := range cases {
		if got := ListsIn(c.text, nameOf); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
	// Collapsed as an offline answer is.
	ans := Answer{Answer: "Path: Excavate (A1) → Pour footings (A2) → Roof (A4) → Handover (A5)."}
	ans.Lists = ListsIn(ans.Answer, nameOf)
	if got, want := ans.Collapsed(2), "Path: Excavate (A1) → … 2 more … → Handover (A5)."; got != want {
		t.Errorf("collapsed %q, want %q", got, want)
	}
}
