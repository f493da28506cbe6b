package web_test

// Undo, Cancel, closed dispatches and the person's name in Chromium
// (issue 31, items 4 and 7).

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/autoscheduler/autoscheduler/internal/web"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// busyProbe records, across the navigation a form's post starts, what the
// page showed while the post ran: the progress text and whether the
// button pressed was disabled.
const busyProbe = `sessionStorage.removeItem("busy");
new MutationObserver(function () {
	var p = document.querySelector(".progress"), b = document.querySelector("button.busy");
	if (p && b) sessionStorage.setItem("busy", p.textContent + "|" + b.disabled);
}).observe(document.body, {subtree: true, childList: true, attributes: true})`

// TestBrowserUndoTwice: the Undo button asks first (keeping it sends
// nothing), shows progress while it runs, and the history then says
// undone with no Undo button. A second tab still showing the button
// undoes again: the page says it was already undone and nothing changes.
// The review page says undone and keeps its impact and Gantt.
func TestBrowserUndoTwice(t *testing.T) {
	a := startApp(t)
	const id = "browser-undo"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)
	dispatchID := c.prompt(id, "Delete all activities on the second floor")
	c.waitJS("the proposal", proposalShown(dispatchID, 1))
	c.click("#accept")
	c.waitJS("the accepted outcome", outcomeShown(dispatchID, workflows.StatusAccepted))
	c.waitJS("the closed page's Gantt", frameLoaded("diff-gantt"))
	if c.count("#evidence #impact #finish-change") != 1 || c.frameCount("diff-gantt", ".bar.removed") == 0 {
		t.Error("the accepted dispatch's page lacks its impact or its Gantt's removed bars")
	}

	stale := c.newTab()
	for _, tab := range []*chrome{c, stale} {
		tab.open("/s/" + id)
		tab.waitJS("the Undo button", `!!document.querySelector("#undo button")`)
	}
	activities := c.text(".summary")

	c.click("#undo button")
	c.waitJS("the confirmation", `document.getElementById("confirm-dialog").open`)
	if got := c.text("#confirm-text"); !strings.Contains(got, "Delete all activities on the second floor") {
		t.Errorf("the confirmation says %q", got)
	}
	c.click("#confirm-no")
	if c.count("#confirm-dialog[open]") != 0 || c.text(".summary") != activities || c.count(".progress") != 0 {
		t.Error("keeping it sent the undo")
	}

	c.do(chromedp.Evaluate[chromedp.Void](busyProbe))
	c.click("#undo button")
	c.click("#confirm-yes")
	c.waitJS("the undo's flash", `document.querySelector(".flash").textContent.indexOf("Undid") >= 0`)
	if got := jsValue[string](c, `sessionStorage.getItem("busy") || ""`); got != "Undoing: taking the changes back…|true" {
		t.Errorf("while the undo ran the page showed %q, want the progress text and a disabled button", got)
	}
	row := `#history tr[data-id="` + dispatchID + `"]`
	if got := c.text(row + " td.outcome"); got != workflows.StateUndone {
		t.Errorf("history after the undo: %q, want undone", got)
	}
	if c.count("#undo") != 0 {
		t.Error("the history still offers an Undo")
	}
	undone := c.text(".summary")

	stale.click("#undo button")
	stale.click("#confirm-yes")
	stale.waitJS("the refusal", `!!document.querySelector(".error")`)
	if got := stale.text(".error"); !strings.Contains(got, "was already undone by tester") || !strings.Contains(got, "nothing changed") {
		t.Errorf("the second undo says %q", got)
	}
	if got := stale.text(".summary"); got != undone {
		t.Errorf("the second undo changed the schedule: %q, was %q", got, undone)
	}

	c.open("/d/" + dispatchID)
	c.waitJS("the closed page's Gantt", frameLoaded("diff-gantt"))
	if got := c.text("#outcome"); got != workflows.StateUndone {
		t.Errorf("the review page's outcome: %q, want undone", got)
	}
	if c.count("#evidence #impact") != 1 || c.frameCount("diff-gantt", ".bar.removed") == 0 {
		t.Error("the undone dispatch's page lacks its impact or its Gantt's removed bars")
	}
}

// TestBrowserCancelAsksFirst: Cancel on the review page asks first;
// keeping the dispatch leaves it open, confirming ends it cancelled, with
// progress shown meanwhile; the closed page keeps the impact and Gantt.
func TestBrowserCancelAsksFirst(t *testing.T) {
	a := startApp(t)
	const id = "browser-cancel-confirm"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)
	dispatchID := c.prompt(id, "Delete all activities on the second floor")
	c.waitJS("the proposal", proposalShown(dispatchID, 1))
	c.click("#cancel")
	c.waitJS("the confirmation", `document.getElementById("confirm-dialog").open`)
	c.click("#confirm-no")
	c.open("/d/" + dispatchID)
	c.waitJS("the proposal, still open", proposalShown(dispatchID, 1))

	c.do(chromedp.Evaluate[chromedp.Void](busyProbe))
	c.click("#cancel")
	c.click("#confirm-yes")
	c.waitJS("the cancelled outcome", outcomeShown(dispatchID, workflows.StatusCancelled))
	if got := jsValue[string](c, `sessionStorage.getItem("busy") || ""`); !strings.HasPrefix(got, "Cancelling") || !strings.HasSuffix(got, "|true") {
		t.Errorf("while the cancel ran the page showed %q", got)
	}
	c.waitJS("the closed page's Gantt", frameLoaded("diff-gantt"))
	if c.count("#evidence #impact #finish-change") != 1 || c.frameCount("diff-gantt", ".bar.removed") == 0 {
		t.Error("the cancelled dispatch's page lacks its impact or its Gantt's removed bars")
	}
}

// TestBrowserAsksForAName: an app started without --as asks the browser
// for its person's name in the header (no OS user), remembers it once
// saved and shows it, still changeable.
func TestBrowserAsksForAName(t *testing.T) {
	srv := offline(t, web.Config{})
	c := newChrome(t, &app{URL: srv.URL})
	c.open("/d/x") // a page that needs neither Temporal nor the stores
	if c.count("#who.ask #who-name") != 1 || jsValue[string](c, `document.getElementById("who-name").value`) != "" {
		t.Fatalf("the header does not ask for a name: %s", c.text("#who"))
	}
	if strings.Contains(c.text("header"), "root") {
		t.Error("the header names root")
	}
	c.typeInto("#who-name", "dana")
	c.click("#who button[type=submit]")
	c.waitJS("the saved name", `!!document.querySelector("#who:not(.ask) input[name=name]")`)
	if got := jsValue[string](c, `document.querySelector("#who input[name=name]").value`); got != "dana" {
		t.Errorf("the header shows %q after saving dana", got)
	}
	c.open("/d/y")
	if got := jsValue[string](c, `document.querySelector("#who input[name=name]").value`); got != "dana" || c.count("#who.ask") != 0 {
		t.Errorf("the next page's header shows %q: the name is not remembered", got)
	}
	c.retype("#who input[name=name]", "dana k")
	c.click("#who button[type=submit]")
	c.waitJS("the changed name", `document.querySelector("#who input[name=name]").value === "dana k"`)
}

// TestBrowserPickList: the planner's question is a pick list (checkboxes
// here: "the pour" may name several); ticking Pour slab Level 3 and
// pressing Answer proposes deleting it alone. A second question is
// cancelled with the Cancel beside the list, after confirming.
func TestBrowserPickList(t *testing.T) {
	a := startApp(t)
	const id = "browser-pick"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)
	dispatchID := c.prompt(id, "delete the pour")
	c.waitJS("the question", questionShown(dispatchID))
	if n := c.count(`#choices input[name=choice]`); n != 9 {
		t.Fatalf("the pick list has %d choices, want 9", n)
	}
	kind := jsValue[string](c, `document.querySelector("#choices input[name=choice]").type`)
	if kind != "checkbox" && kind != "radio" {
		t.Errorf("the choices are %q inputs", kind)
	}
	c.do(chromedp.Evaluate[chromedp.Void](`Array.from(document.querySelectorAll("#choices label.choice")).find(function (l) {
		return l.textContent.trim().indexOf("Pour slab Level 3 (") === 0; }).querySelector("input").click()`))
	c.click("#clarify-form #answer")
	c.waitJS("the proposal after the pick", proposalShown(dispatchID, 1))
	if n, got := c.count("#ops tr.op"), c.text("#ops tbody code"); n != 1 || got != `delete_activity(name="Pour slab Level 3")` {
		t.Errorf("proposal: %d changes, first %q; want delete_activity(name=\"Pour slab Level 3\") alone", n, got)
	}
	c.click("#reject")
	c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))

	c.prompt(id, "delete the pour")
	c.waitJS("the question", questionShown(dispatchID))
	c.click("#cancel-question")
	c.waitJS("the confirmation", `document.getElementById("confirm-dialog").open`)
	c.click("#confirm-yes")
	c.waitJS("the cancelled outcome", outcomeShown(dispatchID, workflows.StatusCancelled))
}
