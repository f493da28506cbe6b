package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/web"
	"github.com/autoscheduler/autoscheduler/workflows/workflowstest"
)

// app is the web app on a real Temporal dev server (in process), a worker
// planning with the offline rules planner and an embedded store: what
// `autoscheduler dev` runs. One is shared by the package's tests (each
// test uses its own schedule ids); start costs a few seconds.
type app struct {
	URL    string
	C      client.Client
	Stores *store.Coordinator
	Server *web.Server
	stop   func()
}

var (
	shared     *app
	sharedErr  error
	sharedOnce sync.Once
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		shared.stop()
	}
	os.Exit(code)
}

// startApp returns the package's app, started on first use.
func startApp(t testing.TB) *app {
	t.Helper()
	sharedOnce.Do(func() {
		shared, sharedErr = newApp(web.Config{Listen: "127.0.0.1:0", TemporalUI: "http://127.0.0.1:8233"})
	})
	if sharedErr != nil {
		t.Fatalf("starting the app: %v", sharedErr)
	}
	return shared
}

// newApp starts a dev server, a worker, an embedded store and the web app
// with cfg.
func newApp(cfg web.Config) (*app, error) {
	ctx, cancel := context.WithCancel(context.Background())
	quiet := sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	e, err := workflowstest.Open(ctx, workflowstest.Options{Logger: quiet, Planner: scope.Rules{}})
	if err != nil {
		cancel()
		return nil, err
	}
	stop := func() { cancel(); e.Close() }
	if cfg.Reviewer == "" {
		cfg.Reviewer = "tester"
	}
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	ws, err := web.New(cfg, e.Stores, e.Client)
	if err != nil {
		stop()
		return nil, err
	}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- ws.Serve(ctx, func(u string) { ready <- u }) }()
	select {
	case u := <-ready:
		return &app{URL: u, C: e.Client, Stores: e.Stores, Server: ws, stop: stop}, nil
	case err := <-done:
		stop()
		return nil, err
	}
}

// importFile stores a schedule file under id (replacing one there).
func (a *app) importFile(t testing.TB, path, id string) *schedule.Schedule {
	t.Helper()
	sc, err := interchange.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a.importSchedule(t, sc, id)
	return sc
}

func (a *app) importSchedule(t testing.TB, sc *schedule.Schedule, id string) {
	t.Helper()
	if err := a.Stores.Import(context.Background(), id, sc, true, nil); err != nil {
		t.Fatal(err)
	}
}

// browser is an HTTP client with its own cookies: one person's browser.
type browser struct {
	t    testing.TB
	base string
	http *http.Client
}

func (a *app) browser(t testing.TB) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: a.URL, http: &http.Client{Jar: jar, Timeout: time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// get fetches path and returns the status and body.
func (b *browser) get(path string) (int, string) {
	b.t.Helper()
	resp, err := b.http.Get(b.base + path)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf is the token the app's forms carry for this browser.
func (b *browser) csrf() string {
	b.t.Helper()
	_, body := b.get("/")
	m := csrfField.FindStringSubmatch(body)
	if m == nil {
		b.t.Fatal("no CSRF token on the schedules page")
	}
	return m[1]
}

// post sends a form (with this browser's CSRF token unless form has one)
// and returns the status and the redirect target.
func (b *browser) post(path string, form url.Values) (int, string) {
	b.t.Helper()
	if !form.Has("csrf") {
		form.Set("csrf", b.csrf())
	}
	return b.posted(b.http.PostForm(b.base+path, form))
}

// posted is a post's status and redirect target, or its body when it
// does not redirect.
func (b *browser) posted(resp *http.Response, err error) (int, string) {
	b.t.Helper()
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if loc := resp.Header.Get("Location"); loc != "" {
		return resp.StatusCode, loc
	}
	return resp.StatusCode, string(body)
}

// events opens the event stream of dispatch id's page for a minute at
// most; it is closed when the test ends.
func (b *browser) events(id string) *http.Response {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	b.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/d/"+id+"/events", nil)
	resp, err := b.http.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	b.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// waitFor polls cond (test code, against the test's own clock) until it
// holds or a minute passes.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// reviewPageShows waits until the review page of id contains want.
func (b *browser) reviewPageShows(id, want string) string {
	b.t.Helper()
	var body string
	waitFor(b.t, "the review page of "+id+" to show "+want, func() bool {
		_, body = b.get("/d/" + id)
		return strings.Contains(body, want)
	})
	return body
}
