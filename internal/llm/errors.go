package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Kinds of Error.
const (
	KindRateLimited   = "rate_limited"
	KindServer        = "server"
	KindTimeout       = "timeout"
	KindBadRequest    = "bad_request"
	KindAuth          = "auth"
	KindForbidden     = "forbidden"
	KindNotFound      = "not_found"
	KindContentFilter = "content_filter"
	KindInvalidOutput = "invalid_output"
	KindNetwork       = "network"
	// KindTooLarge: a reply over Config.MaxReplyBytes, refused unread.
	KindTooLarge = "reply_too_large"
)

// Error is a failed chat request. Retryable says whether repeating it later
// may succeed (the client has already retried it Attempts times);
// RetryAfter, when set, is how long the server asked to wait. Message never
// contains the API key.
type Error struct {
	Kind       string
	Status     int // HTTP status, 0 when there was no response
	Retryable  bool
	RetryAfter time.Duration
	Message    string
	// Attempts is how many HTTP requests were made for this call.
	Attempts int

	cause         error
	retryAfterSet bool // RetryAfter came from the server (it may be 0)
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("llm: ")
	b.WriteString(e.Kind)
	if e.Status != 0 {
		fmt.Fprintf(&b, " (%d)", e.Status)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap gives the underlying error, e.g. context.DeadlineExceeded for a
// timed-out attempt. Its text may contain what Error() redacts.
func (e *Error) Unwrap() error { return e.cause }

// IsRetryable reports whether err is an *Error worth retrying later.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retryable
}

// Backoff between retries when the server does not say how long to wait.
const (
	firstBackoff = 200 * time.Millisecond
	maxBackoff   = 5 * time.Second
	// maxRetryAfter is the longest Retry-After the client sleeps through
	// itself; a server asking for more gets its error returned at once, with
	// RetryAfter set, and the caller's durable retry policy waits instead of
	// a goroutine.
	maxRetryAfter = 30 * time.Second
)

// backoff is the wait before attempt n+1 after attempt n (1-based) failed.
func backoff(n int) time.Duration {
	d := firstBackoff
	for i := 1; i < n && d < maxBackoff; i++ {
		d *= 2
	}
	return min(d, maxBackoff)
}

// parseRetryAfter reads how long the server asked to wait: retry-after-ms
// (OpenAI's, in milliseconds), else Retry-After as seconds or an HTTP date.
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 || s > 1e9 {
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// apiErrorBody is the error envelope of OpenAI ({"error": {...}}), which
// Azure, Ollama and vLLM share; older vLLM puts the fields at the top.
type apiErrorBody struct {
	Error *struct {
		Message    string          `json:"message"`
		Type       string          `json:"type"`
		Code       json.RawMessage `json:"code"`
		InnerError *struct {
			Code string `json:"code"`
		} `json:"innererror"`
	} `json:"error"`
	Message string `json:"message"`
}

// parseErrorBody returns the server's message and error code, if any.
func parseErrorBody(body []byte) (msg, code string) {
	var b apiErrorBody
	if json.Unmarshal(body, &b) != nil {
		return strings.TrimSpace(string(body)), ""
	}
	if b.Error == nil {
		return b.Message, ""
	}
	code = strings.Trim(string(b.Error.Code), `"`)
	if code == "null" {
		code = ""
	}
	if b.Error.InnerError != nil && b.Error.InnerError.Code == "ResponsibleAIPolicyViolation" {
		code = "content_filter" // Azure's prompt filter
	}
	return b.Error.Message, code
}

// statusError classifies an HTTP error response.
func statusError(status int, header http.Header, body []byte, now time.Time) *Error {
	msg, code := parseErrorBody(body)
	e := &Error{Status: status, Message: msg}
	switch {
	case code == "content_filter" || code == "content_policy_violation":
		e.Kind = KindContentFilter
	case status == http.StatusTooManyRequests:
		e.Kind = KindRateLimited
		// An exhausted quota or billing limit does not lift in seconds.
		e.Retryable = code != "insufficient_quota" && code != "billing_hard_limit_reached"
		e.RetryAfter, e.retryAfterSet = parseRetryAfter(header, now)
	case status == http.StatusRequestTimeout:
		e.Kind, e.Retryable = KindTimeout, true
	case refusesOption(status, msg):
		// The server cannot do what the request asks (llama-cpp-python
		// answers an unknown response_format with a 500): the same
		// request fails the same way, so it is the request's fault, not
		// retried, and the client falls back to a simpler way of asking.
		e.Kind = KindBadRequest
	case status == http.StatusConflict || status >= 500:
		e.Kind, e.Retryable = KindServer, true
		e.RetryAfter, e.retryAfterSet = parseRetryAfter(header, now)
	case status == http.StatusUnauthorized:
		e.Kind = KindAuth
	case status == http.StatusForbidden:
		e.Kind = KindForbidden
	case status == http.StatusNotFound:
		e.Kind = KindNotFound
	default:
		e.Kind = KindBadRequest
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	return e
}

// optionNames are the request options a server may not support;
// refusalWords say that it does not (or that it could not read them).
var (
	optionNames  = regexp.MustCompile(`(?i)response_format|json_schema|json_object|tool_choice|\btools?\b|\bfunctions?\b|parallel_tool_calls|grammar`)
	refusalWords = regexp.MustCompile(`(?i)not supported|unsupported|not implemented|(?:does|do|can)(?:n't| ?not) (?:support|handle)|not available|not allowed|validation error|input should be|invalid|unknown|unrecognized|unexpected|requires|must be|expected`)
)

// refusesOption reports whether a server error (500, 501) is the server
// refusing an option of the request rather than failing: it names the
// option and says that it cannot take it.
func refusesOption(status int, msg string) bool {
	switch status {
	case http.StatusNotImplemented:
		return optionNames.MatchString(msg)
	case http.StatusInternalServerError:
		return optionNames.MatchString(msg) && refusalWords.MatchString(msg)
	}
	return false
}

// transportError classifies a request that got no usable HTTP response,
// the caller's context still live: a deadline here is an attempt's.
func transportError(err error) *Error {
	var netErr net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return &Error{Kind: KindTimeout, Retryable: true, Message: "no reply within the attempt timeout", cause: err}
	case errors.As(err, &netErr), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED):
		return &Error{Kind: KindNetwork, Retryable: true, Message: err.Error(), cause: err}
	}
	// A 200 whose body is not a chat completion: a proxy's error page or a
	// truncated reply. Worth another try.
	return &Error{Kind: KindServer, Retryable: true, Message: "malformed response: " + err.Error(), cause: err}
}

const redacted = "[redacted]"

// secretPatterns catch credentials a server or proxy may echo that are not
// the configured key: OpenAI-style keys and bearer tokens.
var secretPatterns = regexp.MustCompile(`(sk-[A-Za-z0-9_\-*.]{6,}|(?i:bearer)\s+[A-Za-z0-9_\-.~+/=]{6,})`)

// minSecretLen is the shortest configured key that is redacted as such: a
// placeholder key like "x" (local servers want none) is no secret, and
// replacing every "x" of a message would make it unreadable.
const minSecretLen = 8

// redact removes key (the exact string, when it is long enough to be a
// secret) and anything that looks like a credential from s, and cuts it to
// a readable length (proxies answer with whole HTML pages).
func redact(s, key string) string {
	if len(key) >= minSecretLen {
		s = strings.ReplaceAll(s, key, redacted)
	}
	s = secretPatterns.ReplaceAllString(s, redacted)
	const maxLen = 500
	if len(s) > maxLen {
		cut := maxLen
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
