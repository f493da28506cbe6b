package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// proposal25 leaves a dispatch awaiting review with a 25-op proposal (the
// 25 activities of level 2 of the example building deleted) and returns
// its id; the benchmark's cleanup rejects it.
func proposal25(b *testing.B, a *app, scheduleID string) string {
	b.Helper()
	a.importFile(b, "../../examples/building.json", scheduleID)
	br := a.browser(b)
	id := br.prompt(scheduleID, "Delete all activities on the second floor", "bench")
	p, err := workflows.AwaitProposal(context.Background(), a.C, id, "", 1)
	if err != nil {
		b.Fatal(err)
	}
	if len(p.Changes) != 25 {
		b.Fatalf("the proposal has %d changes, want 25", len(p.Changes))
	}
	b.Cleanup(func() {
		_ = workflows.SendReview(context.Background(), a.C, id, workflows.Review{Decision: workflows.DecisionReject})
		_ = a.C.GetWorkflow(context.Background(), id, "").Get(context.Background(), nil)
	})
	return id
}

// serve runs one request through the app's handler in process: the
// server's time, from request to the last byte of the page.
func serve(b *testing.B, h http.Handler, path, want string) {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Host = "127.0.0.1" // the app answers only to loopback names (421 otherwise)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) {
		b.Fatalf("GET %s: %d, page lacks %q", path, rec.Code, want)
	}
}

// BenchmarkReviewPage25Ops is the review page of a 25-op proposal, server
// time: describe the dispatch (visibility, history), its status and
// proposal queries, and the page. Target: under 300 ms.
func BenchmarkReviewPage25Ops(b *testing.B) {
	a := startApp(b)
	id := proposal25(b, a, "bench-review")
	h := a.Server.Handler()
	for b.Loop() {
		serve(b, h, "/d/"+url.PathEscape(id), `id="review-form"`)
	}
}

// BenchmarkReviewGantt25Ops is the review page's before/after Gantt: load
// the schedule, undo the round on a copy, CPM twice, draw.
func BenchmarkReviewGantt25Ops(b *testing.B) {
	a := startApp(b)
	id := proposal25(b, a, "bench-review-gantt")
	h := a.Server.Handler()
	for b.Loop() {
		serve(b, h, "/d/"+url.PathEscape(id)+"/gantt", `class="bar removed`)
	}
}

// BenchmarkCLIProposal25Ops is the peer: what `autoscheduler prompt`
// does to show the same proposal (the proposal Update, answered at once
// since the round awaits review).
func BenchmarkCLIProposal25Ops(b *testing.B) {
	a := startApp(b)
	id := proposal25(b, a, "bench-review-cli")
	for b.Loop() {
		if _, err := workflows.AwaitProposal(context.Background(), a.C, id, "", 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSchedulePage5000 is the schedule page of a 5,000-activity
// schedule (15,000 links), server time: load, CPM, the table, the history.
func BenchmarkSchedulePage5000(b *testing.B) {
	a := startApp(b)
	a.importSchedule(b, synthetic5000(), "bench-5000")
	h := a.Server.Handler()
	for b.Loop() {
		serve(b, h, "/s/bench-5000", `id="activities"`)
	}
}

// BenchmarkScheduleGantt5000 is that page's Gantt frame, server time.
func BenchmarkScheduleGantt5000(b *testing.B) {
	a := startApp(b)
	a.importSchedule(b, synthetic5000(), "bench-5000-gantt")
	h := a.Server.Handler()
	for b.Loop() {
		serve(b, h, "/s/bench-5000-gantt/gantt", `class="bar`)
	}
}

func synthetic5000() *schedule.Schedule {
	sc := schedule.Synthetic(5000, 3, 1)
	sc.StartDate = "2026-01-05"
	return sc
}
