package render_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

var ganttDataRe = regexp.MustCompile(`<script type="application/json" id="gantt-data">(.*?)</script>`)

// TestGanttDiffChangedRows: the rows a before/after page calls changed
// (for "changed only" and "next change"), the one it opens on, and the
// narrowed page of the changed rows alone, at most MaxRows of them, the
// edits first.
func TestGanttDiffChangedRows(t *testing.T) {
	// diffBase: rows A 0-5, B 5-8, C 8-10 critical; D 5-6 with 2 days of float.
	for _, tt := range []struct {
		name      string
		change    func(s *schedule.Schedule)
		changed   []int
		firstEdit int
		maxRows   int
		narrowed  []string // the bars of the narrowed page
		left      string   // what its header says it left out
	}{
		{"nothing", func(s *schedule.Schedule) {}, nil, -1, 0, nil, ""},
		{"a longer duration edits B and moves C", func(s *schedule.Schedule) { s.Activities[1].Duration = "5" }, []int{1, 2}, 1, 0, []string{"B", "C"}, ""},
		{"a new name is an edit that moves nothing", func(s *schedule.Schedule) { s.Activities[3].Name = "Survey again" }, []int{3}, 3, 0, []string{"D"}, ""},
		{"a link removed marks both ends", func(s *schedule.Schedule) {
			s.Relationships = slices.DeleteFunc(s.Relationships, func(r schedule.Relationship) bool { return r.Predecessor == "D" && r.Successor == "C" })
		}, []int{2, 3}, 2, 0, []string{"C", "D"}, ""},
		{"at most 2 rows: the edits before what they moved", func(s *schedule.Schedule) {
			s.Activities[1].Duration = "5"
			s.Activities[3].Name = "Survey again"
		}, []int{1, 2, 3}, 1, 2, []string{"B", "D"}, "(1 more changed rows are not: see the review page)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := diffBase()
			after := diffBase()
			tt.change(after)
			rb, err := render.NewReport(before)
			if err != nil {
				t.Fatal(err)
			}
			ra, err := render.NewReport(after)
			if err != nil {
				t.Fatal(err)
			}
			var page bytes.Buffer
			if err := render.WriteGanttDiffHTML(&page, rb, ra); err != nil {
				t.Fatal(err)
			}
			var data struct {
				Changed   []int `json:"changed"`
				FirstEdit int   `json:"firstEdit"`
			}
			m := ganttDataRe.FindStringSubmatch(page.String())
			if m == nil || json.Unmarshal([]byte(m[1]), &data) != nil {
				t.Fatal("no data block")
			}
			if !slices.Equal(data.Changed, tt.changed) || data.FirstEdit != tt.firstEdit {
				t.Errorf("changed rows %v, first edit %d; want %v, %d", data.Changed, data.FirstEdit, tt.changed, tt.firstEdit)
			}
			var narrowed bytes.Buffer
			if err := render.WriteGanttDiffHTMLWith(&narrowed, rb, ra, render.GanttDiffOptions{ChangedOnly: true, MaxRows: tt.maxRows}); err != nil {
				t.Fatal(err)
			}
			var bars []string
			for _, m := range regexp.MustCompile(`class="bar[^"]*"[^>]*data-id="([^"]*)"`).FindAllStringSubmatch(narrowed.String(), -1) {
				bars = append(bars, m[1])
			}
			if !slices.Equal(bars, tt.narrowed) {
				t.Errorf("the narrowed page draws %v, want %v", bars, tt.narrowed)
			}
			if tt.left != "" && !strings.Contains(narrowed.String(), tt.left) {
				t.Errorf("the narrowed page does not say %q", tt.left)
			}
			if strings.Contains(narrowed.String(), `id="next-change"`) {
				t.Error("the narrowed page offers change navigation")
			}
		})
	}
}

// TestGanttRows: a one-schedule page drawing some rows draws those, in
// the order given, with the links between them only, and says so.
func TestGanttRows(t *testing.T) {
	rep, err := render.NewReport(diffBase())
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := render.WriteGanttHTMLRows(&page, rep, []int{3, 0, 99, -1}); err != nil {
		t.Fatal(err)
	}
	var bars []string
	for _, m := range regexp.MustCompile(`class="bar[^"]*"[^>]*data-id="([^"]*)"`).FindAllStringSubmatch(page.String(), -1) {
		bars = append(bars, m[1])
	}
	if !slices.Equal(bars, []string{"D", "A"}) || strings.Count(page.String(), `<path class="link`) != 1 || !strings.Contains(page.String(), "showing 2 of them") {
		t.Errorf("bars %v, %d links", bars, strings.Count(page.String(), `<path class="link`))
	}
}

// TestGanttGrouped: a grouped view draws each group's summary row before
// its rows, the summary bar spanning all the group's activities (those
// filtered out too), links remapped to the rows drawn.
func TestGanttGrouped(t *testing.T) {
	rep, err := render.NewReport(diffBase())
	if err != nil {
		t.Fatal(err)
	}
	res := rep.Result
	ends := map[string]bool{"A": true, "D": true}
	groupOf := func(i int) []string {
		if ends[rep.Schedule.Activities[i].ID] {
			return []string{"Ends"}
		}
		return []string{"Middle"}
	}
	barRe := regexp.MustCompile(`class="(bar[^"]*)"[^>]*data-id="([^"]*)"[^>]*data-es="([^"]*)" data-ef="([^"]*)"`)
	draw := func(rows []int, groupOf func(int) []string) (bars []string, page string) {
		var buf bytes.Buffer
		if err := render.WriteGanttHTMLGrouped(&buf, rep, rows, groupOf); err != nil {
			t.Fatal(err)
		}
		for _, m := range barRe.FindAllStringSubmatch(buf.String(), -1) {
			if strings.Contains(m[1], "summary") {
				bars = append(bars, "summary "+m[3]+"-"+m[4])
			} else {
				bars = append(bars, m[2])
			}
		}
		return bars, buf.String()
	}
	idx := func(id string) int { i, _ := res.Net.Index(id); return i }
	span := func(ids ...string) string {
		es, ef := res.ES[idx(ids[0])], res.EF[idx(ids[0])]
		for _, id := range ids[1:] {
			es, ef = min(es, res.ES[idx(id)]), max(ef, res.EF[idx(id)])
		}
		return "summary " + render.Days(es) + "-" + render.Days(ef)
	}
	bars, page := draw([]int{idx("A"), idx("D"), idx("B"), idx("C")}, groupOf)
	want := []string{span("A", "D"), "A", "D", span("B", "C"), "B", "C"}
	if !slices.Equal(bars, want) {
		t.Errorf("bars %v, want %v", bars, want)
	}
	if n := strings.Count(page, `<path class="link`); n != len(rep.Schedule.Relationships) {
		t.Errorf("%d links drawn, want %d", n, len(rep.Schedule.Relationships))
	}
	if strings.Count(page, `class="row group-row"`) != 2 || strings.Contains(page, "showing") {
		t.Errorf("group rows %d, page says showing: %v", strings.Count(page, `class="row group-row"`), strings.Contains(page, "showing"))
	}
	// Filtered to B: its group's bar still spans C.
	bars, page = draw([]int{idx("B")}, groupOf)
	if want := []string{span("B", "C"), "B"}; !slices.Equal(bars, want) || !strings.Contains(page, "showing 1 of them") {
		t.Errorf("filtered: bars %v, want %v", bars, want)
	}
	// A WBS nests: each level's band before its subgroups, a group's rows
	// together even when the schedule interleaves them, no WBS last.
	wbs := map[string]string{"A": "1.1", "B": "1.2", "C": "1.1"}
	bars, page = draw(nil, func(i int) []string { return render.WBSLevels(wbs[rep.Schedule.Activities[i].ID]) })
	want = []string{span("A", "B", "C"), span("A", "C"), "A", "C", span("B"), "B", span("D"), "D"}
	if !slices.Equal(bars, want) {
		t.Errorf("nested: bars %v, want %v", bars, want)
	}
	var labels []string
	for _, m := range regexp.MustCompile(`class="row group-row"(?: style="padding-left:(\d+)px")?><span class="c-id"></span><span class="c-name">([^<]*)`).FindAllStringSubmatch(page, -1) {
		labels = append(labels, m[2]+"@"+m[1])
	}
	if want := []string{"1@", "1.1@18", "1.2@18", "No group@"}; !slices.Equal(labels, want) {
		t.Errorf("nested labels %v, want %v", labels, want)
	}
}

func TestWBSLevels(t *testing.T) {
	for in, want := range map[string][]string{
		"":              nil,
		"1":             {"1"},
		"1.2.3":         {"1", "1.2", "1.2.3"},
		"SITE.BLK A.L3": {"SITE", "SITE.BLK A", "SITE.BLK A.L3"},
	} {
		if got := render.WBSLevels(in); !slices.Equal(got, want) {
			t.Errorf("WBSLevels(%q) = %q, want %q", in, got, want)
		}
	}
}
