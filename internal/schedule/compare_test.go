package schedule_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/schedule/scheduletest"
)

// compareBase is the diamond A -> B -> C, A -> D -> C (scheduletest.Diamond).
func compareBase() *schedule.Schedule { return scheduletest.Diamond("Compare") }

func ids(as []schedule.ComparedActivity) []string {
	out := []string{}
	for _, a := range as {
		out = append(out, a.ID)
	}
	return out
}

func texts(rs []schedule.ComparedRelationship) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Text)
	}
	return out
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name                string
		change              func(s *schedule.Schedule)
		added, removed      []string
		changed             []schedule.ActivityChange
		relsAdded, relsGone []string
		finish              float64 // after; before is 10
		became, noLonger    []string
		floatChanged        []string
		criticalAdded       bool // the first added activity is critical
		impactError         string
	}{
		{name: "no change", change: func(*schedule.Schedule) {}, finish: 10},
		{
			name:    "longer critical activity",
			change:  func(s *schedule.Schedule) { s.Activities[1].Duration = "5" },
			changed: []schedule.ActivityChange{{ID: "B", Name: "Pour slab", Changes: []schedule.FieldChange{{Field: "duration", Before: "3", After: "5"}}}},
			finish:  12, floatChanged: []string{"D"},
		},
		{
			name:    "side branch becomes critical",
			change:  func(s *schedule.Schedule) { s.Activities[3].Duration = "6" },
			changed: []schedule.ActivityChange{{ID: "D", Name: "Survey", Changes: []schedule.FieldChange{{Field: "duration", Before: "1", After: "6"}}}},
			finish:  13, became: []string{"D"}, noLonger: []string{"B"}, floatChanged: []string{"B", "D"},
		},
		{
			name: "remove a critical activity",
			change: func(s *schedule.Schedule) {
				s.Activities = append(s.Activities[:1], s.Activities[2:]...)
				s.Relationships = s.Relationships[2:]
			},
			removed:  []string{"B"},
			relsGone: []string{"Excavate -FS-> Pour slab", "Pour slab -FS-> Cure"},
			finish:   8, became: []string{"D"}, floatChanged: []string{"D"},
		},
		{
			name: "add an activity with a lagged link",
			change: func(s *schedule.Schedule) {
				s.Activities = append(s.Activities, schedule.Activity{ID: "E", Name: "Tile", Duration: "4"})
				s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R9", Type: schedule.FS, Predecessor: "C", Successor: "E", Lag: 2})
			},
			added: []string{"E"}, criticalAdded: true, relsAdded: []string{"Cure -FS+2-> Tile"}, finish: 16,
		},
		{
			name:      "lag changed is one removal and one addition",
			change:    func(s *schedule.Schedule) { s.Relationships[2].Lag = 3 },
			relsAdded: []string{"Excavate -FS+3-> Survey"}, relsGone: []string{"Excavate -FS-> Survey"},
			finish: 11, became: []string{"D"}, noLonger: []string{"B"}, floatChanged: []string{"B", "D"},
		},
		{
			name: "relationship re-created with a new id is no change",
			change: func(s *schedule.Schedule) {
				s.Relationships[3].ID = "R4-new"
				s.Relationships[0], s.Relationships[3] = s.Relationships[3], s.Relationships[0]
			},
			finish: 10,
		},
		{
			name: "type change, rename, negative lag",
			change: func(s *schedule.Schedule) {
				s.Activities[2].Name = "Cure slab"
				s.Activities[2].Description = "Wet cure"
				s.Relationships[1].Type = schedule.SS
				s.Relationships[1].Lag = -1.5
			},
			changed: []schedule.ActivityChange{{ID: "C", Name: "Cure slab", Changes: []schedule.FieldChange{
				{Field: "name", Before: "Cure", After: "Cure slab"}, {Field: "description", Before: "", After: "Wet cure"}}}},
			relsAdded: []string{"Pour slab -SS-1.5-> Cure slab"}, relsGone: []string{"Pour slab -FS-> Cure"},
			finish: 8, became: []string{"D"}, floatChanged: []string{"D"},
		},
		{
			name: "a cycle after the change",
			change: func(s *schedule.Schedule) {
				s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R9", Type: schedule.FS, Predecessor: "C", Successor: "A"})
			},
			relsAdded:   []string{"Cure -FS-> Excavate"},
			impactError: "CPM after the change: circular logic",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := compareBase()
			after := before.Clone()
			tc.change(after)
			snapshot, _ := json.Marshal(before)
			c := schedule.Compare(before, after)
			if again, _ := json.Marshal(before); string(again) != string(snapshot) {
				t.Error("Compare modified the before schedule")
			}
			check := func(what string, got, want []string) {
				t.Helper()
				if want == nil {
					want = []string{}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s = %q, want %q", what, got, want)
				}
			}
			check("added", ids(c.Added), tc.added)
			check("removed", ids(c.Removed), tc.removed)
			check("relationships added", texts(c.RelationshipsAdded), tc.relsAdded)
			check("relationships removed", texts(c.RelationshipsRemoved), tc.relsGone)
			if tc.changed == nil {
				tc.changed = []schedule.ActivityChange{}
			}
			if !reflect.DeepEqual(c.Changed, tc.changed) {
				t.Errorf("changed = %+v, want %+v", c.Changed, tc.changed)
			}
			if tc.criticalAdded && !c.Added[0].Critical {
				t.Errorf("added %+v: want critical", c.Added[0])
			}
			if tc.impactError != "" {
				if c.Impact != nil || len(c.ImpactError) < len(tc.impactError) || c.ImpactError[:len(tc.impactError)] != tc.impactError {
					t.Errorf("impact %+v, error %q; want error %q", c.Impact, c.ImpactError, tc.impactError)
				}
				return
			}
			im := c.Impact
			if im == nil {
				t.Fatalf("no impact: %s", c.ImpactError)
			}
			if im.FinishBefore != 10 || im.FinishAfter != tc.finish || im.FinishChange != tc.finish-10 {
				t.Errorf("finish %v -> %v (%v), want 10 -> %v", im.FinishBefore, im.FinishAfter, im.FinishChange, tc.finish)
			}
			check("became critical", ids(im.BecameCritical), tc.became)
			check("no longer critical", ids(im.NoLongerCritical), tc.noLonger)
			if im.FloatChanged != len(tc.floatChanged) {
				t.Errorf("float changed on %d, want %d", im.FloatChanged, len(tc.floatChanged))
			}

			// The round's impact: the same comparison, the critical paths
			// and the ids whose float changed.
			rb, _ := schedule.Analyze(before)
			ra, _ := schedule.Analyze(after)
			imp := schedule.ImpactOf(before, after, rb, ra)
			if !reflect.DeepEqual(imp.Diff, c) {
				t.Errorf("ImpactOf's diff %+v, Compare %+v", imp.Diff, c)
			}
			if !slices.Equal(imp.FloatChanged, tc.floatChanged) {
				t.Errorf("ImpactOf float changed %q, want %q", imp.FloatChanged, tc.floatChanged)
			}
			if imp.FinishBefore != rb.ProjectDuration || imp.FinishAfter != ra.ProjectDuration ||
				!slices.Equal(imp.CriticalBefore, rb.CriticalPath()) || !slices.Equal(imp.CriticalAfter, ra.CriticalPath()) {
				t.Errorf("ImpactOf %+v", imp)
			}
		})
	}
}

func TestCompareNilAndDates(t *testing.T) {
	c := schedule.Compare(nil, compareBase())
	if len(c.Added) != 4 || len(c.RelationshipsAdded) != 4 || c.Impact == nil || c.Impact.FinishBefore != 0 || c.Impact.FinishAfter != 10 {
		t.Errorf("comparison from nothing: %+v", c)
	}
	before := compareBase()
	before.StartDate = "2026-01-05"
	after := before.Clone()
	after.Activities[1].Duration = "5"
	im := schedule.Compare(before, after).Impact
	// Day 10 ends on Friday 16 January, day 12 on Tuesday 20 January.
	if im.FinishDateBefore != "2026-01-16T17:00:00" || im.FinishDateAfter != "2026-01-20T17:00:00" {
		t.Errorf("finish dates %q -> %q", im.FinishDateBefore, im.FinishDateAfter)
	}
	r := schedule.NewRiskChange(before, after, 100, 1, 9.994, 10, 11.5, 12)
	if r.P50Before != 9.99 || r.P80Before != 10 || r.P80Change != 2 || r.P80DateBefore != "2026-01-16T17:00:00" || r.P80DateAfter != "2026-01-20T17:00:00" {
		t.Errorf("risk change %+v", r)
	}
}

func TestComparisonCap(t *testing.T) {
	after := compareBase()
	for _, id := range []string{"E", "F", "G"} {
		after.Activities = append(after.Activities, schedule.Activity{ID: id, Name: "Snag " + id, Duration: "1"})
	}
	c := schedule.Compare(compareBase(), after)
	c.Cap(1)
	if !slices.Equal(ids(c.Added), []string{"E"}) || c.Omitted["added"] != 2 || len(c.Omitted) != 1 {
		t.Errorf("capped: added %q, omitted %v", ids(c.Added), c.Omitted)
	}
}

// The JSON names are recorded in workflow histories and printed by
// `--json`: they must not change.
func TestComparisonJSONNames(t *testing.T) {
	before := compareBase()
	before.StartDate = "2026-01-05"
	after := before.Clone()
	after.Activities = append(after.Activities, schedule.Activity{ID: "E", Name: "Snag", Duration: "1"})
	after.Relationships = append(after.Relationships, schedule.Relationship{ID: "R9", Type: schedule.SS, Predecessor: "A", Successor: "E"})
	after.Activities[1].Duration = "5"
	rb, _ := schedule.Analyze(before)
	ra, _ := schedule.Analyze(after)
	imp := schedule.ImpactOf(before, after, rb, ra)
	imp.Diff.Impact.Risk = schedule.NewRiskChange(before, after, 10, 1, 1, 2, 3, 4)
	imp.Diff.Cap(0)
	b, err := json.Marshal(imp)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	want := map[string][]string{
		"impact": {"critical_after", "critical_before", "diff", "finish_after", "finish_before", "float_changed"},
		"diff":   {"added", "changed", "impact", "omitted", "relationships_added", "relationships_removed", "removed"},
		"diff.impact": {"became_critical", "finish_after", "finish_before", "finish_change", "finish_date_after", "finish_date_before",
			"float_changed", "no_longer_critical", "risk"},
		"diff.impact.risk": {"iterations", "p50_after", "p50_before", "p80_after", "p80_before", "p80_change", "p80_date_after", "p80_date_before", "seed"},
	}
	diff := got["diff"].(map[string]any)
	cpm := diff["impact"].(map[string]any)
	for name, m := range map[string]map[string]any{"impact": got, "diff": diff, "diff.impact": cpm, "diff.impact.risk": cpm["risk"].(map[string]any)} {
		if !slices.Equal(keys(m), want[name]) {
			t.Errorf("%s keys %q, want %q", name, keys(m), want[name])
		}
	}
	full := schedule.Compare(before, after)
	b, _ = json.Marshal(full)
	var fm map[string]any
	json.Unmarshal(b, &fm) //nolint:errcheck // marshalled just above
	act := fm["added"].([]any)[0].(map[string]any)
	rel := fm["relationships_added"].([]any)[0].(map[string]any)
	ch := fm["changed"].([]any)[0].(map[string]any)
	for name, pair := range map[string][2][]string{
		"activity":     {keys(act), {"duration", "id", "name"}},
		"relationship": {keys(rel), {"id", "lag", "predecessor", "predecessor_name", "successor", "successor_name", "text", "type"}},
		"change":       {keys(ch), {"changes", "id", "name"}},
		"field":        {keys(ch["changes"].([]any)[0].(map[string]any)), {"after", "before", "field"}},
	} {
		if !slices.Equal(pair[0], pair[1]) {
			t.Errorf("%s keys %q, want %q", name, pair[0], pair[1])
		}
	}
}

func TestTypeLagAndRoundDays(t *testing.T) {
	for _, tc := range []struct {
		typ  schedule.RelType
		lag  float64
		want string
	}{
		{schedule.FS, 0, "FS"}, {schedule.SS, 2, "SS+2"}, {schedule.FF, -1.5, "FF-1.5"}, {schedule.FS, 1e-9, "FS"}, {schedule.SF, 0.1 + 0.2, "SF+0.3"},
	} {
		if got := schedule.TypeLag(tc.typ, tc.lag); got != tc.want {
			t.Errorf("TypeLag(%s, %v) = %q, want %q", tc.typ, tc.lag, got, tc.want)
		}
	}
	if got := schedule.RoundDays(-1e-9); got != 0 || 1/got < 0 {
		t.Errorf("RoundDays(-1e-9) = %v, want 0 (not -0)", got)
	}
	if big := float64(1 << 60); schedule.RoundDays(big) != big {
		t.Error("RoundDays changed a number too large to round")
	}
}
