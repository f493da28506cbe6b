package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// TestReviewActionsInTheApp: the review page offers Redo, Back (from round
// 2) and Cancel beside Accept and Reject; each is a round's decision, and
// a refused one is explained on the page.
func TestReviewActionsInTheApp(t *testing.T) {
	a := startApp(t)
	a.importFile(t, "../../examples/building.json", "actions")
	bob := a.browser(t)
	id := bob.prompt("actions", "Delete activity A007", "ann")
	page := bob.reviewPageShows(id, `id="review-form"`)
	for _, want := range []string{`name="decision" value="redo"`, `name="decision" value="cancel"`} {
		if !strings.Contains(page, want) {
			t.Errorf("round 1's review form lacks %q", want)
		}
	}
	if strings.Contains(page, `name="decision" value="back"`) {
		t.Error("round 1's review form offers Back")
	}
	review := func(round, decision string) {
		t.Helper()
		if code, loc := bob.post("/d/"+id+"/review", url.Values{"round": {round}, "decision": {decision}, "name": {"bob"}}); code != http.StatusSeeOther {
			t.Fatalf("%s of round %s: %d %s", decision, round, code, loc)
		}
	}
	// A decision the page does not know is a bad request.
	if code, _ := bob.post("/d/"+id+"/review", url.Values{"round": {"1"}, "decision": {"maybe"}}); code != http.StatusBadRequest {
		t.Errorf("decision maybe: %d, want 400", code)
	}
	// Back on round 1 (a hand-made form) is refused, said on the page.
	review("1", "back")
	if page = bob.reviewPageShows(id, `id="refused"`); !strings.Contains(page, "back: round 1 has no previous round to go back to") {
		t.Errorf("the refused back is not explained")
	}

	review("1", "redo")
	page = bob.reviewPageShows(id, `name="round" value="2"`)
	for _, want := range []string{"Round 1: redone by bob", `name="decision" value="back"`, `delete_activity(`} {
		if !strings.Contains(page, want) {
			t.Errorf("round 2's page lacks %q", want)
		}
	}

	review("2", "back")
	page = bob.reviewPageShows(id, `name="round" value="3"`)
	for _, want := range []string{"Round 2: taken back to round 1 by bob", "Round 3 is round 1&#39;s proposal again, taken back by bob.", `delete_activity(`} {
		if !strings.Contains(page, want) {
			t.Errorf("round 3's page lacks %q", want)
		}
	}

	review("3", "cancel")
	page = bob.reviewPageShows(id, `id="outcome"`)
	for _, want := range []string{"cancelled", "Round 3: cancelled by bob", "cancelled at review of round 3 by bob"} {
		if !strings.Contains(page, want) {
			t.Errorf("the closed page lacks %q", want)
		}
	}
	var res workflows.DispatchResult
	if err := a.C.GetWorkflow(context.Background(), id, "").Get(context.Background(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != workflows.StatusCancelled || res.Rounds != 3 || res.Reviewer != "bob" || len(res.Decisions) != 3 {
		t.Fatalf("result = %+v", res)
	}
	for _, c := range res.Changes {
		if c.Status != workflows.ChangeCompensated {
			t.Errorf("round %d %s: %s, want compensated", c.Round, c.Call, c.Status)
		}
	}
	if ok, err := a.Stores.Graph.Has(context.Background(), "actions"); err != nil || !ok {
		t.Fatalf("the schedule: %v %v", ok, err)
	}
	_, sched := bob.get("/s/actions")
	if !strings.Contains(sched, "147 activities") {
		t.Errorf("after the cancel the schedule page does not show 147 activities")
	}
}
