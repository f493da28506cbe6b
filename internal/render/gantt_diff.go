package render

import (
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// WriteGanttDiffHTML writes the change from before to after as one
// self-contained page in the style of WriteGanttHTML (same axis, zoom,
// tooltips, inline CSS and script; nothing fetched), for the review of a
// proposed change:
//
//   - one row per activity of either version: the after schedule's order,
//     each removed activity inserted right after the activity that preceded
//     it in the before schedule;
//   - bars at the after early dates; an added activity's bar has class
//     "bar added"; a removed activity's bar is at its before dates with
//     class "bar removed", struck through (an element of class "strike")
//     and its row label struck through too; an activity whose early start
//     or finish moved by more than schedule.Epsilon has class "bar moved"
//     and a dashed "ghost" (carrying data-id) at its before dates. A change
//     of name or duration alone is not a move. "critical" is by the after
//     CPM, for a removed activity by the before one;
//   - the after schedule's links as WriteGanttHTML draws them, those not in
//     before with class "link added", and before's links not in after
//     drawn dashed with class "link removed" (links match as in
//     schedule.Compare: by predecessor, successor, type and lag);
//   - an axis over the later of the two finishes, the after finish line as
//     on the one-schedule page and, when the finish moved, a second line of
//     class "finish before";
//   - a header: the finish before → after in working days (and dates, when
//     both versions have a start date), the change, and how many
//     activities were added, removed and moved and links added and removed;
//     a legend with the diff's marks (its swatches use sw-* classes).
//
// Every activity of either version has exactly one element of class "bar"
// carrying data-id. A nil report counts as an empty schedule.
func WriteGanttDiffHTML(w io.Writer, before, after *Report) error {
	return WriteGanttDiffHTMLWith(w, before, after, GanttDiffOptions{})
}

// GanttDiffOptions narrow a before/after page to what changed.
type GanttDiffOptions struct {
	// ChangedOnly draws only the changed rows (ChangedRows), in order.
	ChangedOnly bool
	// MaxRows, with ChangedOnly, keeps at most that many of them (0: all):
	// the edits first (added, removed, edited), then the ends of links
	// added or removed, then the moved activities that are critical after the change, then
	// the other moved ones; the header says how many were left out.
	MaxRows int
}

// WriteGanttDiffHTMLWith is WriteGanttDiffHTML narrowed by opt: a page
// for print or an e-mail, where the rows that did not change are noise.
func WriteGanttDiffHTMLWith(w io.Writer, before, after *Report, opt GanttDiffOptions) error {
	var err error
	if before == nil {
		if before, err = NewReport(&schedule.Schedule{}); err != nil {
			return err
		}
	}
	if after == nil {
		if after, err = NewReport(&schedule.Schedule{}); err != nil {
			return err
		}
	}
	g := newGanttDiff(before, after)
	if opt.ChangedOnly {
		g.keepRows(changedRowsCapped(g.rows, opt.MaxRows))
	}
	return g.writeTo(w)
}

// ganttDiff is what a before/after page adds to the gantt of the after
// schedule.
type ganttDiff struct {
	before *Report
	// hidden counts the changed rows a narrowed page leaves out.
	hidden                   int
	added, removed, moved    int
	linksAdded, linksRemoved int
	finishChange             float64 // after − before, rounded as reports are
}

// newGanttDiff lays out the union of the two versions' activities and
// links (see WriteGanttDiffHTML).
func newGanttDiff(before, after *Report) *gantt {
	d := &ganttDiff{before: before}
	g := &gantt{r: after, res: after.Result, diff: d}
	bs, as := before.Schedule.Activities, after.Schedule.Activities
	rb, ra := before.Result, after.Result

	// gone[j]: before's activity j is not in after.
	gone := make([]bool, len(bs))
	for j := range bs {
		_, ok := ra.Net.Index(bs[j].ID)
		gone[j] = !ok
	}
	beforeRow, afterRow := make([]int, len(bs)), make([]int, len(as))
	g.rows = make([]ganttRow, 0, len(bs)+len(as))
	// removedAfter adds the run of removed activities that follow before's
	// activity j (-1: the ones that start the schedule).
	removedAfter := func(j int) {
		for j++; j < len(bs) && gone[j]; j++ {
			beforeRow[j] = len(g.rows)
			g.rows = append(g.rows, ganttRow{rep: before, i: j, change: "removed", was: -1})
			d.removed++
		}
	}
	removedAfter(-1)
	for i := range as {
		row := ganttRow{rep: after, i: i, was: -1}
		j, ok := rb.Net.Index(as[i].ID)
		switch {
		case !ok:
			row.change = "added"
			d.added++
		case math.Abs(ra.ES[i]-rb.ES[j]) > schedule.Epsilon || math.Abs(ra.EF[i]-rb.EF[j]) > schedule.Epsilon:
			row.change = "moved"
			d.moved++
			fallthrough
		default:
			row.was = j
		}
		afterRow[i] = len(g.rows)
		g.rows = append(g.rows, row)
		if ok {
			beforeRow[j] = afterRow[i]
			removedAfter(j)
		}
	}

	aLinks, bLinks := scheduleLinks(after.Schedule, ra), scheduleLinks(before.Schedule, rb)
	added, removed := unmatchedGanttLinks(aLinks, before.Schedule), unmatchedGanttLinks(bLinks, after.Schedule)
	g.links = make([]ganttLink, 0, len(aLinks)+len(bLinks)/8)
	for n, l := range aLinks {
		if added[n] {
			l.change = "added"
			d.linksAdded++
		}
		l.pred, l.succ = afterRow[l.pred], afterRow[l.succ]
		g.links = append(g.links, l)
	}
	for n, l := range bLinks {
		if removed[n] {
			l.pred, l.succ, l.critical, l.change = beforeRow[l.pred], beforeRow[l.succ], false, "removed"
			g.links = append(g.links, l)
			d.linksRemoved++
		}
	}

	g.markEdits()
	d.finishChange = round(ra.ProjectDuration - rb.ProjectDuration)
	finish := math.Max(ra.ProjectDuration, rb.ProjectDuration)
	clock := after.Clock
	if clock == nil {
		clock = before.Clock
	}
	if clock != nil && clock.Check(finish) != nil {
		clock = nil // the axis runs past the calendar's range: working days only
	}
	g.layout(finish, clock)
	return g
}

// unmatchedGanttLinks marks the links that other does not have, matched as
// schedule.Compare matches relationships: by what they say (LinkKey), each
// of other's relationships matching at most one link.
func unmatchedGanttLinks(links []ganttLink, other *schedule.Schedule) []bool {
	have := make(map[schedule.LinkKey]int, len(other.Relationships))
	for _, r := range other.Relationships {
		have[schedule.LinkKeyOf(r)]++
	}
	out := make([]bool, len(links))
	for n, l := range links {
		k := schedule.LinkKeyOf(*l.rel)
		if have[k] > 0 {
			have[k]--
		} else {
			out[n] = true
		}
	}
	return out
}

// diffSummary is the before/after page's line under the title.
func (g *gantt) diffSummary() {
	d := g.diff
	tb, ta := d.before.Result.ProjectDuration, g.res.ProjectDuration
	g.s(`<p class="summary">Before → after: project finish `, Days(tb), " → ", Days(ta), " working days")
	if cb, ca := d.before.Clock, g.r.Clock; cb != nil && ca != nil {
		g.s(" (", cb.FinishAt(tb).Format("Mon 2006-01-02"), " → ", ca.FinishAt(ta).Format("Mon 2006-01-02"), ")")
	}
	switch {
	case d.finishChange > 0:
		g.s(", +", workingDays(d.finishChange))
	case d.finishChange < 0:
		g.s(", −", workingDays(-d.finishChange))
	default:
		g.s(", unchanged")
	}
	g.s("; activities: ", strconv.Itoa(d.added), " added, ", strconv.Itoa(d.removed), " removed, ", strconv.Itoa(d.moved),
		" moved; relationships: ", strconv.Itoa(d.linksAdded), " added, ", strconv.Itoa(d.linksRemoved), " removed")
	if g.narrowed {
		g.s(". Only the changed rows are drawn")
		if d.hidden > 0 {
			g.s(" (", strconv.Itoa(d.hidden), " more changed rows are not: see the review page)")
		}
	}
	g.s("</p>\n")
}

// ghosts writes a dashed outline at the before dates of each moved
// activity, under the bars.
func (g *gantt) ghosts() {
	if g.diff.moved == 0 {
		return
	}
	rb := g.diff.before.Result
	g.s(`<g class="ghosts">`)
	for i := range g.rows {
		row := &g.rows[i]
		if row.change != "moved" {
			continue
		}
		j := row.was
		g.shape("ghost", i, rb.ES[j], rb.EF[j])
		g.s(`" data-id="`)
		g.esc(row.act().ID)
		g.s(`" data-i="`, strconv.Itoa(i), `" data-es="`)
		g.day(rb.ES[j])
		g.s(`" data-ef="`)
		g.day(rb.EF[j])
		g.s(`"><title>`)
		var b strings.Builder
		b.WriteString(row.act().Name + " (" + row.act().ID + ") before the change")
		g.diff.beforeDates(&b, j)
		g.esc(b.String())
		g.shapeEnd(rb.EF[j]-rb.ES[j] <= schedule.Epsilon)
		g.flush()
	}
	g.s("</g>\n")
}

// strike writes the line through a removed activity's bar.
func (g *gantt) strike(i int) {
	row := &g.rows[i]
	x1, x2 := g.x(row.es()), g.x(row.es())+math.Max((row.ef()-row.es())*g.k, 1)
	if row.milestone() {
		x1, x2 = g.x(row.es())-ganttDiamond, g.x(row.es())+ganttDiamond
	}
	y := float64(i*ganttRowH) + ganttRowH/2.0
	g.s(`<line class="strike" data-i="`, strconv.Itoa(i), `" x1="`)
	g.px(x1)
	g.s(`" x2="`)
	g.px(x2)
	g.s(`" y1="`)
	g.px(y)
	g.s(`" y2="`)
	g.px(y)
	g.s("\"/>\n")
}

// note ends a row's tooltip with what the change did to it.
func (d *ganttDiff) note(b *strings.Builder, row *ganttRow) {
	switch row.change {
	case "added":
		b.WriteString("\nAdded by the change")
	case "removed":
		b.WriteString("\nRemoved by the change (times before it)")
	}
	if row.was < 0 {
		return
	}
	old, rb := &d.before.Schedule.Activities[row.was], d.before.Result
	if row.change == "moved" {
		b.WriteString("\nMoved; before the change:")
		d.beforeDates(b, row.was)
	}
	if old.Name != row.act().Name {
		b.WriteString("\nName before: " + old.Name)
	}
	if dur := rb.EF[row.was] - rb.ES[row.was]; round(dur) != round(row.ef()-row.es()) {
		b.WriteString("\nDuration before: " + Days(dur) + " d")
	}
}

// beforeDates writes before's activity j's early dates.
func (d *ganttDiff) beforeDates(b *strings.Builder, j int) {
	rb := d.before.Result
	b.WriteString("\nES " + Days(rb.ES[j]) + "  EF " + Days(rb.EF[j]))
	if c := d.before.Clock; c != nil {
		const f = "Mon 2006-01-02 15:04"
		b.WriteString("\nStart " + rb.At(c, j, schedule.EarlyStart).Format(f) + "\nFinish " + rb.At(c, j, schedule.EarlyFinish).Format(f))
	}
}

// ganttDiffLegend adds the diff's marks to ganttLegend, with sw-* classes
// of their own so that counting "bar", "added" or "removed" elements counts
// the chart's only.
const ganttDiffLegend = `<li><svg width="28" height="14"><rect class="sw-added" x="1" y="2" width="26" height="10" rx="2"/></svg>added</li>` +
	`<li><svg width="28" height="14"><rect class="sw-removed" x="1" y="2" width="26" height="10" rx="2"/><line class="sw-strike" x1="1" x2="27" y1="7" y2="7"/></svg>removed</li>` +
	`<li><svg width="28" height="14"><rect class="sw-moved" x="2" y="3" width="24" height="8" rx="2"/></svg>moved</li>` +
	`<li><svg width="28" height="14"><rect class="sw-ghost" x="1" y="2" width="26" height="10" rx="2"/></svg>moved: old position</li>` +
	`<li><svg width="28" height="14"><path class="sw-link-added" d="M1 7H27"/></svg>added link</li>` +
	`<li><svg width="28" height="14"><path class="sw-link-removed" d="M1 7H27"/></svg>removed link</li>` +
	`<li><svg width="10" height="14"><line class="sw-finish-before" x1="5" x2="5" y1="0" y2="14"/></svg>finish before the change</li>`

// markEdits marks the rows the change touched itself: added and removed
// activities, those whose name, duration or description changed (as
// schedule.Compare reads a change; ganttRow.edited), and both ends of
// every link added or removed (ganttRow.linked). A moved row that is none
// of these moved because of them.
func (g *gantt) markEdits() {
	bs := g.diff.before.Schedule.Activities
	for n := range g.rows {
		row := &g.rows[n]
		switch {
		case row.change == "added" || row.change == "removed":
			row.edited = true
		case row.was >= 0:
			old, a := &bs[row.was], row.act()
			row.edited = old.Name != a.Name || old.Duration != a.Duration || old.Description != a.Description
		}
	}
	for _, l := range g.links {
		if l.change != "" {
			g.rows[l.pred].linked, g.rows[l.succ].linked = true, true
		}
	}
}

// changed says row n is drawn as changed: edited, added, removed or moved.
func (r *ganttRow) changed() bool { return r.edited || r.linked || r.change != "" }

// changedRows lists the changed rows, in row order.
func (g *gantt) changedRows() []int {
	var out []int
	for n := range g.rows {
		if g.rows[n].changed() {
			out = append(out, n)
		}
	}
	return out
}

// changedRowsCapped are the changed rows, at most limit of them (0: all)
// picked as GanttDiffOptions.MaxRows says, in row order.
func changedRowsCapped(rows []ganttRow, limit int) []int {
	var edits, linked, critical, moved []int
	for n := range rows {
		row := &rows[n]
		switch {
		case row.edited:
			edits = append(edits, n)
		case row.linked:
			linked = append(linked, n)
		case row.change == "moved" && row.critical():
			critical = append(critical, n)
		case row.change != "":
			moved = append(moved, n)
		}
	}
	keep := slices.Concat(edits, linked, critical, moved)
	if limit > 0 && len(keep) > limit {
		keep = keep[:limit]
	}
	slices.Sort(keep)
	return keep
}

// keepRows narrows the page to rows keep (ascending): the links between
// two kept rows stay, the others go; the header counts what was left out.
func (g *gantt) keepRows(keep []int) {
	if g.diff != nil {
		g.diff.hidden = len(g.changedRows()) - len(keep)
	}
	at := make([]int, len(g.rows))
	for n := range at {
		at[n] = -1
	}
	rows := make([]ganttRow, len(keep))
	for k, n := range keep {
		at[n], rows[k] = k, g.rows[n]
	}
	g.redraw(rows, at)
	g.narrowed = true
}

// redraw makes rows the chart's rows: at[n] is where row n of the chart
// so far goes (-1: not drawn); the links between two rows drawn follow
// them, the others go.
func (g *gantt) redraw(rows []ganttRow, at []int) {
	links := g.links[:0:0]
	for _, l := range g.links {
		if at[l.pred] >= 0 && at[l.succ] >= 0 {
			l.pred, l.succ = at[l.pred], at[l.succ]
			links = append(links, l)
		}
	}
	g.rows, g.links = rows, links
}

// firstEdit is the row a reader looks at first: the first activity the
// change added, removed or edited, else the first end of a link it added
// or removed, else the first changed row (-1: none).
func (g *gantt) firstEdit() int {
	first := [3]int{-1, -1, -1}
	for n := range g.rows {
		row := &g.rows[n]
		for k, is := range [3]bool{row.edited, row.linked, row.changed()} {
			if is && first[k] < 0 {
				first[k] = n
			}
		}
	}
	for _, n := range first {
		if n >= 0 {
			return n
		}
	}
	return -1
}
