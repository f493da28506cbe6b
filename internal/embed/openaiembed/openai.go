// Package openaiembed is the embed.Embedder that calls an OpenAI-compatible
// embeddings endpoint.
package openaiembed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/autoscheduler/autoscheduler/internal/embed"
)

// DefaultOpenAIModel is the model NewOpenAI uses when none is configured.
const DefaultOpenAIModel = "text-embedding-3-small"

// maxBatch is how many texts go in one request. The API takes up to 2048
// inputs and 300,000 tokens; 256 short schedule texts stay far inside both
// while keeping a failed request cheap to repeat.
const maxBatch = 256

// Retry policy inside the SDK. openai-go retries 408, 409, 429, 5xx and
// connection errors by itself (twice by default, backing off from 0.5 s and
// honouring Retry-After up to two minutes). We keep two quick retries, so a
// momentary rate limit does not fail a whole import, but cap the wait: a
// server asking for longer than maxRetryDelay gets its error back at once,
// and the caller's retry policy (Temporal's, durable) waits instead of a
// goroutine. Retryable says which errors are worth that.
const (
	sdkRetries     = 2
	maxRetryDelay  = 10 * time.Second
	requestTimeout = 60 * time.Second // per attempt; a stuck connection is retried, not waited on
)

// modelDimensions are the native sizes of OpenAI's embedding models, so that
// Dimensions() is known before the first call.
var modelDimensions = map[string]int{
	"text-embedding-3-small": 1536,
	"text-embedding-3-large": 3072,
	"text-embedding-ada-002": 1536,
}

// OpenAIConfig configures NewOpenAI.
type OpenAIConfig struct {
	// APIKey authenticates; empty means the OPENAI_API_KEY environment
	// variable (servers that need no key accept any).
	APIKey string
	// BaseURL of any OpenAI-compatible API, e.g. "http://localhost:11434/v1";
	// empty means OPENAI_BASE_URL, else https://api.openai.com/v1.
	BaseURL string
	// Model defaults to DefaultOpenAIModel.
	Model string
	// Dimensions, when set, is requested from the model (text-embedding-3
	// models shorten their vectors on request). When 0, the model's native
	// size is used, which must be known: models outside modelDimensions
	// need Dimensions set.
	Dimensions int
	// Options are extra openai-go request options, applied after ours: an
	// HTTP client, headers, or option.WithMaxRetries(0) in tests.
	Options []option.RequestOption
}

// OpenAI embeds with an OpenAI-compatible embeddings endpoint. Its errors
// never contain the API key; classify them with Retryable.
type OpenAI struct {
	client  openai.Client
	model   string
	dims    int
	request bool   // send dims as the dimensions parameter
	key     string // only to redact it from error text
}

var _ embed.Embedder = (*OpenAI)(nil)

// NewOpenAI returns an OpenAI embedder. It does not call the API.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	model := strings.TrimSpace(cfg.Model)
	if model == "" {
		model = DefaultOpenAIModel
	}
	dims := cfg.Dimensions
	switch {
	case dims < 0:
		return nil, fmt.Errorf("embed: openai: dimensions %d, want 0 (the model's own) or more", dims)
	case dims == 0 && modelDimensions[model] == 0:
		return nil, fmt.Errorf("embed: openai: the size of model %q is not known: set Dimensions", model)
	case dims == 0:
		dims = modelDimensions[model]
	}
	key := cfg.APIKey
	if key == "" {
		key = os.Getenv("OPENAI_API_KEY") // what the SDK will send
	}
	opts := []option.RequestOption{
		option.WithMaxRetries(sdkRetries),
		option.WithMaxRetryDelay(maxRetryDelay),
		option.WithRequestTimeout(requestTimeout),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	opts = append(opts, cfg.Options...)
	return &OpenAI{
		client:  openai.NewClient(opts...),
		model:   model,
		dims:    dims,
		request: cfg.Dimensions > 0,
		key:     key,
	}, nil
}

// Name reports "openai:" and the model.
func (o *OpenAI) Name() string { return "openai:" + o.model }

// Dimensions reports the length of every vector.
func (o *OpenAI) Dimensions() int { return o.dims }

// Embed sends texts in batches of up to 256, one request at a time (the
// rate limit, not latency, bounds an import), and returns the vectors in the
// order of texts, scaled to unit length. Empty texts are not sent — the API
// rejects them — and get the zero vector, as with Local.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	pending := make([]int, 0, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			out[i] = make([]float32, o.dims)
			continue
		}
		pending = append(pending, i)
	}
	for start := 0; start < len(pending); start += maxBatch {
		ids := pending[start:min(start+maxBatch, len(pending))]
		batch := make([]string, len(ids))
		for j, i := range ids {
			batch[j] = texts[i]
		}
		vecs, err := o.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		for j, i := range ids {
			out[i] = vecs[j]
		}
	}
	return out, nil
}

func (o *OpenAI) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	params := openai.EmbeddingNewParams{
		Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: batch},
		Model: o.model,
	}
	if o.request {
		params.Dimensions = openai.Int(int64(o.dims))
	}
	res, err := o.client.Embeddings.New(ctx, params)
	if err != nil {
		return nil, o.wrap(err)
	}
	// The response is trusted for nothing: a proxy or a compatible server
	// that drops, repeats or resizes vectors must fail loudly, not store
	// a vector under the wrong activity.
	if len(res.Data) != len(batch) {
		return nil, o.errorf("%d vectors for %d texts", len(res.Data), len(batch))
	}
	vecs := make([][]float32, len(batch))
	for _, d := range res.Data {
		i := d.Index
		switch {
		case i < 0 || i >= int64(len(batch)):
			return nil, o.errorf("vector index %d out of range for %d texts", i, len(batch))
		case vecs[i] != nil:
			return nil, o.errorf("vector index %d twice", i)
		case len(d.Embedding) != o.dims:
			return nil, o.errorf("vector of %d dimensions, want %d", len(d.Embedding), o.dims)
		}
		vecs[i] = unit(d.Embedding)
	}
	return vecs, nil
}

// unit converts to float32 at unit length. OpenAI's vectors already are;
// other compatible models' need not be, and stores compare by dot product.
func unit(v []float64) []float32 {
	var norm float64
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, len(v))
	if norm == 0 {
		return out
	}
	inv := 1 / math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out
}

// openAIError is an error from the API or the way to it, with the API key
// taken out of its text. The cause stays reachable for errors.As and
// errors.Is (Retryable uses both).
type openAIError struct {
	msg   string
	cause error
}

func (e *openAIError) Error() string { return e.msg }
func (e *openAIError) Unwrap() error { return e.cause }

func (o *OpenAI) wrap(err error) error {
	msg := err.Error()
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		msg = fmt.Sprintf("%d %s", apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
		// The server's message says what was wrong with the request,
		// except on authentication errors, where servers like to echo
		// the key back (OpenAI masks it; a proxy may not).
		if m := strings.TrimSpace(apiErr.Message); m != "" && apiErr.StatusCode != http.StatusUnauthorized && apiErr.StatusCode != http.StatusForbidden {
			msg += ": " + m
		}
	}
	return &openAIError{msg: o.redact(fmt.Sprintf("embed: openai %s: %s", o.model, msg)), cause: err}
}

func (o *OpenAI) errorf(format string, args ...any) error {
	return &openAIError{msg: o.redact(fmt.Sprintf("embed: openai %s: ", o.model) + fmt.Sprintf(format, args...))}
}

func (o *OpenAI) redact(s string) string {
	if o.key == "" {
		return s
	}
	return strings.ReplaceAll(s, o.key, "[redacted]")
}

// Retryable reports whether err is worth retrying later: rate limits (429),
// server errors (5xx), request timeouts (408) and conflicts (409), timeouts
// and connection failures. Bad requests, authentication and permission
// errors, unknown models (400, 401, 403, 404), malformed responses and a
// cancelled context are not: repeating them gives the same answer.
func Retryable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		s := apiErr.StatusCode
		return s == http.StatusRequestTimeout || s == http.StatusConflict ||
			s == http.StatusTooManyRequests || s >= 500
	}
	// *url.Error, *net.OpError and DNS errors all implement net.Error:
	// the request never got an answer.
	var netErr net.Error
	if errors.As(err, &netErr) {
		return true
	}
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED)
}
