package web_test

// The risk card (issue 31) in a real browser: a proposal's risk rating is
// the first thing in it, names what it is about, never shows a finish that
// cut logic moved earlier as good news, and offers the dissolve as one
// click that plans the next round.

import (
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// riskCardFirst: the card comes before the proposal's changes and its
// CPM impact on the page.
const riskCardFirst = `(function(){ var r = document.getElementById("risk"), p = document.getElementById("proposal");
	var after = document.querySelector("#ops, #tasks, #impact");
	return !!r && p.contains(r) && !!after && !!(r.compareDocumentPosition(after) & Node.DOCUMENT_POSITION_FOLLOWING); })()`

func TestBrowserRiskCard(t *testing.T) {
	a := startApp(t)
	c := newChrome(t, a)

	t.Run("delete_driving_activity", func(t *testing.T) {
		const id = "browser-risk-delete"
		a.importFile(t, "../../examples/building.json", id)
		c.t = t
		dispatchID := c.prompt(id, "delete activity Pour slab Level 3")
		c.waitJS("the round 1 proposal", proposalShown(dispatchID, 1))
		if !jsValue[bool](c, riskCardFirst) {
			t.Errorf("the risk card is not first in the proposal:\n%s", c.pageSummary())
		}
		if level := c.text("#risk-level"); level != "critical" && level != "high" {
			t.Errorf("risk level %q, want high or critical for deleting driving work", level)
		}
		cut := c.text(`#risk li.risk-reason[data-kind="logic_cut"]`)
		if !strings.Contains(cut, "Pour slab Level 3 (A066)") || !strings.Contains(cut, "no longer drives") {
			t.Errorf("the logic cut does not name the chain: %q", cut)
		}
		if n := c.count(`#risk li.risk-chain[data-from="A065"][data-to="A067"]`); n != 1 {
			t.Errorf("%d chains Slab reinforcement Level 3 (A065) -> Column and wall formwork Level 3 (A067), want 1", n)
		}
		// The finish moved earlier only because logic was cut: a warning,
		// in red, not the green of good news.
		finish := c.text("#finish-change")
		if c.count("#finish-change.cut-logic") != 1 || !strings.Contains(finish, "only because logic was cut") {
			t.Errorf("finish change %q: not marked as cut logic", finish)
		}
		if color := jsValue[string](c, `getComputedStyle(document.getElementById("finish-change")).color`); color == "rgb(46, 125, 50)" {
			t.Errorf("the finish cut logic moved earlier is green (%s)", color)
		}
		if got := c.text("#dissolve-form span"); !strings.Contains(got, "Pour slab Level 3 (A066)") {
			t.Errorf("dissolve offer: %q", got)
		}

		// One click: the next round dissolves the same activity, and its
		// card finds no cut.
		c.click("#dissolve-instead")
		c.waitJS("the round 2 proposal", proposalShown(dispatchID, 2))
		if n, got := c.count("#ops tr.op"), c.text("#ops tbody code"); n != 1 || c.count("#ops tr.op.dissolve_activity") != 1 || !strings.Contains(got, "Pour slab Level 3") {
			t.Errorf("round 2: %d changes, first %q; want the dissolve of Pour slab Level 3 alone", n, got)
		}
		if got := c.text(`#decisions li[data-round="1"]`); !strings.Contains(got, "rejected with feedback") || !strings.Contains(got, "dissolve instead") {
			t.Errorf("round 1's decision: %q", got)
		}
		if n := c.count(`#risk li.risk-reason[data-kind="logic_cut"]`) + c.count("#dissolve-form") + c.count("#finish-change.cut-logic"); n != 0 {
			t.Errorf("the dissolve still reads as a logic cut:\n%s", c.pageSummary())
		}
		c.click("#reject")
		c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))
	})

	t.Run("added_work_open_ended", func(t *testing.T) {
		const id = "browser-risk-add"
		a.importFile(t, "../../examples/building.json", id)
		c.t = t
		dispatchID := c.prompt(id, "add a 3 day scaffold inspection after Pour slab Level 3")
		c.waitJS("the round 1 proposal", proposalShown(dispatchID, 1))
		if !jsValue[bool](c, riskCardFirst) {
			t.Errorf("the risk card is not first in the proposal:\n%s", c.pageSummary())
		}
		if level := c.text("#risk-level"); level != "medium" {
			t.Errorf("risk level %q, want medium for an open end", level)
		}
		open := c.text(`#risk li.risk-reason[data-kind="open_ends"]`)
		if !strings.Contains(strings.ToLower(open), "scaffold inspection") || !strings.Contains(open, "no successor") {
			t.Errorf("the open end is not named: %q", open)
		}
		if c.count("#dissolve-form") != 0 {
			t.Error("dissolve offered for added work")
		}
		c.click("#reject")
		c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))
	})

	t.Run("harmless_change", func(t *testing.T) {
		const id = "browser-risk-low"
		a.importFile(t, "../../examples/building.json", id)
		c.t = t
		// Temporary water connection has 6 days of float: 1.5 more uses some.
		dispatchID := c.prompt(id, "set the duration of Temporary water connection to 3 days")
		c.waitJS("the round 1 proposal", proposalShown(dispatchID, 1))
		if level := c.text("#risk-level"); level != "low" {
			t.Errorf("risk level %q, want low:\n%s", level, c.pageSummary())
		}
		if got := c.text(`#risk`); !strings.Contains(got, "Temporary water connection (A006)") {
			t.Errorf("risk card: %q", got)
		}
		if n := c.count(`#risk li.risk-reason:not([data-level="low"])`) + c.count("#dissolve-form"); n != 0 {
			t.Errorf("a harmless change has %d reasons above low or a dissolve", n)
		}
		c.click("#reject")
		c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))
	})
}
