package web

import (
	"net/url"
	"slices"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func TestViewOf(t *testing.T) {
	sc := &schedule.Schedule{Activities: []schedule.Activity{
		{ID: "A1", Name: "Excavate Level 1", WBS: "Site/Block A"},
		{ID: "A2", Name: "Pour slab Level 2", WBS: "Site/Block B", Codes: map[string]string{"Area": "North"}},
		{ID: "A3", Name: "Handover"},
		{ID: "A10", Name: "Pour slab Level 1", WBS: "Site/Block A"},
		{ID: "A4", Name: "Roof Level 2", WBS: "Site/Block B"},
	}}
	critical := func(i int) bool { return i%2 == 0 }
	changed := map[string]bool{"A3": true, "A4": true}
	for _, tt := range []struct {
		name   string
		query  string
		rows   []string
		groups []string
		page   int
		pages  int
	}{
		{"all", "", []string{"A1", "A2", "A3", "A10", "A4"}, nil, 1, 1},
		{"text in name, any case", "find=POUR", []string{"A2", "A10"}, nil, 1, 1},
		{"text in id", "find=a1", []string{"A1", "A10"}, nil, 1, 1},
		{"text in WBS", "find=block+b", []string{"A2", "A4"}, nil, 1, 1},
		{"critical", "critical=1", []string{"A1", "A3", "A4"}, nil, 1, 1},
		{"changed", "changed=1", []string{"A3", "A4"}, nil, 1, 1},
		{"critical and changed", "critical=1&changed=1", []string{"A3", "A4"}, nil, 1, 1},
		{"group by WBS, none last", "group=wbs", []string{"A1", "A10", "A2", "A4", "A3"},
			[]string{"Site/Block A", "Site/Block A", "Site/Block B", "Site/Block B", ""}, 1, 1},
		{"group by level", "group=level", []string{"A1", "A10", "A2", "A4", "A3"},
			[]string{"Level 1", "Level 1", "Level 2", "Level 2", ""}, 1, 1},
		{"group by code", "group=code:Area", []string{"A2", "A1", "A3", "A10", "A4"},
			[]string{"North", "", "", "", ""}, 1, 1},
		{"page 2 of 2", "per=3&page=2", []string{"A10", "A4"}, nil, 2, 3 - 1},
		{"page past the end is the last", "per=2&page=9", []string{"A4"}, nil, 3, 3},
		{"the page of an activity, filters cleared", "per=2&at=A4&critical=1", []string{"A4"}, nil, 3, 3},
		{"nothing matches", "find=zzz", nil, nil, 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tt.query)
			v := viewOf(sc, critical, changed, activityQueryOf(q))
			var ids []string
			for _, i := range v.Rows {
				ids = append(ids, sc.Activities[i].ID)
			}
			if !slices.Equal(ids, tt.rows) || !slices.Equal(v.Groups, tt.groups) || v.Page != tt.page || v.Pages != tt.pages {
				t.Errorf("rows %v groups %q page %d of %d; want %v %q page %d of %d", ids, v.Groups, v.Page, v.Pages, tt.rows, tt.groups, tt.page, tt.pages)
			}
		})
	}
}

func TestGroupingsOf(t *testing.T) {
	sc := &schedule.Schedule{Activities: []schedule.Activity{
		{ID: "A1", Name: "Excavate L1", WBS: "1.1", Codes: map[string]string{"Phase": "1", "Area": "N"}},
	}}
	var keys []string
	for _, g := range groupingsOf(sc) {
		keys = append(keys, g.Key)
	}
	if want := []string{"wbs", "level", "code:Area", "code:Phase"}; !slices.Equal(keys, want) {
		t.Errorf("groupings %v, want %v", keys, want)
	}
	if got := groupingsOf(&schedule.Schedule{Activities: []schedule.Activity{{ID: "A", Name: "Task"}}}); len(got) != 0 {
		t.Errorf("a bare schedule offers %v", got)
	}
}

func TestPagerLinks(t *testing.T) {
	aq := activityQuery{Find: "pour", Group: "wbs", Page: 2, Per: perPage}
	first, prev, next, last := pagerLinks("b 1", aq, tableView{Page: 2, Pages: 3})
	if first != "/s/b%201?find=pour&group=wbs#activities" || prev != first || next != "/s/b%201?find=pour&group=wbs&page=3#activities" || last != next {
		t.Errorf("links %q %q %q %q", first, prev, next, last)
	}
	if f, p, _, _ := pagerLinks("b", activityQuery{Page: 1, Per: perPage}, tableView{Page: 1, Pages: 1}); f != "" || p != "" {
		t.Errorf("page 1 of 1 links back: %q %q", f, p)
	}
}
