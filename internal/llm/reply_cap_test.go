package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/llm/llmtest"
)

// TestReplyOverTheCapIsRefused: a reply larger than the cap is refused
// with an error that says so, not retried, and the replies under it are
// read as always.
func TestReplyOverTheCapIsRefused(t *testing.T) {
	huge := strings.Repeat("a", 2<<20)
	srv := llmtest.New(t, llmtest.Text(huge))
	c, err := llm.New(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Prompt(context.Background(), prompt)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindTooLarge || e.Retryable {
		t.Fatalf("err = %v, want a non-retryable %s", err, llm.KindTooLarge)
	}
	if !strings.Contains(err.Error(), "the model's reply was larger than 1 MB: refused") {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests: a reply over the cap must not be asked for again", n)
	}
	// Tool calls and structured replies go through the same cap.
	cfg := srv.Config()
	cfg.MaxReplyBytes = 4 << 10
	small := llmtest.New(t, llmtest.Text("fine"), llmtest.JSON(map[string]any{"summary": strings.Repeat("b", 8<<10)}))
	cfg.BaseURL = small.URL
	c, err = llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, _, err := c.Prompt(context.Background(), prompt); err != nil || got != "fine" {
		t.Fatalf("a small reply: %q, %v", got, err)
	}
	_, _, err = llm.ParseStructured[Plan](context.Background(), c, prompt, "plan")
	if !errors.As(err, &e) || e.Kind != llm.KindTooLarge || !strings.Contains(err.Error(), "larger than 4 KB: refused") {
		t.Fatalf("structured reply over 4 KB: err = %v", err)
	}
}

// TestHugeReplyIsNotHeld: a 50 MB reply (streamed, no Content-Length) is
// read only up to the cap: the client does not hold it, where reading it
// whole took the CLI to 2 GB. A reply that declares its length is refused
// unread.
func TestHugeReplyIsNotHeld(t *testing.T) {
	const size = 50 << 20
	for _, declared := range []bool{false, true} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			head := `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"`
			tail := `"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`
			w.Header().Set("Content-Type", "application/json")
			if declared {
				w.Header().Set("Content-Length", fmt.Sprint(len(head)+size+len(tail)))
			}
			chunk := []byte(strings.Repeat("a", 64<<10))
			if _, err := w.Write([]byte(head)); err != nil {
				return
			}
			for n := 0; n < size; n += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return // the client stopped reading
				}
			}
			_, _ = w.Write([]byte(tail))
		}))
		c, err := llm.New(llm.Config{APIKey: "k", BaseURL: srv.URL + "/v1", ChatModel: "m", Timeout: 30 * time.Second, MaxAttempts: 3})
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, _, err = c.Prompt(context.Background(), prompt)
		runtime.ReadMemStats(&after)
		srv.Close()
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindTooLarge {
			t.Fatalf("declared %v: err = %v", declared, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
			t.Errorf("declared %v: reading the refused reply allocated %d MB", declared, alloc>>20)
		}
	}
}
