package openaiembed_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3/option"

	"github.com/autoscheduler/autoscheduler/internal/embed/openaiembed"
)

const testKey = "sk-test-0123456789abcdef"

// embeddingsRequest is the body of POST /embeddings.
type embeddingsRequest struct {
	Input      []string `json:"input"`
	Model      string   `json:"model"`
	Dimensions *int     `json:"dimensions"`
}

// fakeAPI is a scripted OpenAI-compatible server. Each call to POST
// /embeddings is answered by script(call, request): a status (0 means 200,
// with vectors), and optional headers and body for errors.
type fakeAPI struct {
	t      *testing.T
	dims   int
	script func(call int, req embeddingsRequest) (status int, header http.Header, body string)

	mu       sync.Mutex
	requests []embeddingsRequest
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		f.t.Errorf("request %s %s, want POST /v1/embeddings", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		f.t.Errorf("Authorization %q", got)
	}
	var req embeddingsRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		f.t.Errorf("request body: %v", err)
	}
	f.mu.Lock()
	call := len(f.requests)
	f.requests = append(f.requests, req)
	f.mu.Unlock()

	status, header, body := 0, http.Header(nil), ""
	if f.script != nil {
		status, header, body = f.script(call, req)
	}
	for k, vs := range header {
		w.Header()[k] = vs
	}
	w.Header().Set("Content-Type", "application/json")
	if status != 0 {
		w.WriteHeader(status)
		fmt.Fprint(w, body)
		return
	}
	// Answer in reverse order: clients must place vectors by index.
	type datum struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	}
	data := make([]datum, 0, len(req.Input))
	for i := len(req.Input) - 1; i >= 0; i-- {
		data = append(data, datum{"embedding", i, fakeVector(req.Input[i], f.dims)})
	}
	json.NewEncoder(w).Encode(map[string]any{
		"object": "list",
		"data":   data,
		"model":  req.Model,
		"usage":  map[string]int{"prompt_tokens": len(req.Input), "total_tokens": len(req.Input)},
	})
}

func (f *fakeAPI) calls() []embeddingsRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slicesClone(f.requests)
}

func slicesClone[T any](s []T) []T { return append([]T(nil), s...) }

// fakeVector derives a vector from the text, not from its position, so a
// vector stored under the wrong text shows.
func fakeVector(text string, dims int) []float64 {
	v := make([]float64, dims)
	for i := 0; i < len(text); i++ {
		v[i%dims] += float64(text[i])
	}
	v[0] += float64(len(text))
	return v
}

func unitOf(v []float64) []float32 {
	var n float64
	for _, x := range v {
		n += x * x
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(x / math.Sqrt(n))
	}
	return out
}

// newOpenAI starts the fake server and an embedder pointed at it.
func newOpenAI(t *testing.T, f *fakeAPI, cfg openaiembed.OpenAIConfig) *openaiembed.OpenAI {
	t.Helper()
	f.t = t
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	cfg.APIKey = testKey
	cfg.BaseURL = srv.URL + "/v1"
	o, err := openaiembed.NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOpenAIKeepsOrderAcrossBatches(t *testing.T) {
	f := &fakeAPI{dims: 8}
	o := newOpenAI(t, f, openaiembed.OpenAIConfig{Dimensions: 8})

	texts := make([]string, 601)
	for i := range texts {
		texts[i] = fmt.Sprintf("Activity %d on Level %d", i, i%4+1)
	}
	texts[300] = "" // not sent: the zero vector
	vecs, err := o.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		want := unitOf(fakeVector(texts[i], 8))
		if texts[i] == "" {
			want = make([]float32, 8)
		}
		for j := range want {
			if math.Abs(float64(v[j]-want[j])) > 1e-6 {
				t.Fatalf("text %d: vector %v, want %v", i, v, want)
			}
		}
	}

	calls := f.calls()
	var sizes []int
	for _, c := range calls {
		sizes = append(sizes, len(c.Input))
		if c.Model != "text-embedding-3-small" {
			t.Errorf("model %q", c.Model)
		}
		if c.Dimensions == nil || *c.Dimensions != 8 {
			t.Errorf("dimensions %v, want 8", c.Dimensions)
		}
		for _, in := range c.Input {
			if in == "" {
				t.Error("an empty text was sent")
			}
		}
	}
	if fmt.Sprint(sizes) != "[256 256 88]" {
		t.Errorf("batch sizes %v, want [256 256 88]", sizes)
	}
}

func TestOpenAIDefaults(t *testing.T) {
	f := &fakeAPI{dims: 1536}
	o := newOpenAI(t, f, openaiembed.OpenAIConfig{})
	if o.Name() != "openai:text-embedding-3-small" || o.Dimensions() != 1536 {
		t.Errorf("Name %q, Dimensions %d", o.Name(), o.Dimensions())
	}
	if _, err := o.Embed(context.Background(), []string{"Pour slab Level 2"}); err != nil {
		t.Fatal(err)
	}
	if d := f.calls()[0].Dimensions; d != nil {
		t.Errorf("dimensions %d sent, want none (the model's own)", *d)
	}
	// No texts, no request.
	if vecs, err := o.Embed(context.Background(), nil); err != nil || len(vecs) != 0 {
		t.Errorf("Embed(nil) = %v, %v", vecs, err)
	}
	if n := len(f.calls()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestNewOpenAIValidates(t *testing.T) {
	tests := []struct {
		name string
		cfg  openaiembed.OpenAIConfig
		dims int // 0: an error
	}{
		{"large", openaiembed.OpenAIConfig{Model: "text-embedding-3-large"}, 3072},
		{"shortened", openaiembed.OpenAIConfig{Model: "text-embedding-3-large", Dimensions: 256}, 256},
		{"unknown model with dimensions", openaiembed.OpenAIConfig{Model: "nomic-embed-text", Dimensions: 768}, 768},
		{"unknown model", openaiembed.OpenAIConfig{Model: "nomic-embed-text"}, 0},
		{"negative", openaiembed.OpenAIConfig{Dimensions: -1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.APIKey = testKey
			o, err := openaiembed.NewOpenAI(tt.cfg)
			switch {
			case tt.dims == 0 && err == nil:
				t.Errorf("no error")
			case tt.dims != 0 && err != nil:
				t.Errorf("error %v", err)
			case err != nil && strings.Contains(err.Error(), testKey):
				t.Errorf("error %q contains the key", err)
			case err == nil && o.Dimensions() != tt.dims:
				t.Errorf("Dimensions %d, want %d", o.Dimensions(), tt.dims)
			}
		})
	}
}

const rateLimited = `{"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}`

// The SDK retries a 429 itself; Retry-After-Ms keeps the test fast.
func TestOpenAIRetriesRateLimit(t *testing.T) {
	f := &fakeAPI{dims: 4, script: func(call int, _ embeddingsRequest) (int, http.Header, string) {
		if call == 0 {
			return http.StatusTooManyRequests, http.Header{"Retry-After-Ms": {"1"}}, rateLimited
		}
		return 0, nil, ""
	}}
	o := newOpenAI(t, f, openaiembed.OpenAIConfig{Dimensions: 4})
	vecs, err := o.Embed(context.Background(), []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 2 || len(f.calls()) != 2 {
		t.Errorf("%d vectors after %d requests, want 2 after 2", len(vecs), len(f.calls()))
	}
}

// A server asking to wait longer than the embedder will gets its 429 back
// at once, for the caller's retry policy.
func TestOpenAILongRetryAfterReturnsError(t *testing.T) {
	f := &fakeAPI{dims: 4, script: func(int, embeddingsRequest) (int, http.Header, string) {
		return http.StatusTooManyRequests, http.Header{"Retry-After": {"60"}}, rateLimited
	}}
	o := newOpenAI(t, f, openaiembed.OpenAIConfig{Dimensions: 4})
	start := time.Now()
	_, err := o.Embed(context.Background(), []string{"a"})
	if err == nil || !openaiembed.Retryable(err) {
		t.Fatalf("err %v, want a retryable error", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if n := len(f.calls()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestOpenAIErrors(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		body      string
		retryable bool
		want      string // in the error text
	}{
		{"rate limit", 429, rateLimited, true, "429 Too Many Requests: Rate limit reached"},
		{"server error", 500, `{"error": {"message": "The server had an error"}}`, true, "500 Internal Server Error"},
		{"bad gateway", 502, `upstream down`, true, "502 Bad Gateway"},
		{"unavailable", 503, `{"error": {"message": "overloaded"}}`, true, "503"},
		{"request timeout", 408, `{}`, true, "408"},
		{"bad request", 400, `{"error": {"message": "'$.input' is invalid"}}`, false, "400 Bad Request: '$.input' is invalid"},
		{"unauthorized", 401, `{"error": {"message": "Incorrect API key provided: ` + testKey + `", "type": "invalid_request_error", "code": "invalid_api_key"}}`, false, "401 Unauthorized"},
		{"forbidden", 403, `{"error": {"message": "key ` + testKey + ` lacks scope"}}`, false, "403 Forbidden"},
		{"unknown model", 404, `{"error": {"message": "The model does not exist"}}`, false, "404 Not Found"},
		// A proxy that echoes the key in a message we do show.
		{"echoed key", 500, `{"error": {"message": "upstream rejected ` + testKey + `"}}`, true, "upstream rejected [redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeAPI{dims: 4, script: func(int, embeddingsRequest) (int, http.Header, string) {
				return tt.status, nil, tt.body
			}}
			// Retryable errors without the SDK's own retries, which back
			// off for seconds; the others with them, to see none happen.
			cfg := openaiembed.OpenAIConfig{Dimensions: 4}
			if tt.retryable {
				cfg.Options = []option.RequestOption{option.WithMaxRetries(0)}
			}
			o := newOpenAI(t, f, cfg)
			_, err := o.Embed(context.Background(), []string{"Pour slab Level 2"})
			if err == nil {
				t.Fatal("no error")
			}
			if n := len(f.calls()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			if got := openaiembed.Retryable(err); got != tt.retryable {
				t.Errorf("Retryable(%v) = %v, want %v", err, got, tt.retryable)
			}
			for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
				if strings.Contains(text, testKey) {
					t.Errorf("error text %q contains the API key", text)
				}
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestOpenAIRejectsBadResponses(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"too few", `{"object": "list", "data": [{"object": "embedding", "index": 0, "embedding": [1, 0]}], "model": "m", "usage": {}}`},
		{"index twice", `{"object": "list", "data": [{"index": 0, "embedding": [1, 0]}, {"index": 0, "embedding": [0, 1]}], "model": "m", "usage": {}}`},
		{"index out of range", `{"object": "list", "data": [{"index": 0, "embedding": [1, 0]}, {"index": 2, "embedding": [0, 1]}], "model": "m", "usage": {}}`},
		{"wrong size", `{"object": "list", "data": [{"index": 0, "embedding": [1, 0, 0]}, {"index": 1, "embedding": [0, 1, 0]}], "model": "m", "usage": {}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeAPI{dims: 2, script: func(int, embeddingsRequest) (int, http.Header, string) {
				return http.StatusOK, nil, tt.body
			}}
			o := newOpenAI(t, f, openaiembed.OpenAIConfig{Dimensions: 2})
			_, err := o.Embed(context.Background(), []string{"a", "b"})
			if err == nil {
				t.Fatal("no error")
			}
			if openaiembed.Retryable(err) {
				t.Errorf("Retryable(%v) = true", err)
			}
		})
	}
}

func TestRetryableTransportErrors(t *testing.T) {
	// A server that is gone: connection refused.
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	o, err := openaiembed.NewOpenAI(openaiembed.OpenAIConfig{APIKey: testKey, BaseURL: gone.URL + "/v1", Dimensions: 4,
		Options: []option.RequestOption{option.WithMaxRetries(0)}})
	if err != nil {
		t.Fatal(err)
	}
	_, refused := o.Embed(context.Background(), []string{"a"})

	// A server that does not answer in time.
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so the server notices the client hanging up
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer slow.Close()
	o, err = openaiembed.NewOpenAI(openaiembed.OpenAIConfig{APIKey: testKey, BaseURL: slow.URL + "/v1", Dimensions: 4,
		Options: []option.RequestOption{option.WithMaxRetries(0)}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, timedOut := o.Embed(ctx, []string{"a"})

	cancelled, stop := context.WithCancel(context.Background())
	stop()
	_, wasCancelled := o.Embed(cancelled, []string{"a"})

	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"connection refused", refused, true},
		{"timeout", timedOut, true},
		{"cancelled", wasCancelled, false},
		{"deadline", context.DeadlineExceeded, true},
		{"other", errors.New("boom"), false},
	}
	for _, tt := range tests {
		if got := openaiembed.Retryable(tt.err); got != tt.want {
			t.Errorf("%s: Retryable(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
		if tt.err != nil && strings.Contains(tt.err.Error(), testKey) {
			t.Errorf("%s: error %q contains the key", tt.name, tt.err)
		}
	}
	if refused == nil || timedOut == nil || wasCancelled == nil {
		t.Errorf("errors: refused %v, timed out %v, cancelled %v", refused, timedOut, wasCancelled)
	}
}
