package insight

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The expectations in this file were worked by hand from the CPM table
// (`autoscheduler schedule --file examples/building.json`: ES, EF, TF per
// activity) and the relationships of the file, with the relationship free
// float of each link computed as DESIGN.md defines it (FS: ES_s-lag-EF_p,
// SS: ES_s-lag-ES_p, FF: EF_s-lag-EF_p, SF: EF_s-lag-ES_p). The MSPDI files
// are described in ../shared/data/README.md.

const (
	toolBuilding      = "../../examples/building.json"
	toolMSPDIRel      = "../../../shared/data/mspdi/mspdirelations.xml"
	toolMSPDITaskLink = "../../../shared/data/mspdi/task-links-project2007-mspdi.xml"
)

func toolView(t testing.TB, path string) *View {
	t.Helper()
	s, net, err := interchange.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewOf(s, net.Compute())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func toolIDs(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Fields(s)
}

// finishPath54 is the driving path to the building's finish, worked
// backwards from A147 Handover (ES 167) one driving link at a time:
//
//	A147 ← A146 FS+5 (162+5=167, slack 0); A144 FS has slack 167-158=9
//	A146 ← A145 FS (EF 162); A132/A127/A129 have 34/95/99
//	A145 ← A143 FS-1 (162-1=161); A137 has 161-149.5=11.5
//	A143 ← A142 FS; A142 ← A141 SS+2 (150+2=152) and FF+3 (155+3=158)
//	A141 ← A138 FS (EF 150); A137 has 0.5, A133 and A135 2, A134 4
//	A138 ← A135 SS+3 (146) and FF+2 (150); A135 ← A113 FS (EF 143)
//	A113 ← A112 FS; A112 ← A110 FS
//	A110 ← A107 FS (EF 130) and A109 FS (EF 130): a tie; A085 SS+5 has 11
//	A107 ← A106 FS; A109 ← A108 FF+1 (129+1=130; its SS+2 has 1.5)
//	A108 ← A106 FS-2 (125-2=123); A106 ← A105 FF+2 (SS+2 has 2)
//	A105 ← A104 SS+3 (A103 FS has 4.5); A104 ← A097 FS (A100 SS+4 has 6.5)
//	A097 ← A096 FF+2 (SS+3 has 2); A096 ← A116 FS (A095 3.5, A071 11)
//	A116 ← A115 ← A114 (SS+2 and FF+1) ← A094 FS+1 (95.5+1=96.5)
//	A094 ← A093 ← A092 ← A091 ← A090 ← A089 ← A069 FS+1, and the same
//	per level down to A039 ← A019 FS+1, A019 ← A018 ← A017 ← A016 ← A015
//	(SS+2 only: FF+1 has 2) ← A014 ← A012 FS
//	A012 ← A010 FS and A011 FS (both EF 31.5): a tie; A011 ← A010 SS+3
//	A010 ← A009 FS; A009 ← A008 SS+4 (FF+3 has 3, A006 FS 6)
//	A008 ← A007 FS (A003 and A005 have 1.5); A007 ← A002 FS; A002 ← A001.
//
// That is exactly the 54 critical activities. In path order (a topological
// order taking the earliest early start first) A106 (ES 121) is followed
// by A108 (123), A107 (125), A109 (126.5), and A114 (96.5) comes before
// A096 (104): the same order as the report's critical_path.
const finishPath54 = "A001 A002 A007 A008 A009 A010 A011 A012 A014 A015 A016 A017 A018 A019 A039 A040 A041 A042 A043 A044 " +
	"A064 A065 A066 A067 A068 A069 A089 A090 A091 A092 A093 A094 A114 A115 A116 A096 A097 A104 A105 A106 A108 A107 A109 A110 " +
	"A112 A113 A135 A138 A141 A142 A143 A145 A146 A147"

// to110 is finishPath54 up to A110 Painting Level 4.
var to110 = finishPath54[:strings.Index(finishPath54, "A110")+4]

func TestDrivingPath(t *testing.T) {
	for _, tc := range []struct {
		file, target string // target "" is the project finish
		ids          string
		links        string // relationship ids, when checked
		starts       string
	}{
		// A012 is driven by both A010 (FS, EF 31.5) and A011 (FS, EF
		// 31.5), A011 by A010 (SS+3: 23.5+3 = 26.5); upstream a single
		// chain. Links by successor's place, then predecessor's.
		{toolBuilding, "A012", "A001 A002 A007 A008 A009 A010 A011 A012", "R001 R006 R007 R010 R013 R014 R015 R016", "A001"},
		// Painting Level 1 (ES 83, TF 32): driven by A032 FS (EF 83) and
		// A034 FS (EF 83); A034 by A033 FF+1 (82+1); A032 by A031 FS (78);
		// A033 by A031 FS-2 (78-2 = 76); A031 by A030 FF+2 (76+2 = 78;
		// SS+2 has 2); A030 by A029 SS+3 (A028 FS has 4); A029 by A022 FS
		// (EF 67; A025 SS+4 has 6); A022 by A021 FF+2 (65+2; SS+3 has 2);
		// A021 by A041 FS (EF 57; A020 FS has 3); A041 up the critical
		// chain. A033 (76) comes before A032 (78), then A034 (79.5).
		{toolBuilding, "A035", "A001 A002 A007 A008 A009 A010 A011 A012 A014 A015 A016 A017 A018 A019 A039 A040 A041 " +
			"A021 A022 A029 A030 A031 A033 A032 A034 A035", "", "A001"},
		{toolBuilding, "A110", to110, "", "A001"},
		{toolBuilding, "", finishPath54, "", "A001"},
		// Notice to proceed: nothing drives it.
		{toolBuilding, "A001", "A001", "", "A001"},
		// mspdirelations: 1 (0-1) -FS-> 2 (1-2): 1-1 = 0; 2 -SS+1-> 3
		// (2-3): 2-1-1 = 0; 3 -FF-> 4 (2-3): 3-3 = 0; 4 -SF-> 5 (1-2):
		// EF5-ES4 = 2-2 = 0. Every link drives, so Task 5 (TF 1, not
		// critical) has the whole chain as its driving path.
		{toolMSPDIRel, "5", "1 2 3 4 5", "1-FS-2 2-SS-3 3-FF-4 4-SF-5", "1"},
		// The finish (day 3) is Task 3's and Task 4's (EF 3): 1 2 3 4,
		// 3 (ES 2) before 4 (ES 2) by schedule order.
		{toolMSPDIRel, "", "1 2 3 4", "1-FS-2 2-SS-3 3-FF-4", "1"},
		// task-links: only pair 9 -FS+2w-> 10 reaches day 12 (1+10 = 11,
		// 11-12); the other pairs finish earlier.
		{toolMSPDITaskLink, "", "9 10", "", "9"},
		{toolMSPDITaskLink, "16", "15 16", "", "15"}, // FF+2d: EF16 = 1+2 = 3, slack 0
	} {
		v := toolView(t, tc.file)
		var p *Path
		if tc.target == "" {
			p = v.DrivingPathToFinish()
		} else {
			var err error
			if p, err = v.DrivingPath(tc.target); err != nil {
				t.Fatal(err)
			}
		}
		if got := p.IDs(); !slices.Equal(got, toolIDs(tc.ids)) {
			t.Errorf("%s %q: path\n %v\nwant\n %v", tc.file, tc.target, got, toolIDs(tc.ids))
		}
		if tc.links != "" {
			var got []string
			for _, l := range p.Links {
				got = append(got, l.RelationshipID)
			}
			if !slices.Equal(got, toolIDs(tc.links)) {
				t.Errorf("%s %q: links %v, want %v", tc.file, tc.target, got, tc.links)
			}
		}
		if !slices.Equal(p.Starts, toolIDs(tc.starts)) {
			t.Errorf("%s %q: starts %v, want %v", tc.file, tc.target, p.Starts, tc.starts)
		}
		// Every link on the path drives, and joins activities on it in
		// path order.
		place := map[string]int{}
		for n, id := range p.IDs() {
			place[id] = n
		}
		for _, l := range p.Links {
			if place[l.Predecessor] >= place[l.Successor] {
				t.Errorf("%s %q: link %s runs backwards on the path", tc.file, tc.target, l.RelationshipID)
			}
		}
	}
	v := toolView(t, toolBuilding)
	if _, err := v.DrivingPath("nosuch"); err == nil {
		t.Error("a driving path to an unknown activity")
	}
	// The finish path is the report's critical path here.
	if got := v.R.CriticalPath(); !slices.Equal(got, toolIDs(finishPath54)) {
		t.Errorf("critical path %v", got)
	}
}

func TestNearCritical(t *testing.T) {
	v := toolView(t, toolBuilding)
	// Total float in (0, 5] from the CPM table: A133 0.5 (ES 143), A137
	// 0.5 (148); A004 1.5 (ES 1), A003 1.5 (2), A005 1.5 (4); A095 3.5;
	// A134 4; A099 4.5 (100.5), A101 4.5 (102.5), A102 4.5 (107.5), A103
	// 4.5 (111.5). Next are A006, A111 at 6 and A100 at 6.5.
	near := toolIDs("A133 A137 A004 A003 A005 A095 A134 A099 A101 A102 A103")
	for _, tc := range []struct {
		days float64
		want []string
	}{
		{0, toolIDs(finishPath54)},
		{0.5, append(toolIDs(finishPath54), "A133", "A137")},
		{5, append(toolIDs(finishPath54), near...)},
		{5.9, append(toolIDs(finishPath54), near...)},
	} {
		got := IDs(v.NearCritical(tc.days))
		if !slices.Equal(got, tc.want) {
			t.Errorf("NearCritical(%v) = %v, want %v", tc.days, got, tc.want)
		}
	}
	// mspdirelations: 1 2 3 4 have TF 0 (by ES 0, 1, 2, 2), Task 5 TF 1.
	if got := IDs(toolView(t, toolMSPDIRel).NearCritical(1)); !slices.Equal(got, toolIDs("1 2 3 4 5")) {
		t.Errorf("mspdirelations NearCritical(1) = %v", got)
	}
	// task-links: TF 0 for 9 and 10; TF 5 (the FS+1w pair) for 7 (ES 0)
	// and 8 (ES 6); the rest 8 or more.
	if got := IDs(toolView(t, toolMSPDITaskLink).NearCritical(5)); !slices.Equal(got, toolIDs("9 10 7 8")) {
		t.Errorf("task-links NearCritical(5) = %v", got)
	}
}

func TestDetails(t *testing.T) {
	v := toolView(t, toolBuilding)
	d, err := v.Details("A110")
	if err != nil {
		t.Fatal(err)
	}
	// Painting Level 4: ES 130 EF 136 LS 130 LF 136, TF 0 FF 0. Links in:
	// R207 A107 FS (EF 130: slack 0), R208 A109 FS (EF 130: 0), R209 A085
	// SS+5 (130-5-114 = 11); out: R211 A112 FS (136-136 = 0).
	r := d.Activity
	if r.EarlyStart != 130 || r.EarlyFinish != 136 || r.LateStart != 130 || r.LateFinish != 136 || r.TotalFloat != 0 || r.FreeFloat != 0 || !r.Critical {
		t.Errorf("A110 times %+v", r)
	}
	// Day 130 of the building's calendar (Mon-Fri, Good Friday and Easter
	// Monday, 4 May and 25 May off) is Fri 2026-07-10; day 136 ends Fri
	// 2026-07-17 (six working days: 10, 13-17 July).
	if r.EarlyStartDate != "2026-07-10T08:00:00" || r.EarlyFinishDate != "2026-07-17T17:00:00" {
		t.Errorf("A110 dates %s %s", r.EarlyStartDate, r.EarlyFinishDate)
	}
	if r.Level != "4" || r.Trade != "Painting" {
		t.Errorf("A110 level %q trade %q", r.Level, r.Trade)
	}
	want := []Link{
		{RelationshipID: "R207", Type: schedule.FS, ActivityID: "A107", ActivityName: "Suspended ceilings Level 4", Slack: 0, Driving: true},
		{RelationshipID: "R208", Type: schedule.FS, ActivityID: "A109", ActivityName: "Doors and frames Level 4", Slack: 0, Driving: true},
		{RelationshipID: "R209", Type: schedule.SS, Lag: 5, ActivityID: "A085", ActivityName: "Painting Level 3", Slack: 11},
	}
	if !slices.Equal(d.Predecessors, want) {
		t.Errorf("A110 predecessors %+v", d.Predecessors)
	}
	if len(d.Successors) != 1 || d.Successors[0] != (Link{RelationshipID: "R211", Type: schedule.FS, ActivityID: "A112", ActivityName: "Flooring Level 4", Driving: true}) {
		t.Errorf("A110 successors %+v", d.Successors)
	}
	if !slices.Equal(d.DrivenBy, []string{"R207", "R208"}) || !slices.Equal(d.Drives, []string{"A112"}) {
		t.Errorf("A110 driven by %v, drives %v", d.DrivenBy, d.Drives)
	}

	// Piling (pert(10,12,18): CPM uses the mode, 12): ES 11.5. R010 A008
	// SS+4: 11.5-4-7.5 = 0 drives; R011 A008 FF+3: 23.5-3-17.5 = 3; R012
	// A006 FS: 11.5-5.5 = 6. Out: R013 A010 FS: 23.5-23.5 = 0; R017 A013
	// FS-2: 21.5+2-23.5 = 0 (it drives the non-critical crane too).
	d, _ = v.Details("A009")
	var slack []float64
	for _, l := range append(slices.Clone(d.Predecessors), d.Successors...) {
		slack = append(slack, l.Slack)
	}
	if !slices.Equal(slack, []float64{0, 3, 6, 0, 0}) || d.DurationText != "pert(10,12,18)" || d.Activity.Duration != 12 {
		t.Errorf("A009 slack %v duration %q %v", slack, d.DurationText, d.Activity.Duration)
	}
	if !slices.Equal(d.Drives, []string{"A010", "A013"}) {
		t.Errorf("A009 drives %v", d.Drives)
	}

	// mspdirelations Task 5: SF from Task 4, EF5-ES4 = 2-2 = 0: driven;
	// TF 1 (LF 3 - EF 2), FF 1 (the finish, 3, less its EF).
	m := toolView(t, toolMSPDIRel)
	d, _ = m.Details("5")
	if len(d.Predecessors) != 1 || !d.Predecessors[0].Driving || d.Predecessors[0].Type != schedule.SF || d.Activity.TotalFloat != 1 || d.Activity.FreeFloat != 1 {
		t.Errorf("Task 5 %+v", d)
	}
	if _, err := m.Details("nosuch"); err == nil {
		t.Error("details of an unknown activity")
	}
}

func TestFloatBy(t *testing.T) {
	v := toolView(t, toolBuilding)
	gs, err := v.FloatBy("level")
	if err != nil {
		t.Fatal(err)
	}
	// From the CPM table, 25 activities a level:
	// L1 (A014-A038): critical A014-A019 (6); float sum 35+32+32+82
	// +36+38+36+36+36 + 32×7 (A029-A035) + 53+47+47 = 734, mean 29.36.
	// L2 (A039-A063): critical A039-A044 (6); 24.5+21.5+21.5+66.5 +25.5
	// +27.5+25.5+25.5+25.5 + 21.5×7 + 37.5+31.5+31.5 = 514.5, mean 20.58.
	// L3 (A064-A088): critical A064-A069 (6); 14+11+11+51 +15+17+15+15+15
	// + 11×7 + 22+16+16 = 295, mean 11.8.
	// L4 (A089-A113): critical A089-A094, A096, A097, A104-A110, A112,
	// A113 (17); 3.5+35+4.5+6.5+4.5+4.5+4.5+6 = 69, mean 2.76.
	// No level (A001-A013, A114-A147: 47): critical A001 A002 A007-A012,
	// A114-A116, A135 A138 A141-A143 A145-A147 (19); float 19.5 + 825.5 =
	// 845, mean 845/47 = 17.978723 (to a millionth).
	want := []struct {
		group       string
		count, crit int
		mean        float64
		first       string
		label       string
	}{
		{"1", 25, 6, 29.36, "A014", "Level 1"},
		{"2", 25, 6, 20.58, "A039", "Level 2"},
		{"3", 25, 6, 11.8, "A064", "Level 3"},
		{"4", 25, 17, 2.76, "A089", "Level 4"},
		{"", 47, 19, 17.978723, "A001", "No level"},
	}
	if len(gs) != len(want) {
		t.Fatalf("%d level groups: %+v", len(gs), gs)
	}
	for n, w := range want {
		g := gs[n]
		if g.Group != w.group || g.Label != w.label || g.Count != w.count || g.Critical != w.crit || g.MinFloat != 0 || g.MeanFloat != w.mean || g.Activities[0] != w.first {
			t.Errorf("level group %d: %+v, want %+v", n, g, w)
		}
	}
	gs, _ = v.FloatBy("trade")
	byName := map[string]FloatGroup{}
	for _, g := range gs {
		byName[g.Group] = g
	}
	// Painting Levels 1-4: floats 32, 21.5, 11, 0: mean 64.5/4 = 16.125.
	// "Slab formwork" is Levels 2-4 (Level 1's is "Slab edge formwork",
	// the roof's "Roof slab formwork"), all critical.
	if g := byName["Painting"]; g.Count != 4 || g.Critical != 1 || g.MinFloat != 0 || g.MeanFloat != 16.125 || !slices.Equal(g.Activities, toolIDs("A035 A060 A085 A110")) {
		t.Errorf("Painting %+v", g)
	}
	if g := byName["Slab formwork"]; g.Count != 3 || g.Critical != 3 || !slices.Equal(g.Activities, toolIDs("A039 A064 A089")) {
		t.Errorf("Slab formwork %+v", g)
	}
	// mspdirelations: no levels; floats 0 0 0 0 1: mean 0.2, 4 critical.
	gs, _ = toolView(t, toolMSPDIRel).FloatBy("level")
	if len(gs) != 1 || gs[0].Label != "No level" || gs[0].Count != 5 || gs[0].Critical != 4 || gs[0].MeanFloat != 0.2 {
		t.Errorf("mspdirelations by level %+v", gs)
	}
	if _, err := v.FloatBy("colour"); err == nil {
		t.Error("FloatBy accepted an unknown group")
	}
}

// TestFloatByLevelNouns: FloatBy groups by level for every level noun of
// the lexicon, as a float-by question says it ("level", "floors" before;
// "storey", "storeys", "story", "stories" are new), and a row's level and
// trade read every spelling of a level in a name.
func TestFloatByLevelNouns(t *testing.T) {
	v := toolView(t, toolBuilding)
	want, err := v.FloatBy("level")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"levels", "floor", "Floors", "storey", "storeys", "story", "Stories"} {
		got, err := v.FloatBy(g)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("FloatBy(%q) = %d groups, %v; want FloatBy(\"level\")", g, len(got), err)
		}
	}
	for _, name := range []string{"Painting Level 3", "Painting L3", "Painting level three", "Painting 3rd floor", "Painting third floor",
		"Painting Storey 3", "Painting Story 3", "Painting third storey", "Painting Fl 3", "Painting Flr 3", "Painting Lvl 3", "Painting 3rd fl",
		"Painting Lv3", "Painting Storey3", "Painting Level-3"} {
		if l, tr := LevelOf(name), TradeOf(name); l != "3" || tr != "Painting" {
			t.Errorf("%q: level %q, trade %q; want 3, Painting", name, l, tr)
		}
		if l, ok := ParseLevel(name[len("Painting "):]); !ok || l != "3" {
			t.Errorf("ParseLevel(%q) = %q, %v; want 3", name[len("Painting "):], l, ok)
		}
	}
}

func TestFind(t *testing.T) {
	v := toolView(t, toolBuilding)
	yes := true
	f := func(x float64) *float64 { return &x }
	for _, tc := range []struct {
		name   string
		filter Filter
		want   string
	}{
		{"critical on level 3", Filter{Level: "3", Critical: &yes}, "A064 A065 A066 A067 A068 A069"},
		{"L3 is level 3", Filter{Level: "L3", Critical: &yes}, "A064 A065 A066 A067 A068 A069"},
		// A typo, corrected against the schedule's words.
		{"typo", Filter{Text: "paintng"}, "A035 A060 A085 A110"},
		// "plasterboard" is a drywall synonym: every drywall activity by
		// name, and the plasterboard of the descriptions is drywall too.
		{"synonym", Filter{Text: "plasterboard", Level: "2"}, "A054 A055 A056"},
		{"text with a level", Filter{Text: "painting level 2"}, "A060"},
		{"an id", Filter{Text: "a009"}, "A009"},
		{"trade", Filter{Trade: "drywall board"}, "A030 A055 A080 A105"},
		// Level 1 floats from 30 to 35: A020 35, A021 32, A022 32,
		// A029-A035 32 (A023 82, A024 36, A025 38 … are out).
		{"float range", Filter{Level: "1", MinFloat: f(30), MaxFloat: f(35)}, "A020 A021 A022 A029 A030 A031 A032 A033 A034 A035"},
		// Durations of 10 days or more: Bulk excavation 10, Piling 12 (the
		// mode of pert(10,12,18)), Lift guide rails 10.
		{"duration", Filter{MinDuration: f(10)}, "A008 A009 A123"},
		// 5 January 2026 is working day 0 (offsets 0 to 1): Notice to
		// proceed (a milestone at 0) and Mobilisation (0-5); Site offices
		// starts at 1, as the day ends.
		{"a date", Filter{From: "2026-01-05", To: "2026-01-05"}, "A001 A002"},
		{"offsets", Filter{From: "0", To: "1"}, "A001 A002"},
		// From day 162 on: only the milestones Substantial completion (at
		// 162) and Handover (167); Final inspection and Final cleaning end
		// at 162, as the window opens, and Site offices demobilisation at
		// 158.
		{"from an offset", Filter{From: "162"}, "A146 A147"},
	} {
		res, err := v.Find(tc.filter)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := IDs(res.Activities); !slices.Equal(got, toolIDs(tc.want)) || res.Total != len(got) {
			t.Errorf("%s: %v (total %d), want %s", tc.name, got, res.Total, tc.want)
		}
	}
	res, _ := v.Find(Filter{Level: "4", Limit: 2})
	if res.Total != 25 || len(res.Activities) != 2 {
		t.Errorf("limit: %d of %d", len(res.Activities), res.Total)
	}
	for _, bad := range []Filter{{Level: "the roof"}, {From: "yesterday"}, {Text: "the of"}} {
		if _, err := v.Find(bad); err == nil {
			t.Errorf("Find(%+v) gave no error", bad)
		}
	}
	// Level 3 is not level 30 (no loose match of level words).
	tall, err := New(&schedule.Schedule{Activities: []schedule.Activity{{ID: "P3", Name: "Painting Level 3", Duration: "1"}, {ID: "P30", Name: "Painting Level 30", Duration: "1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := tall.Find(Filter{Text: "painting level 3"}); !slices.Equal(IDs(res.Activities), []string{"P3"}) {
		t.Errorf("level 3 found %v", IDs(res.Activities))
	}
	// A date needs a start date.
	s := &schedule.Schedule{Activities: []schedule.Activity{{ID: "A", Name: "A", Duration: "1"}}}
	nv, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nv.Find(Filter{From: "2026-01-05"}); err == nil || !strings.Contains(err.Error(), "no start date") {
		t.Errorf("a date without a start date: %v", err)
	}
}

func TestWhatIf(t *testing.T) {
	for _, tc := range []struct {
		name, file            string
		scenario              Scenario
		before, after, change float64
		dateBefore, dateAfter string
		became, noLonger      string
		floatOf               string // an activity whose total float is checked after
		floatAfter            float64
		synthetic             int
	}{
		// Piling is critical and every link out of it drives: 5 more days
		// move everything after it by 5, and the finish from 167 (Tue 1
		// Sep 2026) to 172: Wed 2 … Fri 4, Mon 7, Tue 8 Sep.
		{name: "piling +5", file: toolBuilding, scenario: Scenario{Durations: []DurationChange{{Activity: "A009", Days: 5, Delta: true}}},
			before: 167, after: 172, change: 5, dateBefore: "2026-09-01T17:00:00", dateAfter: "2026-09-08T17:00:00", floatOf: "A009", floatAfter: 0},
		// Painting Level 1 at 16 days: EF 83+16 = 99. Its late finish is
		// set by the SS+5 link to Painting Level 2 (LS 120-5+16 = 131, LS
		// 115 as before), not by Flooring (LS 136), so its float stays 32
		// and the finish does not move; Flooring L1 (ES 99, LS 136) and
		// Final fixtures L1 (ES 103, LS 140) go from 47 to 37.
		{name: "painting L1 16 days", file: toolBuilding, scenario: Scenario{Durations: []DurationChange{{Activity: "A035", Days: 16}}},
			before: 167, after: 167, dateBefore: "2026-09-01T17:00:00", dateAfter: "2026-09-01T17:00:00", floatOf: "A037", floatAfter: 37},
		// Mobilisation (critical, ES 0) 3 days later: the chain after it
		// moves 3, the finish to 170 (Fri 4 Sep). Notice to proceed is no
		// longer critical: Mobilisation is held by the delay, so A001's
		// late finish is 3.
		{name: "mobilisation +3", file: toolBuilding, scenario: Scenario{Delays: []Delay{{Activity: "A002", Days: 3}}},
			before: 167, after: 170, change: 3, dateBefore: "2026-09-01T17:00:00", dateAfter: "2026-09-04T17:00:00", noLonger: "A001",
			floatOf: "A001", floatAfter: 3, synthetic: 1},
		// Site hoarding (TF 1.5) 1 day later: its only successor link, FS
		// to Bulk excavation, then has 0.5 slack; nothing else moves.
		{name: "hoarding +1", file: toolBuilding, scenario: Scenario{Delays: []Delay{{Activity: "A003", Days: 1}}},
			before: 167, after: 167, dateBefore: "2026-09-01T17:00:00", dateAfter: "2026-09-01T17:00:00", floatOf: "A003", floatAfter: 0.5, synthetic: 1},
		// Without R182 (Pour roof slab -FS-> Facade L4), Facade L4 is
		// driven by Strip formwork L4 (EF 100.5): it starts 3.5 earlier
		// and the chain after it with it, down to Snagging (A141: now
		// max(A133 144.5, A135 144.5, A137 146, A138 146.5) = 146.5) and
		// Handover (163.5). Strip formwork L4 (TF 3.5) becomes critical;
		// the roof slab (A114-A116) now feeds only the roof and lifts,
		// with float.
		{name: "unlink roof slab", file: toolBuilding, scenario: Scenario{RemoveLinks: []LinkEnds{{A: "A096", B: "A116"}}},
			before: 167, after: 163.5, change: -3.5, dateBefore: "2026-09-01T17:00:00", dateAfter: "2026-08-26T12:00:00",
			became: "A095", noLonger: "A114 A115 A116", floatOf: "A095", floatAfter: 0},
		// Without R008 Site hoarding has no successor: LF 167, TF 167-6.
		{name: "unlink hoarding", file: toolBuilding, scenario: Scenario{RemoveLinks: []LinkEnds{{A: "A003", B: "A008"}}},
			before: 167, after: 167, dateBefore: "2026-09-01T17:00:00", dateAfter: "2026-09-01T17:00:00", floatOf: "A003", floatAfter: 161},
		// mspdirelations, Task 2 at 3 days: 1 (0-1), 2 (1-4), 3 (SS+1:
		// 2-3), 4 (FF: 2-3), 5 (1-2); finish 4 (Task 2), Tue 26 Sep 2006.
		// Task 3's late finish is Task 4's (4), LS 3: TF 1; Task 4 TF 1.
		{name: "task 2 takes 3", file: toolMSPDIRel, scenario: Scenario{Durations: []DurationChange{{Activity: "2", Days: 3}}},
			before: 3, after: 4, change: 1, dateBefore: "2006-09-25T17:00:00", dateAfter: "2006-09-26T17:00:00", noLonger: "3 4", floatOf: "5", floatAfter: 2},
		// Task 1 two days later: the chain moves 2, finish 5 (Wed 27 Sep).
		{name: "task 1 +2", file: toolMSPDIRel, scenario: Scenario{Delays: []Delay{{Activity: "1", Days: 2}}},
			before: 3, after: 5, change: 2, dateBefore: "2006-09-25T17:00:00", dateAfter: "2006-09-27T17:00:00", floatOf: "5", floatAfter: 1, synthetic: 1},
		// Without 3-FF->4: Task 4 starts at 0 (0-1), Task 5 (SF: EF >= 0)
		// at 0; finish 3 (Task 3). Task 4: LF 3, TF 2: no longer critical.
		{name: "unlink 3 and 4", file: toolMSPDIRel, scenario: Scenario{RemoveLinks: []LinkEnds{{A: "3", B: "4"}}},
			before: 3, after: 3, dateBefore: "2006-09-25T17:00:00", dateAfter: "2006-09-25T17:00:00", noLonger: "4", floatOf: "4", floatAfter: 2},
	} {
		v := toolView(t, tc.file)
		before := v.S.Clone()
		res, err := v.WhatIfScenario(tc.scenario)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if res.FinishBefore != tc.before || res.FinishAfter != tc.after || res.FinishChange != tc.change ||
			res.FinishDateBefore != tc.dateBefore || res.FinishDateAfter != tc.dateAfter {
			t.Errorf("%s: finish %v -> %v (%v), %s -> %s", tc.name, res.FinishBefore, res.FinishAfter, res.FinishChange, res.FinishDateBefore, res.FinishDateAfter)
		}
		if !slices.Equal(res.BecameCritical, toolIDs(tc.became)) || !slices.Equal(res.NoLongerCritical, toolIDs(tc.noLonger)) {
			t.Errorf("%s: became critical %v, no longer %v", tc.name, res.BecameCritical, res.NoLongerCritical)
		}
		if r, ok := res.After.Row(tc.floatOf); !ok || r.TotalFloat != tc.floatAfter {
			t.Errorf("%s: %s total float after %v, want %v", tc.name, tc.floatOf, r.TotalFloat, tc.floatAfter)
		}
		if len(res.Synthetic) != tc.synthetic {
			t.Errorf("%s: synthetic %v", tc.name, res.Synthetic)
		}
		if res.Diff == nil || res.Diff.Impact == nil || res.Diff.Impact.FinishAfter != tc.after {
			t.Errorf("%s: diff %+v", tc.name, res.Diff)
		}
		// Nothing was written: the view's schedule is as it was.
		if a, b := toolJSON(t, before), toolJSON(t, v.S); a != b {
			t.Errorf("%s: the view's schedule changed", tc.name)
		}
	}
	// The Painting L1 case: the early dates of exactly A035 (its finish),
	// A037 and A038 move, and the floats of A037 and A038 (worked above).
	v := toolView(t, toolBuilding)
	res, _ := v.WhatIfScenario(Scenario{Durations: []DurationChange{{Activity: "A035", Days: 16}}})
	var moved, floats []string
	for _, c := range res.Changed {
		if c.EarlyStartBefore != c.EarlyStartAfter || c.EarlyFinishBefore != c.EarlyFinishAfter {
			moved = append(moved, c.ID)
		}
		if c.TotalFloatBefore != c.TotalFloatAfter {
			floats = append(floats, c.ID)
		}
	}
	if !slices.Equal(moved, toolIDs("A035 A037 A038")) || !slices.Equal(floats, toolIDs("A037 A038")) {
		t.Errorf("painting L1: moved %v, floats %v", moved, floats)
	}
	for _, bad := range []Scenario{
		{},
		{Durations: []DurationChange{{Activity: "A009", Days: -13, Delta: true}}},
		{Delays: []Delay{{Activity: "A009", Days: -1}}},
		{RemoveLinks: []LinkEnds{{A: "A001", B: "A147"}}},
		{Durations: []DurationChange{{Activity: "nosuch", Days: 1}}},
	} {
		if _, err := v.WhatIfScenario(bad); err == nil {
			t.Errorf("WhatIfScenario(%+v) gave no error", bad)
		}
	}
	// Raw ops too: removing Handover leaves Substantial completion (162)
	// and Site offices demobilisation (158) as the ends: finish 162.
	res, err := v.WhatIf([]schedule.Op{schedule.RemoveActivity("A147")})
	if err != nil || res.FinishAfter != 162 || res.FinishChange != -5 {
		t.Errorf("remove Handover: %+v %v", res, err)
	}
}

func toolJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The tools' results are JSON a model can be handed as they are.
func TestToolResultsAreJSON(t *testing.T) {
	v := toolView(t, toolBuilding)
	d, _ := v.Details("A110")
	p := v.DrivingPathToFinish()
	fb, _ := v.FloatBy("level")
	f, _ := v.Find(Filter{Level: "3"})
	w, _ := v.WhatIfScenario(Scenario{Durations: []DurationChange{{Activity: "A009", Days: 1, Delta: true}}})
	for _, x := range []any{d, p, fb, f, w, v.NearCritical(1), v.ProjectFinish(), Answer{Answer: "x", Activities: []string{}}} {
		if s := toolJSON(t, x); !strings.HasPrefix(s, "{") && !strings.HasPrefix(s, "[") {
			t.Errorf("%T: %s", x, s)
		}
	}
	if got := toolJSON(t, Answer{Answer: "a", Activities: []string{"A1"}, Understood: true}); got != `{"answer":"a","activities":["A1"]}` {
		t.Errorf("answer JSON %s", got)
	}
}

// A View is read-only and may be shared: asking it from many goroutines at
// once (a web app's requests, a model's parallel tool calls) is safe, dates
// included (go test -race).
func TestViewConcurrentUse(t *testing.T) {
	v := toolView(t, toolBuilding)
	done := make(chan bool)
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- true }()
			for _, id := range []string{"A147", "A110", "A001", "A035"} {
				v.Details(id)
				v.DrivingPath(id)
			}
			v.Find(Filter{From: "2026-03-02", To: "2027-12-31"})
			v.NearCritical(5)
			Ask(v, "what drives Painting Level 4")
		}()
	}
	for g := 0; g < 8; g++ {
		<-done
	}
}
