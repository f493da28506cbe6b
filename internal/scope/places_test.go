package scope

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/lang"
)

// TestContentWordsPlaces: the words of a created name that name a place
// are not its work, however the level is written (storey had no place in
// the old l|lvl|level|fl|floor pattern).
func TestContentWordsPlaces(t *testing.T) {
	for _, s := range []string{
		"the new level 4 fire-stopping", "Fire-stopping L4", "fire-stopping lvl4", "fire stopping on storey 4",
		"fire-stopping storey4", "Fire-stopping Story 4", "fire-stopping fl 4", "fire-stopping flr4", "fire-stopping on floors 4",
		"fire-stopping on all storeys", "Fire-stopping, stories 3", "fire-stopping zone3", "fire-stopping GF", "fire-stopping bldg2",
	} {
		got := contentWords(s)
		if len(got) != 2 || !got["fire"] || !got["stopping"] {
			t.Errorf("contentWords(%q) = %v, want fire, stopping", s, got)
		}
	}
	// A request that creates "Fire-stopping Storey 4" is the one a later
	// "the new level 4 fire-stopping" refers to.
	created := [][]map[string]bool{createdNames(lang.Command{Kind: lang.Add, Name: "Fire-stopping Storey 4"})}
	if got := creator(lang.Ref{Words: "the new fire-stopping on level 4"}, created); got != 0 {
		t.Errorf("creator = %d, want 0", got)
	}
}
