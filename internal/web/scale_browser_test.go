package web_test

// Review at scale, phone and print in Chromium (issue 31, items 3 and 6).

import (
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// frameJS evaluates a JavaScript expression in the document of the
// iframe with id frame (the app's frames are same-origin): d is its
// document, w its window.
func frameJS[T any](c *chrome, frame, expr string) T {
	c.t.Helper()
	return jsValue[T](c, `(function () { var f = document.getElementById(`+jsString(frame)+`), d = f.contentDocument, w = f.contentWindow; return (`+expr+`); })()`)
}

// rowInView: the Gantt's label row of activity id is inside its
// scroller's visible area.
func rowInView(id string) string {
	return `(function () { var g = d.getElementById("gantt"), r = d.getElementById(` + jsString("row-"+id) + `);
		if (!r) return false;
		var gr = g.getBoundingClientRect(), rr = r.getBoundingClientRect();
		return rr.top >= gr.top && rr.bottom <= gr.bottom; })()`
}

// TestBrowserReviewOpensOnTheChange: on a 2,000-activity schedule, the
// review's Gantt opens on the deleted activity (row 940), not on row 1;
// "Changed only" keeps the changed rows and nothing else, and "Next
// change" steps through them.
func TestBrowserReviewOpensOnTheChange(t *testing.T) {
	a := startApp(t)
	const id = "browser-scale"
	sc := schedule.Synthetic(2000, 2, 1)
	sc.StartDate = "2026-01-05"
	sc.Activities[940].Name = "Pour slab Level 9"
	a.importSchedule(t, sc, id)
	c := newChrome(t, a)
	dispatchID := c.prompt(id, "delete Pour slab Level 9")
	c.waitJS("the proposal", proposalShown(dispatchID, 1))
	c.waitJS("the diff Gantt", frameLoaded("diff-gantt"))
	c.waitJS("the Gantt to open on the change", `document.getElementById("diff-gantt").contentDocument.querySelector(".row.current")`)

	if !frameJS[bool](c, "diff-gantt", rowInView("A940")) {
		t.Errorf("the deleted activity's row is not in view: scrolled to %v, current row %q", frameJS[float64](c, "diff-gantt", `d.getElementById("gantt").scrollTop`),
			frameJS[string](c, "diff-gantt", `d.querySelector(".row.current").id`))
	}
	if got := frameJS[string](c, "diff-gantt", `d.querySelector(".bar.removed").getAttribute("data-id")`); got != "A940" {
		t.Errorf("the removed bar is %q, want A940", got)
	}
	total := frameJS[int](c, "diff-gantt", `d.querySelectorAll(".labels .row").length`)
	changed := frameJS[int](c, "diff-gantt", `JSON.parse(d.getElementById("gantt-data").textContent).changed.length`)
	if total < 2000 || changed == 0 || changed >= total {
		t.Fatalf("%d rows, %d changed", total, changed)
	}

	frameJS[bool](c, "diff-gantt", `(d.getElementById("changed-only").click(), true)`)
	shown := frameJS[int](c, "diff-gantt", `d.querySelectorAll(".labels .row:not(.off)").length`)
	bars := frameJS[int](c, "diff-gantt", `d.querySelectorAll(".bar:not(.off)").length`)
	unchanged := frameJS[int](c, "diff-gantt", `[].filter.call(d.querySelectorAll(".bar:not(.off)"), function (b) { return !/added|removed|moved/.test(b.getAttribute("class")); }).length`)
	height := frameJS[float64](c, "diff-gantt", `+d.querySelector("svg.chart").getAttribute("height")`)
	if shown != changed || bars != changed || height != float64(22*changed) {
		t.Errorf("changed only: %d rows, %d bars, chart %v px high; want %d changed rows (%d px)", shown, bars, height, changed, 22*changed)
	}
	if unchanged > changed/2 {
		t.Errorf("changed only shows %d bars neither added, removed nor moved", unchanged)
	}
	if !frameJS[bool](c, "diff-gantt", rowInView("A940")) || frameJS[string](c, "diff-gantt", `d.getElementById("changed-only").getAttribute("aria-pressed")`) != "true" {
		t.Error("changed only: the deleted row is out of view, or the toggle does not say it is on")
	}
	// Every bar shown sits on its label's line.
	if bad := frameJS[string](c, "diff-gantt", `(function () {
		var rows = d.querySelectorAll(".labels .row:not(.off)"), bars = d.querySelectorAll(".bar:not(.off)");
		for (var n = 0; n < bars.length; n++) {
			var b = bars[n].getBoundingClientRect(), r = rows[n].getBoundingClientRect();
			if (Math.abs((b.top + b.bottom) / 2 - (r.top + r.bottom) / 2) > 2) return rows[n].id + " vs bar " + bars[n].getAttribute("data-id") + " " + n + ": " + JSON.stringify([b.top, b.bottom, r.top, r.bottom, bars[n].getAttribute("y"), d.getElementById("gantt").scrollTop]);
		}
		return ""; })()`); bad != "" {
		t.Errorf("changed only: a bar is not on its label's line: %s", bad)
	}

	before := frameJS[string](c, "diff-gantt", `d.getElementById("change-at").textContent`)
	frameJS[bool](c, "diff-gantt", `(d.getElementById("next-change").click(), true)`)
	after := frameJS[string](c, "diff-gantt", `d.getElementById("change-at").textContent`)
	if !strings.HasPrefix(before, "change ") || before == after {
		t.Errorf("next change: %q then %q", before, after)
	}
	frameJS[bool](c, "diff-gantt", `(d.getElementById("changed-only").click(), true)`)
	if got := frameJS[int](c, "diff-gantt", `d.querySelectorAll(".labels .row.off, .bar.off").length`); got != 0 {
		t.Errorf("all rows again: %d still hidden", got)
	}
	c.click("#reject")
	c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))
}
