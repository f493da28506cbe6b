package render

import (
	"bufio"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Gantt geometry, in CSS pixels. The inline script reads the ones it needs
// from the page's data block, so the two layouts cannot drift apart.
const (
	ganttRowH    = 22  // one activity per row
	ganttBarH    = 12  // bar height, centred in the row
	ganttFloatH  = 3   // the thin total-float bar
	ganttDiamond = 7   // half-width of a milestone diamond
	ganttPad     = 12  // space left of day 0 and right of the finish
	ganttStub    = 6   // how far a link leaves or enters a bar end horizontally
	ganttLabelW  = 380 // the left pane: id, name, duration
	// ganttLabelBlock rows of the left pane are laid out together.
	ganttLabelBlock = 100
	ganttNameMax    = 44 // runes of a name shown in the left pane
	ganttMinK       = 2  // pixels per working day, the least the page opens at
	ganttMaxK       = 24
	ganttOpenW      = 1200 // the chart width the page opens at, when it fits
)

// WriteGanttHTML writes r as one self-contained HTML page: a Gantt chart
// drawn as inline SVG (one row per activity in schedule order, bars at the
// early dates, total float as a thin trailing bar, critical activities in
// red, milestones as diamonds, links as connectors between the ends they
// constrain), a time axis in working days and, when the schedule has a start
// date, in dates, a legend, hover tooltips with ES/EF/LS/LF/TF/FF, and zoom
// (buttons, ctrl+wheel, fit; "#fit" in the URL fits on load).
//
// The page fetches nothing: no scripts, styles, fonts or images by URL. The
// SVG is generated here, so the chart shows without JavaScript; the small
// inline script only re-lays out the x axis on zoom and shows tooltips.
// Markup is stable for tests: every activity has exactly one element of
// class "bar" carrying data-id (also "critical" when it is critical, also
// "milestone" for a milestone), every link one element of class "link".
func WriteGanttHTML(w io.Writer, r *Report) error {
	return newGantt(r).writeTo(w)
}

// WriteGanttHTMLRows is WriteGanttHTML drawing only activities rows (indices
// into r's schedule, in the order given: a filtered, grouped or paged view);
// nil draws every activity. Links between two drawn rows are drawn; the
// header says how many activities are shown.
func WriteGanttHTMLRows(w io.Writer, r *Report, rows []int) error {
	g := newGantt(r)
	if rows != nil {
		keep := make([]int, 0, len(rows))
		for _, i := range rows {
			if i >= 0 && i < len(g.rows) {
				keep = append(keep, i)
			}
		}
		g.keepRows(keep)
	}
	return g.writeTo(w)
}

// WriteGanttHTMLGrouped is WriteGanttHTMLRows with the rows in groups,
// nested: groupOf(i) is activity i's groups, outermost first (a WBS path's
// levels; empty: "No group"). Rows (nil: every activity) are drawn group
// by group, each group where its first row is, with no group last; before
// the rows of a group, its summary row, its bar from the earliest start to
// the latest finish of all the group's activities, filtered out or not, as
// P6's WBS bands and MS Project's summary tasks draw them.
func WriteGanttHTMLGrouped(w io.Writer, r *Report, rows []int, groupOf func(i int) []string) error {
	g := newGantt(r)
	noGroup := []string{"No group"}
	pathOf := func(i int) []string {
		if p := groupOf(i); len(p) > 0 {
			return p
		}
		return noGroup
	}
	spans := map[string]*ganttGroup{}
	for i := range r.Schedule.Activities {
		for level, key := range pathOf(i) {
			sp := spans[key]
			if sp == nil {
				sp = &ganttGroup{as: schedule.Activity{Name: key}, es: r.Result.ES[i], ef: r.Result.EF[i], level: level}
				spans[key] = sp
			}
			sp.es, sp.ef, sp.n = min(sp.es, r.Result.ES[i]), max(sp.ef, r.Result.EF[i]), sp.n+1
		}
	}
	if rows == nil {
		rows = make([]int, len(r.Schedule.Activities))
		for i := range rows {
			rows[i] = i
		}
	}
	rows = slices.DeleteFunc(slices.Clone(rows), func(i int) bool { return i < 0 || i >= len(g.rows) })
	groupOrder(rows, pathOf, func(i int) bool { return len(groupOf(i)) == 0 })
	at := make([]int, len(g.rows))
	for n := range at {
		at[n] = -1
	}
	out := make([]ganttRow, 0, len(rows)+len(spans))
	var prev []string
	for _, i := range rows {
		path := pathOf(i)
		level := 0
		for level < min(len(path), len(prev)) && path[level] == prev[level] {
			level++
		}
		for _, key := range path[level:] {
			out = append(out, ganttRow{rep: r, was: -1, group: spans[key]})
		}
		prev = path
		at[i] = len(out)
		out = append(out, g.rows[i])
	}
	g.redraw(out, at)
	g.narrowed = len(rows) < len(r.Schedule.Activities)
	return g.writeTo(w)
}

// groupOrder orders rows group by group, each group where its first row
// is (at every level, so a group's subgroups stay together under it), the
// rows in none last, the given order kept within each group.
func groupOrder(rows []int, pathOf func(i int) []string, none func(i int) bool) {
	rank := map[string]int{}
	for _, i := range rows {
		if none(i) {
			continue
		}
		for _, key := range pathOf(i) {
			if _, ok := rank[key]; !ok {
				rank[key] = len(rank)
			}
		}
	}
	keyOf := make(map[int][]int, len(rows))
	for _, i := range rows {
		if none(i) {
			keyOf[i] = []int{len(rank)}
			continue
		}
		path := pathOf(i)
		key := make([]int, len(path))
		for n, g := range path {
			key[n] = rank[g]
		}
		keyOf[i] = key
	}
	slices.SortStableFunc(rows, func(a, b int) int { return slices.Compare(keyOf[a], keyOf[b]) })
}

// WBSLevels are a WBS path's groups, outermost first: "1.2.3" is in 1,
// 1.2 and 1.2.3 (P6's WBS codes and MS Project's outline numbers alike
// join their levels with dots).
func WBSLevels(wbs string) []string {
	if wbs == "" {
		return nil
	}
	var out []string
	for at := 0; ; {
		dot := strings.IndexByte(wbs[at:], '.')
		if dot < 0 {
			return append(out, wbs)
		}
		out = append(out, wbs[:at+dot])
		at += dot + 1
	}
}

// activityRows counts the rows that are activities (not group summaries).
func (g *gantt) activityRows() int {
	n := 0
	for i := range g.rows {
		if g.rows[i].group == nil {
			n++
		}
	}
	return n
}

// writeTo writes the page through one buffer.
func (g *gantt) writeTo(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	g.w = bw
	g.page()
	if g.err != nil {
		return g.err
	}
	return bw.Flush()
}

// gantt writes one page; write errors stick in err and stop nothing (bufio
// drops writes after the first error anyway).
type gantt struct {
	r     *Report // the schedule shown (in a diff, the one after the change)
	res   *schedule.Result
	rows  []ganttRow
	links []ganttLink // pred and succ are rows
	diff  *ganttDiff  // nil on a one-schedule page
	w     *bufio.Writer
	b     []byte
	err   error
	k     float64 // pixels per working day
	span  float64 // working days the axis covers
	width float64 // chart width in pixels
	dates []string
	// narrowed: only some rows are drawn (keepRows).
	narrowed bool
}

// ganttRow is one row of the chart: activity i of rep, its bar at rep's
// early dates. On a one-schedule page row n is activity n.
type ganttRow struct {
	rep *Report
	i   int
	// change is the bar's extra class in a diff: "added", "removed",
	// "moved" or "". was is the activity's index in the before schedule
	// when it is in both (-1 otherwise).
	change string
	was    int
	// edited: the change added, removed or edited this activity; linked:
	// it added or removed a link of it (markEdits). A row moved only
	// because of them is neither.
	edited, linked bool
	// group, when set, makes the row a group's summary (i unused): its
	// bar spans the group's activities, as P6's WBS bands and MS Project's
	// summary tasks do.
	group *ganttGroup
}

// ganttGroup is a summary row's group: its name (as the activity it reads
// as: no id, no constraints, no baseline), its span and size.
type ganttGroup struct {
	as     schedule.Activity
	es, ef float64
	n      int
	level  int // 0 outermost
}

func (r *ganttRow) act() *schedule.Activity {
	if r.group != nil {
		return &r.group.as
	}
	return &r.rep.Schedule.Activities[r.i]
}

func (r *ganttRow) es() float64 {
	if r.group != nil {
		return r.group.es
	}
	return r.rep.Result.ES[r.i]
}

func (r *ganttRow) ef() float64 {
	if r.group != nil {
		return r.group.ef
	}
	return r.rep.Result.EF[r.i]
}

func (r *ganttRow) critical() bool  { return r.group == nil && r.rep.Result.Critical(r.i) }
func (r *ganttRow) milestone() bool { return r.ef()-r.es() <= schedule.Epsilon }

func newGantt(r *Report) *gantt {
	g := &gantt{r: r, res: r.Result, rows: make([]ganttRow, len(r.Schedule.Activities))}
	for i := range g.rows {
		g.rows[i] = ganttRow{rep: r, i: i, was: -1}
	}
	g.links = scheduleLinks(r.Schedule, r.Result)
	g.layout(max(r.Result.ProjectDuration, g.liveExtent()), r.Clock)
	return g
}

// layout sizes the axis to cover finish working days, dated by clock
// (nil: working days only).
func (g *gantt) layout(finish float64, clock *schedule.Clock) {
	g.span = math.Max(math.Ceil(finish-schedule.Epsilon), 1)
	g.k = math.Max(ganttMinK, math.Min(ganttMaxK, ganttOpenW/g.span))
	if clock != nil {
		g.dates = make([]string, int(g.span)+1)
		for d := range g.dates {
			g.dates[d] = clock.StartAt(float64(d)).Format("2 Jan 2006")
		}
	}
	g.width = g.chartWidth(g.k)
}

// chartWidth leaves room right of the last tick for its label.
func (g *gantt) chartWidth(k float64) float64 { return 2*ganttPad + g.span*k + g.tail() }

func (g *gantt) tail() float64 {
	if g.dates != nil {
		return 72
	}
	return 24
}

func (g *gantt) x(day float64) float64 { return ganttPad + day*g.k }

func (g *gantt) flush() {
	if len(g.b) > 1<<15 {
		g.write()
	}
}

func (g *gantt) write() {
	if g.err == nil {
		_, g.err = g.w.Write(g.b)
	}
	g.b = g.b[:0]
}

func (g *gantt) s(parts ...string) {
	for _, p := range parts {
		g.b = append(g.b, p...)
	}
}

// num appends a coordinate rounded to 0.1 px, or a time to 1e-6 days.
func (g *gantt) px(v float64) {
	g.b = strconv.AppendFloat(g.b, math.Round(v*10)/10, 'f', -1, 64)
}

func (g *gantt) day(v float64) { g.b = appendNumber(g.b, v) }

// esc appends text escaped for HTML text and attribute values.
func (g *gantt) esc(s string) { g.b = append(g.b, escapeHTML(s)...) }

func escapeHTML(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return template.HTMLEscapeString(s)
}

func (g *gantt) page() {
	res := g.res
	chartH := len(g.rows) * ganttRowH
	axisH := 22
	if g.dates != nil {
		axisH = 40
	}
	g.s("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	g.esc(g.r.title())
	if g.diff != nil {
		g.s(" — Gantt, before → after")
	} else {
		g.s(" — Gantt")
	}
	g.s("</title>\n<style>", ganttCSS, "</style>\n</head>\n<body>\n<header>\n<h1>")
	g.esc(g.r.title())
	g.s("</h1>\n")
	if g.diff != nil {
		g.diffSummary()
	} else {
		g.summary()
	}
	g.s(`<div class="tools"><span class="zoom"><button type="button" id="zoom-out" title="Zoom out (ctrl+wheel)">−</button>`,
		`<button type="button" id="zoom-in" title="Zoom in (ctrl+wheel)">+</button>`,
		`<button type="button" id="zoom-fit" title="Fit the whole project">Fit</button> <span id="zoom-level"></span></span>`, "\n")
	if g.diff != nil && !g.narrowed {
		// Finding the change in a big schedule: the page opens on it.
		g.s(`<span class="changes" id="changes"><button type="button" id="prev-change" title="The change before this one (p)">‹ Previous</button>`,
			`<button type="button" id="next-change" title="The next change (n)">Next change ›</button> `,
			`<button type="button" id="changed-only" aria-pressed="false" title="Show only the rows that changed (c)">Changed only</button> `,
			`<span id="change-at" aria-live="polite"></span></span>`, "\n")
	}
	g.s(`<ul class="legend">`, ganttLegend)
	if g.diff != nil {
		g.s(ganttDiffLegend)
	}
	g.liveLegend()
	g.s("</ul></div>\n</header>\n")

	g.s(`<div id="gantt" style="--label-w:`, strconv.Itoa(ganttLabelW), `px">`, "\n")
	// Corner and axis stick to the top, labels to the left, of one scroller.
	g.s(`<div class="corner" style="height:`, strconv.Itoa(axisH), `px"><span class="c-id">ID</span><span class="c-name">Activity</span><span class="c-dur">Dur (d)</span></div>`, "\n")
	g.s(`<svg class="axis" xmlns="http://www.w3.org/2000/svg" height="`, strconv.Itoa(axisH), `" width="`)
	g.px(g.width)
	g.s(`">`)
	g.axis(axisH)
	g.s("</svg>\n")
	g.labels(chartH)
	g.chart(chartH)
	g.s("</div>\n<div id=\"tip\" hidden></div>\n")

	fields := map[string]any{
		"k": g.k, "span": g.span, "pad": ganttPad, "rowH": ganttRowH, "barH": ganttBarH,
		"floatH": ganttFloatH, "diamond": ganttDiamond, "stub": ganttStub, "labelW": ganttLabelW,
		"minK": 0.05, "maxK": 400, "finish": res.ProjectDuration, "tail": g.tail(), "dates": g.dates,
	}
	if g.diff != nil {
		fields["finishBefore"] = g.diff.before.Result.ProjectDuration
		if !g.narrowed {
			fields["changed"], fields["firstEdit"] = g.changedRows(), g.firstEdit()
		}
	}
	if at, ok := g.dataDate(); ok {
		fields["dataDate"] = at
	}
	data, err := json.Marshal(fields)
	if err != nil && g.err == nil {
		g.err = err
	}
	// json.Marshal escapes <, > and &, so the block cannot close the script.
	g.s(`<script type="application/json" id="gantt-data">`, string(data), "</script>\n<script>", ganttJS, "</script>\n</body>\n</html>\n")
	g.write()
}

// summary is the one-schedule page's line under the title.
func (g *gantt) summary() {
	res := g.res
	nCrit := 0
	for i := range g.r.Schedule.Activities {
		if res.Critical(i) {
			nCrit++
		}
	}
	g.s(`<p class="summary">Project duration: `, Days(res.ProjectDuration), " working days")
	if c := g.r.Clock; c != nil {
		g.s(" (", c.StartAt(0).Format("Mon 2006-01-02"), " to ", res.FinishAt(c).Format("Mon 2006-01-02"), ")")
	}
	g.s("; ", strconv.Itoa(nCrit), " of ", strconv.Itoa(len(g.r.Schedule.Activities)), " activities critical; ",
		strconv.Itoa(len(g.r.Schedule.Relationships)), " relationships")
	if g.narrowed {
		g.s("; showing ", strconv.Itoa(g.activityRows()), " of them (filtered)")
	}
	g.s("</p>\n")
}

// tickStep is the working days between axis ticks at k pixels per day: the
// smallest of 1, 2, 5, 10, 20, 50, ... that leaves room for a label.
func tickStep(k float64, dated bool) int {
	minGap := 40.0
	if dated {
		minGap = 84
	}
	for mag := 1; mag < 1e9; mag *= 10 {
		for _, m := range [...]int{1, 2, 5} {
			if float64(m*mag)*k >= minGap {
				return m * mag
			}
		}
	}
	return 1e9
}

// axis writes the tick labels; the script redraws them the same way on zoom.
func (g *gantt) axis(axisH int) {
	step := tickStep(g.k, g.dates != nil)
	g.s(`<g class="ticks">`)
	for d := 0; float64(d) <= g.span; d += step {
		x := g.x(float64(d))
		g.s(`<line x1="`)
		g.px(x)
		g.s(`" x2="`)
		g.px(x)
		g.s(`" y1="`, strconv.Itoa(axisH-6), `" y2="`, strconv.Itoa(axisH), `"/>`)
		if g.dates != nil {
			g.s(`<text class="date" x="`)
			g.px(x + 3)
			g.s(`" y="15">`, g.dates[d], `</text>`)
		}
		g.s(`<text class="wd" x="`)
		g.px(x + 3)
		g.s(`" y="`, strconv.Itoa(axisH-8), `">`, strconv.Itoa(d), `</text>`)
	}
	g.s("</g>")
}

// labels writes the left pane: id, name and duration of each row.
func (g *gantt) labels(chartH int) {
	// HTML, not SVG text, in blocks Chromium lays out and paints only when
	// they scroll into view (content-visibility): 15,000 SVG <text>
	// elements of a 5,000-activity schedule took 0.8 s of a 1.4 s page load.
	g.s(`<div class="labels" style="height:`, strconv.Itoa(chartH), `px">`)
	for n := range g.rows {
		if n%ganttLabelBlock == 0 {
			if n > 0 {
				g.s("</div>")
			}
			g.s(`<div class="blk" style="contain-intrinsic-size:auto `, strconv.Itoa(min(ganttLabelBlock, len(g.rows)-n)*ganttRowH), `px">`)
		}
		row := &g.rows[n]
		a := row.act()
		g.s(`<div class="row`)
		if row.critical() {
			g.s(` critical-row`)
		}
		if row.group != nil {
			g.s(` group-row`)
		}
		if row.change != "" {
			g.s(" ", row.change, "-row")
		}
		if row.group == nil {
			g.s(`" id="row-`)
			g.esc(a.ID)
		} else if row.group.level > 0 {
			g.s(`" style="padding-left:`, strconv.Itoa(6+12*min(row.group.level, 8)), `px`)
		}
		g.s(`"><span class="c-id">`)
		g.esc(clip(a.ID, 10))
		g.s(`</span><span class="c-name"`)
		if utf8.RuneCountInString(a.Name) > ganttNameMax {
			g.s(` title="`)
			g.esc(a.Name)
			g.s(`"`)
		}
		g.s(`>`)
		g.esc(clip(a.Name, ganttNameMax))
		g.s(`</span><span class="dur">`, Days(row.ef()-row.es()), "</span></div>\n")
		g.flush()
	}
	if len(g.rows) > 0 {
		g.s("</div>")
	}
	g.s("</div>\n")
}

// chart writes the bars, float bars and links.
func (g *gantt) chart(chartH int) {
	res := g.res
	g.s(`<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="`)
	g.px(g.width)
	g.s(`" height="`, strconv.Itoa(chartH), `">`)
	g.s(`<defs><marker id="arrow" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0L6,3L0,6z" class="head"/></marker>`,
		`<marker id="arrow-critical" viewBox="0 0 6 6" refX="6" refY="3" markerWidth="6" markerHeight="6" orient="auto"><path d="M0,0L6,3L0,6z" class="head critical"/></marker></defs>`)
	g.s(`<path class="grid" d="`)
	g.grid(chartH)
	g.s(`"/>`)
	g.finishLine("finish", res.ProjectDuration, chartH)
	if g.diff != nil && g.diff.finishChange != 0 {
		g.finishLine("finish before", g.diff.before.Result.ProjectDuration, chartH)
	}
	if at, ok := g.dataDate(); ok {
		g.finishLine("datadate", at, chartH)
	}
	g.s("\n")

	// Links first, so bars sit on top of them.
	g.s(`<g class="links">`)
	for _, l := range g.links {
		g.s(`<path class="link`)
		if l.critical {
			g.s(` critical`)
		}
		if l.change != "" {
			g.s(" ", l.change)
		}
		g.s(`" data-p="`, strconv.Itoa(l.pred), `" data-s="`, strconv.Itoa(l.succ), `" data-t="`, string(l.rel.Type), `" d="`)
		g.route(l)
		g.s(`"><title>`)
		g.esc(g.linkLabel(l))
		g.s("</title></path>\n")
		g.flush()
	}
	g.s("</g>\n<g class=\"floats\">")
	for i := range g.rows {
		row := &g.rows[i]
		if row.group != nil {
			continue
		}
		tf := row.rep.Result.TotalFloat[row.i]
		if tf <= schedule.Epsilon || row.change == "removed" {
			continue
		}
		g.s(`<rect class="float" data-i="`, strconv.Itoa(i), `" x="`)
		g.px(g.x(row.ef()))
		g.s(`" y="`)
		g.px(float64(i*ganttRowH) + (ganttRowH-ganttFloatH)/2.0)
		g.s(`" width="`)
		g.px(tf * g.k)
		g.s(`" height="`, strconv.Itoa(ganttFloatH), `" data-tf="`)
		g.day(tf)
		g.s("\"/>\n")
		g.flush()
	}
	g.s("</g>\n")
	g.baselines()
	if g.diff != nil {
		g.ghosts()
	}
	g.constraintMarkers()
	g.s(`<g class="bars">`)
	for i := range g.rows {
		g.bar(i)
		if g.rows[i].change == "removed" {
			g.strike(i)
		}
		g.flush()
	}
	g.s("</g></svg>\n")
}

func (g *gantt) finishLine(class string, at float64, chartH int) {
	g.s(`<line class="`, class, `" x1="`)
	g.px(g.x(at))
	g.s(`" x2="`)
	g.px(g.x(at))
	g.s(`" y1="0" y2="`, strconv.Itoa(chartH), `"/>`)
}

// grid is one path of vertical lines at the axis ticks.
func (g *gantt) grid(chartH int) {
	step := tickStep(g.k, g.dates != nil)
	h := strconv.Itoa(chartH)
	for d := 0; float64(d) <= g.span; d += step {
		g.s("M")
		g.px(g.x(float64(d)))
		g.s(" 0V", h)
	}
}

// bar writes row i's bar: class "bar", then "critical", the row's change
// and "milestone" as they apply.
func (g *gantt) bar(i int) {
	row := &g.rows[i]
	cls := "bar"
	if row.critical() {
		cls += " critical"
	}
	if row.group != nil {
		cls += " summary"
	}
	if row.change != "" {
		cls += " " + row.change
	}
	g.shape(cls, i, row.es(), row.ef())
	g.s(`" data-id="`)
	g.esc(row.act().ID)
	g.s(`" data-i="`, strconv.Itoa(i), `" data-es="`)
	g.day(row.es())
	g.s(`" data-ef="`)
	g.day(row.ef())
	g.s(`"><title>`)
	g.esc(g.tooltip(row))
	g.shapeEnd(row.ef()-row.es() <= schedule.Epsilon)
}

// shape opens the element of a bar (or a diff's ghost) in row i from es to
// ef: a diamond for a milestone, else a rectangle; it ends inside the last
// attribute's quotes. The page's script lays bars out the same way on zoom.
func (g *gantt) shape(cls string, i int, es, ef float64) {
	yc := float64(i*ganttRowH) + ganttRowH/2.0
	if ef-es <= schedule.Epsilon {
		g.s(`<path class="`, cls, ` milestone" d="M`)
		g.px(g.x(es))
		g.s(" ")
		g.px(yc - ganttDiamond)
		g.s("l7 7l-7 7l-7-7z")
	} else {
		g.s(`<rect class="`, cls, `" rx="2" x="`)
		g.px(g.x(es))
		g.s(`" y="`)
		g.px(yc - ganttBarH/2)
		g.s(`" width="`)
		g.px(math.Max((ef-es)*g.k, 1))
		g.s(`" height="`, strconv.Itoa(ganttBarH))
	}
}

// shapeEnd closes what shape opened, after its <title> text.
func (g *gantt) shapeEnd(milestone bool) {
	if milestone {
		g.s("</title></path>\n")
	} else {
		g.s("</title></rect>\n")
	}
}

// tooltip is the text shown on hovering a row's bar.
func (g *gantt) tooltip(row *ganttRow) string {
	if sp := row.group; sp != nil {
		text := fmt.Sprintf("%s: %d activities\nES %s  EF %s", sp.as.Name, sp.n, Days(sp.es), Days(sp.ef))
		if c := row.rep.Clock; c != nil {
			const f = "Mon 2006-01-02 15:04"
			text += "\nStart " + c.StartAt(sp.es).Format(f) + "\nFinish " + c.FinishAt(sp.ef).Format(f)
		}
		return text
	}
	res, i := row.rep.Result, row.i
	a := row.act()
	var b strings.Builder
	b.WriteString(a.Name)
	b.WriteString(" (" + a.ID + ")\nDuration " + Days(res.EF[i]-res.ES[i]) + " d")
	if res.Critical(i) {
		b.WriteString(", critical")
	}
	b.WriteString("\nES " + Days(res.ES[i]) + "  EF " + Days(res.EF[i]) +
		"\nLS " + Days(res.LS[i]) + "  LF " + Days(res.LF[i]) +
		"\nTF " + Days(res.TotalFloat[i]) + "  FF " + Days(res.FreeFloat[i]))
	if c := row.rep.Clock; c != nil {
		const f = "Mon 2006-01-02 15:04"
		b.WriteString("\nStart " + res.At(c, i, schedule.EarlyStart).Format(f) + "\nFinish " + res.At(c, i, schedule.EarlyFinish).Format(f))
		if !res.Critical(i) {
			b.WriteString("\nLate finish " + res.At(c, i, schedule.LateFinish).Format(f))
		}
	}
	if g.diff != nil {
		g.diff.note(&b, row)
	}
	return b.String()
}

// route draws a link from the predecessor end it leaves to the successor end
// it constrains: out of a finish to the right, out of a start to the left,
// into a start from the left, into a finish from the right; when the ends
// do not line up, it turns along the row boundary next to the successor.
// The page's script has the same function, for zoom.
func (g *gantt) route(l ganttLink) {
	p, q := &g.rows[l.pred], &g.rows[l.succ]
	t := l.rel.Type
	fromFinish := t == schedule.FS || t == schedule.FF
	toStart := t == schedule.FS || t == schedule.SS
	x1 := g.x(p.es())
	if fromFinish {
		x1 = g.x(p.ef())
	}
	x2 := g.x(q.ef())
	if toStart {
		x2 = g.x(q.es())
	}
	y1 := float64(l.pred*ganttRowH) + ganttRowH/2.0
	y2 := float64(l.succ*ganttRowH) + ganttRowH/2.0
	xa, xb := x1-ganttStub, x2+ganttStub
	if fromFinish {
		xa = x1 + ganttStub
	}
	if toStart {
		xb = x2 - ganttStub
	}
	g.s("M")
	g.px(x1)
	g.s(" ")
	g.px(y1)
	if (toStart && fromFinish && xa <= xb) || (!toStart && !fromFinish && xa >= xb) {
		g.s("H")
		g.px(xb)
	} else {
		ym := y2 - ganttRowH/2.0
		if y2 < y1 {
			ym = y2 + ganttRowH/2.0
		}
		g.s("H")
		g.px(xa)
		g.s("V")
		g.px(ym)
		g.s("H")
		g.px(xb)
	}
	g.s("V")
	g.px(y2)
	g.s("H")
	g.px(x2)
}

// ganttLink is a relationship resolved to activity indices (on the chart:
// to rows).
type ganttLink struct {
	rel        *schedule.Relationship
	pred, succ int
	critical   bool   // both ends critical and the link drives (no slack)
	change     string // in a diff: "added", "removed" or ""
}

// scheduleLinks resolves every relationship of s against res.
func scheduleLinks(s *schedule.Schedule, res *schedule.Result) []ganttLink {
	links := make([]ganttLink, 0, len(s.Relationships))
	for i := range s.Relationships {
		rel := &s.Relationships[i]
		p, ok1 := res.Net.Index(rel.Predecessor)
		q, ok2 := res.Net.Index(rel.Successor)
		if !ok1 || !ok2 {
			continue // cannot happen for a compiled schedule
		}
		var slack float64
		switch rel.Type {
		case schedule.FS:
			slack = res.ES[q] - rel.Lag - res.EF[p]
		case schedule.SS:
			slack = res.ES[q] - rel.Lag - res.ES[p]
		case schedule.FF:
			slack = res.EF[q] - rel.Lag - res.EF[p]
		default:
			slack = res.EF[q] - rel.Lag - res.ES[p]
		}
		crit := res.Critical(p) && res.Critical(q) && slack <= schedule.Epsilon
		links = append(links, ganttLink{rel: rel, pred: p, succ: q, critical: crit})
	}
	return links
}

// linkLabel reads "Excavate L1 -FS+2-> Pour slab L1".
func (g *gantt) linkLabel(l ganttLink) string {
	return g.rows[l.pred].act().Name + " " + arrow(l.rel.Type, l.rel.Lag) + " " + g.rows[l.succ].act().Name
}

// arrow writes a relationship's type and lag as -FS->, -SS+2->, -FF-1.5->.
func arrow(t schedule.RelType, lag float64) string {
	return "-" + typeLag(t, lag) + "->"
}

// typeLag is "FS", "SS+2" or "FF-1.5": the lag only when it is not zero.
func typeLag(t schedule.RelType, lag float64) string { return schedule.TypeLag(t, lag) }

// ganttLegend's items use their own classes (sw-*), so counting "bar"
// elements counts activities only.
const ganttLegend = `<li><svg width="28" height="14"><rect class="sw-bar critical" x="1" y="2" width="26" height="10" rx="2"/></svg>critical</li>` +
	`<li><svg width="28" height="14"><rect class="sw-bar" x="1" y="2" width="26" height="10" rx="2"/></svg>not critical</li>` +
	`<li><svg width="28" height="14"><rect class="sw-float" x="1" y="5.5" width="26" height="3"/></svg>total float</li>` +
	`<li><svg width="16" height="14"><path class="sw-bar" d="M8 0l7 7l-7 7l-7-7z"/></svg>milestone</li>` +
	`<li><svg width="28" height="14"><path class="sw-link critical" d="M1 7H27"/></svg>driving critical link</li>` +
	`<li><svg width="28" height="14"><path class="sw-link" d="M1 7H27"/></svg>link</li>` +
	`<li><svg width="10" height="14"><line class="finish" x1="5" x2="5" y1="0" y2="14"/></svg>project finish</li>`
