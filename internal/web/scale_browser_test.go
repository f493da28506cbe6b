package web_test

// Review at scale, phone and print in Chromium (issue 31, items 3 and 6).

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

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
	// Printed, the review's Gantt shows the changed rows, as tall as they
	// are (a page at most); after printing it is as it was.
	c.do(chromedp.Evaluate[chromedp.Void](`window.dispatchEvent(new Event("beforeprint"))`))
	on := frameJS[string](c, "diff-gantt", `d.getElementById("changed-only").getAttribute("aria-pressed")`)
	h := jsValue[float64](c, `document.getElementById("diff-gantt").getBoundingClientRect().height`)
	want := frameJS[float64](c, "diff-gantt", `Math.min(d.getElementById("gantt").offsetTop + d.querySelector(".corner").offsetHeight + 22 * `+strconv.Itoa(changed)+` + 24, 900)`)
	if rows := frameJS[int](c, "diff-gantt", `d.querySelectorAll(".labels .row:not(.off)").length`); on != "true" || h != want || rows != changed {
		t.Errorf("before printing: changed only %s, %d rows, the frame %v px high; want %d rows, %v px", on, rows, h, changed, want)
	}
	c.do(chromedp.Evaluate[chromedp.Void](`window.dispatchEvent(new Event("afterprint"))`))
	if on := frameJS[string](c, "diff-gantt", `d.getElementById("changed-only").getAttribute("aria-pressed")`); on != "false" {
		t.Errorf("after printing: changed only %s", on)
	}
	c.click("#reject")
	c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))
}

// media emulates a CSS media type in the tab ("print"; "" ends it).
func (c *chrome) media(m string) {
	c.t.Helper()
	c.do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
		return err
	}))
}

// TestBrowserPhoneWidth: at 390 px (a phone) no page scrolls sideways
// (document.documentElement.scrollWidth <= 390), nor the documents of its
// frames, and the Gantt's label pane keeps to the ids.
func TestBrowserPhoneWidth(t *testing.T) {
	a := startApp(t)
	const id, question = "browser-phone", "browser-phone-question"
	a.importFile(t, "../../examples/building.json", id)
	a.importFile(t, "../../examples/building.json", question)
	c := newChrome(t, a)
	c.do(chromedp.EmulateViewport(390, 844))
	asked := c.prompt(question, "delete the pour")
	c.waitJS("the question", questionShown(asked))
	dispatchID := c.prompt(id, "Delete all activities on the second floor")
	c.waitJS("the proposal", proposalShown(dispatchID, 1))

	const fits = `(function () {
		var out = [], docs = [[document, "page"]];
		document.querySelectorAll("iframe").forEach(function (f) { if (f.contentDocument) docs.push([f.contentDocument, "frame #" + f.id]); });
		docs.forEach(function (p) {
			var d = p[0], w = d.documentElement.scrollWidth, vw = d.defaultView.innerWidth;
			if (w > vw) out.push(p[1] + " is " + w + " px wide in " + vw);
		});
		return out.join("; ");
	})()`
	check := func(name, path, ready string) {
		t.Helper()
		c.open(path)
		c.waitJS(name, ready)
		if got := jsValue[string](c, fits); got != "" {
			t.Errorf("%s at 390 px: %s", name, got)
		}
	}
	check("the schedules page", "/", `!!document.getElementById("schedules")`)
	check("the schedule page", "/s/"+id, frameLoaded("gantt"))
	if w := frameJS[float64](c, "gantt", `d.querySelector(".labels").offsetWidth`); w > 100 {
		t.Errorf("the Gantt's label pane is %v px wide at 390 px", w)
	}
	check("the prompt page", "/prompt?schedule="+id, `!!document.getElementById("prompt-form")`)
	check("the question", "/d/"+asked, questionShown(asked))
	check("the proposal", "/d/"+dispatchID, proposalShown(dispatchID, 1)+" && "+frameLoaded("diff-gantt"))
	c.typeInto("#feedback", strings.Repeat("a long word without spaces ", 3)+strings.Repeat("x", 120))
	if got := jsValue[string](c, fits); got != "" {
		t.Errorf("the proposal with feedback typed: %s", got)
	}
	check("the summary", "/d/"+dispatchID+"/summary", frameLoaded("summary-frame"))
	check("the schedule's Gantt", "/s/"+id+"/gantt", `document.querySelectorAll(".bar").length > 0`)
	check("the diff Gantt", "/d/"+dispatchID+"/gantt", `document.querySelectorAll(".bar").length > 0`)
	check("an error page", "/s/no-such-schedule", `!!document.querySelector(".error")`)
	check("the compare page", "/compare?a="+id+"&b="+question, `document.readyState === "complete"`)
	check("a filtered, grouped schedule page", "/s/"+id+"?group=level&critical=1&find=slab", frameLoaded("gantt"))
	c.open("/d/" + dispatchID)
	c.waitJS("the proposal", proposalShown(dispatchID, 1))
	c.click("#accept")
	c.waitJS("the accepted outcome", outcomeShown(dispatchID, workflows.StatusAccepted))
	check("the closed review", "/d/"+dispatchID, frameLoaded("diff-gantt"))
	check("the schedule page with its history", "/s/"+id, frameLoaded("gantt"))
}

// TestBrowserPrintShowsGanttLabels: the schedule page's Gantt, off screen
// when the page loaded, has its ID/Activity/Duration labels drawn when
// the page is printed (or captured whole): none of the label rows in the
// frame's view is skipped by content-visibility. The Gantt page printed
// alone lays out every label.
func TestBrowserPrintShowsGanttLabels(t *testing.T) {
	a := startApp(t)
	const id = "browser-print"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)
	c.do(chromedp.EmulateViewport(1400, 240)) // the Gantt below the fold
	c.open("/s/" + id)
	c.waitJS("the Gantt", frameLoaded("gantt"))
	if frameJS[float64](c, "gantt", `f.getBoundingClientRect().top`) < 240 {
		t.Fatal("the Gantt frame is on screen: the test needs it below the fold")
	}
	// skipped lists the label rows in the frame's view that are not drawn.
	const skipped = `(function () {
		var g = d.getElementById("gantt"), top = g.getBoundingClientRect().top, bottom = top + g.clientHeight, out = [];
		d.querySelectorAll(".labels .row").forEach(function (r) {
			var b = r.getBoundingClientRect();
			if (b.bottom > top && b.top < bottom && !r.checkVisibility({contentVisibilityAuto: true})) out.push(r.id);
		});
		return out.length + (out.length ? " (" + out.slice(0, 3).join(", ") + ")" : "");
	})()`
	if got := frameJS[string](c, "gantt", skipped); got != "0" {
		t.Errorf("on screen, the off-screen Gantt skips %s label rows in its view", got)
	}
	c.media("print")
	if got := frameJS[string](c, "gantt", skipped); got != "0" {
		t.Errorf("in print, the Gantt skips %s label rows in its view", got)
	}
	if got := frameJS[string](c, "gantt", `d.querySelector(".labels .row").textContent`); !strings.Contains(got, "A001") || !strings.Contains(got, "Notice to proceed") {
		t.Errorf("the first label row reads %q", got)
	}
	c.media("")

	c.open("/s/" + id + "/gantt")
	c.waitJS("the Gantt page", `document.querySelectorAll(".bar").length === 147`)
	c.media("print")
	if got := jsValue[int](c, `[].filter.call(document.querySelectorAll(".labels .row"), function (r) { return !r.checkVisibility({contentVisibilityAuto: true}); }).length`); got != 0 {
		t.Errorf("the Gantt page in print skips %d label rows", got)
	}
	c.media("")
}

// pdfPages matches each page object of a PDF (not the /Pages tree).
var pdfPages = regexp.MustCompile(`/Type\s*/Page\b`)

// TestBrowserSummaryPrintsOnOnePage: a proposal's summary shows its risk,
// its CPM impact, its changes and the Gantt of the changed rows only, and
// Chromium prints it to one page.
func TestBrowserSummaryPrintsOnOnePage(t *testing.T) {
	a := startApp(t)
	const id = "browser-summary"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)
	dispatchID := c.prompt(id, "Delete all activities on the second floor")
	c.waitJS("the proposal", proposalShown(dispatchID, 1))
	c.click("#summary-link")
	c.waitJS("the summary", onPath("/d/"+dispatchID+"/summary")+" && "+frameLoaded("summary-frame"))
	for _, sel := range []string{"#risk", "#summary-impact #finish-change", "#summary-changes ol.ops li"} {
		if c.count(sel) == 0 {
			t.Errorf("the summary has no %s", sel)
		}
	}
	bars := c.frameCount("summary-frame", ".bar")
	removed := c.frameCount("summary-frame", ".bar.removed")
	all := c.frameCount("summary-frame", ".bar:not(.added):not(.removed):not(.moved)")
	if bars == 0 || bars > 18 || removed == 0 || all > bars/2 {
		t.Errorf("the summary's Gantt draws %d bars (%d removed, %d unchanged); want only changed rows, 18 at most", bars, removed, all)
	}
	c.waitJS("the frame fitted to its chart", `parseFloat(document.getElementById("summary-frame").style.height) > 0`)
	for _, paper := range []struct {
		name          string
		width, height float64 // inches
	}{{"Letter", 8.5, 11}, {"A4", 8.27, 11.69}} {
		pdf, err := chromedp.Run(c.ctx, chromedp.Action[[]byte](func(ctx context.Context, _ *chromedp.Target) ([]byte, error) {
			res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: paper.width, PaperHeight: paper.height})
			if err != nil {
				return nil, err
			}
			return res.Data, nil
		}))
		if err != nil {
			t.Fatal(err)
		}
		if dir := os.Getenv("SUMMARY_PDF_DIR"); dir != "" {
			os.WriteFile(filepath.Join(dir, "summary-"+paper.name+".pdf"), pdf, 0o644) //nolint:errcheck // a debugging aid
		}
		if pages := pdfPages.FindAllIndex(pdf, -1); len(pages) != 1 {
			t.Errorf("the summary prints to %d %s pages (%d bytes of PDF), want 1", len(pages), paper.name, len(pdf))
		}
	}
	c.open("/d/" + dispatchID)
	c.waitJS("the proposal", proposalShown(dispatchID, 1))
	c.click("#reject")
	c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))
}

// TestBrowserAnswerLinksRows: an answer's long path lists names with
// ids, each linked to its row, the middle collapsed; a link opens the
// schedule page on that activity: its table row marked, its Gantt opened
// on its row. Check offenders are named and linked the same way.
func TestBrowserAnswerLinksRows(t *testing.T) {
	a := startApp(t)
	const id = "browser-links"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)
	c.open("/s/" + id + "?ask=" + "what+drives+the+finish")
	c.waitJS("the answer", `!!document.getElementById("answer-text")`)
	if got := c.count("#answer-text .linklist > a"); got != 8 {
		t.Errorf("%d activities of the path shown, want 8 (7 and the last)", got)
	}
	if got := c.text("#answer-text details.more summary"); got != "… 46 more …" {
		t.Errorf("the collapsed middle says %q", got)
	}
	if got := c.count("#answer-text details.more a"); got != 46 {
		t.Errorf("%d activities collapsed, want 46", got)
	}
	if got := c.text("#answer-text .linklist > a:last-of-type"); got != "Handover (A147)" {
		t.Errorf("the path ends %q", got)
	}
	if href := jsValue[string](c, `document.querySelector("#answer-text .linklist > a").getAttribute("href")`); href != "/s/"+id+"?at=A001#row-A001" {
		t.Errorf("the first link goes to %q", href)
	}
	c.click(`#answer-text a[href$="#row-A011"]`)
	c.waitJS("the schedule page on A011", `location.hash === "#row-A011" && !!document.querySelector("#activities tr.target")`)
	c.waitJS("the Gantt on A011", `(function () { var d = document.getElementById("gantt").contentDocument; var r = d && d.querySelector(".row.current"); return r && r.id === "row-A011"; })()`)
	if got := c.text("#activities tr.target td"); got != "A011" {
		t.Errorf("the table marks %q", got)
	}
	if c.count(`#checks td.offenders a[href*="#row-"]`) == 0 {
		t.Error("no check offender is linked to its row")
	}
}
