package since_test

import (
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/versions/since"
)

func TestAsksSinceUpdate(t *testing.T) {
	for q, want := range map[string]bool{
		"what slipped since the last update":                   true,
		"What has slipped since last month?":                   true,
		"what changed since the previous update":               true,
		"what's changed since the last update":                 true,
		"which activities moved since the prior report":        true,
		"Please show me what slipped since the last data date": true,
		"anything slipped since last month":                    true,
		"what slipped since the baseline":                      false, // the baseline's question
		"what slipped on level 3 since the last update":        false, // a place: not the whole schedule
		"what slipped":                       false,
		"what is behind baseline":            false,
		"delay piling since the last update": false,
		"":                                   false,
	} {
		if got := since.Asked(q); got != want {
			t.Errorf("Asked(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestSinceUpdate(t *testing.T) {
	before, err := interchange.ReadFile("../../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	before.DataDate = "2026-01-05"
	now := before.Clone()
	now.DataDate = "2026-01-12"
	for i := range now.Activities {
		if now.Activities[i].ID == "A002" { // Mobilisation, critical: 5 -> 9 days
			now.Activities[i].Duration = "9"
		}
	}
	ans := since.Since("tower at data date 2026-01-05", before, now)
	for _, want := range []string{
		"Since the last update (tower at data date 2026-01-05; now at data date 2026-01-12)",
		"The finish moved 4 working days later",
		"Mobilisation (A002, finish +4 d)",
		"0 added, 0 removed, 1 changed activities",
	} {
		if !strings.Contains(ans.Answer, want) {
			t.Errorf("answer lacks %q:\n%s", want, ans.Answer)
		}
	}
	if len(ans.Activities) == 0 || ans.Activities[0] != "A002" {
		t.Errorf("activities = %v, want A002 first", ans.Activities)
	}
	// Nothing moved: said so.
	same := since.Since("tower at data date 2026-01-05", before, before.Clone())
	if !strings.Contains(same.Answer, "The finish did not move") || !strings.Contains(same.Answer, "No activity's forecast finish moved later") {
		t.Errorf("unchanged: %s", same.Answer)
	}
	if none := since.NoPrevious("tower", "2026-01-12"); !strings.Contains(none.Answer, `"tower" has no previous version`) {
		t.Errorf("no previous: %s", none.Answer)
	}
}
