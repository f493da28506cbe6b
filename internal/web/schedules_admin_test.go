package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// An upload's schedule id, typed or made from the file's name, is one the
// app can address: "", "." and ".." (from files named ".json" or
// "..json") and path names are refused; a name with spaces becomes an id
// (issue 26, item 9).
func TestUploadIDs(t *testing.T) {
	a := startApp(t)
	b := a.browser(t)
	two, err := os.ReadFile("../../starter/testdata/two.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, id, want string }{
		{"..json", "", "gives no schedule id"},
		{".json", "", "gives no schedule id"},
		{"two.json", "..", `invalid schedule id "..": ".." is not a name`},
		{"two.json", ".", `invalid schedule id "."`},
		{"two.json", "a/b", `invalid schedule id "a/b"`},
		{"two.json", "-x", `invalid schedule id "-x"`},
	} {
		code, page := b.upload(tc.file, two, map[string]string{"schedule": tc.id})
		page = html.UnescapeString(page)
		if code != http.StatusBadRequest || !strings.Contains(page, tc.want) {
			t.Errorf("%s as %q: %d, page lacks %q", tc.file, tc.id, code, tc.want)
		}
	}
	for _, id := range []string{"", ".", ".."} {
		if ok, _ := a.Stores.Graph.Has(context.Background(), id); ok {
			t.Errorf("%q was stored", id)
		}
	}
	code, loc := b.upload("Level 2 (rev B).json", two, nil)
	if code != http.StatusSeeOther || loc != "/s/Level-2-rev-B" {
		t.Fatalf("an upload named with spaces: %d %q", code, loc)
	}
	t.Cleanup(func() { a.Stores.DeleteSchedule(context.Background(), "Level-2-rev-B") })
}

// The schedules page shows what the summaries kept with the schedules
// say, without loading or computing any (issue 26, item 11).
func TestSchedulesPageReadsSummaries(t *testing.T) {
	a := startApp(t)
	b := a.browser(t)
	ctx := context.Background()
	const id = "summary-page"
	sc := a.importFile(t, "../../examples/building.json", id)
	t.Cleanup(func() { a.Stores.DeleteSchedule(ctx, id) })
	_, page := b.get("/")
	if !strings.Contains(page, "(167 working days)") {
		t.Fatalf("the page does not show the building's finish")
	}
	// A summary the page must show as it is: it reads nothing else.
	fake := store.Summarize(sc, time.Date(2030, 1, 2, 3, 4, 0, 0, time.UTC))
	fake.Finish, fake.FinishDate, fake.Name = 999, "", "Summary, not the schedule"
	if _, err := a.Stores.Graph.Apply(ctx, id, []store.Change{{Summary: &fake}}); err != nil {
		t.Fatal(err)
	}
	_, page = b.get("/")
	if !strings.Contains(page, "999 working days") || !strings.Contains(page, "Summary, not the schedule") {
		t.Errorf("the page does not show the stored summary")
	}
	// A schedule stored without one is summarised once and keeps it.
	if _, err := a.Stores.Graph.Apply(ctx, id, []store.Change{{PutActivities: sc.Activities[:1]}}); err != nil {
		t.Fatal(err)
	}
	if _, page = b.get("/"); !strings.Contains(page, "(167 working days)") {
		t.Errorf("a schedule without a summary is not summarised")
	}
	list, err := a.Stores.Graph.Schedules(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range list {
		if info.ID == id && (info.Summary == nil || info.Summary.Finish != 167) {
			t.Errorf("the summary was not stored: %+v", info.Summary)
		}
	}
}

// Delete from the schedule page: the box must be ticked; a schedule with
// an open dispatch is not deleted; deleting removes it from both stores;
// deleting again does nothing (issue 26, item 9).
func TestDeleteSchedule(t *testing.T) {
	a := startApp(t)
	b := a.browser(t)
	ctx := context.Background()
	const id = "delete-me"
	a.importFile(t, "../../examples/building.json", id)
	t.Cleanup(func() { a.Stores.DeleteSchedule(ctx, id) })

	_, page := b.get("/s/" + id)
	if !strings.Contains(page, `action="/s/delete-me/delete"`) || !strings.Contains(page, `name="confirm" value="yes" required`) {
		t.Fatal("the schedule page has no delete form with a confirmation")
	}
	shows := func(loc, want string) {
		t.Helper()
		_, page := b.get(loc)
		if page = html.UnescapeString(page); !strings.Contains(page, want) {
			t.Errorf("%s does not say %q", loc, want)
		}
	}
	stored := func() bool {
		ok, err := a.Stores.Graph.Has(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}

	code, loc := b.post("/s/"+id+"/delete", url.Values{})
	if code != http.StatusSeeOther || loc != "/s/"+id || !stored() {
		t.Fatalf("without the box ticked: %d %q, stored %v", code, loc, stored())
	}
	shows(loc, `Schedule "delete-me" was not deleted: tick the box to confirm it.`)

	// An open dispatch keeps it.
	dispatch := b.prompt(id, "add a 2 day inspection after Pour slab Level 2", "ann")
	waitFor(t, "the dispatch to await review", func() bool {
		_, p := b.get("/d/" + dispatch)
		return strings.Contains(p, "Accept")
	})
	code, loc = b.post("/s/"+id+"/delete", url.Values{"confirm": {"yes"}})
	if code != http.StatusSeeOther || !stored() {
		t.Fatalf("with an open dispatch: %d, stored %v", code, stored())
	}
	shows(loc, `dispatch `+workflows.DispatchWorkflowID(id)+` is open on it. Review, reject or cancel it first.`)
	if err := a.C.CancelWorkflow(ctx, dispatch, ""); err != nil {
		t.Fatal(err)
	}
	if err := a.C.GetWorkflow(ctx, dispatch, "").Get(ctx, nil); err == nil {
		t.Log("the cancelled dispatch ended without an error")
	}

	code, loc = b.post("/s/"+id+"/delete", url.Values{"confirm": {"yes"}})
	if code != http.StatusSeeOther || loc != "/" || stored() {
		t.Fatalf("delete: %d %q, stored %v", code, loc, stored())
	}
	shows(loc, `Deleted schedule "delete-me" from both stores.`)
	docs, err := a.Stores.Vectors.Dump(ctx, id)
	if err != nil || len(docs.Activities) > 0 {
		t.Errorf("documents left: %d, %v", len(docs.Activities), err)
	}
	// Again, through the list's form (the id in the form, for ids that
	// cannot be in an address): nothing to delete.
	code, loc = b.post("/s/-/delete", url.Values{"confirm": {"yes"}, "schedule": {id}})
	if code != http.StatusSeeOther || loc != "/" {
		t.Fatalf("delete again: %d %q", code, loc)
	}
	shows(loc, `Schedule "delete-me" is not stored: nothing to delete.`)
	// A post without the CSRF token is refused.
	a.importFile(t, "../../examples/building.json", id)
	resp, err := b.http.PostForm(b.base+"/s/"+id+"/delete", url.Values{"confirm": {"yes"}, "csrf": {"forged"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !stored() {
		t.Errorf("a forged delete: %d, stored %v", resp.StatusCode, stored())
	}
}
