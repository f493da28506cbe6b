package insight

import (
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
