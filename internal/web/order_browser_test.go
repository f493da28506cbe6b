package web_test

// Order and placement (issue 31) in a real browser: work added after an
// activity gets a readable id in the schedule's own numbering and sits
// right after its predecessor, in the proposal and in the stored
// schedule's table.

import (
	"regexp"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/workflows"
)

func TestBrowserOrderAfterAdd(t *testing.T) {
	a := startApp(t)
	c := newChrome(t, a)
	const id = "browser-order-add"
	a.importFile(t, "../../examples/building.json", id)
	dispatchID := c.prompt(id, "add a 3 day scaffold inspection after Pour slab Level 3")
	c.waitJS("the round 1 proposal", proposalShown(dispatchID, 1))
	if got := c.text("#ops tbody"); !strings.Contains(got, "Scaffold inspection") {
		t.Fatalf("the proposal does not add the inspection: %q", got)
	}
	c.click("#accept")
	c.waitJS("the accepted outcome", outcomeShown(dispatchID, workflows.StatusAccepted))

	c.open("/s/" + id)
	next := jsValue[string](c, `(function(){ var r = document.getElementById("row-A066"), n = r && r.nextElementSibling;
		return n ? n.id + "|" + n.textContent : ""; })()`)
	if !strings.HasPrefix(next, "row-A066.1|") || !strings.Contains(next, "Scaffold inspection") {
		t.Errorf("the row after Pour slab Level 3 (A066) is %q, want the new Scaffold inspection as A066.1", next)
	}
	uuid := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	if table := c.text("#activities"); uuid.MatchString(table) {
		t.Errorf("the activity table shows a UUID: %s", uuid.FindString(table))
	}
}
