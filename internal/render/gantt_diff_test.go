package render_test

import (
	"bytes"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func ganttDiff(t testing.TB, before, after *schedule.Schedule) string {
	t.Helper()
	rb, err := render.NewReport(before)
	if err != nil {
		t.Fatal(err)
	}
	ra, err := render.NewReport(after)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render.WriteGanttDiffHTML(&buf, rb, ra); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// The chart's marks as the page writes them.
var (
	diffBarRe   = regexp.MustCompile(`<(?:rect|path) class="(bar(?: [^"]*)?)" rx="2" x="([^"]*)" y="[^"]*" width="([^"]*)" height="12" data-id="([^"]*)" data-i="(\d+)"|<path class="(bar(?: [^"]*)?)" d="[^"]*" data-id="([^"]*)" data-i="(\d+)"`)
	diffGhostRe = regexp.MustCompile(`<(?:rect|path) class="ghost[^"]*" (?:rx="2" x="([^"]*)" y="[^"]*" width="[^"]*" height="12"|d="M([^ ]*) [^"]*") data-id="([^"]*)" data-i="(\d+)" data-es="([^"]*)"`)
	diffStrike  = regexp.MustCompile(`<line class="strike" data-i="(\d+)" x1="([^"]*)" x2="([^"]*)"`)
	removedRow  = regexp.MustCompile(`<div class="row[^"]*\bremoved-row"`)
	pageK       = regexp.MustCompile(`"k":([0-9.]+)`)
)

type diffBar struct {
	class    string
	x, width float64 // rectangles only
	row      int
}

// diffBars maps each bar's data-id to its bar, failing on a repeat, and
// lists the ids in row order.
func diffBars(t *testing.T, page string) (map[string]diffBar, []string) {
	t.Helper()
	bars := map[string]diffBar{}
	var order []string
	for _, m := range diffBarRe.FindAllStringSubmatch(page, -1) {
		b, id, row := diffBar{class: m[1]}, m[4], m[5]
		if m[1] == "" { // a milestone
			b.class, id, row = m[6], m[7], m[8]
		} else {
			b.x, _ = strconv.ParseFloat(m[2], 64)
			b.width, _ = strconv.ParseFloat(m[3], 64)
		}
		b.row, _ = strconv.Atoi(row)
		if _, dup := bars[id]; dup {
			t.Errorf("two bars with data-id %q", id)
		}
		if b.row != len(order) {
			t.Errorf("bar %q is on row %d, want %d", id, b.row, len(order))
		}
		bars[id] = b
		order = append(order, id)
	}
	return bars, order
}

func wellFormedSVG(t *testing.T, page string) {
	t.Helper()
	for _, svg := range regexp.MustCompile(`(?s)<svg class="(?:labels|chart|axis)".*?</svg>`).FindAllString(page, -1) {
		d := xml.NewDecoder(strings.NewReader(svg))
		for {
			if _, err := d.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("SVG is not well-formed: %v\n%s", err, svg)
				}
				break
			}
		}
	}
}

func TestGanttDiff(t *testing.T) {
	// diffBase: A 0-5, B 5-8, C 8-10 critical; D 5-6 with 2 days of float.
	tests := []struct {
		name   string
		change func(s *schedule.Schedule)
		rows   []string          // data-ids of the bars in row order
		marks  map[string]string // the change class of each bar ("" unchanged)
		// links added and removed; the summary's words
		linksAdded, linksRemoved int
		summary                  string
	}{
		{
			name: "no change, links re-created with new ids",
			change: func(s *schedule.Schedule) {
				for i := range s.Relationships {
					s.Relationships[i].ID += "-new"
				}
			},
			rows:    []string{"A", "B", "C", "D"},
			marks:   map[string]string{"A": "", "B": "", "C": "", "D": ""},
			summary: "Before → after: project finish 10 → 10 working days, unchanged; activities: 0 added, 0 removed, 0 moved; relationships: 0 added, 0 removed",
		},
		{
			name:    "longer critical activity moves it and what follows",
			change:  func(s *schedule.Schedule) { s.Activities[1].Duration = "5" },
			rows:    []string{"A", "B", "C", "D"},
			marks:   map[string]string{"A": "", "B": "moved", "C": "moved", "D": ""},
			summary: "project finish 10 → 12 working days, +2 working days; activities: 0 added, 0 removed, 2 moved;",
		},
		{
			name: "a new name and the same duration written differently move nothing",
			change: func(s *schedule.Schedule) {
				s.Activities[3].Name = "Survey again"
				s.Activities[3].Duration = "1.0"
			},
			rows:    []string{"A", "B", "C", "D"},
			marks:   map[string]string{"A": "", "B": "", "C": "", "D": ""},
			summary: "activities: 0 added, 0 removed, 0 moved;",
		},
		{
			name: "remove a critical activity",
			change: func(s *schedule.Schedule) {
				s.Activities = append(s.Activities[:1], s.Activities[2:]...)
				s.Relationships = s.Relationships[2:]
			},
			rows:         []string{"A", "B", "C", "D"},
			marks:        map[string]string{"A": "", "B": "removed", "C": "moved", "D": ""},
			linksRemoved: 2,
			summary:      "project finish 10 → 8 working days, −2 working days; activities: 0 added, 1 removed, 1 moved; relationships: 0 added, 2 removed",
		},
		{
			name: "remove the first activity",
			change: func(s *schedule.Schedule) {
				s.Activities = s.Activities[1:]
				s.Relationships = []schedule.Relationship{s.Relationships[1], s.Relationships[3]}
			},
			rows:         []string{"A", "B", "C", "D"},
			marks:        map[string]string{"A": "removed", "B": "moved", "C": "moved", "D": "moved"},
			linksRemoved: 2,
			summary:      "project finish 10 → 5 working days, −5 working days",
		},
		{
			name: "reordered: a removed activity follows the one before it in before",
			change: func(s *schedule.Schedule) {
				a, c, d := s.Activities[0], s.Activities[2], s.Activities[3]
				s.Activities = []schedule.Activity{d, a, c}
				s.Relationships = s.Relationships[2:]
			},
			rows:         []string{"D", "A", "B", "C"},
			marks:        map[string]string{"A": "", "B": "removed", "C": "moved", "D": ""},
			linksRemoved: 2,
		},
		{
			name: "two removed in a row stay in before's order",
			change: func(s *schedule.Schedule) {
				s.Activities = []schedule.Activity{s.Activities[3], s.Activities[0]}
				s.Relationships = []schedule.Relationship{s.Relationships[2]}
			},
			rows:         []string{"D", "A", "B", "C"},
			marks:        map[string]string{"A": "", "B": "removed", "C": "removed", "D": ""},
			linksRemoved: 3,
			summary:      "project finish 10 → 6 working days, −4 working days; activities: 0 added, 2 removed, 0 moved",
		},
		{
			name: "add an activity, a milestone and their links",
			change: func(s *schedule.Schedule) {
				s.Activities = append(s.Activities, schedule.Activity{ID: "E", Name: "Inspect", Duration: "4"},
					schedule.Activity{ID: "M", Name: "Handover", Duration: "0"})
				s.Relationships = append(s.Relationships,
					schedule.Relationship{ID: "R5", Type: schedule.FS, Predecessor: "D", Successor: "E"},
					schedule.Relationship{ID: "R6", Type: schedule.FS, Predecessor: "E", Successor: "M"})
			},
			rows:       []string{"A", "B", "C", "D", "E", "M"},
			marks:      map[string]string{"A": "", "B": "", "C": "", "D": "", "E": "added", "M": "added"},
			linksAdded: 2,
			summary:    "project finish 10 → 10 working days, unchanged; activities: 2 added, 0 removed, 0 moved; relationships: 2 added, 0 removed",
		},
		{
			name:         "a changed lag is one link removed and one added",
			change:       func(s *schedule.Schedule) { s.Relationships[0].Lag = 1 },
			rows:         []string{"A", "B", "C", "D"},
			marks:        map[string]string{"A": "", "B": "moved", "C": "moved", "D": ""},
			linksAdded:   1,
			linksRemoved: 1,
			summary:      "+1 working day;",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := diffBase()
			after := before.Clone()
			tt.change(after)
			rb, err := schedule.Analyze(before)
			if err != nil {
				t.Fatal(err)
			}
			ra, err := schedule.Analyze(after)
			if err != nil {
				t.Fatal(err)
			}
			page := ganttDiff(t, before, after)
			wellFormedSVG(t, page)
			k, _ := strconv.ParseFloat(pageK.FindStringSubmatch(page)[1], 64)
			x := func(day float64) float64 { return 12 + day*k }

			bars, order := diffBars(t, page)
			if strings.Join(order, " ") != strings.Join(tt.rows, " ") {
				t.Errorf("rows %v, want %v", order, tt.rows)
			}
			if n := countClasses(page, "bar"); n != len(tt.rows) || len(bars) != n {
				t.Errorf("%d bar elements, %d parsed; want %d", n, len(bars), len(tt.rows))
			}
			count := map[string]int{}
			for id, mark := range tt.marks {
				count[mark]++
				// critical by the CPM of the version the bar is from
				res, s := ra, after
				if mark == "removed" {
					res, s = rb, before
				}
				i, _ := res.Net.Index(id)
				want := "bar"
				if res.Critical(i) {
					want += " critical"
				}
				if mark != "" {
					want += " " + mark
				}
				if s.Activities[i].Duration == "0" {
					want += " milestone"
				}
				b := bars[id]
				if b.class != want {
					t.Errorf("bar %s has class %q, want %q", id, b.class, want)
				}
				if !strings.Contains(want, "milestone") && math.Abs(b.x-x(res.ES[i])) > 0.05 {
					t.Errorf("bar %s at x=%v, want %v (ES %v)", id, b.x, x(res.ES[i]), res.ES[i])
				}
			}
			for _, c := range []struct {
				classes []string
				want    int
			}{
				{[]string{"bar", "added"}, count["added"]},
				{[]string{"bar", "removed"}, count["removed"]},
				{[]string{"bar", "moved"}, count["moved"]},
				{[]string{"ghost"}, count["moved"]},
				{[]string{"link", "added"}, tt.linksAdded},
				{[]string{"link", "removed"}, tt.linksRemoved},
				{[]string{"link"}, len(after.Relationships) + tt.linksRemoved},
			} {
				if got := countClasses(page, c.classes...); got != c.want {
					t.Errorf("elements of class %v: %d, want %d", c.classes, got, c.want)
				}
			}

			// A ghost at the before dates of each moved activity, on its row.
			ghosts := diffGhostRe.FindAllStringSubmatch(page, -1)
			for _, m := range ghosts {
				id := m[3]
				j, _ := rb.Net.Index(id)
				gx, _ := strconv.ParseFloat(m[1]+m[2], 64)
				if tt.marks[id] != "moved" || m[5] != render.Days(rb.ES[j]) || m[4] != strconv.Itoa(bars[id].row) ||
					math.Abs(gx-x(rb.ES[j])) > 0.05 {
					t.Errorf("ghost %s: data-es %s x %v row %s; want a moved activity's before ES %v at x %v, row %d",
						id, m[5], gx, m[4], rb.ES[j], x(rb.ES[j]), bars[id].row)
				}
			}
			if len(ghosts) != count["moved"] {
				t.Errorf("%d ghosts parsed, want %d", len(ghosts), count["moved"])
			}

			// A strike through each removed bar, and its label struck through.
			strikes := diffStrike.FindAllStringSubmatch(page, -1)
			for _, m := range strikes {
				var id string
				for bid, b := range bars {
					if strconv.Itoa(b.row) == m[1] {
						id = bid
					}
				}
				b := bars[id]
				if tt.marks[id] != "removed" || m[2] != fmtPx(b.x) || m[3] != fmtPx(b.x+b.width) {
					t.Errorf("strike on row %s (%s) from %s to %s; bar %+v", m[1], id, m[2], m[3], b)
				}
			}
			if len(strikes) != count["removed"] || len(removedRow.FindAllString(page, -1)) != count["removed"] {
				t.Errorf("%d strikes, %d struck labels; want %d", len(strikes), len(removedRow.FindAllString(page, -1)), count["removed"])
			}

			finishBefore := `<line class="finish before" x1="` + fmtPx(x(rb.ProjectDuration)) + `"`
			if moved := rb.ProjectDuration != ra.ProjectDuration; strings.Contains(page, finishBefore) != moved ||
				strings.Count(page, `class="finish before"`) != map[bool]int{true: 1}[moved] {
				t.Errorf("finish moved %v; page has finish-before line: %v", moved, strings.Contains(page, finishBefore))
			}
			if !strings.Contains(page, tt.summary) {
				t.Errorf("summary lacks %q:\n%s", tt.summary, regexp.MustCompile(`<p class="summary">.*`).FindString(page))
			}
			if span := math.Max(rb.ProjectDuration, ra.ProjectDuration); !strings.Contains(page, `"span":`+render.Days(span)+`,`) {
				t.Errorf("axis does not span %v days", span)
			}
		})
	}
}

func fmtPx(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// No change at all: the page marks nothing, draws no ghost, strike or
// second finish line, and still has the one-schedule page's pieces.
func TestGanttDiffNoChange(t *testing.T) {
	s := building(t)
	page := ganttDiff(t, s, s.Clone())
	for _, c := range []string{"added", "removed", "moved", "ghost", "strike"} {
		if n := countClasses(page, c); n != 0 || strings.Contains(page, `class="`+c) || strings.Contains(page, " "+c+`"`) {
			t.Errorf("%d elements of class %q", n, c)
		}
	}
	if countClasses(page, "bar") != len(s.Activities) || countClasses(page, "link") != len(s.Relationships) ||
		strings.Contains(page, `class="finish before"`) || regexp.MustCompile(`(added|removed|moved)-row"`).MatchString(page) {
		t.Error("unchanged schedule drawn as changed")
	}
	for _, want := range []string{
		"167 → 167 working days (Tue 2026-09-01 → Tue 2026-09-01), unchanged; activities: 0 added, 0 removed, 0 moved; relationships: 0 added, 0 removed",
		`id="zoom-fit"`, `class="legend"`, "moved: old position</li>", `<line class="finish" x1=`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// The diff page loads nothing either.
func TestGanttDiffIsSelfContained(t *testing.T) {
	before := building(t)
	after := before.Clone()
	for _, a := range before.Activities[len(before.Activities)-3:] {
		op := schedule.RemoveActivity(a.ID)
		if _, err := schedule.Apply(after, &op); err != nil {
			t.Fatal(err)
		}
	}
	page := ganttDiff(t, before, after)
	page = strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, "")
	for _, bad := range []string{"http:", "https:", "src=", "<link", "@import", "href=", "fetch(", "XMLHttpRequest"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d <script> tags, want 2", n)
	}
}

func TestGanttDiffDates(t *testing.T) {
	before := diffBase()
	before.StartDate = "2026-01-05"
	after := before.Clone()
	after.Activities[1].Duration = "5"
	after.Activities[1].Name = "Pour slab (thicker)"
	page := ganttDiff(t, before, after)
	for _, want := range []string{
		"project finish 10 → 12 working days (Fri 2026-01-16 → Tue 2026-01-20), +2 working days",
		`<text class="date" x="15" y="15">5 Jan 2026</text>`,
		// The moved activity's tooltip says what it was; its ghost's says when.
		"\nMoved; before the change:\nES 5  EF 8\nStart Mon 2026-01-12 08:00\nFinish Wed 2026-01-14 17:00\nName before: Pour slab\nDuration before: 3 d</title>",
		"Pour slab (thicker) (B) before the change\nES 5  EF 8\nStart Mon 2026-01-12 08:00\nFinish Wed 2026-01-14 17:00</title>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// hostile are names a reviewer's page must show as text.
var hostile = []string{`<script>alert(1)</script>`, `"><img src=x onerror=alert(1)>`, `'><svg onload=alert(1)>`}

// hostileChange is a before and after whose names, ids and schedule name
// are markup, on every kind of row: removed, added, moved and renamed.
func hostileChange() (before, after *schedule.Schedule) {
	before = diffBase()
	before.Name = hostile[0]
	before.StartDate = "2026-01-05"
	before.Activities[1].Name = hostile[0] // B: removed
	before.Activities[2].Name = hostile[1] // C: moved
	before.Activities[3].Name = hostile[2] // D: renamed
	after = before.Clone()
	after.Activities = append(after.Activities[:1], after.Activities[2:]...)
	after.Relationships = after.Relationships[2:]
	after.Activities[2].Name = hostile[1] + " " + hostile[0]
	after.Activities = append(after.Activities, schedule.Activity{ID: `x"><img src=x onerror=alert(2)>`, Name: hostile[1], Duration: "1"})
	after.Relationships = append(after.Relationships, schedule.Relationship{ID: "R9", Type: schedule.FS, Predecessor: "D", Successor: after.Activities[3].ID})
	return before, after
}

func TestGanttDiffEscapesScheduleText(t *testing.T) {
	before, after := hostileChange()
	page := ganttDiff(t, before, after)
	wellFormedSVG(t, page)
	for _, bad := range []string{"<script>alert", "<img", "<svg onload"} {
		if strings.Contains(page, bad) {
			t.Errorf("schedule text reached the page as markup: %q", bad)
		}
	}
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d <script> tags, want 2", n)
	}
	for _, want := range []string{
		"<title>&lt;script&gt;alert(1)&lt;/script&gt; — Gantt, before → after</title>",
		"<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>",
		`&#34;&gt;&lt;img src=x onerror=alert(1)&gt;`,
		`data-id="x&#34;&gt;&lt;img src=x onerror=alert(2)&gt;"`,
		`&#39;&gt;&lt;svg onload=alert(1)&gt;`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if got := [3]int{countClasses(page, "bar", "added"), countClasses(page, "bar", "removed"), countClasses(page, "ghost")}; got != [3]int{1, 1, 1} {
		t.Errorf("added, removed, ghosts: %v, want [1 1 1]", got)
	}
}

func TestGanttDiffNilReports(t *testing.T) {
	ra, err := render.NewReport(diffBase())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		before, after *render.Report
		mark          string
	}{{nil, ra, "added"}, {ra, nil, "removed"}, {nil, nil, ""}} {
		var buf bytes.Buffer
		if err := render.WriteGanttDiffHTML(&buf, c.before, c.after); err != nil {
			t.Fatal(err)
		}
		want := 4
		if c.mark == "" {
			want = 0
		} else if n := countClasses(buf.String(), "bar", c.mark); n != 4 {
			t.Errorf("%d bars %s, want 4", n, c.mark)
		}
		if n := countClasses(buf.String(), "bar"); n != want {
			t.Errorf("%d bars, want %d", n, want)
		}
	}
}

// syntheticChange is a 25-op change to a 5,000-activity schedule: five
// activities removed, five added with a link in each, five durations
// changed and five links removed.
func syntheticChange(t testing.TB) (before, after *schedule.Schedule, ops []schedule.Op) {
	before = schedule.Synthetic(5000, 2, 1)
	before.StartDate = "2026-01-05"
	for n := range 5 {
		ops = append(ops, schedule.RemoveActivity("A"+strconv.Itoa(500+n*900)))
		id := "NEW" + strconv.Itoa(n)
		ops = append(ops, schedule.AddActivity(schedule.Activity{ID: id, Name: "New " + strconv.Itoa(n), Duration: "3"}),
			schedule.AddRelationship(schedule.Relationship{ID: "RN" + strconv.Itoa(n), Type: schedule.FS, Predecessor: "A" + strconv.Itoa(100+n*900), Successor: id}))
		a := before.Activities[200+n*900]
		a.Duration = "25"
		ops = append(ops, schedule.UpdateActivity(a))
		ops = append(ops, schedule.RemoveRelationship(before.Relationships[1000+n*1500].ID))
	}
	after = before.Clone()
	if _, _, err := schedule.ApplyAll(after, ops); err != nil {
		t.Fatal(err)
	}
	return before, after, ops
}

func TestGanttDiffOf5000(t *testing.T) {
	before, after, ops := syntheticChange(t)
	if len(ops) != 25 {
		t.Fatalf("%d ops", len(ops))
	}
	page := ganttDiff(t, before, after)
	if got := countClasses(page, "bar"); got != 5005 {
		t.Errorf("%d bars, want 5,005 (5,000 and 5 added)", got)
	}
	if a, r := countClasses(page, "bar", "added"), countClasses(page, "bar", "removed"); a != 5 || r != 5 {
		t.Errorf("%d added, %d removed; want 5 and 5", a, r)
	}
	if m, g := countClasses(page, "bar", "moved"), countClasses(page, "ghost"); m == 0 || m != g {
		t.Errorf("%d moved, %d ghosts", m, g)
	}
}

func BenchmarkWriteGanttDiffHTML(b *testing.B) {
	before, after, _ := syntheticChange(b)
	rb, err := render.NewReport(before)
	if err != nil {
		b.Fatal(err)
	}
	ra, err := render.NewReport(after)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := render.WriteGanttDiffHTML(&buf, rb, ra); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}

// TestGanttDiffInChromium loads a diff page whose schedule text is markup
// in headless Chromium: the script runs, the DOM has the page's added,
// removed and ghost marks, no schedule text ran or became an element (the
// title is the page's own), and at the page's zoom the script lays bars,
// ghosts, strikes and links out exactly as the Go code does.
func TestGanttDiffInChromium(t *testing.T) {
	bin := chromium(t)
	before, after := hostileChange()
	after.Activities[0].Name = `<img src=x onerror="document.title='pwned'">`
	after.Activities[len(after.Activities)-1].Name = `<script>document.title='pwned'</script>`
	page := ganttDiff(t, before, after)
	path := filepath.Join(t.TempDir(), "diff.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + filepath.ToSlash(path)

	dom, took := runChromium(t, bin, "--dump-dom", url)
	t.Logf("page %d bytes, chromium --dump-dom %v", len(page), took)
	if !scaled.MatchString(dom) {
		t.Fatal("the page's script did not run (no zoom level shown)")
	}
	if got := [4]int{countClasses(dom, "bar"), countClasses(dom, "bar", "added"), countClasses(dom, "bar", "removed"), countClasses(dom, "ghost")}; got != [4]int{5, 1, 1, 1} {
		t.Errorf("DOM has bars, added, removed, ghosts %v; want [5 1 1 1]", got)
	}
	title := regexp.MustCompile(`<title>([^<]*)</title>`).FindStringSubmatch(dom)
	if title == nil || title[1] != "&lt;script&gt;alert(1)&lt;/script&gt; — Gantt, before → after" {
		t.Errorf("document title %q: changed by the schedule's text?", title)
	}
	for _, bad := range []string{"<img", "<script>alert", "<script>document", "<svg onload"} {
		if strings.Contains(dom, bad) {
			t.Errorf("schedule text became an element in the DOM: %q", bad)
		}
	}
	if n := strings.Count(dom, "<script"); n != 2 {
		t.Errorf("DOM has %d scripts, want 2", n)
	}

	k := zoomK.FindStringSubmatch(page)[1]
	dom, _ = runChromium(t, bin, "--dump-dom", url+"#zoom="+k)
	ghostX := regexp.MustCompile(`<(?:rect|path) class="ghost[^"]*" (?:rx="2" x="[^"]*" y="[^"]*" width="[^"]*"|d="[^"]*")`)
	strikeX := regexp.MustCompile(`<line class="strike" data-i="\d+" x1="[^"]*" x2="[^"]*"`)
	finishX := regexp.MustCompile(`<line class="finish[^"]*" x1="[^"]*" x2="[^"]*"`)
	for name, re := range map[string]*regexp.Regexp{"link": linkD, "bar": barX, "ghost": ghostX, "strike": strikeX, "finish": finishX} {
		want, got := re.FindAllString(page, -1), re.FindAllString(dom, -1)
		if len(want) == 0 || len(got) != len(want) {
			t.Fatalf("%s geometry: %d elements in the DOM, %d in the page", name, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s %d laid out by the script:\n%s\nby Go:\n%s", name, i, got[i], want[i])
			}
		}
	}

	// At another zoom the ghosts, strikes and the before finish move with
	// the bars: x = 12 + 10 × day.
	dom, _ = runChromium(t, bin, "--dump-dom", url+"#zoom=10")
	x := func(day float64) string { return fmtPx(12 + 10*day) }
	ghosts := regexp.MustCompile(`<rect class="ghost" rx="2" x="([^"]*)" y="[^"]*" width="([^"]*)" height="12" data-id="[^"]*" data-i="\d+" data-es="([^"]*)" data-ef="([^"]*)"`).FindAllStringSubmatch(dom, -1)
	for _, m := range ghosts {
		es, _ := strconv.ParseFloat(m[3], 64)
		ef, _ := strconv.ParseFloat(m[4], 64)
		if m[1] != x(es) || m[2] != fmtPx(10*(ef-es)) {
			t.Errorf("ghost at zoom 10: x %s width %s, want %s and %s", m[1], m[2], x(es), fmtPx(10*(ef-es)))
		}
	}
	removed := regexp.MustCompile(`<rect class="bar critical removed" rx="2" x="([^"]*)" y="[^"]*" width="([^"]*)"`).FindStringSubmatch(dom)
	strike := strikeX.FindString(dom)
	if len(ghosts) != 1 || removed == nil || removed[1] != x(5) ||
		!strings.HasSuffix(strike, `x1="`+x(5)+`" x2="`+x(8)+`"`) ||
		!strings.Contains(dom, `<line class="finish before" x1="`+x(10)+`" x2="`+x(10)+`"`) ||
		!strings.Contains(dom, `<line class="finish" x1="`+x(8)+`" x2="`+x(8)+`"`) {
		t.Errorf("at zoom 10: %d ghosts, removed bar %q, strike %q, finish lines %q", len(ghosts), removed, strike, finishX.FindAllString(dom, -1))
	}
}
