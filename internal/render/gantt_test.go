package render_test

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

func gantt(t testing.TB, s *schedule.Schedule) string {
	t.Helper()
	_, page := ganttReport(t, s)
	return page
}

// ganttReport is s's report and its Gantt page.
func ganttReport(t testing.TB, s *schedule.Schedule) (*render.Report, string) {
	t.Helper()
	rep, err := render.NewReport(s)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render.WriteGanttHTML(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return rep, buf.String()
}

func building(t testing.TB) *schedule.Schedule {
	t.Helper()
	b, err := os.ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	var s schedule.Schedule
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// Elements by class: the class attribute is the first word-list, so
// "bar critical" matches bar and critical but "sw-bar" matches neither.
var classAttr = regexp.MustCompile(`<(?:rect|path|g)\b[^>]*\bclass="([^"]*)"`)

func countClasses(page string, want ...string) int {
	n := 0
	for _, m := range classAttr.FindAllStringSubmatch(page, -1) {
		classes := strings.Fields(m[1])
		ok := true
		for _, w := range want {
			found := false
			for _, c := range classes {
				found = found || c == w
			}
			ok = ok && found
		}
		if ok {
			n++
		}
	}
	return n
}

func TestGanttCountsBarsLinksAndCritical(t *testing.T) {
	s := building(t)
	res, err := schedule.Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	page := gantt(t, s)
	crit, milestones, floats := 0, 0, 0
	for i := range s.Activities {
		if res.Critical(i) {
			crit++
		} else {
			floats++
		}
		if res.EF[i] == res.ES[i] {
			milestones++
		}
	}
	for _, c := range []struct {
		classes []string
		want    int
	}{
		{[]string{"bar"}, len(s.Activities)},
		{[]string{"bar", "critical"}, crit},
		{[]string{"bar", "milestone"}, milestones},
		{[]string{"float"}, floats},
		{[]string{"link"}, len(s.Relationships)},
	} {
		if got := countClasses(page, c.classes...); got != c.want {
			t.Errorf("elements of class %v: %d, want %d", c.classes, got, c.want)
		}
	}
	if crit == 0 || crit == len(s.Activities) || milestones == 0 {
		t.Fatalf("example too plain: %d critical, %d milestones", crit, milestones)
	}
	// Every activity's id is on exactly one bar.
	for _, a := range s.Activities {
		if n := strings.Count(page, `data-id="`+a.ID+`"`); n != 1 {
			t.Errorf("data-id=%q on %d elements", a.ID, n)
		}
	}
	for _, want := range []string{
		"Project duration: 167 working days (Mon 2026-01-05 to ", "54 of 147 activities critical",
		`<text class="date" x="15" y="15">5 Jan 2026</text>`, `id="zoom-in"`, `id="zoom-fit"`, `class="legend"`,
		"\nES 0  EF 5\nLS 0  LF 5\nTF 0  FF 0\nStart Mon 2026-01-05 08:00\nFinish Fri 2026-01-09 17:00</title>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// The page must load nothing: no scripts, styles, fonts or images by URL.
func TestGanttIsSelfContained(t *testing.T) {
	page := gantt(t, building(t))
	page = strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, "")
	for _, bad := range []string{"http:", "https:", "//cdn", "src=", "<link", "@import", "@font-face", "href=", "url(http", "url(//", "fetch(", "XMLHttpRequest"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	for _, u := range regexp.MustCompile(`url\(([^)]*)\)`).FindAllStringSubmatch(page, -1) {
		if !strings.HasPrefix(u[1], "#") {
			t.Errorf("url(%s) is not a fragment", u[1])
		}
	}
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("%d <script> tags, want 2 (data, code)", n)
	}
}

// Names are data: whatever they hold, the SVG stays well-formed XML and no
// markup gets in.
func TestGanttEscapesNames(t *testing.T) {
	names := []string{`<script>alert("x")</script>`, `quote " & 'apos'`, "new\nline", "back\\slash", "bad utf8 \xff", "Étage — 二階 🏗",
		strings.Repeat("long name ", 10)}
	s := &schedule.Schedule{StartDate: "2026-01-05"}
	for i, n := range names {
		s.Activities = append(s.Activities, schedule.Activity{ID: n + string(rune('a'+i)), Name: n, Duration: "2"})
		if i > 0 {
			s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R" + string(rune('a'+i)), Type: schedule.FS,
				Predecessor: s.Activities[i-1].ID, Successor: s.Activities[i].ID})
		}
	}
	page := gantt(t, s)
	if strings.Contains(page, `<script>alert`) {
		t.Error("a name's markup reached the page")
	}
	wellFormedSVG(t, page)
	if !strings.Contains(page, "Étage — 二階 🏗") || !strings.Contains(page, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
		t.Error("names not shown escaped")
	}
	if got := countClasses(page, "bar"); got != len(names) {
		t.Errorf("%d bars, want %d", got, len(names))
	}
}

// Geometry of a small schedule at 24 px per day (the most a short project
// opens at): bars at the early dates, float after the early finish, and
// each link type leaving and entering the ends it constrains.
func TestGanttGeometry(t *testing.T) {
	s := &schedule.Schedule{
		Activities: []schedule.Activity{
			{ID: "A", Name: "A", Duration: "5"},
			{ID: "B", Name: "B", Duration: "3"},
			{ID: "C", Name: "C", Duration: "2"},
			{ID: "M", Name: "M", Duration: "0"},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B", Lag: 2},
			{ID: "R2", Type: schedule.SS, Predecessor: "A", Successor: "C", Lag: 1},
			{ID: "R3", Type: schedule.FF, Predecessor: "C", Successor: "M"},
		},
	}
	// A 0-5, B 7-10 (critical), C 1-3 (TF 7), M 3-3 (TF 7); span 10 days,
	// k = 24 (1200/10 capped), x(d) = 12 + 24d.
	page := gantt(t, s)
	for _, want := range []string{
		`<rect class="bar critical" rx="2" x="12" y="5" width="120" height="12" data-id="A"`,
		`<rect class="bar critical" rx="2" x="180" y="27" width="72" height="12" data-id="B"`,
		`<rect class="bar" rx="2" x="36" y="49" width="48" height="12" data-id="C"`,
		`<path class="bar milestone" d="M84 70l7 7l-7 7l-7-7z" data-id="M"`,
		`<rect class="float" data-i="2" x="84" y="53.5" width="168" height="3" data-tf="7"/>`,
		// FS: out of A's finish, into B's start.
		`<path class="link critical" data-p="0" data-s="1" data-t="FS" d="M132 11H174V33H180">`,
		// SS: out of A's start to the left, along the boundary above C, into C's start.
		`<path class="link" data-p="0" data-s="2" data-t="SS" d="M12 11H6V44H30V55H36">`,
		// FF: out of C's finish, into M's finish from the right.
		`<path class="link" data-p="2" data-s="3" data-t="FF" d="M84 55H90V66H90V77H84">`,
		`<title>A -SS+1-&gt; C</title>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if regexp.MustCompile(`<text class="date" x="\d`).MatchString(page) || !strings.Contains(page, `"dates":null`) {
		t.Error("dates without a start date")
	}
}

func BenchmarkWriteGanttHTML5000(b *testing.B) {
	s := schedule.Synthetic(5000, 2, 1)
	rep, err := render.NewReport(s)
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := render.WriteGanttHTML(&buf, rep); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
}

func TestGanttAndDOTOfEmptySchedule(t *testing.T) {
	page := gantt(t, &schedule.Schedule{})
	if countClasses(page, "bar") != 0 || !strings.Contains(page, "Project duration: 0 working days; 0 of 0 activities critical") ||
		!strings.HasSuffix(page, "</html>\n") {
		t.Errorf("empty schedule's page:\n%s", page[:min(len(page), 2000)])
	}
	if stmts := parseDOT(t, writeDOT(t, &schedule.Schedule{})); len(stmts) != 0 {
		t.Errorf("empty schedule's DOT has %d statements", len(stmts))
	}
}

// TestGanttDrawsTheLiveProgramme: baselines under the bars, the data date
// line and constraint markers, placed in working days from Monday 2 March
// 2026 (24 px a day: the axis spans 15 days, to the latest constraint).
//
//	A Dig       done 2-6 Mar; baseline 2 Mar 08:00 - 5 Mar 17:00: days 0 to 4
//	B Pour      FS A, start on or after 10 Mar (day 6, soft);
//	            baseline 9 Mar - 11 Mar, dates alone: day 5 to 8
//	C Handover  FS B, finish on or before 20 Mar 17:00 (day 15, hard); no baseline
//
// The data date, Monday 9 March, is day 5: x = 12 + 5*24 = 132.
func TestGanttDrawsTheLiveProgramme(t *testing.T) {
	s := &schedule.Schedule{Name: "Live", StartDate: "2026-03-02", DataDate: "2026-03-09",
		Activities: []schedule.Activity{
			{ID: "A", Name: "Dig", Duration: "5", ActualStart: "2026-03-02T08:00", ActualFinish: "2026-03-06T17:00",
				BaselineStart: "2026-03-02T08:00", BaselineFinish: "2026-03-05T17:00", BaselineDuration: "4"},
			{ID: "B", Name: "Pour", Duration: "3", BaselineStart: "2026-03-09", BaselineFinish: "2026-03-11",
				Constraint: &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-10"}},
			{ID: "C", Name: "Handover", Duration: "0",
				Constraint: &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-03-20T17:00"}},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"},
			{ID: "R2", Type: schedule.FS, Predecessor: "B", Successor: "C"},
		}}
	page := gantt(t, s)
	for _, c := range []struct {
		what, pattern string
		n             int
	}{
		{"A's baseline bar", `<rect class="baseline" data-i="0" data-bs="0" data-bf="4" x="12" y="`, 1},
		{"B's baseline bar", `<rect class="baseline" data-i="1" data-bs="5" data-bf="8" x="132" y="`, 1},
		{"the data date line", `<line class="datadate" x1="132" x2="132"`, 1},
		{"B's soft constraint", `<path class="constraint" data-i="1" data-at="6" transform="translate(156 0)"`, 1},
		{"C's hard constraint", `<path class="constraint hard" data-i="2" data-at="15" transform="translate(372 0)"`, 1},
		{"the legend", `baseline</li>`, 1},
		{"the legend", `data date</li>`, 1},
		{"the legend", `date constraint (soft, hard)</li>`, 1},
		{"the data date for the script", `"dataDate":5`, 1},
		{"the axis to the last constraint", `"span":15`, 1},
	} {
		if got := strings.Count(page, c.pattern); got != c.n {
			t.Errorf("%s: %q found %d times, want %d", c.what, c.pattern, got, c.n)
		}
	}
	if n := countClasses(page, "baseline"); n != 2 {
		t.Errorf("%d baseline bars, want 2", n)
	}
	if n := countClasses(page, "constraint"); n != 2 {
		t.Errorf("%d constraint markers, want 2", n)
	}

	// A plain network has none of them, and no legend for them.
	plain := gantt(t, building(t))
	for _, w := range []string{`class="baseline"`, `class="datadate"`, `class="constraint`, "data date</li>", `"dataDate":`} {
		if strings.Contains(plain, w) {
			t.Errorf("building.json's chart has %s", w)
		}
	}
}
