// Package llmtest is a scripted OpenAI-compatible chat server for tests: it
// answers POST /chat/completions (and /v1/chat/completions) with the steps
// it was given, in order, or with a function of the request, and records
// every request. The real llm.Client talks to it over HTTP, so retries,
// timeouts, tool calls, structured outputs and malformed replies are
// exercised as they happen against a real server.
//
// Token counts are an approximation, the same for every request so that
// two prompting strategies can be compared by them: prompt_tokens is
// ceil(B/4), where B is the bytes of every message's content and tool
// calls (name and arguments) plus the JSON of the tools and of the
// response_format schema as sent; completion_tokens is ceil(R/4), R the
// bytes of the reply's content and tool calls. Four bytes a token is the
// usual rule of thumb for English under OpenAI's tokenizers.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/llm"
)

// Key is the API key Config gives the client. Tests of redaction look for
// it in errors.
const Key = "sk-llmtest-9f8e7d6c5b4a39281706"

// Model is the model Config names.
const Model = "llmtest-model"

// Request is one request the server received, decoded.
type Request struct {
	Model    string
	Messages []llm.Message
	// Tools are the names of the tools offered, in order.
	Tools []string
	// ToolChoice is tool_choice when it is a string ("required", "auto").
	ToolChoice string
	// ResponseFormat is the json_schema name when response_format is a
	// JSON schema, else response_format's type ("json_object"); Schema is
	// that schema.
	ResponseFormat string
	Schema         map[string]any
	// PromptTokens is what the server counted and reported.
	PromptTokens int
	Header       http.Header
	Body         []byte
}

// Step is the server's answer to one request: a completion (Text, JSON,
// Calls) or a failure (Status, RateLimited, Raw), optionally delayed
// (After).
type Step struct {
	status  int
	header  http.Header
	body    string
	raw     bool
	content string
	calls   []llm.ToolCall
	finish  string
	refusal string
	delay   time.Duration
}

// Text answers with a message whose content is s.
func Text(s string) Step { return Step{content: s} }

// JSON answers with a message whose content is v marshalled; a string or
// []byte v is sent as it is, so malformed JSON can be scripted too.
func JSON(v any) Step { return Step{content: string(marshal(v))} }

// Calls answers with the tool calls (finish_reason "tool_calls"). Calls
// without an ID get one.
func Calls(calls ...llm.ToolCall) Step { return Step{calls: calls} }

// Call is a tool call to name with args marshalled (a string, []byte or
// json.RawMessage is sent as it is).
func Call(name string, args any) llm.ToolCall {
	return llm.ToolCall{Name: name, Arguments: marshal(args)}
}

// Status answers with an HTTP error: code and body as given.
func Status(code int, body string) Step { return Step{status: code, body: body} }

// APIError answers code with OpenAI's error envelope around message and
// errCode ("" for none).
func APIError(code int, message, errCode string) Step {
	e := map[string]any{"message": message, "type": "invalid_request_error", "param": nil, "code": nil}
	if errCode != "" {
		e["code"] = errCode
	}
	return Status(code, string(marshal(map[string]any{"error": e})))
}

// RateLimited answers 429 with a Retry-After header of retryAfter (none if
// empty); WithHeader adds retry-after-ms.
func RateLimited(retryAfter string) Step {
	s := APIError(http.StatusTooManyRequests, "Rate limit reached for requests", "rate_limit_exceeded")
	if retryAfter != "" {
		s = s.WithHeader("Retry-After", retryAfter)
	}
	return s
}

// ContentFilter answers with an empty message stopped by the content
// filter (finish_reason "content_filter").
func ContentFilter() Step { return Step{finish: "content_filter"} }

// Refusal answers with a refusal, as OpenAI's structured outputs do.
func Refusal(text string) Step { return Step{refusal: text} }

// Raw answers 200 with body as it is: a malformed or truncated response.
func Raw(body string) Step { return Step{raw: true, body: body} }

// After delays the answer by d, or until the client gives up.
func (s Step) After(d time.Duration) Step { s.delay = d; return s }

// WithHeader adds a response header.
func (s Step) WithHeader(key, value string) Step {
	s.header = s.header.Clone()
	if s.header == nil {
		s.header = http.Header{}
	}
	s.header.Add(key, value)
	return s
}

// WithFinishReason sets the completion's finish_reason (default "stop",
// or "tool_calls" with calls).
func (s Step) WithFinishReason(reason string) Step { s.finish = reason; return s }

// Server is a scripted OpenAI-compatible chat server. URL is its base URL,
// for llm.Config.BaseURL.
type Server struct {
	URL string

	t       testing.TB
	respond func(Request) Step

	mu         sync.Mutex
	steps      []Step
	used       int
	requests   []Request
	completion llm.Usage // completion tokens and count of completions sent
}

// New starts a server answering the steps in order, one per request, and
// failing the test if a request comes after the last step or, at cleanup,
// if steps were left unused. It closes when the test ends.
func New(t testing.TB, steps ...Step) *Server {
	t.Helper()
	s := &Server{t: t, steps: steps}
	s.start()
	t.Cleanup(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if left := len(s.steps) - s.used; left > 0 {
			t.Errorf("llmtest: %d of %d steps unused", left, len(s.steps))
		}
	})
	return s
}

// NewResponder starts a server that answers every request with
// respond(request): a programmatic fake model. respond may be called
// concurrently.
func NewResponder(t testing.TB, respond func(Request) Step) *Server {
	t.Helper()
	s := &Server{t: t, respond: respond}
	s.start()
	return s
}

func (s *Server) start() {
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	s.t.Cleanup(ts.Close)
	s.URL = ts.URL + "/v1"
}

// Config is a client configuration for this server: Key, Model, a 5 s
// attempt timeout and 3 attempts.
func (s *Server) Config() llm.Config {
	return llm.Config{APIKey: Key, BaseURL: s.URL, ChatModel: Model, Timeout: 5 * time.Second, MaxAttempts: 3}
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Usage is what the server reported in all its completions, Calls counting
// them: what a client's Usage should add up to.
func (s *Server) Usage() llm.Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.completion
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || (r.URL.Path != "/chat/completions" && r.URL.Path != "/v1/chat/completions") {
		s.t.Errorf("llmtest: unexpected request %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("llmtest: reading request: %v", err)
		return
	}
	req, err := decodeRequest(body)
	if err != nil {
		s.t.Errorf("llmtest: %v", err)
		writeStatus(w, http.StatusBadRequest, nil, fmt.Sprintf(`{"error":{"message":%q}}`, err.Error()))
		return
	}
	req.Header = r.Header.Clone()

	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	var step Step
	switch {
	case s.respond != nil:
		s.mu.Unlock()
		step = s.respond(req)
		s.mu.Lock()
	case s.used < len(s.steps):
		step = s.steps[s.used]
		s.used++
	default:
		s.used++
		s.mu.Unlock()
		s.t.Errorf("llmtest: request %d arrived after the last of %d steps", n+1, len(s.steps))
		writeStatus(w, http.StatusInternalServerError, nil, `{"error":{"message":"llmtest: no step left"}}`)
		return
	}
	s.mu.Unlock()

	if step.delay > 0 {
		select {
		case <-time.After(step.delay):
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case step.status != 0:
		writeStatus(w, step.status, step.header, step.body)
		return
	case step.raw:
		writeStatus(w, http.StatusOK, step.header, step.body)
		return
	}
	out, completionTokens := completion(n, req, step)
	s.mu.Lock()
	s.completion = s.completion.Add(llm.Usage{PromptTokens: req.PromptTokens, CompletionTokens: completionTokens, Calls: 1})
	s.mu.Unlock()
	writeStatus(w, http.StatusOK, step.header, string(out))
}

func writeStatus(w http.ResponseWriter, code int, header http.Header, body string) {
	for k, vs := range header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, body)
}

func marshal(v any) []byte {
	switch v := v.(type) {
	case string:
		return []byte(v)
	case []byte:
		return v
	case json.RawMessage:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest: marshal %T: %v", v, err))
	}
	return b
}

func ceilQuarter(n int) int { return (n + 3) / 4 }
