package llmtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/llm"
	"github.com/autoscheduler/autoscheduler/internal/llm/llmtest"
)

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }

// run runs f in a subtest whose server reports to a recorder, and returns
// what was reported, cleanups included.
func run(t *testing.T, f func(tb testing.TB)) []string {
	rec := &recorder{}
	t.Run("inner", func(t *testing.T) {
		rec.TB = t
		f(rec)
	})
	return rec.errs
}

var hello = []llm.Message{{Role: llm.User, Content: "hello"}}

func client(t testing.TB, srv *llmtest.Server) *llm.Client {
	cfg := srv.Config()
	cfg.MaxAttempts = 1
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTooManyRequests(t *testing.T) {
	errs := run(t, func(tb testing.TB) {
		srv := llmtest.New(tb, llmtest.Text("one"))
		c := client(tb, srv)
		for range 2 {
			_, _, _ = c.Prompt(context.Background(), hello)
		}
	})
	if len(errs) != 1 || !strings.Contains(errs[0], "after the last of 1 steps") {
		t.Errorf("reported %q", errs)
	}
}

func TestUnusedSteps(t *testing.T) {
	errs := run(t, func(tb testing.TB) {
		llmtest.New(tb, llmtest.Text("one"), llmtest.Text("two"))
	})
	if len(errs) != 1 || !strings.Contains(errs[0], "2 of 2 steps unused") {
		t.Errorf("reported %q", errs)
	}
}

func TestBothPaths(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text("a"), llmtest.Text("b"))
	for _, base := range []string{srv.URL, strings.TrimSuffix(srv.URL, "/v1")} {
		cfg := srv.Config()
		cfg.BaseURL = base
		c, err := llm.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Prompt(context.Background(), hello); err != nil {
			t.Errorf("%s: %v", base, err)
		}
	}
}

func TestResponderAndTokenCount(t *testing.T) {
	srv := llmtest.NewResponder(t, func(r llmtest.Request) llmtest.Step {
		if len(r.Tools) > 0 {
			return llmtest.Calls(llmtest.Call(r.Tools[0], map[string]string{"name": "x"}))
		}
		return llmtest.Text(strings.ToUpper(r.Messages[len(r.Messages)-1].Content))
	})
	c := client(t, srv)
	got, usage, err := c.Prompt(context.Background(), []llm.Message{{Role: llm.User, Content: "abcdefghi"}})
	if err != nil || got != "ABCDEFGHI" {
		t.Fatalf("%q %v", got, err)
	}
	// 9 bytes of prompt, 9 of reply: ceil(9/4) = 3 each.
	if usage != (llm.Usage{PromptTokens: 3, CompletionTokens: 3, Calls: 1}) {
		t.Errorf("usage %+v", usage)
	}
	type args struct {
		Name string `json:"name"`
	}
	tool := llm.ToolFor[args]("remove_activity", "Remove.")
	calls, usage, err := c.PromptWithTools(context.Background(), []llm.Message{{Role: llm.User, Content: "abcd"}}, []llm.Tool{tool})
	if err != nil || len(calls) != 1 {
		t.Fatalf("%+v %v", calls, err)
	}
	r := srv.Requests()[1]
	var body struct {
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	// 4 bytes of message and the one tool's JSON as sent (the array less
	// its brackets).
	if want := (4 + len(body.Tools) - 2 + 3) / 4; r.PromptTokens != want {
		t.Errorf("prompt tokens %d, want %d", r.PromptTokens, want)
	}
	// remove_activity + {"name":"x"} = 15 + 12 bytes: 7 tokens.
	if usage.CompletionTokens != 7 || usage.PromptTokens != r.PromptTokens {
		t.Errorf("usage %+v, request counted %d", usage, r.PromptTokens)
	}
	if got := srv.Usage(); got.Calls != 2 {
		t.Errorf("server usage %+v", got)
	}
}

func TestStatusStep(t *testing.T) {
	srv := llmtest.New(t, llmtest.Status(http.StatusTeapot, `{"error":{"message":"short and stout"}}`))
	_, _, err := client(t, srv).Prompt(context.Background(), hello)
	if err == nil || !strings.Contains(err.Error(), "short and stout") {
		t.Errorf("error %v", err)
	}
}
