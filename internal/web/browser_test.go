package web_test

// The review app in a real browser: headless Chromium driven over the
// DevTools protocol (chromedp) against the package's app (harness_test.go:
// a real Temporal dev server, a worker with the offline rules planner, an
// embedded store). These check what the HTTP-level tests cannot: that the
// forms work as a person uses them (file upload, typing, buttons, keys),
// that the page follows its dispatch by itself (Server-Sent Events and a
// reload), and that schedule text never runs as script in a browser.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/autoscheduler/autoscheduler/internal/render/rendertest"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// chromeWait bounds every wait for the page (planning, a reload, a
// Gantt): generous, the CI machine has two cores.
const chromeWait = 2 * time.Minute

// chromiumPath finds a headless-capable Chromium (CI must have one).
func chromiumPath(t testing.TB) string {
	t.Helper()
	return rendertest.Chromium(t, "the web app's browser tests")
}

// chrome is one tab of a headless Chromium. Each newChrome is its own
// browser process with its own profile: one person (own cookies, so own
// session and CSRF token, own remembered name).
type chrome struct {
	t     testing.TB
	app   *app
	ctx   context.Context // the tab
	close func()          // closes the tab (and, for the first tab, the browser)
}

// newChrome starts a browser for a and opens its first tab; the test's
// cleanup closes it.
func newChrome(t testing.TB, a *app) *chrome {
	t.Helper()
	bin := chromiumPath(t)
	profile, err := os.MkdirTemp("", "web-chromium")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1400, 1000),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	var once sync.Once
	c := &chrome{t: t, app: a, ctx: ctx, close: func() {
		once.Do(func() {
			cancelTab()
			cancelAlloc() // waits for the browser to exit
			os.RemoveAll(profile)
		})
	}}
	t.Cleanup(c.close)
	// The first call starts the browser. Its context gets no deadline (the
	// browser lives as long as the context of its first call): a watchdog
	// closes a browser that hangs while starting.
	watchdog := time.AfterFunc(chromeWait, c.close)
	err = chromedp.Do(ctx)
	if !watchdog.Stop() || err != nil {
		c.close()
		t.Fatalf("starting %s: %v", bin, err)
	}
	return c
}

// newTab opens another tab in c's browser (same person, same cookies).
func (c *chrome) newTab() *chrome {
	c.t.Helper()
	ctx, cancel := chromedp.NewContext(c.ctx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		c.t.Fatalf("opening a tab: %v", err)
	}
	c.t.Cleanup(cancel)
	return &chrome{t: c.t, app: c.app, ctx: ctx, close: cancel}
}

// do runs actions in the tab, each call bounded by chromeWait.
func (c *chrome) do(actions ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.ctx, chromeWait)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		c.t.Fatalf("%v\n%s", err, c.pageSummary())
	}
}

// open navigates to the app's path and waits for the page's load event.
func (c *chrome) open(path string) {
	c.t.Helper()
	c.do(chromedp.Navigate(c.app.URL + path))
}

func (c *chrome) click(sel string) {
	c.t.Helper()
	c.do(chromedp.Click(chromedp.CSS(sel)))
}

func (c *chrome) typeInto(sel, text string) {
	c.t.Helper()
	c.do(chromedp.SendKeys(chromedp.CSS(sel), text))
}

// retype replaces a field's text by typing.
func (c *chrome) retype(sel, text string) {
	c.t.Helper()
	c.do(chromedp.Clear(chromedp.CSS(sel)), chromedp.SendKeys(chromedp.CSS(sel), text))
}

// evalJS evaluates a JavaScript expression in the tab's page.
func evalJS[T any](c *chrome, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(c.ctx, 30*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr))
}

// jsValue is evalJS that fails the test on an error.
func jsValue[T any](c *chrome, expr string) T {
	c.t.Helper()
	v, err := evalJS[T](c, expr)
	if err != nil {
		c.t.Fatalf("evaluating %s: %v\n%s", expr, err, c.pageSummary())
	}
	return v
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// text is the trimmed text content of the first element sel matches.
func (c *chrome) text(sel string) string {
	c.t.Helper()
	return jsValue[string](c, "document.querySelector("+jsString(sel)+").textContent.trim()")
}

// count is how many elements sel matches.
func (c *chrome) count(sel string) int {
	c.t.Helper()
	return jsValue[int](c, "document.querySelectorAll("+jsString(sel)+").length")
}

// frameCount is how many elements sel matches inside the iframe with id
// frame (the app's frames are same-origin).
func (c *chrome) frameCount(frame, sel string) int {
	c.t.Helper()
	return jsValue[int](c, "document.getElementById("+jsString(frame)+").contentDocument.querySelectorAll("+jsString(sel)+").length")
}

// waitJS waits until the JavaScript expression is truthy in the tab. The
// page may reload in between (the review page reloads itself when its
// dispatch moves on): an evaluation that fails meanwhile, or throws
// because an element is not there yet, counts as not yet.
func (c *chrome) waitJS(what, expr string) {
	c.t.Helper()
	deadline := time.Now().Add(chromeWait)
	var last error
	for {
		ok, err := evalJS[bool](c, "!!(function(){ try { return ("+expr+"); } catch (e) { return false; } })()")
		if err == nil && ok {
			return
		}
		if err != nil {
			last = err
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("waited %v for %s (%s); last error: %v\n%s", chromeWait, what, expr, last, c.pageSummary())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pageSummary is where the tab is and what it shows, for failure messages.
func (c *chrome) pageSummary() string {
	s, err := evalJS[string](c, `location.href + "\n" + (document.body ? document.body.innerText.slice(0, 3000) : "(no body)")`)
	if err != nil {
		return "(the page could not be read: " + err.Error() + ")"
	}
	return "page " + s
}

// The review page's states, as conditions on the page.
func onPath(path string) string { return "location.pathname === " + jsString(path) }

func proposalShown(id string, round int) string {
	return onPath("/d/"+id) + ` && document.getElementById("stage").dataset.round === "` + strconv.Itoa(round) +
		`" && !!document.getElementById("review-form")`
}

func questionShown(id string) string {
	return onPath("/d/"+id) + ` && !!document.getElementById("clarify-form")`
}

func outcomeShown(id, outcome string) string {
	return onPath("/d/"+id) + ` && document.getElementById("outcome").textContent.trim() === ` + jsString(outcome)
}

// frameLoaded: the iframe with id frame has loaded a page with a Gantt.
func frameLoaded(frame string) string {
	return `(function(){ var d = document.getElementById(` + jsString(frame) + `).contentDocument;
		return d && d.readyState === "complete" && d.querySelectorAll(".bar").length > 0; })()`
}

// prompt types text into the schedule page's prompt form and submits it;
// the app goes to the dispatch's review page.
func (c *chrome) prompt(scheduleID, text string) (dispatchID string) {
	c.t.Helper()
	c.open("/s/" + scheduleID)
	c.typeInto("#prompt-form textarea[name=prompt]", text)
	c.click(`#prompt-form button[type=submit]`)
	dispatchID = workflows.DispatchWorkflowID(scheduleID)
	c.waitJS("the review page of "+dispatchID, onPath("/d/"+dispatchID))
	return dispatchID
}

// awaitResult waits for the dispatch's result through Temporal.
func awaitResult(t testing.TB, a *app, id string) workflows.DispatchResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), chromeWait)
	defer cancel()
	var res workflows.DispatchResult
	if err := a.C.GetWorkflow(ctx, id, "").Get(ctx, &res); err != nil {
		t.Fatalf("the result of %s: %v", id, err)
	}
	return res
}

var (
	undoneFlash   = regexp.MustCompile(`Undid dispatch \S+ \(run \S+\): (\d+) changes taken back\.`)
	activityCount = regexp.MustCompile(`^(\d+) activities,`)
)

// TestBrowserFullFlow is a planner's whole session on the example
// building: import through the upload form, prompt, read the proposal and
// its diff, reject with feedback, accept round 2, find it in the history,
// undo it.
func TestBrowserFullFlow(t *testing.T) {
	a := startApp(t)
	c := newChrome(t, a)
	const id = "browser-flow"
	file, err := filepath.Abs("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}

	c.open("/")
	c.do(
		chromedp.SetUploadFiles(chromedp.CSS(`#import input[type=file]`), []string{file}),
		chromedp.SendKeys(chromedp.CSS(`#import input[name=schedule]`), id),
		chromedp.Click(chromedp.CSS(`#import button[type=submit]`)),
	)
	// The page, not only its address: the flash is read once the body
	// has arrived (the address changes when the response starts).
	c.waitJS("the imported schedule's page", onPath("/s/"+id)+` && !!document.querySelector(".summary")`)
	if got, want := c.text(".flash"), `Imported building.json as "`+id+`": 147 activities`; !strings.HasPrefix(got, want) {
		t.Errorf("flash after the import: %q, want it to start %q", got, want)
	}
	if got := c.text(".summary"); !strings.HasPrefix(got, "147 activities, ") {
		t.Errorf("summary: %q", got)
	}
	c.waitJS("the schedule's Gantt", frameLoaded("gantt"))
	if got := c.frameCount("gantt", ".bar"); got != 147 {
		t.Errorf("the Gantt frame has %d bars, want 147", got)
	}

	dispatchID := c.prompt(id, "Delete all activities on the second floor")
	c.waitJS("the round 1 proposal", proposalShown(dispatchID, 1))
	ops := c.count("#ops tr.op")
	if ops == 0 || c.count("#ops tr.op.remove_activity") != ops {
		t.Errorf("round 1: %d ops, %d of them remove_activity; want only removals", ops, c.count("#ops tr.op.remove_activity"))
	}
	if got := c.text("#ops tbody tr:first-child code"); !strings.HasPrefix(got, "delete_activity(") || !strings.Contains(got, "Level 2") {
		t.Errorf("round 1's first change: %q", got)
	}
	if got := c.text("#impact"); !strings.Contains(got, "Project finish:") {
		t.Errorf("#impact: %q", got)
	}
	change := c.text("#finish-change")
	if c.count("#finish-change.earlier") != 1 || !strings.HasPrefix(change, "-") {
		t.Errorf("finish change %q: deleting a floor should finish earlier", change)
	}
	t.Logf("round 1: %d changes, finish change %q", ops, change)
	c.waitJS("the diff Gantt", frameLoaded("diff-gantt"))
	if got := c.frameCount("diff-gantt", ".bar.removed"); got != ops {
		t.Errorf("the diff Gantt has %d removed bars, want %d (one per deleted activity)", got, ops)
	}

	c.typeInto("#feedback", "delete all drywall activities on the second floor")
	c.click("#reject-feedback")
	c.waitJS("the round 2 proposal", proposalShown(dispatchID, 2))
	if got := c.text("#proposal h2"); got != "Proposal, round 2" {
		t.Errorf("heading: %q", got)
	}
	if got := c.text(`#decisions li[data-round="1"]`); !strings.Contains(got, "rejected with feedback by tester") || !strings.Contains(got, "drywall") {
		t.Errorf("round 1's decision: %q", got)
	}
	ops2 := c.count("#ops tr.op")
	for i := 1; i <= ops2; i++ {
		if got := c.text(fmt.Sprintf("#ops tbody tr:nth-child(%d) code", i)); !strings.Contains(got, "Drywall") || !strings.Contains(got, "Level 2") {
			t.Errorf("round 2 change %d: %q, want only level 2 drywall", i, got)
		}
	}
	if ops2 == 0 {
		t.Error("round 2 proposes nothing")
	}

	c.click("#accept")
	c.waitJS("the accepted outcome", outcomeShown(dispatchID, workflows.StatusAccepted))

	c.open("/s/" + id)
	row := `#history tr[data-id="` + dispatchID + `"]`
	if got := c.text(row + " td.outcome"); got != workflows.StatusAccepted {
		t.Errorf("history outcome: %q", got)
	}
	if got, want := c.text(".summary"), strconv.Itoa(147-ops2)+" activities, "; !strings.HasPrefix(got, want) {
		t.Errorf("summary after the accept: %q, want it to start %q", got, want)
	}
	c.click("#undo button")
	c.click("#confirm-yes") // the Undo asks first
	c.waitJS("the undo's flash", `document.querySelector(".flash").textContent.indexOf("Undid") >= 0`)
	flash := c.text(".flash")
	m := undoneFlash.FindStringSubmatch(flash)
	if m == nil || m[1] == "0" {
		t.Errorf("flash after the undo: %q", flash)
	}
	if m := activityCount.FindStringSubmatch(c.text(".summary")); m == nil || m[1] != "147" {
		t.Errorf("summary after the undo: %q, want 147 activities", c.text(".summary"))
	}
	if got := c.count("#activities tbody tr"); got != 147 {
		t.Errorf("%d activity rows after the undo, want 147", got)
	}
}

// TestBrowserClarification answers the planner's question in the page.
func TestBrowserClarification(t *testing.T) {
	a := startApp(t)
	const id = "browser-clarify"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)

	dispatchID := c.prompt(id, "delete the pour")
	c.waitJS("the question", questionShown(dispatchID))
	if got := c.text("#question .question"); !strings.Contains(got, "Pour slab Level 3") || !strings.Contains(got, "which one?") {
		t.Errorf("question: %q", got)
	}
	c.typeInto(`#clarify-form input[name=answer]`, "Pour slab Level 3")
	c.click(`#clarify-form button[type=submit]`)
	c.waitJS("the proposal after the answer", proposalShown(dispatchID, 1))
	if n, got := c.count("#ops tr.op"), c.text("#ops tbody code"); n != 1 || got != `delete_activity(name="Pour slab Level 3")` {
		t.Errorf("proposal: %d changes, first %q; want delete_activity(name=\"Pour slab Level 3\") alone", n, got)
	}
	c.click("#reject")
	c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))
}

// TestBrowserTwoReviewers: alice and bob have the same review page open
// on round 1. Alice decides; then bob, whose page has not caught up (its
// live updates are blocked, as on a flaky connection), decides too: his
// page says round 1 was already decided, by alice, and alice's decision
// stands. Carol, a second tab of alice's browser that only watches, moves
// on by herself.
func TestBrowserTwoReviewers(t *testing.T) {
	a := startApp(t)
	for _, tc := range []struct {
		name  string
		alice string // the button alice presses
		bob   string
		// carolSees is the state carol's page reaches by itself.
		carolSees func(dispatchID string) string
		refusal   string
		result    workflows.DispatchResult // Status, Reviewer, and len(Decisions) compared
	}{{
		// Alice's accept ends the dispatch before bob's reject arrives.
		name: "accept_then_reject", alice: "#accept", bob: "#reject",
		carolSees: func(id string) string { return outcomeShown(id, workflows.StatusAccepted) },
		refusal:   "round 1 was already decided: accepted by alice",
		result:    workflows.DispatchResult{Status: workflows.StatusAccepted, Reviewer: "alice", Decisions: make([]workflows.Decision, 1)},
	}, {
		// Alice's feedback starts round 2; the dispatch is still open when
		// bob's accept of round 1 arrives. Alice then accepts round 2.
		name: "feedback_then_accept", alice: "#reject-feedback", bob: "#accept",
		carolSees: func(id string) string { return proposalShown(id, 2) },
		refusal:   "round 1 was already decided: rejected with feedback by alice",
		result:    workflows.DispatchResult{Status: workflows.StatusAccepted, Reviewer: "alice", Decisions: make([]workflows.Decision, 2)},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			id := "browser-two-" + strings.ReplaceAll(tc.name, "_", "-")
			a.importFile(t, "../../examples/building.json", id)
			alice := newChrome(t, a)
			bob := newChrome(t, a)
			carol := alice.newTab()

			dispatchID := alice.prompt(id, "Delete all activities on the second floor")
			alice.waitJS("the proposal", proposalShown(dispatchID, 1))
			bob.do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
					return err
				}
				_, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
					URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/d/*/events", Block: true}}})
				return err
			}))
			for _, c := range []*chrome{bob, carol} {
				c.open("/d/" + dispatchID)
				c.waitJS("the proposal", proposalShown(dispatchID, 1))
			}

			alice.retype(`#review-form input[name=name]`, "alice")
			if tc.alice == "#reject-feedback" {
				alice.typeInto("#feedback", "delete all drywall activities on the second floor")
			}
			alice.click(tc.alice)
			carol.waitJS("carol's page to move on by itself", tc.carolSees(dispatchID))

			if bob.count("#review-form") != 1 || bob.text("#proposal h2") != "Proposal, round 1" {
				t.Fatal("bob's page moved on: it should still show round 1's form")
			}
			bob.retype(`#review-form input[name=name]`, "bob")
			bob.click(tc.bob)
			bob.waitJS("bob's refusal", `!!document.getElementById("refused")`)
			refused := bob.text("#refused")
			if tc.alice == "#reject-feedback" {
				alice.waitJS("round 2", proposalShown(dispatchID, 2))
				// The field should already say alice (the name cookie;
				// TestTheNameIsRemembered checks that without a browser):
				// typed again so a slow cookie write under load cannot
				// make this test about something else.
				alice.retype(`#review-form input[name=name]`, "alice")
				alice.click("#accept")
			}
			res := awaitResult(t, a, dispatchID)
			if res.Status != tc.result.Status || res.Reviewer != tc.result.Reviewer || len(res.Decisions) != len(tc.result.Decisions) {
				t.Errorf("dispatch result: %s by %q, decisions %+v; want %s by %s, %d decisions", res.Status, res.Reviewer, res.Decisions,
					tc.result.Status, tc.result.Reviewer, len(tc.result.Decisions))
			}
			for _, d := range res.Decisions {
				if d.Reviewer != "alice" {
					t.Errorf("decision %+v: only alice's decisions count", d)
				}
			}
			if !strings.Contains(refused, tc.refusal) {
				t.Errorf("bob's refusal %q does not say %q", refused, tc.refusal)
			}
		})
	}
}

// xssNames are schedule texts that run script wherever a page puts them
// into HTML, an attribute, a script or a URL unescaped. The window.__xss
// variants would set a flag rather than open a dialog.
var xssNames = []string{
	`<script>alert(1)</script>`,
	`"><img src=x onerror=alert(1)>`,
	`<img src=x onerror=window.__xss=1>`,
	`</script><script>window.__xss=1</script>`,
	`';window.__xss=1;//`,
	`<svg onload=window.__xss=1>`,
}

// xssProbe runs in every document the tab opens, frames too, before the
// page's own scripts: it records Content-Security-Policy violations (what
// injected markup would cause when the policy blocks it).
const xssProbe = `window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
	window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || ""));
});`

// xssCheck is, for the page and each of its same-origin frames, what
// would show a payload ran or became markup: dialogs are counted in Go.
const xssCheck = `(function () {
	var out = [];
	var docs = [[window, "page"]];
	document.querySelectorAll("iframe").forEach(function (f) { docs.push([f.contentWindow, "frame #" + f.id]); });
	docs.forEach(function (p) {
		var w = p[0], where = p[1], d = w && w.document;
		if (!d) { out.push(where + ": not readable"); return; }
		if (w.__xss) out.push(where + ": window.__xss is set");
		(w.__csp || []).forEach(function (v) { out.push(where + ": CSP violation " + v); });
		d.querySelectorAll("img[src=x], svg[onload], [onerror], [onload]").forEach(function (e) { out.push(where + ": injected element " + e.outerHTML.slice(0, 80)); });
		d.querySelectorAll("script").forEach(function (s) {
			if (s.src) { if (new URL(s.src).pathname !== "/static/app.js") out.push(where + ": script " + s.src); return; }
			if (!s.type && /__xss|alert\(1\)/.test(s.textContent)) out.push(where + ": injected script " + s.textContent.slice(0, 80));
		});
	});
	return out;
})()`

// TestBrowserXSS stores a schedule whose name and activity names are
// script, and opens every page that shows them: the schedules list, the
// schedule page with its Gantt, a search for one, the question that lists
// them, a review page of a prompt deleting them with its diff Gantt, and
// the closed review. No dialog opens, nothing runs, no markup is injected,
// and the names show as the text they are.
func TestBrowserXSS(t *testing.T) {
	a := startApp(t)
	const id = "browser-xss"
	sc := &schedule.Schedule{Name: `"><img src=x onerror=alert(1)>`}
	for i, name := range xssNames {
		sc.Activities = append(sc.Activities, schedule.Activity{ID: fmt.Sprintf("X%d", i+1), Name: name, Description: name, Duration: strconv.Itoa(i + 1)})
		if i > 0 {
			sc.Relationships = append(sc.Relationships, schedule.Relationship{ID: fmt.Sprintf("R%d", i), Type: schedule.FS,
				Predecessor: fmt.Sprintf("X%d", i), Successor: fmt.Sprintf("X%d", i+1)})
		}
	}
	a.importSchedule(t, sc, id)
	c := newChrome(t, a)

	var mu sync.Mutex
	var dialogs []string
	c.do(chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: xssProbe})
		return err
	}))
	opened := chromedp.Events(c.ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range opened {
			if err != nil {
				return
			}
			mu.Lock()
			dialogs = append(dialogs, fmt.Sprintf("%s %q in %s", ev.Type, ev.Message, ev.URL))
			mu.Unlock()
			chromedp.Call(c.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{}) //nolint:errcheck // dismissing; the dialog already failed the test
		}
	}()

	// check fails the test when anything ran on the page shown, and checks
	// the page's text (and its frame's) holds each of want as written.
	check := func(what, frame string, want ...string) {
		t.Helper()
		if frame != "" {
			c.waitJS(what+"'s Gantt", frameLoaded(frame))
		}
		for _, f := range jsValue[[]string](c, xssCheck) {
			t.Errorf("%s: %s", what, f)
		}
		mu.Lock()
		for _, d := range dialogs {
			t.Errorf("%s: a dialog opened: %s", what, d)
		}
		dialogs = nil
		mu.Unlock()
		shown := jsValue[string](c, "document.body.innerText")
		if frame != "" {
			shown += jsValue[string](c, "document.getElementById("+jsString(frame)+").contentDocument.documentElement.textContent")
		}
		for _, w := range want {
			if !strings.Contains(shown, w) {
				t.Errorf("%s does not show %q as text", what, w)
			}
		}
	}

	// The checks themselves: markup injected on purpose is caught, and a
	// dialog is seen (so a clean page below means something).
	c.open("/")
	c.do(chromedp.Evaluate[chromedp.Void](`document.body.insertAdjacentHTML("beforeend", '<img src=x onerror="window.__xss=1">'); setTimeout(function () { alert("control") }, 0)`))
	c.waitJS("the control's CSP violation", `window.__csp.length > 0`)
	if got := jsValue[[]string](c, xssCheck); len(got) == 0 {
		t.Fatal("the XSS check missed markup injected on purpose")
	}
	waitFor(t, "the control's dialog", func() bool { mu.Lock(); defer mu.Unlock(); return len(dialogs) > 0 })
	mu.Lock()
	dialogs = nil
	mu.Unlock()

	c.open("/")
	check("the schedules page", "", sc.Name)
	c.open("/s/" + id)
	check("the schedule page", "gantt", xssNames...)
	c.open("/s/" + id + "?q=" + strings.ReplaceAll(xssNames[0], "<", "%3C"))
	check("a search for a script", "gantt", `Search: “`+xssNames[0]+`”`)

	dispatchID := c.prompt(id, "delete the script")
	c.waitJS("the question", questionShown(dispatchID))
	check("the question", "", xssNames[0], xssNames[3])
	c.typeInto(`#clarify-form input[name=answer]`, "X1")
	c.click(`#clarify-form button[type=submit]`)
	c.waitJS("the proposal after the answer", proposalShown(dispatchID, 1))
	check("the review page after the answer", "diff-gantt", `delete_activity(name="`+xssNames[0]+`")`)
	c.click("#reject")
	c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))

	prompt := "delete " + xssNames[0] + ", X2, X3, X4, X5 and X6"
	c.prompt(id, prompt)
	c.waitJS("the proposal", proposalShown(dispatchID, 1))
	check("the review page", "diff-gantt", append([]string{"“" + prompt + "”"}, xssNames...)...)
	c.click("#reject")
	c.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))
	check("the closed review page", "", `delete_activity(name="`+xssNames[0]+`")`)
}

// TestBrowserKeyboardAccept accepts a proposal with the keyboard alone:
// Tab from the top of the page to the Accept button, then Enter.
func TestBrowserKeyboardAccept(t *testing.T) {
	a := startApp(t)
	const id = "browser-keys"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)
	dispatchID := c.prompt(id, "Delete all activities on the second floor")
	c.waitJS("the proposal", proposalShown(dispatchID, 1))
	c.open("/d/" + dispatchID) // a fresh page: the focus starts at the top
	c.waitJS("the diff Gantt", frameLoaded("diff-gantt"))

	// focused describes the element with the focus (inside a frame too).
	const focused = `(function () {
		var e = document.activeElement, where = "";
		if (e && e.tagName === "IFRAME") { where = "#" + e.id + " > "; e = e.contentDocument.activeElement; }
		if (!e || e === document.body) return "";
		var label = (e.id ? "#" + e.id : "") + (e.name ? "[name=" + e.name + "]" : "");
		return where + e.tagName.toLowerCase() + label + " " + JSON.stringify((e.textContent || e.value || "").trim().slice(0, 20));
	})()`
	const maxTabs = 500
	var path []string
	for len(path) < maxTabs && jsValue[string](c, `document.activeElement ? document.activeElement.id : ""`) != "accept" {
		c.do(chromedp.KeyEvent("\t"))
		path = append(path, jsValue[string](c, focused))
	}
	if len(path) == maxTabs {
		t.Fatalf("%d Tab presses did not reach the Accept button:\n%s", maxTabs, strings.Join(path, "\n"))
	}
	t.Logf("%d Tab presses reach Accept:\n%s", len(path), strings.Join(path, "\n"))
	// On the way, the Gantt's change navigation (issue 31).
	for _, want := range []string{"#diff-gantt > button#next-change", "#diff-gantt > button#changed-only", "a#summary-link"} {
		if !slices.ContainsFunc(path, func(p string) bool { return strings.HasPrefix(p, want) }) {
			t.Errorf("the Tab presses to Accept do not pass %s", want)
		}
	}
	c.do(chromedp.KeyEvent("\r"))
	c.waitJS("the accepted outcome", outcomeShown(dispatchID, workflows.StatusAccepted))
	if res := awaitResult(t, a, dispatchID); res.Status != workflows.StatusAccepted {
		t.Errorf("dispatch %s, want accepted", res.Status)
	}
}

// TestBrowserEnterInNameFieldDoesNotDecide: a reviewer types their name
// in the review form's "Reviewing as" field and presses Enter, as one does
// to confirm a field. That must not send a decision: the browser's
// implicit submission clicks the form's first submit button, Accept. The
// page records (and holds back) any submission the Enter starts.
func TestBrowserEnterInNameFieldDoesNotDecide(t *testing.T) {
	a := startApp(t)
	const id = "browser-enter"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)
	dispatchID := c.prompt(id, "Delete all activities on the second floor")
	c.waitJS("the proposal", proposalShown(dispatchID, 1))
	c.do(chromedp.Evaluate[chromedp.Void](`window.__submitted = "";
		window.__holdBack = function (e) {
			window.__submitted = e.submitter ? e.submitter.value : "(no button)";
			e.preventDefault();
		};
		document.getElementById("review-form").addEventListener("submit", window.__holdBack)`))
	c.retype(`#review-form input[name=name]`, "dave")
	c.do(chromedp.KeyEvent("\r"))
	submitted := jsValue[string](c, `document.getElementById("review-form").removeEventListener("submit", window.__holdBack), window.__submitted`)
	c.click("#reject")
	if res := awaitResult(t, a, dispatchID); res.Status != workflows.StatusRejected || res.Reviewer != "dave" {
		t.Errorf("dispatch %s by %s, want rejected by dave (the Reject button)", res.Status, res.Reviewer)
	}
	if submitted != "" {
		t.Errorf("Enter in the review form's name field submitted it as %q: a decision needs its button", submitted)
	}
}

// TestBrowserHeaderShowsThePerson: the header's "You are" field shows
// the person's name on every page (what its Save button would keep, and
// what a form sends when it has no name field of its own).
func TestBrowserHeaderShowsThePerson(t *testing.T) {
	a := startApp(t)
	const id = "browser-header"
	a.importFile(t, "../../examples/building.json", id)
	c := newChrome(t, a)
	dispatchID := c.prompt(id, "delete the pour")
	c.waitJS("the question", questionShown(dispatchID))
	for _, p := range []struct{ name, path string }{
		{"schedules", "/"},
		{"schedule", "/s/" + id},
		{"prompt", "/prompt"},
		{"review", "/d/" + dispatchID},
		{"error", "/s/no-such-schedule"},
	} {
		t.Run(p.name, func(t *testing.T) {
			c.open(p.path)
			got := jsValue[string](c, `document.querySelector(".who input[name=name]").value`)
			if got != "tester" {
				t.Errorf("the %s page's header shows %q, want tester", p.name, got)
			}
		})
	}
}

// TestBrowserClosedLosesNothing: a planner starts a dispatch, reads the
// proposal and closes the browser; a new browser (no cookies, another
// session) opens the review page on the same round and proposal and can
// still decide it.
func TestBrowserClosedLosesNothing(t *testing.T) {
	a := startApp(t)
	const id = "browser-closed"
	a.importFile(t, "../../examples/building.json", id)

	type shown struct{ Round, Stage, Heading, Ops, Impact string }
	read := func(c *chrome) shown {
		return jsValue[shown](c, `({Round: document.getElementById("stage").dataset.round, Stage: document.getElementById("stage").dataset.stage,
			Heading: document.querySelector("#proposal h2").textContent, Ops: document.getElementById("ops").innerText,
			Impact: document.getElementById("impact").innerText})`)
	}

	first := newChrome(t, a)
	dispatchID := first.prompt(id, "Delete all activities on the second floor")
	first.waitJS("the proposal", proposalShown(dispatchID, 1))
	before := read(first)
	first.close()

	second := newChrome(t, a)
	second.open("/d/" + dispatchID)
	second.waitJS("the proposal", proposalShown(dispatchID, 1))
	if after := read(second); after != before {
		t.Errorf("after closing the browser the page shows\n%+v\nbefore it showed\n%+v", after, before)
	}
	second.click("#reject")
	second.waitJS("the rejected outcome", outcomeShown(dispatchID, workflows.StatusRejected))
}

// TestScreenshots is a tool, not a check: `make screenshots` runs it with
// SCREENSHOTS_DIR set, and it writes a full-page PNG of each page at a
// 1400 px wide viewport there. Without the variable it skips.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("SCREENSHOTS_DIR")
	if dir == "" {
		t.Skip("SCREENSHOTS_DIR is not set (make screenshots sets it)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	a := startApp(t)
	a.importFile(t, "../../examples/building.json", "building")
	a.importFile(t, "../../examples/building.json", "building-question")
	c := newChrome(t, a)
	c.do(chromedp.EmulateViewport(1400, 900))

	shoot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(c.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		path := filepath.Join(dir, name+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s (%d KB)", path, len(png)>>10)
	}

	type shot struct{ name, path, ready string }
	shots := func(list ...shot) {
		t.Helper()
		for _, p := range list {
			c.open(p.path)
			c.waitJS(p.name, p.ready)
			shoot(p.name)
		}
	}
	shots(
		shot{"1-schedules", "/", `!!document.getElementById("schedules")`},
		shot{"2-schedule", "/s/building", frameLoaded("gantt")},
		shot{"3-prompt", "/prompt?schedule=building", `!!document.getElementById("prompt-form")`},
	)
	question := c.prompt("building-question", "delete the pour")
	review := c.prompt("building", "Delete all activities on the second floor")
	shots(
		shot{"4-review-proposal", "/d/" + review, proposalShown(review, 1) + " && " + frameLoaded("diff-gantt")},
		shot{"5-review-question", "/d/" + question, questionShown(question)},
		shot{"5b-summary", "/d/" + review + "/summary", frameLoaded("summary-frame")},
	)
	c.open("/d/" + review)
	c.click("#accept")
	c.waitJS("the accepted outcome", outcomeShown(review, workflows.StatusAccepted))
	c.waitJS("the closed review's Gantt", frameLoaded("diff-gantt"))
	shoot("6-review-closed")
	shots(shot{"7-schedule-history", "/s/building", frameLoaded("gantt")})
	c.click("#undo button")
	c.waitJS("the undo's confirmation", `document.getElementById("confirm-dialog").open`)
	shoot("8-undo-confirm")
	c.click("#confirm-yes")
	c.waitJS("the undo's flash", `!!document.querySelector(".flash")`)
	shots(shot{"9-review-undone", "/d/" + review, frameLoaded("diff-gantt")})
	c.do(chromedp.EmulateViewport(390, 844))
	shots(
		shot{"10-phone-schedule", "/s/building?group=level", frameLoaded("gantt")},
		shot{"11-phone-review", "/d/" + review, frameLoaded("diff-gantt")},
	)
}

// pageLoadProbe runs first in the page (not in its frames) and records
// when everything the benchmark waits for is there: performance.now() of
// the animation frame after the one where ready() first held, so that
// state has been rendered. performance.now() counts from the navigation's
// start.
const pageLoadProbe = `if (window === window.top) (function () {
	var ready = %s;
	function check() {
		var ok = false;
		try { ok = ready(); } catch (e) {}
		if (ok) { requestAnimationFrame(function () { window.__loadedAt = performance.now(); }); return; }
		requestAnimationFrame(check);
	}
	requestAnimationFrame(check);
})();`

// benchPageLoad measures, in Chromium, how long from the navigation's
// start until ready holds and is rendered, for the page at path.
func benchPageLoad(b *testing.B, path, ready string) {
	a := startApp(b)
	const id = "browser-bench-5000"
	benchImport.Do(func() {
		sc := schedule.Synthetic(5000, 2, 1)
		sc.StartDate = "2026-01-05"
		a.importSchedule(b, sc, id)
	})
	c := newChrome(b, a)
	c.do(chromedp.Func(func(ctx context.Context, tt *chromedp.Target) error {
		_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(pageLoadProbe, ready)})
		return err
	}))
	path = strings.ReplaceAll(path, "{id}", id)
	var total, loadEvent, html float64
	n := 0
	for b.Loop() {
		c.do(chromedp.Navigate("about:blank"))
		c.open(path)
		at, err := chromedp.Run(c.ctx, chromedp.Poll[float64]("window.__loadedAt", chromedp.WithPollingTimeout(chromeWait)))
		if err != nil {
			b.Fatalf("%s: %v\n%s", path, err, c.pageSummary())
		}
		total += at
		loadEvent += jsValue[float64](c, `performance.getEntriesByType("navigation")[0].loadEventEnd`)
		html += jsValue[float64](c, `performance.getEntriesByType("navigation")[0].responseEnd`)
		n++
	}
	b.ReportMetric(total/float64(n), "ms/page-load")
	b.ReportMetric(loadEvent/float64(n), "ms/load-event")
	b.ReportMetric(html/float64(n), "ms/html") // the page's HTML received: mostly the server's time
	b.ReportMetric(0, "ns/op")                 // the wall time per op includes the browser's round trips: the metrics above are the page's own
}

var benchImport sync.Once

// BenchmarkSchedulePage5000InChromium is the schedule page of a
// 5,000-activity schedule: its activity table and its Gantt frame with
// every bar drawn.
func BenchmarkSchedulePage5000InChromium(b *testing.B) {
	benchPageLoad(b, "/s/{id}", `function () {
		var f = document.getElementById("gantt"), d = f && f.contentDocument;
		return document.readyState === "complete" && d && d.readyState === "complete" && d.querySelectorAll(".bar").length === 5000;
	}`)
}

// BenchmarkGanttPage5000InChromium is the peer: the same schedule's Gantt
// page alone.
func BenchmarkGanttPage5000InChromium(b *testing.B) {
	benchPageLoad(b, "/s/{id}/gantt", `function () {
		return document.readyState === "complete" && document.querySelectorAll(".bar").length === 5000;
	}`)
}
