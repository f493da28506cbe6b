package lang

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestLevelSpellingsInRequests: a new activity's name and a float-by-level
// question read every level spelling of the lexicon as "level" ("fl 2",
// "2nd story" and "float by stories" were words before).
func TestLevelSpellingsInRequests(t *testing.T) {
	opt := Options{Vocabulary: NewResolver(storetest.Building(t)).Vocabulary()}
	for _, where := range []string{"on level 2", "on L2", "on the second floor", "on the 2nd floor", "on storey 2", "on the second storey",
		"on the 2nd story", "on story 2", "on lvl 2", "on fl 2", "on flr 2", "on the second level"} {
		text := "add a 2 day fire-stopping " + where
		cmds := Parse(text, opt)
		if len(cmds) != 1 || cmds[0].Kind != Add || cmds[0].Name != "Fire-stopping Level 2" {
			t.Errorf("%q: %+v, want one add named Fire-stopping Level 2", text, cmds)
		}
	}
	for _, text := range []string{"float by level", "float by storey", "float by story", "float by stories", "float by floors",
		"which storey has the least float", "which story has the least float", "which level has the least float"} {
		qs, ok := ParseQuestions(text, opt)
		if !ok || len(qs) != 1 || qs[0].Kind != AskFloatBy || qs[0].Group != "level" {
			t.Errorf("%q: %v %+v, want float by level", text, ok, qs)
		}
	}
}
