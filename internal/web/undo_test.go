package web_test

import (
	"errors"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/web"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// ganttSrc is the address of a review page's before/after Gantt frame.
var ganttSrc = regexp.MustCompile(`id="diff-gantt" src="([^"]+)"`)

// evidenceShown checks a closed review page keeps what its last round was
// decided on: the CPM impact and a before/after Gantt frame that draws the
// removed bars.
func evidenceShown(t *testing.T, b *browser, what, page string) {
	t.Helper()
	for _, want := range []string{`id="evidence"`, `id="impact"`, `id="finish-change"`, `id="diff-gantt"`} {
		if !strings.Contains(page, want) {
			t.Errorf("%s: the closed review page lacks %s", what, want)
		}
	}
	m := ganttSrc.FindStringSubmatch(page)
	if m == nil {
		return
	}
	if code, body := b.get(html.UnescapeString(m[1])); code != http.StatusOK || !strings.Contains(body, `class="bar removed`) {
		t.Errorf("%s: its Gantt frame %s: %d, no removed bars", what, m[1], code)
	}
	// Without the snapshot the page drew (reopened later), the frame is
	// drawn again from the dispatch.
	src := regexp.MustCompile(`&snap=[^&]*`).ReplaceAllString(html.UnescapeString(m[1]), "")
	if code, body := b.get(src); code != http.StatusOK || !strings.Contains(body, `class="bar removed`) {
		t.Errorf("%s: its Gantt %s drawn again: %d, no removed bars", what, src, code)
	}
}

// TestUndoIsShownAndRefusedTwice: an accepted dispatch is undone from the
// schedule page; the history then says undone and offers no Undo; a
// second undo of the run is refused and changes nothing; the review page
// says undone and still shows the impact and the Gantt it was accepted on.
// A rejected dispatch's page keeps them too.
func TestUndoIsShownAndRefusedTwice(t *testing.T) {
	a := startApp(t)
	const id = "undo-twice"
	a.importFile(t, "../../examples/building.json", id)
	b := a.browser(t)
	dispatchID := b.prompt(id, "Delete all activities on the second floor", "alice")
	b.reviewPageShows(dispatchID, `id="review-form"`)
	b.post("/d/"+dispatchID+"/review", url.Values{"round": {"1"}, "decision": {"accept"}, "name": {"alice"}})
	page := b.reviewPageShows(dispatchID, `id="outcome">accepted<`)
	evidenceShown(t, b, "accepted", page)

	var sched string
	waitFor(t, "the history to offer the undo", func() bool {
		_, sched = b.get("/s/" + id)
		return strings.Contains(sched, `id="undo"`)
	})
	if !strings.Contains(sched, `data-confirm="Undo “Delete all activities on the second floor”`) {
		t.Error("the Undo button does not ask first")
	}
	run := undoRun.FindStringSubmatch(sched)[1]
	undo := url.Values{"dispatch": {dispatchID}, "run": {run}}
	code, loc := b.post("/s/"+id+"/undo", undo)
	if code != http.StatusSeeOther {
		t.Fatalf("undo: %d %s", code, loc)
	}
	if _, sched = b.get(loc); !regexp.MustCompile(`Undid dispatch \S+ \(run \S+\): [1-9]\d* changes taken back`).MatchString(sched) {
		t.Errorf("after the undo the page does not say what was taken back")
	}
	if !strings.Contains(sched, `class="outcome undone"`) || strings.Contains(sched, `id="undo"`) {
		t.Errorf("after the undo the history should say undone and offer no Undo")
	}
	before, err := a.Stores.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}

	code, loc = b.post("/s/"+id+"/undo", undo)
	if code != http.StatusSeeOther {
		t.Fatalf("second undo: %d %s", code, loc)
	}
	_, sched = b.get(loc)
	if want := "Undo refused: dispatch " + dispatchID + " (run " + run + ") was already undone by alice at "; !strings.Contains(html.UnescapeString(sched), want) {
		t.Errorf("the second undo is not refused as %q", want)
	}
	if strings.Contains(sched, "Undid dispatch") {
		t.Error("the second undo says it took changes back")
	}
	after, err := a.Stores.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Activities) != len(before.Activities) || len(after.Relationships) != len(before.Relationships) {
		t.Errorf("the second undo changed the schedule: %d → %d activities", len(before.Activities), len(after.Activities))
	}

	_, page = b.get("/d/" + dispatchID)
	if !strings.Contains(page, `id="outcome">undone<`) || !strings.Contains(page, "accepted, then undone by alice") {
		t.Errorf("the review page does not say undone")
	}
	evidenceShown(t, b, "undone", page)

	// A rejected dispatch keeps its evidence too.
	b.prompt(id, "Delete all activities on the second floor", "alice")
	b.reviewPageShows(dispatchID, `name="round" value="1"`)
	b.post("/d/"+dispatchID+"/review", url.Values{"round": {"1"}, "decision": {"reject"}, "name": {"alice"}})
	page = b.reviewPageShows(dispatchID, `id="outcome">rejected<`)
	evidenceShown(t, b, "rejected", page)
}

// TestTheAppAsksForAName: an app started without --as asks each browser
// who its person is, never says the OS user, refuses a decision until it
// is told, and shows the name once saved.
func TestTheAppAsksForAName(t *testing.T) {
	srv := offline(t, web.Config{})
	cookie, csrf := session(t, srv.URL)
	// A page that needs neither Temporal nor the stores: a 404 in the layout.
	_, _, page := do(t, http.MethodGet, srv.URL, "/d/x", "", nil, "Cookie", "as_session="+cookie)
	if !strings.Contains(page, "Who are you?") || !strings.Contains(page, `class="who ask"`) || strings.Contains(page, `value="root"`) {
		t.Errorf("the header does not ask for a name:\n%s", page)
	}
	post := func(path string, form url.Values) (int, http.Header) {
		t.Helper()
		form.Set("csrf", csrf)
		code, h, _ := do(t, http.MethodPost, srv.URL, path, "", strings.NewReader(form.Encode()),
			"Content-Type", "application/x-www-form-urlencoded", "Cookie", "as_session="+cookie)
		return code, h
	}
	for _, path := range []string{"/d/dispatch-x/review", "/d/dispatch-x/cancel", "/d/dispatch-x/clarify", "/s/x/undo"} {
		code, h := post(path, url.Values{"round": {"1"}, "decision": {"accept"}, "answer": {"A1"}, "dispatch": {"dispatch-x"}})
		refusal := ""
		for _, c := range (&http.Response{Header: h}).Cookies() {
			if c.Name == "as_refused" {
				refusal, _ = url.QueryUnescape(c.Value)
			}
		}
		if code != http.StatusSeeOther || !strings.HasPrefix(refusal, "Say who you are first") {
			t.Errorf("POST %s without a name: %d, refusal %q; want it to ask for the name", path, code, refusal)
		}
	}
	code, h := post("/name", url.Values{"name": {"dana"}, "back": {"/d/x"}})
	var named string
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == "as_name" {
			named = c.Value
		}
	}
	if code != http.StatusSeeOther || named != "dana" {
		t.Fatalf("saving the name: %d, cookie %q", code, named)
	}
	_, _, page = do(t, http.MethodGet, srv.URL, "/d/x", "", nil, "Cookie", "as_session="+cookie+"; as_name=dana")
	if !strings.Contains(page, `You are <input name="name" value="dana"`) || strings.Contains(page, "Who are you?") {
		t.Errorf("the header does not show the saved name")
	}
}

// choiceInput matches a pick-list entry of the question's form.
var choiceInput = regexp.MustCompile(`<label class="choice"><input type="(radio|checkbox)" name="choice" value="([^"]+)"> ([^<]+)</label>`)

// TestAQuestionIsAPickList: a question with candidates is a pick list
// beside a free-text answer and a Cancel; posting a picked choice answers
// it, and a post with neither is refused.
func TestAQuestionIsAPickList(t *testing.T) {
	a := startApp(t)
	const id = "pick-list"
	a.importFile(t, "../../examples/building.json", id)
	b := a.browser(t)
	dispatchID := b.prompt(id, "delete the pour", "alice")
	page := html.UnescapeString(b.reviewPageShows(dispatchID, `id="clarify-form"`))
	choices := choiceInput.FindAllStringSubmatch(page, -1)
	if len(choices) != 9 || !strings.Contains(page, `id="cancel-question"`) || !strings.Contains(page, "Or answer in your words") {
		t.Fatalf("the question offers %d choices (want 9), a Cancel and a free-text answer:\n%s", len(choices), page)
	}
	var pick []string
	for _, c := range choices {
		if c[3] == "Pour slab Level 3 ("+c[2]+")" {
			pick = c
		}
	}
	if pick == nil {
		t.Fatalf("no choice for Pour slab Level 3 in %q", choices)
	}
	code, loc := b.post("/d/"+dispatchID+"/clarify", url.Values{"round": {"1"}, "name": {"alice"}})
	if _, page = b.get(loc); code != http.StatusSeeOther || !strings.Contains(page, "pick one of the choices or say it in your words") {
		t.Errorf("an empty answer: %d, not refused", code)
	}
	b.post("/d/"+dispatchID+"/clarify", url.Values{"round": {"1"}, "name": {"alice"}, "choice": {pick[2]}})
	page = html.UnescapeString(b.reviewPageShows(dispatchID, `id="review-form"`))
	if !strings.Contains(page, `delete_activity(name="Pour slab Level 3")`) {
		t.Errorf("picking %s did not propose deleting it", pick[3])
	}
	b.post("/d/"+dispatchID+"/review", url.Values{"round": {"1"}, "decision": {"reject"}, "name": {"alice"}})
	b.reviewPageShows(dispatchID, `id="outcome">rejected<`)
}

// TestConcurrentUndosApplyOnce: two undos of the same run at once (two
// browsers, a browser and the CLI): one takes the changes back, the other
// is refused (already undone, or being undone), and the schedule is back
// where it was before the dispatch, once.
func TestConcurrentUndosApplyOnce(t *testing.T) {
	a := startApp(t)
	const id = "undo-race"
	a.importFile(t, "../../examples/building.json", id)
	start, err := a.Stores.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	b := a.browser(t)
	dispatchID := b.prompt(id, "Delete all activities on the second floor", "alice")
	b.reviewPageShows(dispatchID, `id="review-form"`)
	b.post("/d/"+dispatchID+"/review", url.Values{"round": {"1"}, "decision": {"accept"}, "name": {"alice"}})
	b.reviewPageShows(dispatchID, `id="outcome">accepted<`)

	errs := make(chan error, 2)
	for _, who := range []string{"alice", "bob"} {
		go func() {
			_, err := workflows.Undo(t.Context(), a.C, a.Stores, dispatchID, "", who)
			errs <- err
		}()
	}
	var done, refused int
	for range 2 {
		var already *workflows.AlreadyUndoneError
		var running *workflows.UndoRunningError
		switch err := <-errs; {
		case err == nil:
			done++
		case errors.As(err, &already), errors.As(err, &running):
			refused++
		default:
			t.Errorf("undo: %v", err)
		}
	}
	if done != 1 || refused != 1 {
		t.Errorf("%d undos took the changes back and %d were refused; want 1 and 1", done, refused)
	}
	end, err := a.Stores.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(end.Activities) != len(start.Activities) || len(end.Relationships) != len(start.Relationships) {
		t.Errorf("after the undos: %d activities, %d relationships; want %d, %d as before the dispatch",
			len(end.Activities), len(end.Relationships), len(start.Activities), len(start.Relationships))
	}
}
