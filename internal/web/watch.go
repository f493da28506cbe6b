package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/autoscheduler/autoscheduler/workflows"
)

// progress is what a review page is told while it is open.
type progress struct {
	Stage string `json:"stage"`
	Text  string `json:"text"` // the stage in words
	Round int    `json:"round"`
	// Ready: a proposal or a question waits; the page reloads to show it.
	Ready bool `json:"ready"`
	// Ended: the dispatch is over; the page reloads to show how.
	Ended bool   `json:"ended"`
	Error string `json:"error,omitempty"`
}

// watchHub keeps one watcher per open dispatch however many pages show
// it: each watcher waits on the dispatch's proposal Update (which returns
// when the stage changes), never polls, and fans what it learns out to
// the pages (Server-Sent Events). Temporal bounds the Updates in flight
// per workflow (10 by default), so one per dispatch per app matters.
type watchHub struct {
	temporal client.Client
	log      *slog.Logger
	mu       sync.Mutex
	watches  map[string]*watch
	ctx      context.Context
	cancel   context.CancelFunc
}

type watch struct {
	cancel context.CancelFunc
	subs   map[chan progress]struct{}
	last   *progress
}

func newWatchHub(c client.Client, log *slog.Logger) *watchHub {
	ctx, cancel := context.WithCancel(context.Background())
	return &watchHub{temporal: c, log: log, watches: map[string]*watch{}, ctx: ctx, cancel: cancel}
}

func (h *watchHub) stop() { h.cancel() }

// subscribe returns a channel of the dispatch's progress (the latest known
// first) and the function that ends the subscription.
func (h *watchHub) subscribe(id string) (<-chan progress, func()) {
	ch := make(chan progress, 8)
	h.mu.Lock()
	defer h.mu.Unlock()
	w := h.watches[id]
	if w == nil {
		ctx, cancel := context.WithCancel(h.ctx)
		w = &watch{cancel: cancel, subs: map[chan progress]struct{}{}}
		h.watches[id] = w
		go h.run(ctx, id, w)
	}
	w.subs[ch] = struct{}{}
	if w.last != nil {
		ch <- *w.last
	}
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(w.subs, ch)
		if len(w.subs) == 0 && h.watches[id] == w {
			w.cancel()
			delete(h.watches, id)
		}
	}
}

// publish tells every page of the dispatch; a page too slow to read drops
// an event (the next one says the same or more).
func (h *watchHub) publish(w *watch, p progress) {
	p.Text = stageText(p.Stage)
	h.mu.Lock()
	defer h.mu.Unlock()
	w.last = &p
	for ch := range w.subs {
		select {
		case ch <- p:
		default:
		}
	}
}

// run follows the dispatch id's latest run until it ends or nobody
// watches: the status query once, then the proposal Update with the
// stage last seen, which returns at the next stage, proposal or question.
func (h *watchHub) run(ctx context.Context, id string, w *watch) {
	retry := time.Second
	for ctx.Err() == nil {
		var st workflows.Status
		err := workflows.Query(ctx, h.temporal, id, "", workflows.StatusQuery, &st)
		if err == nil {
			p := progress{Stage: st.Stage, Round: st.Round, Ready: st.AwaitingReview || st.AwaitingClarification}
			h.publish(w, p)
			err = h.follow(ctx, id, w, p)
		}
		if ctx.Err() != nil {
			return
		}
		if !h.running(ctx, id) {
			h.publish(w, progress{Ended: true, Stage: workflows.StageDone})
			return
		}
		var app *temporal.ApplicationError
		if errors.As(err, &app) && app.Type() == workflows.ErrTypeContinuedAsNew {
			retry = time.Second
			continue // the same dispatch, on its new run
		}
		if err != nil {
			h.log.Warn("Watching a dispatch", "Dispatch", id, "Error", err)
			h.publish(w, progress{Error: workflows.RootCause(err)})
		}
		// A failed call (Temporal restarting) is tried again, slowly.
		select {
		case <-ctx.Done():
		case <-time.After(retry):
		}
		retry = min(2*retry, 30*time.Second)
	}
}

// follow waits on the proposal Update from p on; it returns when the
// dispatch ends, continues as new (the caller starts again on the new
// run), or a call fails.
func (h *watchHub) follow(ctx context.Context, id string, w *watch, p progress) error {
	for {
		req := workflows.ProposalRequest{Round: p.Round, Stage: p.Stage}
		if p.Ready {
			// Shown already: wait for what comes after it (a decision,
			// maybe another reviewer's).
			req.Round++
		}
		var got workflows.Proposal
		if err := workflows.Update(ctx, h.temporal, id, "", workflows.ProposalUpdate, req, &got); err != nil {
			return err
		}
		p = progress{Stage: got.Stage, Round: got.Round, Ready: got.AwaitingClarification || got.Stage == workflows.StageAwaitingReview}
		h.publish(w, p)
	}
}

// running says whether the dispatch's latest run is still open.
func (h *watchHub) running(ctx context.Context, id string) bool {
	desc, err := h.temporal.DescribeWorkflowExecution(ctx, id, "")
	return err == nil && desc.GetWorkflowExecutionInfo().GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_RUNNING
}

// events streams a dispatch's progress to its review page.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	id := r.PathValue("id")
	if _, ok := workflows.ScheduleOf(id); !ok {
		http.Error(w, "not a dispatch id", http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 3000\n\n")
	flusher.Flush()
	ch, done := s.watches.subscribe(id)
	defer done()
	keepAlive := time.NewTicker(20 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case p := <-ch:
			data, _ := json.Marshal(p)
			fmt.Fprintf(w, "data: %s\n\n", data)
		}
		flusher.Flush()
	}
}
